import { RagError, type Chunk, type ProgressFn } from '@rag/core';
import { fingerprintChunks } from './checksum.js';
import { TermDictionary } from './dictionary.js';
import { anchorField, type AnchorField, type AnchorMentions } from './anchors.js';
import { tableHeaderContexts } from './context.js';
import { FIELD_NAMES, type Bm25Options } from './options.js';
import { computeChunkFeatures, reuseChunkFeatures, type ChunkFeatures } from './chunk-features.js';
import { ChunkAnalysis, type FieldPairs } from './analyse.js';
import { patchIndexData } from './patch.js';
import { CONTINUES_SEGMENT, Int32Buffer, MAX_TF, TERM_ID_MASK, TermInterner } from './term-interner.js';

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
  /** Hashes of each chunk's anchor text from the docs (see `anchorField`), empty in a paged index. */
  anchorHashes: Uint32Array;
  /** What each chunk's paragraphs mention (see `AnchorMentions`), for updates; unread (empty) in a paged index. */
  anchorMentions: AnchorMentions;
  chunkFingerprint: string;
  /**
   * Set on an index made of a base file and an overlay (`composeIndex`): its term ids are the
   * base's and then the overlay's, not one sorted order, and its lists and sequences are read
   * through its `CompositePostings`; it is saved as the two files.
   */
  composite?: true;
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

export { CONTINUES_SEGMENT, TERM_ID_MASK };

const PROGRESS_EVERY = 1024;

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
export function buildIndexData(chunks: readonly Chunk[], options: Bm25Options, onProgress?: ProgressFn, previous?: ReusableBuild, collectGarbage?: () => void): Bm25IndexData {
  checkDenseIds(chunks);
  if (previous && previous.sourceOf.length !== chunks.length) {
    throw new RagError('INVALID_ARGUMENT', `sourceOf has ${previous.sourceOf.length} entries for ${chunks.length} chunks.`);
  }
  const docCount = chunks.length;
  if (previous) {
    const patched = patchIndexData(chunks, options, previous);
    if (patched) {
      onProgress?.({ phase: 'fit', done: docCount, total: docCount });
      return patched;
    }
  }
  const contexts = options.context.tableHeaders ? tableHeaderContexts(chunks) : undefined;
  let anchors: AnchorField | undefined = anchorField(chunks, options.context);
  const old = previous?.data;
  // A re-index builds about what the previous build held: size the buffers for that (a
  // little more) instead of doubling into it from 1,024 entries.
  const expected = (size: number | undefined): number | undefined => (size === undefined ? undefined : Math.ceil(size * 1.05) + 1024);
  const analysis = new ChunkAnalysis(options, docCount, old, expected);
  for (let d = 0; d < docCount; d++) {
    analysis.add(chunks[d]!, contexts?.[d], anchors.textOf(d), previous ? previous.sourceOf[d]! : -1);
    if (onProgress && ((d + 1) % PROGRESS_EVERY === 0 || d + 1 === docCount)) {
      onProgress({ phase: 'fit', done: d + 1, total: docCount });
    }
  }
  const { interner, translator, pairs } = analysis;
  const docFrequencies = analysis.docFrequencies;
  // The analysis is done: what it needed (the segment table, the anchor texts: tens of MB on
  // a large corpus) goes before the postings, the build's largest arrays, are allocated.
  interner.releaseSegments();
  const { hashes: anchorHashes, mentions: anchorMentions } = anchors;
  anchors = undefined;
  collectGarbage?.();

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
    sequences: renumberSequences(analysis.sequence, analysis.sequenceOffsets, newId),
    features: old
      ? reuseChunkFeatures(chunks, dictionary, options.rerank, old, previous!.sourceOf, merged!.fresh)
      : computeChunkFeatures(chunks, dictionary, options.rerank),
    anchorHashes,
    anchorMentions,
    chunkFingerprint: fingerprintChunks(chunks),
  };
}
