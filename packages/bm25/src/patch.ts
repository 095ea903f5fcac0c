import type { Chunk } from '@rag/core';
import { ChunkAnalysis } from './analyse.js';
import { anchorField } from './anchors.js';
import { tableHeaderContexts } from './context.js';
import type { Bm25IndexData, FieldPostings, ReusableBuild, TermSequences } from './build.js';
import { fingerprintChunks } from './checksum.js';
import { reuseChunkFeatures } from './chunk-features.js';
import { TermDictionary } from './dictionary.js';
import { FIELD_NAMES, type Bm25Options } from './options.js';
import { CONTINUES_SEGMENT, MAX_TF, TERM_ID_MASK } from './term-interner.js';

/**
 * A re-index's BM25F data, derived from the previous build's instead of built over every
 * chunk again. A chunk is *kept* when it copies a previous chunk (`sourceOf`) and its anchor
 * text is unchanged (by its stored hashes): all its fields' terms are then the previous
 * chunk's, so its postings, lengths and sequence carry over with new ids. Every other chunk
 * is analysed, and the previous chunks no kept chunk copies are taken out of the document
 * frequencies. The dictionary is the previous one without the terms no chunk holds any more,
 * with the new terms merged in. The result is the data a build from scratch gives, array for
 * array (the reuse tests compare the encoded files); the work is a pass over the previous
 * postings and sequences instead of counting and sorting every chunk's terms.
 *
 * Undefined when the kept chunks are not in their previous order (then postings would need
 * sorting): the caller builds as usual.
 */
export function patchIndexData(chunks: readonly Chunk[], options: Bm25Options, previous: ReusableBuild): Bm25IndexData | undefined {
  const old = previous.data;
  const anchors = anchorField(chunks, options.context);
  const anchorHashes = anchors.hashes;
  if (old.anchorHashes.length !== old.docCount * 2) return undefined;
  const { sourceOf } = previous;
  const docCount = chunks.length;
  const analysis = new ChunkAnalysis(options, docCount, old);
  // keptFrom[d]: the previous chunk kept chunk d copies, or -1 when d is analysed.
  const keptFrom = new Int32Array(docCount).fill(-1);
  const newDocOf = new Int32Array(old.docCount).fill(-1);
  const analysed: number[] = [];
  let last = -1;
  for (let d = 0; d < docCount; d++) {
    const source = sourceOf[d]!;
    // The same anchor text analyses to the same terms (the options are the previous build's);
    // a copied chunk's class summary is its unchanged file's.
    if (source >= 0 && anchorHashes[2 * d] === old.anchorHashes[2 * source] && anchorHashes[2 * d + 1] === old.anchorHashes[2 * source + 1]) {
      if (source <= last) return undefined;
      last = source;
      keptFrom[d] = source;
      newDocOf[source] = d;
    } else {
      analysed.push(d);
    }
  }
  const contexts = options.context.tableHeaders ? contextsOf(chunks, analysed) : undefined;
  for (const d of analysed) analysis.add(chunks[d]!, contexts?.get(d), anchors.textOf(d), sourceOf[d]!);

  const removed = countRemoved(old, newDocOf);
  const terms = mergeDictionary(old, analysis, removed.docFrequencies);
  const fields = FIELD_NAMES.map((_, f) => mergeField(old.fields[f]!, removed.postings[f]!, analysis, f, analysed, keptFrom, newDocOf, terms));
  const sequences = mergeSequences(old.sequences, analysis, analysed, keptFrom, terms);
  return {
    options,
    docCount,
    dictionary: terms.dictionary,
    docFrequencies: terms.docFrequencies,
    fields,
    sequences,
    features: reuseChunkFeatures(chunks, terms.dictionary, options.rerank, old, sourceOf, terms.fresh, terms.fromOld),
    anchorHashes,
    anchorMentions: anchors.mentions,
    chunkFingerprint: fingerprintChunks(chunks),
  };
}

/**
 * The table-header context (see `tableHeaderContexts`) of each chunk in `wanted`: a context
 * depends on the chunk's own file only, so only the files of those chunks are read.
 */
