import { RagError, type Chunk, type ProgressFn } from '@rag/core';
import { fingerprintChunks } from './checksum.js';
import { TermDictionary } from './dictionary.js';
import { anchorTexts } from './anchors.js';
import { tableHeaderContexts } from './context.js';
import { fieldTexts } from './fields.js';
import { FIELD_NAMES, type Bm25Options } from './options.js';
import { computeChunkFeatures, reuseChunkFeatures, type ChunkFeatures } from './chunk-features.js';
import { SegmentTable } from './segment-table.js';
import { forEachSegmentRange, SegmentExpander } from '@rag/text/internals';

/** One field's inverted lists: term id → (chunk ids ascending, term frequencies). */
export interface FieldPostings {
  /** `offsets[t]` .. `offsets[t + 1]` is term t's range in `docs` and `tfs`; length termCount + 1. */
  offsets: Uint32Array;
  docs: Uint32Array;
  /** Term frequency per posting, capped at 65,535. */
  tfs: Uint16Array;
  /** Number of terms of this field in each chunk; length docCount. */
  lengths: Uint32Array;
}

/** Everything a BM25F index is: plain typed arrays, so it persists as-is. */
export interface Bm25IndexData {
  options: Bm25Options;
  docCount: number;
  dictionary: TermDictionary;
  /** Chunks containing each term in any field. */
  docFrequencies: Uint32Array;
  /** In `FIELD_NAMES` order. */
  fields: FieldPostings[];
  /** Every chunk's terms in text order, for the second stage (see `TermSequences`). */
  sequences: TermSequences;
  /** What the second stage needs of each chunk's raw text (see `ChunkFeatures`). */
  features: ChunkFeatures;
  chunkFingerprint: string;
}

/**
 * The terms of each chunk in order: its body, its path field, its symbol field (symbol or
 * heading path plus any context), then its anchor text: the sum of the fields' lengths of
 * chunk d, in `FIELD_NAMES` order. An entry is a term id, with `CONTINUES_SEGMENT` set when the term comes from the same
 * word or identifier as the entry before it (`max_num_seqs` → `max_num_seqs`, `max`, `num`,
 * `seq`: one position, four terms), so positions count words, not expansions.
 */
export interface TermSequences {
  /** Chunk d's entries are `terms[offsets[d] .. offsets[d + 1])`; length docCount + 1. */
  offsets: Uint32Array;
  terms: Uint32Array;
}

/** Bit of a `TermSequences` entry that marks a term of the same segment as the previous entry. */
export const CONTINUES_SEGMENT = 0x40000000;
/** Mask that takes the term id out of a `TermSequences` entry. */
export const TERM_ID_MASK = CONTINUES_SEGMENT - 1;

const MAX_TF = 0xffff;
const PROGRESS_EVERY = 1024;

