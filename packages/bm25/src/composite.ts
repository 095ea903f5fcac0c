import { RagError } from '@rag/core';
import type { Bm25IndexData } from './build.js';
import type { ChunkFeatures } from './chunk-features.js';
import { TermDictionary } from './dictionary.js';
import { UNREAD_MENTIONS } from './anchors.js';
import type { OverlayData } from './overlay.js';
import type { PostingSource, TermPostings } from './postings.js';
import { TERM_ID_MASK } from './term-interner.js';

/** A chunk the overlay holds itself (no base chunk), in `keptFromRuns`' output. */
export const NOT_KEPT = 0xffffffff;

const EMPTY_DOCS = new Uint32Array(0);
const EMPTY_TFS = new Uint16Array(0);

/** Per chunk, the base chunk it is, or `NOT_KEPT`, from an overlay's runs (`OverlayData.runs`). */
export function keptFromRuns(runs: Uint32Array, docCount: number): Uint32Array {
  const keptFrom = new Uint32Array(docCount).fill(NOT_KEPT);
  for (let r = 0; r < runs.length; r += 3) {
    const start = runs[r]!;
    const from = runs[r + 1]!;
    const length = runs[r + 2]!;
    for (let i = 0; i < length; i++) keptFrom[start + i] = from + i;
  }
  return keptFrom;
}

/**
 * The chunks an overlay keeps from its base, as its runs (`OverlayData.runs`), with the
 * lookups a search makes of them: opening an index made of a base and an overlay makes no
 * per-chunk table of them.
 */
export class KeptRuns {
  readonly starts: Uint32Array;
  readonly froms: Uint32Array;
  readonly lengths: Uint32Array;
  /** The overlay's own chunks (those no run covers), ascending. */
  readonly own: Uint32Array;

  constructor(runs: Uint32Array, docCount: number) {
    const count = Math.floor(runs.length / 3);
    this.starts = new Uint32Array(count);
    this.froms = new Uint32Array(count);
    this.lengths = new Uint32Array(count);
    const own: number[] = [];
    let next = 0;
    for (let r = 0; r < count; r++) {
      this.starts[r] = runs[3 * r]!;
      this.froms[r] = runs[3 * r + 1]!;
      this.lengths[r] = runs[3 * r + 2]!;
      for (let d = next; d < this.starts[r]!; d++) own.push(d);
      next = this.starts[r]! + this.lengths[r]!;
    }
    for (let d = next; d < docCount; d++) own.push(d);
    this.own = Uint32Array.from(own);
  }

  /** The base chunk chunk `doc` is, or `NOT_KEPT`. */
  baseOf(doc: number): number {
    const r = countBelow(this.starts, doc + 1) - 1;
    return r >= 0 && doc < this.starts[r]! + this.lengths[r]! ? this.froms[r]! + (doc - this.starts[r]!) : NOT_KEPT;
  }

  /** Chunk `doc`'s place among the overlay's own chunks, or -1 for a kept one. */
  localOf(doc: number): number {
    return indexIn(this.own, doc);
  }
}

/** Index of `value` in the ascending `values`, or -1. */
function indexIn(values: Uint32Array, value: number): number {
  let low = 0;
  let high = values.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const at = values[middle]!;
    if (at === value) return middle;
    if (at < value) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/** How many of the ascending `values` are below `limit`. */
export function countBelow(values: Uint32Array, limit: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle]! < limit) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The terms of an index made of a base and an overlay: the base's terms keep their ids (a
 * term no chunk holds any more stays in the base, and is not found), the overlay's new terms
 * come after them, sorted among themselves. So term ids are not in term order here, as they
 * are in a file of its own; nothing but the writer of a file relies on that order.
 */
export class CompositeDictionary extends TermDictionary {
  readonly #base: TermDictionary;
  readonly #fresh: TermDictionary;
  readonly #gone: ReadonlySet<number>;
  readonly #baseSize: number;

  /** `gone`: the base terms no chunk holds any more. */
  constructor(base: TermDictionary, fresh: TermDictionary, gone: ReadonlySet<number>) {
    super(fresh.bytes, fresh.offsets);
    this.#base = base;
    this.#fresh = fresh;
    this.#gone = gone;
    this.#baseSize = base.size;
  }

  override get size(): number {
    return this.#baseSize + this.#fresh.size;
  }

