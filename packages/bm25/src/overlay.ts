import type { Chunk } from '@rag/core';
import { ChunkAnalysis } from './analyse.js';
import { anchorField, mentionsOf, updateAnchorField, type AnchorField, type AnchorHistory, type AnchorMentions } from './anchors.js';
import type { Bm25IndexData, TermSequences } from './build.js';
import { fingerprintChunks } from './checksum.js';
import { FeatureReuse, type ChunkFeatures } from './chunk-features.js';
import { CompositeDictionary, composeAnchors, keptFromRuns, NOT_KEPT } from './composite.js';
import { TermDictionary } from './dictionary.js';
import { FIELD_NAMES, type Bm25Options } from './options.js';
import { contextsOf, countRemoved } from './patch.js';
import { arrayPostings, type PostingSource } from './postings.js';
import { CONTINUES_SEGMENT, MAX_TF, TERM_ID_MASK } from './term-interner.js';

/**
 * What an update writes instead of a whole index: what changed against a base index kept
 * as it was (`bm25-base.bin`, the file a full build wrote, linked into each later
 * generation). The chunks the overlay holds itself come with their lists, sequences,
 * lengths, features and anchor hashes; of the rest only what differs from the base: which
 * base chunks are kept where, the terms whose document frequency or list lengths changed,
 * the kept chunks whose features changed. Together with the base (`composeIndex`) it is the
 * index a full build gives, list for list and score for score, and it grows with the change,
 * not with the corpus.
 */
export interface OverlayData {
  /** The base it goes with: its chunk and term counts and its payload checksum. */
  base: { docCount: number; termCount: number; payloadChecksum: number };
  docCount: number;
  /** Runs of chunks kept from the base: (first chunk, first base chunk, length) triples, ascending; the chunks between are the overlay's own. */
  runs: Uint32Array;
  /** Terms the base lacks, sorted; term id = base term count + rank. */
  fresh: TermDictionary;
  /** The terms whose document frequency differs from the base's (every new term), ascending, and their frequencies (0: no chunk holds it any more). */
  frequencies: { terms: Uint32Array; values: Uint32Array };
  /**
   * Per field: the terms whose list length differs from the base's, ascending, and by how
   * much (a signed 32-bit number stored as unsigned); the overlay's own chunks' lengths.
   */
  fields: { terms: Uint32Array; deltas: Uint32Array; ownLengths: Uint32Array }[];
  /** The terms the overlay's own chunks hold, ascending. */
  touched: Uint32Array;
  /** Per field, `touched[i]`'s postings among the overlay's own chunks are [offsets[i], offsets[i + 1]). */
  lists: { offsets: Uint32Array; docs: Uint32Array; tfs: Uint16Array }[];
  /** The overlay's own chunks' term sequences, in chunk order. */
  sequences: TermSequences;
  /** The chunks whose features are not their base chunk's (every chunk of the overlay's own, ascending), and those features. */
  features: ChunkFeatures & { docs: Uint32Array };
  /** The overlay's own chunks' anchor hashes (two each). */
  anchorHashes: Uint32Array;
  /** The overlay's own chunks' mentions (see `AnchorMentions`). */
  anchorMentions: AnchorMentions;
  chunkFingerprint: string;
}

/**
 * When an update writes a whole index instead of an overlay: past this share of the
 * index's chunks in the overlay (its own plus the base chunks it replaced). Every update
 * builds its overlay against the base afresh, taking over the earlier overlay's chunks, and
 * a search merges each base list with the overlay's: both grow with the overlay. A quarter,
 * as for the text segments (`TEXT_SEGMENT_LIMITS`): an update's own work stays within a
 * quarter of a full analysis, and a write of the whole comes once per quarter of the corpus
 * changed.
 */
export const OVERLAY_MAX_SHARE = 0.25;

/** The files of an index made of a base and an overlay: the overlay, and where its base file is. */
export interface LayeredFiles {
  overlay: OverlayData;
  base: { path: string; read: () => Promise<Uint8Array> };
}

/** The base an update writes its overlay against, and the index it updates. */
export interface OverlayBase {
  /** The base index; its lists and sequences need not be there (see `OverlayPlan.baseDocs`). */
  data: Bm25IndexData;
  /** Its file's payload checksum (the overlay records it, so that the two are never mixed up). */
  payloadChecksum: number;
  /**
   * The index before the update: the base alone, or the base and an earlier overlay; with
   * its chunks, the anchor field is worked out for what changed only (`updateAnchorField`).
   */
  previous: { data: Bm25IndexData; postings: PostingSource; overlay?: OverlayData; chunks?: readonly Chunk[] };
  /** For each new chunk, the previous chunk it copies (-1 for none). */
  sourceOf: Int32Array;
}

