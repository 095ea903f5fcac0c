import { RagError } from '@rag/core';
import { forEachSegmentRange, SegmentExpander } from '@rag/text/internals';
import type { TermDictionary } from './dictionary.js';
import { SegmentTable } from './segment-table.js';

/** Largest term frequency a posting stores (its tfs are 16-bit); more occurrences count as this many. */
export const MAX_TF = 0xffff;

/** Bit of a `TermSequences` entry that marks a term of the same segment as the previous entry. */
export const CONTINUES_SEGMENT = 0x40000000;
/** Mask that takes the term id out of a `TermSequences` entry. */
export const TERM_ID_MASK = CONTINUES_SEGMENT - 1;

/** An append-only Int32 buffer that doubles when full. */
export class Int32Buffer {
  data: Int32Array;
  length = 0;

  /** `capacity`: entries expected, so that a buffer whose size is known is allocated once. */
  constructor(capacity = 1024) {
    this.data = new Int32Array(Math.max(16, capacity));
  }

  push(value: number): void {
    if (this.length === this.data.length) this.grow(this.length * 2);
    this.data[this.length++] = value;
  }

  grow(capacity: number): void {
    const next = new Int32Array(capacity);
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
}

/** Grows a per-term array to hold at least `size` entries. */
export function ensureSize(array: Int32Array<ArrayBuffer>, size: number): Int32Array<ArrayBuffer> {
  if (size <= array.length) return array;
  const next = new Int32Array(Math.max(size, array.length * 2));
  next.set(array);
  return next;
}

/**
 * Interns terms and remembers each distinct segment's term ids: most segments of a
 * corpus repeat (`self`, `return`, `torch.Tensor`), so expansion and stemming run once
 * per distinct segment and each occurrence costs one in-place hash lookup.
 */
export class TermInterner {
  readonly terms: string[] = [];
  readonly #ids = new Map<string, number>();
  #expander: SegmentExpander | undefined;
  #segments = new SegmentTable();
  /** Slot s's term ids are #slotTerms[#slotStart[s] .. #slotStart[s + 1]). */
  #slotStart = new Int32Buffer();
  #slotTerms = new Int32Buffer();

  constructor(expander: SegmentExpander) {
    this.#expander = expander;
    this.#slotStart.push(0);
  }

  #intern(term: string): number {
    let id = this.#ids.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.terms.push(term);
      this.#ids.set(term, id);
    }
    return id;
  }

  #addSegment(segment: string, hash: number): number {
    if (!this.#expander) throw new RagError('INVALID_ARGUMENT', 'A TermInterner analysed text after releaseSegments().', { hint: 'Release the segments only once every chunk is analysed.' });
    this.#expander.expand(segment, (term) => this.#slotTerms.push(this.#intern(term)));
    const slot = this.#slotStart.length - 1;
    this.#slotStart.push(this.#slotTerms.length);
    this.#segments.set(segment, hash, slot);
    return slot;
  }

  /**
   * Appends the id of every term of `text`, in order, to `out`, and the same ids as
   * sequence entries (`CONTINUES_SEGMENT` on all but a segment's first term) to `sequence`.
   */
  appendTermIds(text: string, out: Int32Buffer, sequence: Int32Buffer): void {
    forEachSegmentRange(text, (start, end) => {
      const hash = SegmentTable.hash(text, start, end);
      let slot = this.#segments.get(text, start, end, hash);
      if (slot < 0) slot = this.#addSegment(text.slice(start, end), hash);
      const from = this.#slotStart.data[slot]!;
      const to = this.#slotStart.data[slot + 1]!;
      for (let i = from; i < to; i++) {
        const id = this.#slotTerms.data[i]!;
        out.push(id);
        sequence.push(i === from ? id : id | CONTINUES_SEGMENT);
      }
    });
  }

  /**
   * Drops what analysing text needs (the distinct segments seen and their term ids, the
   * expander's memo: tens of MB over a large corpus) and keeps the terms and their ids: a
   * build calls it once every chunk is analysed, before it allocates the postings.
   */
  releaseSegments(): void {
    this.#expander = undefined;
    this.#segments = new SegmentTable(16);
    this.#slotStart = new Int32Buffer(16);
    this.#slotTerms = new Int32Buffer(16);
  }

  idOf(term: string): number | undefined {
    return this.#ids.get(term);
  }

  /** The id of `term`, interning it if it is new (terms taken over from a previous build). */
  internTerm(term: string): number {
    return this.#intern(term);
  }
}

/** Copies term ids of previous build's entries into this build's numbering, interning lazily. */
export class TermTranslator {
  readonly #map: Int32Array;
  readonly #dictionary: TermDictionary;
  readonly #interner: TermInterner;

  constructor(dictionary: TermDictionary, interner: TermInterner) {
    this.#dictionary = dictionary;
    this.#interner = interner;
    this.#map = new Int32Array(dictionary.size).fill(-1);
  }

  /** This build's ids of the previous terms taken over, in the previous dictionary's (sorted) order. */
  takenOverInOrder(): Int32Array {
    return this.#map.filter((id) => id >= 0);
  }

  /**
   * For each term this build has interned so far, its id in the previous dictionary: from the
   * terms taken over, else looked up (-1 for a term the previous build did not have).
   */
  previousIds(): Int32Array {
    const terms = this.#interner.terms;
    const previous = this.takenOverIds(-2);
    for (let id = 0; id < terms.length; id++) if (previous[id] === -2) previous[id] = this.#dictionary.lookup(terms[id]!);
    return previous;
  }

  /** For each term this build has interned so far, its id in the previous dictionary when it was taken over from there, else `none`. */
  takenOverIds(none = -1): Int32Array {
    const taken = new Int32Array(this.#interner.terms.length).fill(none);
    this.#map.forEach((id, old) => {
      if (id >= 0) taken[id] = old;
    });
    return taken;
  }

  /** Appends previous entries [from, to) of `entries` to `out` (ids) and `sequence` (with flags). */
  append(entries: Uint32Array, from: number, to: number, out: Int32Buffer, sequence: Int32Buffer): void {
    for (let i = from; i < to; i++) {
      const entry = entries[i]!;
      const old = entry & TERM_ID_MASK;
      let id = this.#map[old]!;
      if (id < 0) {
        id = this.#interner.internTerm(this.#dictionary.termAt(old));
        this.#map[old] = id;
      }
      out.push(id);
      sequence.push(id | (entry & CONTINUES_SEGMENT));
    }
  }
}

