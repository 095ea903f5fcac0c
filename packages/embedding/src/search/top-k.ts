import type { Hit } from '@rag/core';

/**
 * The `k` best (id, score) pairs seen so far, best first on output. A bounded min-heap
 * whose root is the weakest kept pair, so a full scan costs O(n log k) and allocates
 * nothing per candidate. Ties go to the lower id, which makes every ranking in this
 * package deterministic.
 */
export class TopK {
  readonly #ids: Int32Array;
  readonly #scores: Float64Array;
  #size = 0;

  constructor(readonly capacity: number) {
    this.#ids = new Int32Array(Math.max(0, capacity));
    this.#scores = new Float64Array(Math.max(0, capacity));
  }

  get size(): number {
    return this.#size;
  }

  /** The score a candidate must beat to enter once the heap is full; -Infinity before. */
  get threshold(): number {
    return this.#size < this.capacity ? -Infinity : this.#scores[0]!;
  }

  #below(i: number, j: number): boolean {
    const si = this.#scores[i]!;
    const sj = this.#scores[j]!;
    return si < sj || (si === sj && this.#ids[i]! > this.#ids[j]!);
  }

  #swap(i: number, j: number): void {
    const id = this.#ids[i]!;
    this.#ids[i] = this.#ids[j]!;
    this.#ids[j] = id;
    const score = this.#scores[i]!;
    this.#scores[i] = this.#scores[j]!;
    this.#scores[j] = score;
  }

  #siftDown(size: number): void {
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= size) return;
      const right = left + 1;
      const worst = right < size && this.#below(right, left) ? right : left;
      if (!this.#below(worst, i)) return;
      this.#swap(i, worst);
      i = worst;
    }
  }

  push(id: number, score: number): void {
    if (this.capacity <= 0) return;
    if (this.#size < this.capacity) {
      let i = this.#size++;
      this.#ids[i] = id;
      this.#scores[i] = score;
      while (i > 0) {
        const parent = (i - 1) >>> 1;
        if (!this.#below(i, parent)) return;
        this.#swap(i, parent);
        i = parent;
      }
      return;
    }
    const rootScore = this.#scores[0]!;
    if (score < rootScore || (score === rootScore && id > this.#ids[0]!)) return;
    this.#ids[0] = id;
    this.#scores[0] = score;
    this.#siftDown(this.#size);
  }

  /** Empties the heap into hits, best first. */
  drain(): Hit[] {
    const hits: Hit[] = new Array(this.#size);
    for (let out = this.#size - 1; out >= 0; out--) {
      hits[out] = { chunkId: this.#ids[0]!, score: this.#scores[0]! };
      this.#swap(0, out);
      this.#siftDown(out);
    }
    this.#size = 0;
    return hits;
  }
}