/** Which chunks an overlay keeps from its base and which it holds itself (see `planOverlay`). */
export interface OverlayPlan {
  anchors: AnchorField;
  keptFrom: Uint32Array;
  /** Base chunk → chunk, -1 for a base chunk the overlay replaces. */
  newDocOf: Int32Array;
  /** The overlay's own chunks, ascending. */
  analysed: number[];
  /** The base chunks whose term sequences the overlay is built from: those it replaces, and those its own chunks copy. */
  baseDocs: number[];
}

/**
 * Which chunks of `chunks` are base chunks (their text copied through the previous index
 * from one, their anchor text unchanged), or undefined when an overlay does not pay (more
 * than {@link OVERLAY_MAX_SHARE} of the chunks in it) or cannot be made (base chunks out of
 * their order there): the caller then writes a whole index.
 */
export function planOverlay(
  chunks: readonly Chunk[],
  options: Bm25Options,
  base: Pick<OverlayBase, 'data' | 'sourceOf'> & { previousKept?: Uint32Array; history?: Pick<AnchorHistory, 'chunks' | 'hashes' | 'mentions'> },
  maxShare = OVERLAY_MAX_SHARE,
): OverlayPlan | undefined {
  const old = base.data;
  const docCount = chunks.length;
  if (old.anchorHashes.length !== old.docCount * 2) return undefined;
  const { sourceOf, previousKept, history } = base;
  const baseOf = (source: number): number => (source < 0 ? -1 : previousKept ? (previousKept[source] === NOT_KEPT ? -1 : previousKept[source]!) : source);
  // A chunk that copies none of the base's is analysed whatever its anchor text.
  const anchors = (history && updateAnchorField(chunks, options.context, { ...history, sourceOf, needsText: (d) => baseOf(sourceOf[d]!) < 0 })) ?? anchorField(chunks, options.context);
  const anchorHashes = anchors.hashes;
  const keptFrom = new Uint32Array(docCount).fill(NOT_KEPT);
  const newDocOf = new Int32Array(old.docCount).fill(-1);
  const analysed: number[] = [];
  let last = -1;
  for (let d = 0; d < docCount; d++) {
    const from = baseOf(sourceOf[d]!);
    if (from >= 0 && anchorHashes[2 * d] === old.anchorHashes[2 * from] && anchorHashes[2 * d + 1] === old.anchorHashes[2 * from + 1]) {
      if (from <= last) return undefined;
      last = from;
      keptFrom[d] = from;
      newDocOf[from] = d;
    } else {
      analysed.push(d);
    }
  }
  const replaced = old.docCount - (docCount - analysed.length);
  if (analysed.length + replaced > maxShare * docCount) return undefined;
  const baseDocs = new Set<number>();
  for (let b = 0; b < old.docCount; b++) if (newDocOf[b]! < 0) baseDocs.add(b);
  for (const d of analysed) {
    const from = baseOf(sourceOf[d]!);
    if (from >= 0) baseDocs.add(from);
  }
  return { anchors, keptFrom, newDocOf, analysed, baseDocs: [...baseDocs].sort((a, b) => a - b) };
}

/**
 * The overlay of `chunks` against `base` as `plan` lays it out. `baseSequences` gives the
 * base's term sequences of `plan.baseDocs` (and `base.previous.postings` those of the previous
 * chunks the overlay's own chunks copy).
 */