export function contextsOf(chunks: readonly Chunk[], wanted: readonly number[]): Map<number, string> {
  const contexts = new Map<number, string>();
  let i = 0;
  while (i < wanted.length) {
    const path = chunks[wanted[i]!]!.file_path;
    let first = wanted[i]!;
    while (first > 0 && chunks[first - 1]!.file_path === path) first--;
    let end = wanted[i]! + 1;
    while (end < chunks.length && chunks[end]!.file_path === path) end++;
    const found = tableHeaderContexts(chunks.slice(first, end));
    for (; i < wanted.length && wanted[i]! < end; i++) contexts.set(wanted[i]!, found[wanted[i]! - first]!);
  }
  return contexts;
}

/**
 * What the previous chunks no kept chunk copies held: per previous term, chunks and per-field
 * postings, and the terms counted (each once, unordered). `sequenceOf`: where a previous
 * chunk's term sequence is read (default `old`'s arrays).
 */
export function countRemoved(old: Bm25IndexData, newDocOf: Int32Array, sequenceOf?: (doc: number) => Uint32Array): { docFrequencies: Int32Array; postings: Int32Array[]; terms: number[] } {
  const termCount = old.dictionary.size;
  const docFrequencies = new Int32Array(termCount);
  const postings = FIELD_NAMES.map(() => new Int32Array(termCount));
  // The last chunk (and chunk-field) that counted each term, plus one: 0 is none, so these
  // need no filling, and only the pages of the terms the removed chunks hold are touched
  // (fresh memory costs a page fault per 4 KiB on first touch, and an update removes few chunks).
  const lastDoc = new Int32Array(termCount);
  const lastField = new Int32Array(termCount);
  const terms: number[] = [];
  for (let o = 0; o < old.docCount; o++) {
    if (newDocOf[o]! >= 0) continue;
    const entries = sequenceOf ? sequenceOf(o) : old.sequences.terms;
    let at = sequenceOf ? 0 : old.sequences.offsets[o]!;
    for (let f = 0; f < FIELD_NAMES.length; f++) {
      const end = at + old.fields[f]!.lengths[o]!;
      const stamp = o * FIELD_NAMES.length + f + 1;
      const counts = postings[f]!;
      for (; at < end; at++) {
        const t = entries[at]! & TERM_ID_MASK;
        if (lastField[t] !== stamp) {
          lastField[t] = stamp;
          counts[t]!++;
        }
        if (lastDoc[t] !== o + 1) {
          lastDoc[t] = o + 1;
          if (docFrequencies[t]!++ === 0) terms.push(t);
        }
      }
    }
  }
  return { docFrequencies, postings, terms };
}

/** The new dictionary and how both numberings map into it. */
interface MergedTerms {
  dictionary: TermDictionary;
  docFrequencies: Uint32Array;
  /** Previous term id → new id, -1 for a term no chunk holds any more. */
  fromOld: Int32Array;
  /** Interned id (of the analysis) → new id. */
  fromInterned: Int32Array;
  /** New id → previous id, -1 for a term the previous build lacked. */
  toOld: Int32Array;
  /** The terms the previous build lacked, sorted. */
  fresh: string[];
}