  override termAt(id: number): string {
    return id < this.#baseSize ? this.#base.termAt(id) : this.#fresh.termAt(id - this.#baseSize);
  }

  override lookup(term: string): number {
    const id = this.#base.lookup(term);
    if (id >= 0) return this.#gone.has(id) ? -1 : id;
    const fresh = this.#fresh.lookup(term);
    return fresh < 0 ? -1 : this.#baseSize + fresh;
  }

  /** Every term some chunk holds, in id order. */
  override *terms(): IterableIterator<string> {
    for (let id = 0; id < this.size; id++) if (!this.#gone.has(id)) yield this.termAt(id);
  }

  override lowerBound(): number {
    throw new RagError('INVALID_ARGUMENT', 'The terms of a base and an overlay are not in one sorted order.', { hint: 'Look terms up with lookup().' });
  }

  override lookupWithin(): number {
    throw new RagError('INVALID_ARGUMENT', 'The terms of a base and an overlay are not in one sorted order.', { hint: 'Look terms up with lookup().' });
  }
}

function inconsistent(what: string): RagError {
  return new RagError('INDEX_CORRUPT', `The bm25 overlay does not match its base: ${what}.`, { hint: 'Rebuild the index with `rag index --full`.' });
}

/**
 * What a base and an overlay make: the composed arrays of `Bm25IndexData`, and how an entry
 * is worked out from the base's and the overlay's changes. A base held whole gives every
 * entry at once; a base read in pages gives a term's statistics and a chunk's names once the
 * base has fetched them (`fill`), as a paged index does.
 */
class Composition {
  readonly runs: KeptRuns;
  readonly gone = new Set<number>();
  readonly docFrequencies: Uint32Array;
  readonly offsets: Uint32Array[];
  readonly features: ChunkFeatures;
  readonly #base: Bm25IndexData;
  readonly #overlay: OverlayData;
  /** Per field, the running sum of the overlay's list-length changes through each changed term. */
  readonly #sums: Int32Array[];
  /** Per chunk, its place among the overlay's changed features, -1 for the base's. */
  readonly #override: Int32Array;
  /** 1 for a term whose composed statistics are in (always, but for base terms of a base read in pages). */
  readonly known: Uint8Array;
  /** Whether the list bounds (`offsets`) are composed: not for an index only an update reads (see `composeIndex`). */
  readonly lists: boolean;