export function buildOverlay(chunks: readonly Chunk[], options: Bm25Options, base: OverlayBase, plan: OverlayPlan, baseSequences: PostingSource): OverlayData {
  const old = base.data;
  const docCount = chunks.length;
  const { previous, sourceOf } = base;
  const { anchors, keptFrom, newDocOf, analysed } = plan;

  // The overlay's own chunks, analysed; a copy of a previous chunk (an anchor change, or a
  // chunk of the earlier overlay) takes over its file-local fields' terms.
  const analysis = new ChunkAnalysis(options, analysed.length, previous.data, undefined, previous.postings);
  const contexts = options.context.tableHeaders ? contextsOf(chunks, analysed) : undefined;
  for (const d of analysed) analysis.add(chunks[d]!, contexts?.get(d), anchors.textOf(d), sourceOf[d]!);

  // Term ids: a term the base has keeps its id there; the rest follow, sorted.
  const interned = analysis.interner.terms;
  const baseTerms = old.dictionary.size;
  const idOf = new Int32Array(interned.length);
  const freshIds: number[] = [];
  // A term taken over from the previous index has its id there, which is the base's for a
  // base term (a composed index numbers the base's terms as the base does, then its own):
  // only the terms of new text are looked up.
  const taken = analysis.translator?.takenOverIds();
  interned.forEach((term, i) => {
    const previousId = taken ? taken[i]! : -1;
    const id = previousId >= 0 ? (previousId < baseTerms ? previousId : -1) : old.dictionary.lookup(term);
    if (id >= 0) idOf[i] = id;
    else freshIds.push(i);
  });
  freshIds.sort((a, b) => (interned[a]! < interned[b]! ? -1 : 1));
  freshIds.forEach((i, rank) => (idOf[i] = baseTerms + rank));
  const fresh = TermDictionary.fromSorted(freshIds.map((i) => interned[i]!));
  const termCount = baseTerms + fresh.size;

  // Statistics of the whole index: the base's, less the chunks replaced, plus the overlay's.
  // Only the terms of the replaced and the new chunks can differ from the base's: those
  // are visited, not the whole vocabulary (an update's share of the index is small).
  const removed = countRemoved(old, newDocOf, (doc) => baseSequences.sequence(doc));
  const docFrequencies = new Uint32Array(termCount);
  docFrequencies.set(old.docFrequencies.subarray(0, baseTerms));
  for (const t of removed.terms) docFrequencies[t]! -= removed.docFrequencies[t]!;
  const added = analysis.docFrequencies;
  for (let i = 0; i < interned.length; i++) docFrequencies[idOf[i]!]! += added[i]!;

  const touchedIds = new Set<number>();
  for (const pairs of analysis.pairs) for (let p = 0; p < pairs.termIds.length; p++) touchedIds.add(idOf[pairs.termIds.data[p]!]!);
  const touched = Uint32Array.from(touchedIds).sort();
  const slot = new Int32Array(termCount).fill(-1);
  touched.forEach((term, i) => (slot[term] = i));
  // Every term whose statistics may differ from the base's, ascending: the new chunks', the
  // replaced chunks' and every term the base lacks.
  const candidates = new Set<number>([...touched, ...removed.terms]);
  for (let t = baseTerms; t < termCount; t++) candidates.add(t);
  const changed = Uint32Array.from(candidates).sort();

  const fields = FIELD_NAMES.map((_, f) => {
    const pairs = analysis.pairs[f]!;
    // The overlay's own lists of this field, by touched term, each in chunk order (a counting sort).
    const listOffsets = new Uint32Array(touched.length + 1);
    for (let p = 0; p < pairs.termIds.length; p++) listOffsets[slot[idOf[pairs.termIds.data[p]!]!]! + 1]!++;
    for (let i = 0; i < touched.length; i++) listOffsets[i + 1]! += listOffsets[i]!;
    const cursor = listOffsets.slice(0, touched.length);
    const docs = new Uint32Array(pairs.termIds.length);
    const tfs = new Uint16Array(pairs.termIds.length);
    analysed.forEach((d, i) => {
      for (let p = pairs.docStart[i]!; p < pairs.docStart[i + 1]!; p++) {
        const at = cursor[slot[idOf[pairs.termIds.data[p]!]!]!]!++;
        docs[at] = d;
        tfs[at] = Math.min(pairs.tfs.data[p]!, MAX_TF);
      }
    });
    // The list lengths that change: the base's less the replaced chunks' postings, plus the overlay's own.
    const terms: number[] = [];
    const deltas: number[] = [];
    const removedHere = removed.postings[f]!;
    for (const t of changed) {
      const i = slot[t]!;
      const delta = (i < 0 ? 0 : listOffsets[i + 1]! - listOffsets[i]!) - (t < baseTerms ? removedHere[t]! : 0);
      if (delta !== 0) {
        terms.push(t);
        deltas.push(delta >>> 0);
      }
    }
    return {
      field: { terms: Uint32Array.from(terms), deltas: Uint32Array.from(deltas), ownLengths: pairs.lengths.slice(0, analysed.length) },
      list: { offsets: listOffsets, docs, tfs },
    };
  });

  const entries = analysis.sequence.data;
  const sequenceTerms = new Uint32Array(analysis.sequence.length);
  for (let i = 0; i < sequenceTerms.length; i++) sequenceTerms[i] = idOf[entries[i]! & TERM_ID_MASK]! | (entries[i]! & CONTINUES_SEGMENT);
  const sequences = { offsets: analysis.sequenceOffsets.slice(0, analysed.length + 1), terms: sequenceTerms };

  // A term no chunk holds any more was held by a replaced chunk (a base holds no term at 0).
  const gone = new Set<number>();
  const unheld = (t: number): boolean => t < baseTerms && docFrequencies[t] === 0;
  if (old.docFrequencies.subarray(0, baseTerms).includes(0)) {
    for (let t = 0; t < baseTerms; t++) if (unheld(t)) gone.add(t);
  } else {
    for (const t of changed) if (unheld(t)) gone.add(t);
  }
  const dictionary = new CompositeDictionary(old.dictionary, fresh, gone);
  const features = overlayFeatures(chunks, options, { dictionary, docFrequencies, baseTerms, gone }, previous, sourceOf, keptFrom, old.features);
  return {
    base: { docCount: old.docCount, termCount: baseTerms, payloadChecksum: base.payloadChecksum },
    docCount,
    runs: runsOf(keptFrom),
    fresh,
    frequencies: changedFrequencies(old, docFrequencies, changed),
    fields: fields.map((f) => f.field),
    touched,
    lists: fields.map((f) => f.list),
    sequences,
    features,
    anchorHashes: Uint32Array.from(analysed.flatMap((d) => [anchors.hashes[2 * d]!, anchors.hashes[2 * d + 1]!])),
    anchorMentions: ownMentions(anchors.mentions, analysed),
    chunkFingerprint: fingerprintChunks(chunks),
  };
}

