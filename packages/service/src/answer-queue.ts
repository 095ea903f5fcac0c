import { RagError } from '@rag/core';


export interface QueueState {
  /** Answers being generated now. */
  active: number;
  /** Answer requests waiting for a slot. */
  queued: number;
  maxConcurrent: number;
  maxQueued: number;
}

/** Frees the slot; calling it again does nothing. */
export type Release = () => void;

interface Waiter {
  grant: (release: Release) => void;
  reject: (error: unknown) => void;
}

/**
 * Admission control for generation: at most `maxConcurrent` answers run, at most
 * `maxQueued` wait in arrival order, and anything beyond is refused at once, so a
 * burst of questions cannot pile up work nobody will wait for. Searches never pass
 * through here.
 */
export class AnswerQueue {
  readonly #maxConcurrent: number;
  readonly #maxQueued: number;
  readonly #waiting: Waiter[] = [];
  #active = 0;

  constructor(maxConcurrent: number, maxQueued: number) {
    this.#maxConcurrent = maxConcurrent;
    this.#maxQueued = maxQueued;
  }

  state(): QueueState {
    return { active: this.#active, queued: this.#waiting.length, maxConcurrent: this.#maxConcurrent, maxQueued: this.#maxQueued };
  }

  /** True when a request arriving now would have to wait. */
  get busy(): boolean {
    return this.#active >= this.#maxConcurrent;
  }

  /**
   * A slot, now or when one frees up. Throws `QUEUE_FULL` synchronously when no slot is
   * free and the queue is full; rejects with `CANCELLED` if `signal` aborts while waiting.
   */
  acquire(signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(cancelled());
    if (this.#active < this.#maxConcurrent) return Promise.resolve(this.#grant());
    if (this.#waiting.length >= this.#maxQueued) {
      throw new RagError('QUEUE_FULL', `The server is busy: ${this.#active} answer(s) in progress and ${this.#waiting.length} waiting.`, {
        hint: 'Retry in a few seconds; searches are not affected.',
      });
    }
    return new Promise<Release>((resolve, reject) => {
      const onAbort = (): void => {
        const index = this.#waiting.indexOf(waiter);
        if (index !== -1) this.#waiting.splice(index, 1);
        reject(cancelled());
      };
      const waiter: Waiter = {
        grant: (release) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
        reject,
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(waiter);
    });
  }

  #grant(): Release {
    this.#active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#active--;
      const next = this.#waiting.shift();
      if (next) next.grant(this.#grant());
    };
  }
}

function cancelled(): RagError {
  return new RagError('CANCELLED', 'The answer request was cancelled while it waited for a slot.');
}