/** An append-only Int32 buffer that doubles when full. */
class Int32Buffer {
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
function ensureSize(array: Int32Array<ArrayBuffer>, size: number): Int32Array<ArrayBuffer> {
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
class TermInterner {
  readonly terms: string[] = [];
  readonly #ids = new Map<string, number>();
  readonly #expander: SegmentExpander;
  readonly #segments = new SegmentTable();
  /** Slot s's term ids are #slotTerms[#slotStart[s] .. #slotStart[s + 1]). */
  readonly #slotStart = new Int32Buffer();
  readonly #slotTerms = new Int32Buffer();

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

  idOf(term: string): number | undefined {
    return this.#ids.get(term);
  }

  /** The id of `term`, interning it if it is new (terms taken over from a previous build). */
  internTerm(term: string): number {
    return this.#intern(term);
  }
}

/**
 * A previous build whose analysed terms may be taken over: `sourceOf[d]` is the previous
 * chunk that new chunk d copies (-1 for none). Only fields whose text depends on the chunk's
 * own file are taken over (body, path, symbol with its table-header context); the anchor
 * field depends on documentation anywhere in the corpus and is analysed again.
 */
export interface ReusableBuild {
  data: Bm25IndexData;
  sourceOf: Int32Array;
}

/** Fields whose text is a function of the chunk and the rest of its file only: all but the anchor field. */
const FILE_LOCAL_FIELDS = FIELD_NAMES.map((name) => name !== 'anchor');

/** Copies term ids of previous build's entries into this build's numbering, interning lazily. */
class TermTranslator {
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

/** Interned term ids in the dictionary's order (default string order). */
function sortedOrder(interner: TermInterner): Int32Array {
  const sorted = interner.terms.slice().sort();
  return Int32Array.from(sorted, (term) => interner.idOf(term)!);
}

/**
 * The same order when most terms were taken over from a previous dictionary, which is
 * sorted already: sort only the terms it did not supply, then merge the two runs (one pass
 * instead of sorting every term again). Also returns those terms, sorted.
 */
function mergeSortedOrder(interner: TermInterner, takenOver: Int32Array): { order: Int32Array; fresh: string[] } {
  const terms = interner.terms;
  const fromPrevious = new Uint8Array(terms.length);
  for (const id of takenOver) fromPrevious[id] = 1;
  const fresh = terms.filter((_, id) => fromPrevious[id] === 0).sort();
  const order = new Int32Array(terms.length);
  let a = 0;
  let b = 0;
  for (let t = 0; t < order.length; t++) {
    const takeFresh = a >= takenOver.length || (b < fresh.length && fresh[b]! < terms[takenOver[a]!]!);
    order[t] = takeFresh ? interner.idOf(fresh[b++]!)! : takenOver[a++]!;
  }
  return { order, fresh };
}

/** Chunk-major (term id, tf) pairs of one field, gathered before inversion. */
interface FieldPairs {
  termIds: Int32Buffer;
  tfs: Int32Buffer;
  docStart: Uint32Array;
  lengths: Uint32Array;
}

function checkDenseIds(chunks: readonly Chunk[]): void {
  for (let i = 0; i < chunks.length; i++) {
    if (chunks[i]!.id !== i) {
      throw new RagError('INVALID_ARGUMENT', `Chunk at position ${i} has id ${chunks[i]!.id}; bm25 needs ids equal to positions.`, {
        hint: 'Number chunks 0, 1, 2, … in the order they are passed (as @rag/chunking and the index store do).',
      });
    }
  }
}

/**
 * Renumbers sequence entries to the sorted term ids, keeping the continuation bit. In place:
 * the entries are the largest array of a build, and a second copy would be its peak memory.
 */
function renumberSequences(entries: Int32Buffer, offsets: Uint32Array, newId: Int32Array): TermSequences {
  const data = entries.data;
  for (let i = 0; i < entries.length; i++) {
    const entry = data[i]!;
    data[i] = newId[entry & TERM_ID_MASK]! | (entry & CONTINUES_SEGMENT);
  }
  return { offsets, terms: new Uint32Array(data.buffer, 0, entries.length) };
}

/** Turns chunk-major pairs into term-major postings under the sorted term numbering. */
function invert(pairs: FieldPairs, newId: Int32Array, termCount: number, docCount: number): FieldPostings {
  const total = pairs.termIds.length;
  const termIds = pairs.termIds.data;
  const offsets = new Uint32Array(termCount + 1);
  for (let p = 0; p < total; p++) offsets[newId[termIds[p]!]! + 1]!++;
  for (let t = 0; t < termCount; t++) offsets[t + 1]! += offsets[t]!;
  const cursor = offsets.slice(0, termCount);
  const docs = new Uint32Array(total);
  const tfs = new Uint16Array(total);
  const pairTfs = pairs.tfs.data;
  for (let d = 0; d < docCount; d++) {
    for (let p = pairs.docStart[d]!; p < pairs.docStart[d + 1]!; p++) {
      const position = cursor[newId[termIds[p]!]!]!++;
      docs[position] = d;
      tfs[position] = Math.min(pairTfs[p]!, MAX_TF);
    }
  }
  return { offsets, docs, tfs, lengths: pairs.lengths };
}

/**
 * Builds the BM25F index of `chunks` (whose ids must equal their positions). Two passes:
 * tokenize each chunk into per-field (term, tf) pairs, then invert them with a counting
 * sort, which leaves every posting list sorted by chunk id without sorting anything.
 */
export function buildIndexData(chunks: readonly Chunk[], options: Bm25Options, onProgress?: ProgressFn, previous?: ReusableBuild): Bm25IndexData {
  checkDenseIds(chunks);
  if (previous && previous.sourceOf.length !== chunks.length) {
    throw new RagError('INVALID_ARGUMENT', `sourceOf has ${previous.sourceOf.length} entries for ${chunks.length} chunks.`);
  }
  const docCount = chunks.length;
  const interner = new TermInterner(new SegmentExpander(options.tokenizer, { memoize: true }));
  const old = previous?.data;
  // A re-index builds about what the previous build held: size the buffers for that (a
  // little more) instead of doubling into it from 1,024 entries.
  const expected = (size: number | undefined): number | undefined => (size === undefined ? undefined : Math.ceil(size * 1.05) + 1024);
  const pairs: FieldPairs[] = FIELD_NAMES.map((_, f) => ({
    termIds: new Int32Buffer(expected(old?.fields[f]!.docs.length)),
    tfs: new Int32Buffer(expected(old?.fields[f]!.docs.length)),
    docStart: new Uint32Array(docCount + 1),
    lengths: new Uint32Array(docCount),
  }));
  let counts = new Int32Array(1 << 16);
  let lastDoc = new Int32Array(1 << 16).fill(-1);
  let docFrequencies = new Int32Array(1 << 16);
  const touched = new Int32Buffer();
  const termIds = new Int32Buffer();
  const contexts = options.context.tableHeaders ? tableHeaderContexts(chunks) : undefined;
  const anchors = options.context.anchors ? anchorTexts(chunks) : undefined;
  const sequence = new Int32Buffer(expected(old?.sequences.terms.length));
  const sequenceOffsets = new Uint32Array(docCount + 1);
  const translator = old ? new TermTranslator(old.dictionary, interner) : undefined;

  for (let d = 0; d < docCount; d++) {
    const source = previous ? previous.sourceOf[d]! : -1;
    // A copied chunk's file-local fields are taken over term by term; only texts are built for the rest.
    const texts = source < 0 ? fieldTexts(chunks[d]!, contexts?.[d], anchors?.[d]) : undefined;
    let at = source < 0 ? 0 : old!.sequences.offsets[source]!;
    for (let f = 0; f < FIELD_NAMES.length; f++) {
      const field = pairs[f]!;
      termIds.length = 0;
      if (source < 0) {
        interner.appendTermIds(texts![f]!, termIds, sequence);
      } else {
        const length = old!.fields[f]!.lengths[source]!;
        if (FILE_LOCAL_FIELDS[f]) translator!.append(old!.sequences.terms, at, at + length, termIds, sequence);
        else interner.appendTermIds(anchors?.[d] ?? '', termIds, sequence); // the one field that is not file-local
        at += length;
      }
      if (interner.terms.length > counts.length) {
        const size = interner.terms.length;
        counts = ensureSize(counts, size);
        docFrequencies = ensureSize(docFrequencies, size);
        const previous = lastDoc.length;
        lastDoc = ensureSize(lastDoc, size);
        lastDoc.fill(-1, previous);
      }
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
          docFrequencies[id]!++;
        }
      }
      field.docStart[d + 1] = field.termIds.length;
    }
    sequenceOffsets[d + 1] = sequence.length;
    if (onProgress && ((d + 1) % PROGRESS_EVERY === 0 || d + 1 === docCount)) {
      onProgress({ phase: 'fit', done: d + 1, total: docCount });
    }
  }

  const merged = translator ? mergeSortedOrder(interner, translator.takenOverInOrder()) : undefined;
  const order = merged ? merged.order : sortedOrder(interner);
  const termCount = order.length;
  const sorted = new Array<string>(termCount);
  const newId = new Int32Array(termCount);
  const sortedFrequencies = new Uint32Array(termCount);
  for (let t = 0; t < termCount; t++) {
    const id = order[t]!;
    sorted[t] = interner.terms[id]!;
    newId[id] = t;
    sortedFrequencies[t] = docFrequencies[id]!;
  }
  const dictionary = TermDictionary.fromSorted(sorted);
  return {
    options,
    docCount,
    dictionary,
    docFrequencies: sortedFrequencies,
    fields: pairs.map((field) => invert(field, newId, termCount, docCount)),
    sequences: renumberSequences(sequence, sequenceOffsets, newId),
    features: old
      ? reuseChunkFeatures(chunks, dictionary, options.rerank, old, previous!.sourceOf, merged!.fresh)
      : computeChunkFeatures(chunks, dictionary, options.rerank),
    chunkFingerprint: fingerprintChunks(chunks),
  };
}