/** The mentions of `docs` (ascending), in their order. */
function ownMentions(mentions: AnchorMentions, docs: readonly number[]): AnchorMentions {
  const offsets = new Uint32Array(docs.length + 1);
  docs.forEach((d, i) => (offsets[i + 1] = offsets[i]! + mentionsOf(mentions, d).length));
  const hashes = new Uint32Array(offsets[docs.length]!);
  docs.forEach((d, i) => hashes.set(mentionsOf(mentions, d), offsets[i]!));
  return { offsets, hashes, defined: Uint32Array.from(docs, (d) => mentions.defined[d]!) };
}

/** The runs of consecutive chunks kept from consecutive base chunks (see `OverlayData.runs`). */
function runsOf(keptFrom: Uint32Array): Uint32Array {
  const runs: number[] = [];
  for (let d = 0; d < keptFrom.length; ) {
    if (keptFrom[d] === NOT_KEPT) {
      d++;
      continue;
    }
    let end = d + 1;
    while (end < keptFrom.length && keptFrom[end] !== NOT_KEPT && keptFrom[end] === keptFrom[d]! + (end - d)) end++;
    runs.push(d, keptFrom[d]!, end - d);
    d = end;
  }
  return Uint32Array.from(runs);
}

/**
 * The terms whose document frequency is not the base's (all new terms among them), with their
 * frequencies; `changed`: ascending, every term whose frequency may differ (new terms included).
 */
function changedFrequencies(base: Bm25IndexData, docFrequencies: Uint32Array, changed: Uint32Array): OverlayData['frequencies'] {
  const terms: number[] = [];
  const baseTerms = base.dictionary.size;
  for (const t of changed) if (t >= baseTerms || docFrequencies[t] !== base.docFrequencies[t]) terms.push(t);
  return { terms: Uint32Array.from(terms), values: Uint32Array.from(terms, (t) => docFrequencies[t]!) };
}

/**
 * The overlay's features: those of its own chunks, and of the kept chunks whose features
 * are not their base chunks' (ascending). Each is what `reuseChunkFeatures` gives the chunk
 * (a copied chunk's taken over from the previous index with its names renumbered: a base
 * term keeps its id while some chunk holds it, a new term of an earlier overlay is looked up
 * again; a term the previous index lacked is a new term whether the overlay's chunks brought
 * it or a chunk kept from the base did). Only the chunks whose features can differ from
 * their base chunks' are worked out: a kept chunk takes over its previous chunk's features,
 * which are its base chunk's unless the earlier overlay changed them, and renumbering
 * changes them only where a name's term is gone; a copy is read again only when it spells
 * a name the previous index lacked.
 */
