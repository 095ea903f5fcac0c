import type { Chunk } from '@rag/core';
import { SegmentExpander } from '@rag/text/internals';
import type { Bm25IndexData } from './build.js';
import type { PostingSource } from './postings.js';
import { fieldTexts, FILE_LOCAL_FIELDS } from './fields.js';
import { FIELD_NAMES, type Bm25Options } from './options.js';
import { ensureSize, Int32Buffer, TermInterner, TermTranslator } from './term-interner.js';

/** Chunk-major (term id, tf) pairs of one field, gathered before inversion. */
export interface FieldPairs {
  termIds: Int32Buffer;
  tfs: Int32Buffer;
  /** Analysed chunk i's pairs are [docStart[i], docStart[i + 1]). */
  docStart: Uint32Array;
  /** Terms of this field in analysed chunk i. */
  lengths: Uint32Array;
}

/**
 * Analyses chunks one after another into per-field (term, tf) pairs, term sequences and
 * document frequencies, all under interned term ids (first-seen order). A chunk copied from
 * a previous build (`source` ≥ 0) takes over its file-local fields' terms from that build's
 * sequences instead of tokenizing its text again; the anchor field, which depends on
 * documentation anywhere, is always analysed from `anchor`.
 */
export class ChunkAnalysis {
  readonly interner: TermInterner;
  readonly translator: TermTranslator | undefined;
  readonly pairs: FieldPairs[];
  readonly sequence: Int32Buffer;
  /** Analysed chunk i's entries are sequence[sequenceOffsets[i], sequenceOffsets[i + 1]). */
  readonly sequenceOffsets: Uint32Array;
  /** How many chunks analysed so far. */
  count = 0;
  #docFrequencies = new Int32Array(1 << 16);
  #counts = new Int32Array(1 << 16);
  #lastDoc = new Int32Array(1 << 16).fill(-1);
  readonly #touched = new Int32Buffer();
  readonly #termIds = new Int32Buffer();
  readonly #old: Bm25IndexData | undefined;
  readonly #sequenceOf: (doc: number) => Uint32Array;

  /**
   * `capacity`: chunks that will be analysed. `old`: the previous build copied chunks come
   * from. `expected(size)`: how many entries to reserve for an array the previous build held
   * `size` of (a re-index builds about what it held), or undefined to grow from small.
   * `oldPostings`: where the previous build's term sequences are read (an index made of a
   * base and an overlay holds them in two places); default `old`'s own arrays.
   */
  constructor(options: Bm25Options, capacity: number, old?: Bm25IndexData, expected: (size: number | undefined) => number | undefined = () => undefined, oldPostings?: PostingSource) {
    this.interner = new TermInterner(new SegmentExpander(options.tokenizer, { memoize: true }));
    this.translator = old ? new TermTranslator(old.dictionary, this.interner) : undefined;
    this.#old = old;
    this.#sequenceOf = oldPostings ? (doc) => oldPostings.sequence(doc) : (doc) => old!.sequences.terms.subarray(old!.sequences.offsets[doc], old!.sequences.offsets[doc + 1]);
    this.pairs = FIELD_NAMES.map((_, f) => ({
      termIds: new Int32Buffer(expected(old?.fields[f]!.docs.length)),
      tfs: new Int32Buffer(expected(old?.fields[f]!.docs.length)),
      docStart: new Uint32Array(capacity + 1),
      lengths: new Uint32Array(capacity),
    }));
    this.sequence = new Int32Buffer(expected(old?.sequences.terms.length));
    this.sequenceOffsets = new Uint32Array(capacity + 1);
  }

  /** Chunks (in any field) containing each interned term. */
  get docFrequencies(): Int32Array {
    return this.#docFrequencies;
  }

  /** Analyses `chunk` as the next chunk; `source`: the previous build's chunk it copies, or -1. */
  add(chunk: Chunk, context: string | undefined, anchor: string | undefined, source: number): void {
    const d = this.count++;
    const old = this.#old;
    const interner = this.interner;
    const termIds = this.#termIds;
    // A copied chunk's file-local fields are taken over term by term; only texts are built for the rest.
    const texts = source < 0 ? fieldTexts(chunk, context, anchor) : undefined;
    const entries = source < 0 ? undefined : this.#sequenceOf(source);
    let at = 0;
    for (let f = 0; f < FIELD_NAMES.length; f++) {
      const field = this.pairs[f]!;
      termIds.length = 0;
      if (source < 0) {
        interner.appendTermIds(texts![f]!, termIds, this.sequence);
      } else {
        const length = old!.fields[f]!.lengths[source]!;
        if (FILE_LOCAL_FIELDS[f]) this.translator!.append(entries!, at, at + length, termIds, this.sequence);
        else interner.appendTermIds(anchor ?? '', termIds, this.sequence); // the one field that is not file-local
        at += length;
      }
      this.#fitTerms(interner.terms.length);
      this.#count(field, d, termIds);
    }
    this.sequenceOffsets[d + 1] = this.sequence.length;
  }

  #fitTerms(size: number): void {
    if (size <= this.#counts.length) return;
    this.#counts = ensureSize(this.#counts, size);
    this.#docFrequencies = ensureSize(this.#docFrequencies, size);
    const previous = this.#lastDoc.length;
    this.#lastDoc = ensureSize(this.#lastDoc, size);
    this.#lastDoc.fill(-1, previous);
  }

  /** Turns one field's term ids of analysed chunk d into (term, tf) pairs and counts its new terms' documents. */
  #count(field: FieldPairs, d: number, termIds: Int32Buffer): void {
    const counts = this.#counts;
    const lastDoc = this.#lastDoc;
    const touched = this.#touched;
    touched.length = 0;
    const ids = termIds.data;
    for (let i = 0; i < termIds.length; i++) {
      const id = ids[i]!;
      if (counts[id]!++ === 0) touched.push(id);
    }
    field.lengths[d] = termIds.length;
    for (let i = 0; i < touched.length; i++) {
      const id = touched.data[i]!;
      field.termIds.push(id);
      field.tfs.push(counts[id]!);
      counts[id] = 0;
      if (lastDoc[id] !== d) {
        lastDoc[id] = d;
        this.#docFrequencies[id]!++;
      }
    }
    field.docStart[d + 1] = field.termIds.length;
  }
}
