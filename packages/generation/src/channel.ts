/**
 * A one-consumer queue bridging callbacks (the model's streamer) to an async iterator.
 * Producers `push`, then `close` or `fail`; the consumer awaits `next`.
 */
export class Channel<T> {
  readonly #items: T[] = [];
  #waiter: (() => void) | undefined;
  #closed = false;
  #error: unknown;
  #failed = false;

  push(item: T): void {
    if (this.#closed) return;
    this.#items.push(item);
    this.#wake();
  }

  close(): void {
    this.#closed = true;
    this.#wake();
  }

  fail(error: unknown): void {
    this.#failed = true;
    this.#error = error;
    this.close();
  }

  /** The next item, or `undefined` once closed and drained; throws what `fail` was given. */
  async next(): Promise<T | undefined> {
    for (;;) {
      if (this.#items.length > 0) return this.#items.shift();
      if (this.#failed) throw this.#error;
      if (this.#closed) return undefined;
      await new Promise<void>((resolve) => (this.#waiter = resolve));
    }
  }

  #wake(): void {
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.();
  }
}
