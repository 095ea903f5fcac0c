/**
 * A hash table from ranges of a text to small integers. Looking a segment up in a `Map`
 * needs it as a string first: a substring allocation and a rehash for every word of the
 * corpus. Hashing the range in place and comparing characters only on a hash match
 * makes the build's hottest loop allocation-free.
 */
function equalsRange(key: string, text: string, start: number): boolean {
  for (let j = 0; j < key.length; j++) if (key.charCodeAt(j) !== text.charCodeAt(start + j)) return false;
  return true;
}

export class SegmentTable {
  #keys: (string | undefined)[];
  #hashes: Int32Array;
  #values: Int32Array;
  #mask: number;
  #size = 0;

  constructor(capacity = 1 << 16) {
    this.#keys = new Array(capacity);
    this.#hashes = new Int32Array(capacity);
    this.#values = new Int32Array(capacity);
    this.#mask = capacity - 1;
  }

  /** FNV-1a over the UTF-16 code units of text[start, end). */
  static hash(text: string, start: number, end: number): number {
    let hash = 0x811c9dc5;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
    return hash;
  }

  /** Value stored for text[start, end) whose hash is `hash`, or -1. */
  get(text: string, start: number, end: number, hash: number): number {
    const length = end - start;
    for (let i = hash & this.#mask; ; i = (i + 1) & this.#mask) {
      const key = this.#keys[i];
      if (key === undefined) return -1;
      if (this.#hashes[i] === hash && key.length === length && equalsRange(key, text, start)) {
        return this.#values[i]!;
      }
    }
  }

  /** Stores `value` for `key` (not present yet), whose hash is `hash`. */
  set(key: string, hash: number, value: number): void {
    if ((this.#size + 1) * 2 > this.#keys.length) this.#grow();
    this.#insert(key, hash, value);
    this.#size++;
  }

  #insert(key: string, hash: number, value: number): void {
    let i = hash & this.#mask;
    while (this.#keys[i] !== undefined) i = (i + 1) & this.#mask;
    this.#keys[i] = key;
    this.#hashes[i] = hash;
    this.#values[i] = value;
  }

  #grow(): void {
    const keys = this.#keys;
    const hashes = this.#hashes;
    const values = this.#values;
    const capacity = keys.length * 2;
    this.#keys = new Array(capacity);
    this.#hashes = new Int32Array(capacity);
    this.#values = new Int32Array(capacity);
    this.#mask = capacity - 1;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (key !== undefined) this.#insert(key, hashes[i]!, values[i]!);
    }
  }
}
