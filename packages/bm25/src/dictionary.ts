/**
 * The term dictionary: all terms sorted by UTF-16 code units and stored as one joined
 * string plus start offsets, so that loading it is a single UTF-8 decode and a typed
 * array view instead of hundreds of thousands of small strings. Lookup is a binary
 * search that compares in place, without slicing.
 */
export class TermDictionary {
  readonly joined: string;
  /** `offsets[i]` .. `offsets[i + 1]` is term i's slice of `joined`; length `size + 1`. */
  readonly offsets: Uint32Array;

  constructor(joined: string, offsets: Uint32Array) {
    this.joined = joined;
    this.offsets = offsets;
  }

  /** Builds a dictionary from terms already sorted with the default string order. */
  static fromSorted(terms: readonly string[]): TermDictionary {
    const offsets = new Uint32Array(terms.length + 1);
    let position = 0;
    for (let i = 0; i < terms.length; i++) {
      position += terms[i]!.length;
      offsets[i + 1] = position;
    }
    return new TermDictionary(terms.join(''), offsets);
  }

  get size(): number {
    return this.offsets.length - 1;
  }

  termAt(id: number): string {
    return this.joined.slice(this.offsets[id], this.offsets[id + 1]);
  }

  /** Sign of (term `id`) − `term` in code-unit order. */
  #compare(id: number, term: string): number {
    const start = this.offsets[id]!;
    const length = this.offsets[id + 1]! - start;
    const shared = Math.min(length, term.length);
    for (let i = 0; i < shared; i++) {
      const difference = this.joined.charCodeAt(start + i) - term.charCodeAt(i);
      if (difference !== 0) return difference;
    }
    return length - term.length;
  }

  /** Every term, in id order. */
  *terms(): IterableIterator<string> {
    for (let id = 0; id < this.size; id++) yield this.termAt(id);
  }

  /** The first id whose term is not below `term`: where `term` is or would be inserted. */
  lowerBound(term: string): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#compare(mid, term) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Id of `term`, or -1 when it is not in the dictionary. */
  lookup(term: string): number {
    let lo = 0;
    let hi = this.size - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const order = this.#compare(mid, term);
      if (order === 0) return mid;
      if (order < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
}