function mergeDictionary(old: Bm25IndexData, analysis: ChunkAnalysis, removedFrequencies: Int32Array): MergedTerms {
  const previousIds = analysis.translator!.previousIds();
  const interned = analysis.interner.terms;
  const added = analysis.docFrequencies;
  const oldTermCount = old.dictionary.size;
  const frequencies = new Int32Array(oldTermCount);
  for (let t = 0; t < oldTermCount; t++) frequencies[t] = old.docFrequencies[t]! - removedFrequencies[t]!;
  const freshIds: number[] = [];
  for (let id = 0; id < interned.length; id++) {
    const previousId = previousIds[id]!;
    if (previousId >= 0) frequencies[previousId]! += added[id]!;
    else if (added[id]! > 0) freshIds.push(id);
  }
  freshIds.sort((a, b) => (interned[a]! < interned[b]! ? -1 : 1));
  const fresh = freshIds.map((id) => interned[id]!);
  const insertAt = fresh.map((term) => old.dictionary.lowerBound(term));

  let termCount = fresh.length;
  for (let t = 0; t < oldTermCount; t++) if (frequencies[t]! > 0) termCount++;
  const fromOld = new Int32Array(oldTermCount).fill(-1);
  const fromInterned = new Int32Array(interned.length).fill(-1);
  const toOld = new Int32Array(termCount).fill(-1);
  const docFrequencies = new Uint32Array(termCount);
  const offsets = new Uint32Array(termCount + 1);
  // The new vocabulary: runs of the old bytes, kept terms in order, with the fresh terms'
  // bytes merged in.
  const freshBytes = TermDictionary.fromSorted(fresh);
  const { bytes: oldBytes, offsets: oldOffsets } = old.dictionary;
  const bytes = new Uint8Array(oldBytes.length + freshBytes.bytes.length);
  let written = 0;
  let next = 0;
  let f = 0;
  let runStart = -1;
  const closeRun = (end: number): void => {
    if (runStart >= 0) {
      bytes.set(oldBytes.subarray(oldOffsets[runStart], oldOffsets[end]), written);
      written += oldOffsets[end]! - oldOffsets[runStart]!;
    }
    runStart = -1;
  };
  const addFresh = (): void => {
    const id = freshIds[f]!;
    fromInterned[id] = next;
    docFrequencies[next] = added[id]!;
    const term = freshBytes.bytes.subarray(freshBytes.offsets[f], freshBytes.offsets[f + 1]);
    bytes.set(term, written);
    written += term.length;
    offsets[next + 1] = offsets[next]! + term.length;
    next++;
    f++;
  };
  for (let t = 0; t < oldTermCount; t++) {
    if (f < fresh.length && insertAt[f] === t) {
      closeRun(t);
      while (f < fresh.length && insertAt[f] === t) addFresh();
    }
    if (frequencies[t]! <= 0) {
      closeRun(t);
      continue;
    }
    if (runStart < 0) runStart = t;
    fromOld[t] = next;
    toOld[next] = t;
    docFrequencies[next] = frequencies[t]!;
    offsets[next + 1] = offsets[next]! + (oldOffsets[t + 1]! - oldOffsets[t]!);
    next++;
  }
  closeRun(oldTermCount);
  while (f < fresh.length) addFresh();
  for (let id = 0; id < interned.length; id++) if (previousIds[id]! >= 0) fromInterned[id] = fromOld[previousIds[id]!]!;
  return { dictionary: new TermDictionary(bytes.slice(0, written), offsets), docFrequencies, fromOld, fromInterned, toOld, fresh };
}

