const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The term dictionary: all terms sorted by UTF-16 code units (JavaScript's default string
 * order) and stored as their UTF-8 bytes, one after another, plus byte offsets. Loading it
 * from a file is a typed-array view, with no decoding: a one-shot search looks up a dozen
 * terms, and decoding the whole vocabulary (megabytes) would cost more than the search.
 * Lookup is a binary search over the bytes; a term becomes a string only when asked for.
 */
export class TermDictionary {
  /** Every term's UTF-8 bytes, in id order. */
  readonly bytes: Uint8Array;
  /** `offsets[i]` .. `offsets[i + 1]` is term i's slice of `bytes`; length `size + 1`. */
  readonly offsets: Uint32Array;
  /** The term being looked up, as UTF-8 (reused: terms are short). */
  #probe = new Uint8Array(256);
  #probeLength = 0;

  constructor(bytes: Uint8Array, offsets: Uint32Array) {
    this.bytes = bytes;
    this.offsets = offsets;
  }

  /** Builds a dictionary from terms already sorted with the default string order. */
  static fromSorted(terms: readonly string[]): TermDictionary {
    const offsets = new Uint32Array(terms.length + 1);
    let bytes = new Uint8Array(Math.max(1024, terms.length * 8));
    let position = 0;
    for (let i = 0; i < terms.length; i++) {
      const term = terms[i]!;
      // At most 3 bytes per UTF-16 code unit.
      if (position + term.length * 3 > bytes.length) {
        const grown = new Uint8Array(Math.max(bytes.length * 2, position + term.length * 3));
        grown.set(bytes.subarray(0, position));
        bytes = grown;
      }
      position += encodeInto(term, bytes, position);
      offsets[i + 1] = position;
    }
    return new TermDictionary(bytes.slice(0, position), offsets);
  }

  get size(): number {
    return this.offsets.length - 1;
  }

  termAt(id: number): string {
    return decodeTerm(this.bytes, this.offsets[id]!, this.offsets[id + 1]!);
  }

  /** Every term, in id order. */
  *terms(): IterableIterator<string> {
    for (let id = 0; id < this.size; id++) yield this.termAt(id);
  }

  /** The first id whose term is not below `term`: where `term` is or would be inserted. */
  lowerBound(term: string): number {
    this.#setProbe(term);
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#compare(mid) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Id of `term`, or -1 when it is not in the dictionary. */
  lookup(term: string): number {
    return this.lookupWithin(term, 0, this.size);
  }

  /** Id of `term` among ids `first` … `end` − 1 (a block the caller knows holds it if anything does), or -1. */
  lookupWithin(term: string, first: number, end: number): number {
    this.#setProbe(term);
    let lo = first;
    let hi = end - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const order = this.#compare(mid);
      if (order === 0) return mid;
      if (order < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  #setProbe(term: string): void {
    if (term.length * 3 > this.#probe.length) this.#probe = new Uint8Array(term.length * 3);
    this.#probeLength = encodeInto(term, this.#probe, 0);
  }

  /** Sign of (term `id`) − the probe, in UTF-16 code-unit order. */
  #compare(id: number): number {
    const bytes = this.bytes;
    const probe = this.#probe;
    const start = this.offsets[id]!;
    const length = this.offsets[id + 1]! - start;
    const shared = Math.min(length, this.#probeLength);
    for (let i = 0; i < shared; i++) {
      const a = bytes[start + i]!;
      const b = probe[i]!;
      if (a !== b) return compareUtf8Units(a, b);
    }
    return length - this.#probeLength;
  }
}

/**
 * Every `every`-th term of `dictionary` (ids 0, every, 2 · every, …), as a dictionary of their
 * own: where a reader that holds only these finds which block of `every` terms to read for a
 * term (see `openPagedIndex`).
 */
export function sampleTerms(dictionary: TermDictionary, every: number): TermDictionary {
  const count = Math.ceil(dictionary.size / every);
  const offsets = new Uint32Array(count + 1);
  let length = 0;
  for (let b = 0; b < count; b++) length += dictionary.offsets[b * every + 1]! - dictionary.offsets[b * every]!;
  const bytes = new Uint8Array(length);
  let at = 0;
  for (let b = 0; b < count; b++) {
    const id = b * every;
    bytes.set(dictionary.bytes.subarray(dictionary.offsets[id]!, dictionary.offsets[id + 1]!), at);
    at += dictionary.offsets[id + 1]! - dictionary.offsets[id]!;
    offsets[b + 1] = at;
  }
  return new TermDictionary(bytes, offsets);
}

/**
 * Order of two valid UTF-8 strings at their first differing byte, `a` and `b`, as their
 * UTF-16 code units compare. Bytes before were equal, so both start a character or sit at
 * the same place inside one, and byte order is code-point order, which is UTF-16 order
 * except in one case: a character above U+FFFF (lead byte F0–F4) is a surrogate pair
 * (D800–DBFF) in UTF-16, below the characters U+E000–U+FFFF (lead byte EE or EF).
 */
export function compareUtf8Units(a: number, b: number): number {
  if (a >= 0xf0 && (b === 0xee || b === 0xef)) return -1;
  if (b >= 0xf0 && (a === 0xee || a === 0xef)) return 1;
  return a - b;
}

/** Writes `term` as UTF-8 into `target` at `at` (room for 3 bytes per code unit assumed); the bytes written. */
function encodeInto(term: string, target: Uint8Array, at: number): number {
  for (let i = 0; i < term.length; i++) {
    const unit = term.charCodeAt(i);
    if (unit >= 0x80) return encoder.encodeInto(term, target.subarray(at)).written;
    target[at + i] = unit;
  }
  return term.length;
}

/** The term in `bytes[start, end)`: ASCII without the decoder (most terms), anything else with it. */
function decodeTerm(bytes: Uint8Array, start: number, end: number): string {
  let ascii = true;
  for (let i = start; i < end && ascii; i++) ascii = bytes[i]! < 0x80;
  if (!ascii) return decoder.decode(bytes.subarray(start, end));
  let text = '';
  for (let i = start; i < end; i++) text += String.fromCharCode(bytes[i]!);
  return text;
}