function overlayFeatures(
  chunks: readonly Chunk[],
  options: Bm25Options,
  terms: { dictionary: CompositeDictionary; docFrequencies: Uint32Array; baseTerms: number; gone: ReadonlySet<number> },
  previous: OverlayBase['previous'],
  sourceOf: Int32Array,
  keptFrom: Uint32Array,
  base: ChunkFeatures,
): OverlayData['features'] {
  const { dictionary, docFrequencies, baseTerms, gone } = terms;
  const before = previous.data;
  const renumbered = new Int32Array(before.dictionary.size).fill(-2);
  for (let t = 0; t < baseTerms; t++) renumbered[t] = docFrequencies[t]! > 0 ? t : -1;
  const newTerms: string[] = [];
  for (let t = 0; t < baseTerms; t++) if (docFrequencies[t]! > 0 && before.docFrequencies[t] === 0) newTerms.push(dictionary.termAt(t));
  for (let t = baseTerms; t < dictionary.size; t++) {
    const term = dictionary.termAt(t);
    if (before.dictionary.lookup(term) < 0) newTerms.push(term);
  }
  const reuse = new FeatureReuse(chunks, dictionary, options.rerank, before, sourceOf, newTerms, renumbered);
  const given = (d: number, out: number[]): number => reuse.given(d, out);
  // The previous chunks whose features the earlier overlay set (by previous id).
  const earlier = new Set(previous.overlay?.features.docs ?? []);
  const holdsGone = (b: number): boolean => {
    if (gone.size === 0) return false;
    for (let i = base.nameOffsets[b]!; i < base.nameOffsets[b + 1]!; i++) if (gone.has(base.names[i]!)) return true;
    return false;
  };
  const docs: number[] = [];
  const evidence: number[] = [];
  const types: number[] = [];
  const descriptions: number[] = [];
  const names: number[] = [];
  const nameOffsets: number[] = [0];
  const ids: number[] = [];
  for (let d = 0; d < chunks.length; d++) {
    const b = keptFrom[d]!;
    if (b !== NOT_KEPT && !earlier.has(sourceOf[d]!) && !holdsGone(b) && !(reuse.readsFreshNames && reuse.readsText(d))) continue;
    ids.length = 0;
    const bits = reuse.builder.featuresOf(d, given, ids);
    if (b !== NOT_KEPT && sameFeatures(base, b, bits, ids)) continue;
    docs.push(d);
    evidence.push(bits & 0xff);
    types.push((bits >>> 8) & 0xff);
    descriptions.push(bits >>> 16);
    for (const id of ids) names.push(id);
    nameOffsets.push(names.length);
  }
  return {
    docs: Uint32Array.from(docs),
    evidence: Uint8Array.from(evidence),
    types: Uint8Array.from(types),
    descriptions: Uint8Array.from(descriptions),
    nameOffsets: Uint32Array.from(nameOffsets),
    names: Uint32Array.from(names),
  };
}

/** Whether base chunk `b` has the features `bits` (see `FeatureBuilder.build`) and names `ids`. */
function sameFeatures(base: ChunkFeatures, b: number, bits: number, ids: readonly number[]): boolean {
  if ((bits & 0xff) !== base.evidence[b] || ((bits >>> 8) & 0xff) !== base.types[b] || bits >>> 16 !== base.descriptions[b]) return false;
  const at = base.nameOffsets[b]!;
  if (ids.length !== base.nameOffsets[b + 1]! - at) return false;
  for (let i = 0; i < ids.length; i++) if (ids[i] !== base.names[at + i]) return false;
  return true;
}

/** `planOverlay` then `buildOverlay` over a base held whole; undefined as `planOverlay`. */
export function overlayOf(chunks: readonly Chunk[], options: Bm25Options, base: OverlayBase, maxShare = OVERLAY_MAX_SHARE): OverlayData | undefined {
  const earlier = base.previous.overlay;
  const history = base.previous.chunks ? { chunks: base.previous.chunks, ...(earlier ? composeAnchors(base.data, earlier) : { anchorHashes: base.data.anchorHashes, anchorMentions: base.data.anchorMentions }) } : undefined;
  const plan = planOverlay(
    chunks,
    options,
    {
      data: base.data,
      sourceOf: base.sourceOf,
      ...(earlier ? { previousKept: keptFromRuns(earlier.runs, earlier.docCount) } : {}),
      ...(history ? { history: { chunks: history.chunks, hashes: history.anchorHashes, mentions: history.anchorMentions } } : {}),
    },
    maxShare,
  );
  return plan && buildOverlay(chunks, options, base, plan, arrayPostings(base.data));
}