  constructor(base: Bm25IndexData, overlay: OverlayData, deferred: boolean, lists = true) {
    this.lists = lists;
    this.#base = base;
    this.#overlay = overlay;
    const { docCount } = overlay;
    const termCount = base.dictionary.size + overlay.fresh.size;
    this.runs = new KeptRuns(overlay.runs, docCount);
    const { terms, values } = overlay.frequencies;
    for (let i = 0; i < terms.length; i++) if (values[i] === 0) this.gone.add(terms[i]!);
    this.#sums = overlay.fields.map((field) => {
      const sums = new Int32Array(field.terms.length);
      let sum = 0;
      for (let i = 0; i < sums.length; i++) sums[i] = sum += field.deltas[i]! | 0;
      return sums;
    });
    this.docFrequencies = new Uint32Array(termCount);
    this.offsets = overlay.fields.map(() => (lists ? new Uint32Array(termCount + 1) : EMPTY_DOCS));
    this.known = new Uint8Array(termCount).fill(deferred ? 0 : 1);
    this.#override = new Int32Array(docCount).fill(-1);
    overlay.features.docs.forEach((d, i) => (this.#override[d] = i));
    // Every chunk of the overlay's own is described by it (both lists ascending).
    const described = overlay.features.docs;
    let at = 0;
    for (const d of this.runs.own) {
      while (at < described.length && described[at]! < d) at++;
      if (described[at] !== d) throw inconsistent(`chunk ${d} is neither kept from the base nor described by the overlay`);
    }
    this.features = this.#composeFeatures();
    // A base read in pages fetches a chunk's names when a search needs them (see `fillNames`).
    if (!deferred) this.fillAllNames();
    if (deferred) {
      // A field's last bound is its lists' length: known now (the base's is), as a paged index's is.
      this.offsets.forEach((offsets, f) => (offsets[termCount] = this.#offsetOf(f, termCount)));
      for (let t = base.dictionary.size; t < termCount; t++) this.fillTerm(t);
    } else {
      // Every entry now, in one pass each (the same numbers `fillTerm` gives term by term).
      this.docFrequencies.set(base.docFrequencies.subarray(0, base.dictionary.size));
      for (let i = 0; i < terms.length; i++) this.docFrequencies[terms[i]!] = values[i]!;
      if (lists) overlay.fields.forEach((field, f) => {
        const baseOffsets = base.fields[f]!.offsets;
        const offsets = this.offsets[f]!;
        const baseTerms = base.dictionary.size;
        let j = 0;
        let sum = 0;
        for (let t = 0; t <= termCount; t++) {
          while (j < field.terms.length && field.terms[j]! < t) sum += field.deltas[j++]! | 0;
          const offset = baseOffsets[Math.min(t, baseTerms)]! + sum;
          if (offset < 0) throw inconsistent(`the ${f}th field's list bound of term ${t} is negative`);
          offsets[t] = offset;
        }
      });
    }
  }

  /** Puts term `term`'s document frequency and list bounds in (the base's, when it is a base term, fetched). */
  fillTerm(term: number): void {
    this.known[term] = 1;
    this.docFrequencies[term] = this.#frequencyOf(term);
    for (let f = 0; f < this.offsets.length; f++) {
      this.offsets[f]![term] = this.#offsetOf(f, term);
      this.offsets[f]![term + 1] = this.#offsetOf(f, term + 1);
    }
  }

  /** Puts chunk `doc`'s names in (a kept chunk's from the base, which must have fetched them). */
  fillNames(doc: number): void {
    if (this.#override[doc]! >= 0) return;
    const from = this.runs.baseOf(doc);
    if (from === NOT_KEPT) return;
    const base = this.#base.features;
    this.features.names.set(base.names.subarray(base.nameOffsets[from]!, base.nameOffsets[from + 1]!), this.features.nameOffsets[doc]!);
  }

  #frequencyOf(term: number): number {
    const { terms, values } = this.#overlay.frequencies;
    const i = indexIn(terms, term);
    if (i >= 0) return values[i]!;
    return term < this.#base.dictionary.size ? this.#base.docFrequencies[term]! : 0;
  }

  /** Field f's list bound of term `term`: the base's, moved by the overlay's changes to the terms before it. */
  #offsetOf(f: number, term: number): number {
    const baseOffsets = this.#base.fields[f]!.offsets;
    const at = baseOffsets[Math.min(term, this.#base.dictionary.size)]!;
    const before = countBelow(this.#overlay.fields[f]!.terms, term);
    const offset = at + (before === 0 ? 0 : this.#sums[f]![before - 1]!);
    if (offset < 0) throw inconsistent(`the ${f}th field's list bound of term ${term} is negative`);
    return offset;
  }

  /**
   * Every chunk's features: a run of kept chunks copies its base chunks' (one copy per run,
   * not per chunk: this runs when a one-shot search opens the index), a chunk the overlay
   * describes has the overlay's. Names are copied here only for a base held whole.
   */
  #composeFeatures(): ChunkFeatures {
    const { docCount, runs } = this.#overlay;
    const base = this.#base.features;
    const changed = this.#overlay.features;
    const evidence = new Uint8Array(docCount);
    const types = new Uint8Array(docCount);
    const descriptions = new Uint8Array(docCount);
    const counts = new Uint32Array(docCount);
    for (let r = 0; r < runs.length; r += 3) {
      const [start, from, length] = [runs[r]!, runs[r + 1]!, runs[r + 2]!];
      evidence.set(base.evidence.subarray(from, from + length), start);
      types.set(base.types.subarray(from, from + length), start);
      descriptions.set(base.descriptions.subarray(from, from + length), start);
      const offsets = base.nameOffsets;
      for (let i = 0; i < length; i++) counts[start + i] = offsets[from + i + 1]! - offsets[from + i]!;
    }
    changed.docs.forEach((d, i) => {
      evidence[d] = changed.evidence[i]!;
      types[d] = changed.types[i]!;
      descriptions[d] = changed.descriptions[i]!;
      counts[d] = changed.nameOffsets[i + 1]! - changed.nameOffsets[i]!;
    });
    const nameOffsets = new Uint32Array(docCount + 1);
    for (let d = 0; d < docCount; d++) nameOffsets[d + 1] = nameOffsets[d]! + counts[d]!;
    const names = new Uint32Array(nameOffsets[docCount]!);
    changed.docs.forEach((d, i) => names.set(changed.names.subarray(changed.nameOffsets[i]!, changed.nameOffsets[i + 1]!), nameOffsets[d]!));
    return { evidence, types, descriptions, nameOffsets, names };
  }

  /** Every kept chunk's names from the base held whole: one copy per stretch of a run between chunks the overlay describes. */
  fillAllNames(): void {
    const { runs } = this.#overlay;
    const base = this.#base.features;
    const { names, nameOffsets } = this.features;
    for (let r = 0; r < runs.length; r += 3) {
      const [start, from, length] = [runs[r]!, runs[r + 1]!, runs[r + 2]!];
      let first = 0;
      for (let i = 0; i <= length; i++) {
        if (i < length && this.#override[start + i]! < 0) continue;
        // Chunks first … i − 1 of the run keep their base chunks' names, which lie one after another.
        if (i > first) names.set(base.names.subarray(base.nameOffsets[from + first]!, base.nameOffsets[from + i]!), nameOffsets[start + first]!);
        first = i + 1;
      }
    }
  }
}

/**
 * The posting lists and term sequences of a base and an overlay: a base term's list is the
 * base's without the chunks the overlay replaced, renumbered, merged with the overlay's list
 * of it; a chunk kept from the base has the base's sequence. What must be fetched first (a
 * base read in pages) is fetched from the base, and the composed statistics and names of
 * what it fetched are worked out then.
 */
export class CompositePostings implements PostingSource {
  readonly #base: PostingSource;
  readonly #overlay: OverlayData;
  readonly #composition: Composition;
  readonly #baseTerms: number;
  readonly #termCount: number;
  readonly #deferred: boolean;

  constructor(base: PostingSource, overlay: OverlayData, composition: Composition, deferred: boolean) {
    this.#base = base;
    this.#overlay = overlay;
    this.#composition = composition;
    this.#baseTerms = overlay.base.termCount;
    this.#termCount = composition.docFrequencies.length;
    this.#deferred = deferred;
  }

  postings(field: number, term: number): TermPostings {
    if (!this.#composition.lists) throw new RagError('INVALID_ARGUMENT', 'This composed bm25 index was made for an update, without its posting lists.');
    const offsets = this.#composition.offsets[field]!;
    const length = offsets[term + 1]! - offsets[term]!;
    if (this.#composition.known[term] !== 1) {
      throw new RagError('INVALID_ARGUMENT', `The bm25 index is read in pages, and the list bounds of term ${term} were not fetched.`, { hint: 'Search with the query first (search fetches what it reads).' });
    }
    if (length === 0) return { docs: EMPTY_DOCS, tfs: EMPTY_TFS };
    if (!(length > 0)) throw inconsistent(`the list bounds of term ${term} in field ${field} are out of order`);
    const added = this.#overlayList(field, term);
    if (term >= this.#baseTerms) {
      if (added.docs.length !== length) throw inconsistent(`term ${term} has ${added.docs.length} postings in field ${field} where ${length} are recorded`);
      return added;
    }
    const base = this.#base.postings(field, term);
    const docs = new Uint32Array(length);
    const tfs = new Uint16Array(length);
    // Base chunks ascending, runs ascending: one walk finds each one's new id (or that it was replaced).
    const { starts, froms, lengths } = this.#composition.runs;
    let r = 0;
    let w = 0;
    let a = 0;
    for (let i = 0; i < base.docs.length && w < length; i++) {
      const b = base.docs[i]!;
      while (r < froms.length && froms[r]! + lengths[r]! <= b) r++;
      if (r >= froms.length || froms[r]! > b) continue;
      const d = starts[r]! + (b - froms[r]!);
      while (a < added.docs.length && added.docs[a]! < d && w < length) {
        docs[w] = added.docs[a]!;
        tfs[w++] = added.tfs[a++]!;
      }
      if (w < length) {
        docs[w] = d;
        tfs[w++] = base.tfs[i]!;
      }
    }
    for (; a < added.docs.length && w < length; a++) {
      docs[w] = added.docs[a]!;
      tfs[w++] = added.tfs[a]!;
    }
    if (w !== length || a !== added.docs.length) throw inconsistent(`term ${term} has another number of postings in field ${field} than ${length}, as recorded`);
    return { docs, tfs };
  }

  sequence(doc: number): Uint32Array {
    const from = this.#composition.runs.baseOf(doc);
    if (from !== NOT_KEPT) return this.#base.sequence(from);
    const { offsets, terms } = this.#overlay.sequences;
    const local = this.#composition.runs.localOf(doc);
    if (local < 0) throw new RagError('INVALID_ARGUMENT', `Chunk ${doc} is not in this index.`);
    const sequence = terms.subarray(offsets[local]!, offsets[local + 1]!);
    // Checked as it is handed out (see `OverlayDecodeOptions.checkedOnUse`): as long as the chunk's fields, its terms in range.
    let length = 0;
    for (const field of this.#overlay.fields) length += field.ownLengths[local]!;
    let consistent = sequence.length === length;
    for (let i = 0; consistent && i < sequence.length; i++) consistent = (sequence[i]! & TERM_ID_MASK) < this.#termCount;
    if (!consistent) throw inconsistent(`the term sequence of chunk ${doc} does not match its fields`);
    return sequence;
  }

  async prefetch(terms: readonly number[], chunks: readonly number[]): Promise<() => void> {
    if (!this.#base.prefetch) return () => {};
    const runs = this.#composition.runs;
    const baseChunks: number[] = [];
    for (const doc of chunks) {
      const from = runs.baseOf(doc);
      if (from !== NOT_KEPT) baseChunks.push(from);
    }
    const release = await this.#base.prefetch(
      terms.filter((term) => term < this.#baseTerms),
      baseChunks,
    );
    if (this.#deferred) {
      for (const term of terms) if (term >= 0 && term < this.#baseTerms) this.#composition.fillTerm(term);
      for (const doc of chunks) if (doc >= 0 && doc < this.#overlay.docCount) this.#composition.fillNames(doc);
    }
    return release;
  }

  async prefetchVocabulary(terms: Iterable<string>): Promise<void> {
    await this.#base.prefetchVocabulary?.(terms);
  }

  async prefetchStatistics(terms: readonly number[]): Promise<void> {
    const baseTerms = terms.filter((term) => term >= 0 && term < this.#baseTerms);
    await this.#base.prefetchStatistics?.(baseTerms);
    if (this.#deferred) for (const term of baseTerms) this.#composition.fillTerm(term);
  }

  /** Term `term`'s list among the overlay's own chunks (chunk ids ascending), checked as it is handed out. */
  #overlayList(field: number, term: number): TermPostings {
    const { touched, lists, docCount } = this.#overlay;
    const i = indexIn(touched, term);
    if (i < 0) return { docs: EMPTY_DOCS, tfs: EMPTY_TFS };
    const { offsets, docs, tfs } = lists[field]!;
    const list = { docs: docs.subarray(offsets[i]!, offsets[i + 1]!), tfs: tfs.subarray(offsets[i]!, offsets[i + 1]!) };
    for (let p = 0; p < list.docs.length; p++) {
      const d = list.docs[p]!;
      if (d >= docCount || this.#composition.runs.localOf(d) < 0 || (p > 0 && list.docs[p - 1]! >= d)) throw inconsistent(`the overlay's own list of term ${term} in field ${field} is out of order or range`);
    }
    return list;
  }
}

/**
 * The anchor hashes and mentions of the chunks a base and an overlay make together: a run of
 * kept chunks takes its base chunks', the overlay's own chunks (`ownDocs`, ascending) their
 * own. Unread (empty) where the base's were not read (a base read in pages for a search).
 */
export function composeAnchors(base: Bm25IndexData, overlay: OverlayData, ownDocs: ArrayLike<number> & Iterable<number> = new KeptRuns(overlay.runs, overlay.docCount).own): Pick<Bm25IndexData, 'anchorHashes' | 'anchorMentions'> {
  const { docCount, runs } = overlay;
  let anchorHashes = EMPTY_DOCS;
  if (base.anchorHashes.length === base.docCount * 2) {
    anchorHashes = new Uint32Array(docCount * 2);
    for (let r = 0; r < runs.length; r += 3) anchorHashes.set(base.anchorHashes.subarray(2 * runs[r + 1]!, 2 * (runs[r + 1]! + runs[r + 2]!)), 2 * runs[r]!);
    for (let i = 0; i < ownDocs.length; i++) anchorHashes.set(overlay.anchorHashes.subarray(2 * i, 2 * i + 2), 2 * ownDocs[i]!);
  }
  let anchorMentions = UNREAD_MENTIONS;
  const baseMentions = base.anchorMentions;
  if (baseMentions.offsets.length === base.docCount + 1 && baseMentions.defined.length === base.docCount) {
    // Each chunk's list: from its base chunk (kept) or from the overlay's own lists.
    const from = new Int32Array(keptFromRuns(runs, docCount));
    const own = new Int32Array(docCount).fill(-1);
    for (let i = 0; i < ownDocs.length; i++) own[ownDocs[i]!] = i;
    // Element by element: most chunks mention nothing, and a view per chunk would cost more than its copy.
    const offsets = new Uint32Array(docCount + 1);
    const ownMentions = overlay.anchorMentions;
    for (let d = 0; d < docCount; d++) {
      const b = from[d]!;
      offsets[d + 1] = offsets[d]! + (b >= 0 ? baseMentions.offsets[b + 1]! - baseMentions.offsets[b]! : ownMentions.offsets[own[d]! + 1]! - ownMentions.offsets[own[d]!]!);
    }
    const hashes = new Uint32Array(offsets[docCount]!);
    const defined = new Uint32Array(docCount);
    for (let d = 0; d < docCount; d++) defined[d] = from[d]! >= 0 ? baseMentions.defined[from[d]!]! : ownMentions.defined[own[d]!]!;
    for (let d = 0; d < docCount; d++) {
      if (offsets[d + 1] === offsets[d]) continue;
      const b = from[d]!;
      const list = b >= 0 ? baseMentions : ownMentions;
      const i = b >= 0 ? b : own[d]!;
      let at = offsets[d]!;
      for (let k = list.offsets[i]!; k < list.offsets[i + 1]!; k++) hashes[at++] = list.hashes[k]!;
    }
    anchorMentions = { offsets, hashes, defined };
  }
  return { anchorHashes, anchorMentions };
}

/** How {@link composeIndex} composes an index that is not searched. */
export interface ComposeOptions {
  /**
   * Whether the posting lists' bounds are composed (default true): an update reads the
   * previous index's statistics, lengths, features and term sequences, never a list, and
   * the bounds are a pass over every term of every field.
   */
  lists?: boolean;
  /** The composed anchor hashes and mentions when the caller has them already (`composeAnchors` of the same base and overlay). */
  anchors?: Pick<Bm25IndexData, 'anchorHashes' | 'anchorMentions'>;
}

/**
 * The index a base and an overlay make together. `deferred`: the base is read in pages (its
 * statistics, list bounds and names arrive as searches fetch them), so the composed ones are
 * worked out then; otherwise every entry now. Lengths, features and (with a base held whole)
 * anchor hashes cover every chunk at once.
 */
export function composeIndex(base: Bm25IndexData, basePostings: PostingSource, overlay: OverlayData, deferred = false, options: ComposeOptions = {}): { data: Bm25IndexData; postings: CompositePostings } {
  const composition = new Composition(base, overlay, deferred, options.lists ?? true);
  const { docCount, runs } = overlay;
  const ownDocs = composition.runs.own;
  // A run of kept chunks copies its base chunks' entries in one go; the overlay's own chunks have theirs.
  const lengths = overlay.fields.map((field, f) => {
    const baseLengths = base.fields[f]!.lengths;
    const composed = new Uint32Array(docCount);
    for (let r = 0; r < runs.length; r += 3) composed.set(baseLengths.subarray(runs[r + 1]!, runs[r + 1]! + runs[r + 2]!), runs[r]!);
    ownDocs.forEach((d, i) => (composed[d] = field.ownLengths[i]!));
    return composed;
  });
  const { anchorHashes, anchorMentions } = options.anchors ?? composeAnchors(base, overlay, ownDocs);
  const data: Bm25IndexData = {
    options: base.options,
    docCount,
    dictionary: new CompositeDictionary(base.dictionary, overlay.fresh, composition.gone),
    docFrequencies: composition.docFrequencies,
    fields: lengths.map((fieldLengths, f) => ({ offsets: composition.offsets[f]!, docs: EMPTY_DOCS, tfs: EMPTY_TFS, lengths: fieldLengths })),
    // A composite's sequences are read through its postings (chunk by chunk), never as one array.
    sequences: { offsets: EMPTY_DOCS, terms: EMPTY_DOCS },
    features: composition.features,
    anchorHashes,
    anchorMentions,
    chunkFingerprint: overlay.chunkFingerprint,
    composite: true,
  };
  return { data, postings: new CompositePostings(basePostings, overlay, composition, deferred) };
}