/** One field's postings: the previous lists with removed chunks left out and ids renumbered, merged with the analysed chunks' in id order. */
function mergeField(
  old: FieldPostings,
  removed: Int32Array,
  analysis: ChunkAnalysis,
  f: number,
  analysed: readonly number[],
  keptFrom: Int32Array,
  newDocOf: Int32Array,
  terms: MergedTerms,
): FieldPostings {
  const termCount = terms.toOld.length;
  const pairs = analysis.pairs[f]!;
  const pairTerms = pairs.termIds.data;
  const pairTfs = pairs.tfs.data;
  // The analysed chunks' postings by new term, each list in id order (a counting sort).
  const addedOffsets = new Uint32Array(termCount + 1);
  for (let p = 0; p < pairs.termIds.length; p++) addedOffsets[terms.fromInterned[pairTerms[p]!]! + 1]!++;
  for (let t = 0; t < termCount; t++) addedOffsets[t + 1]! += addedOffsets[t]!;
  const cursor = addedOffsets.slice(0, termCount);
  const addedDocs = new Uint32Array(pairs.termIds.length);
  const addedTfs = new Uint16Array(pairs.termIds.length);
  analysed.forEach((d, i) => {
    for (let p = pairs.docStart[i]!; p < pairs.docStart[i + 1]!; p++) {
      const position = cursor[terms.fromInterned[pairTerms[p]!]!]!++;
      addedDocs[position] = d;
      addedTfs[position] = Math.min(pairTfs[p]!, MAX_TF);
    }
  });

  const offsets = new Uint32Array(termCount + 1);
  for (let t = 0; t < termCount; t++) {
    const o = terms.toOld[t]!;
    const kept = o < 0 ? 0 : old.offsets[o + 1]! - old.offsets[o]! - removed[o]!;
    offsets[t + 1] = offsets[t]! + kept + addedOffsets[t + 1]! - addedOffsets[t]!;
  }
  const docs = new Uint32Array(offsets[termCount]!);
  const tfs = new Uint16Array(docs.length);
  const { toOld } = terms;
  const oldOffsets = old.offsets;
  const oldDocs = old.docs;
  const oldTfs = old.tfs;
  for (let t = 0; t < termCount; t++) {
    let w = offsets[t]!;
    let a = addedOffsets[t]!;
    const addedEnd = addedOffsets[t + 1]!;
    const o = toOld[t]!;
    if (o >= 0) {
      const end = oldOffsets[o + 1]!;
      for (let i = oldOffsets[o]!; i < end; i++) {
        const d = newDocOf[oldDocs[i]!]!;
        if (d < 0) continue;
        while (a < addedEnd && addedDocs[a]! < d) {
          docs[w] = addedDocs[a]!;
          tfs[w++] = addedTfs[a++]!;
        }
        docs[w] = d;
        tfs[w++] = oldTfs[i]!;
      }
    }
    while (a < addedEnd) {
      docs[w] = addedDocs[a]!;
      tfs[w++] = addedTfs[a++]!;
    }
  }

  const lengths = new Uint32Array(keptFrom.length);
  for (let d = 0; d < keptFrom.length; d++) if (keptFrom[d]! >= 0) lengths[d] = old.lengths[keptFrom[d]!]!;
  analysed.forEach((d, i) => (lengths[d] = pairs.lengths[i]!));
  return { offsets, docs, tfs, lengths };
}

/** Copies sequence entries [from, to) of `source` to `target` at `at`, their term ids mapped through `ids`. */
function translate(source: Uint32Array | Int32Array, from: number, to: number, ids: Int32Array, target: Uint32Array, at: number): void {
  let w = at;
  for (let r = from; r < to; r++) {
    const entry = source[r]!;
    target[w++] = ids[entry & TERM_ID_MASK]! | (entry & CONTINUES_SEGMENT);
  }
}

/** Every chunk's term sequence under the new ids: kept chunks' from the previous build, analysed chunks' from the analysis. */
function mergeSequences(old: TermSequences, analysis: ChunkAnalysis, analysed: readonly number[], keptFrom: Int32Array, terms: MergedTerms): TermSequences {
  const docCount = keptFrom.length;
  const analysedIndex = new Int32Array(docCount).fill(-1);
  analysed.forEach((d, i) => (analysedIndex[d] = i));
  const offsets = new Uint32Array(docCount + 1);
  for (let d = 0; d < docCount; d++) {
    const o = keptFrom[d]!;
    const i = analysedIndex[d]!;
    const length = o >= 0 ? old.offsets[o + 1]! - old.offsets[o]! : analysis.sequenceOffsets[i + 1]! - analysis.sequenceOffsets[i]!;
    offsets[d + 1] = offsets[d]! + length;
  }
  const entries = new Uint32Array(offsets[docCount]!);
  const fresh = analysis.sequence.data;
  const freshOffsets = analysis.sequenceOffsets;
  const { fromOld, fromInterned } = terms;
  const oldOffsets = old.offsets;
  const oldEntries = old.terms;
  let d = 0;
  while (d < docCount) {
    const o = keptFrom[d]!;
    if (o < 0) {
      const i = analysedIndex[d]!;
      translate(fresh, freshOffsets[i]!, freshOffsets[i + 1]!, fromInterned, entries, offsets[d]!);
      d++;
      continue;
    }
    // A run of kept chunks copying consecutive previous chunks: one range of entries.
    let end = d + 1;
    while (end < docCount && keptFrom[end] === o + (end - d)) end++;
    translate(oldEntries, oldOffsets[o]!, oldOffsets[o + (end - d)]!, fromOld, entries, offsets[d]!);
    d = end;
  }
  return { offsets, terms: entries };
}
