import { RagError } from '@rag/core';
import type { Bm25IndexData } from './build.js';
import { TermDictionary } from './dictionary.js';
import type { OverlayData } from './overlay.js';
import type { PostingSource, TermPostings } from './postings.js';
import { TERM_ID_MASK } from './term-interner.js';

/** `OverlayData.keptFrom` of a chunk the overlay holds itself (no base chunk). */
export const NOT_KEPT = 0xffffffff;

const EMPTY_DOCS = new Uint32Array(0);
const EMPTY_TFS = new Uint16Array(0);

/**
 * The terms of an index made of a base and an overlay: the base's terms keep their ids (a
 * term no chunk holds any more stays in the base, and is not found), the overlay's new terms
 * come after them, sorted among themselves. So term ids are not in term order here, as they
 * are in a file of its own; nothing but the writer of a file relies on that order.
 */
export class CompositeDictionary extends TermDictionary {
  readonly #base: TermDictionary;
  readonly #fresh: TermDictionary;
  readonly #docFrequencies: Uint32Array;
  readonly #baseSize: number;

  constructor(base: TermDictionary, fresh: TermDictionary, docFrequencies: Uint32Array) {
    super(fresh.bytes, fresh.offsets);
    this.#base = base;
    this.#fresh = fresh;
    this.#docFrequencies = docFrequencies;
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
    if (id >= 0) return this.#docFrequencies[id]! > 0 ? id : -1;
    const fresh = this.#fresh.lookup(term);
    return fresh < 0 ? -1 : this.#baseSize + fresh;
  }

  /** Every term some chunk holds, in id order. */
  override *terms(): IterableIterator<string> {
    for (let id = 0; id < this.size; id++) if (this.#docFrequencies[id]! > 0) yield this.termAt(id);
  }

  override lowerBound(): number {
    throw new RagError('INVALID_ARGUMENT', 'The terms of a base and an overlay are not in one sorted order.', { hint: 'Look terms up with lookup().' });
  }

  override lookupWithin(): number {
    throw new RagError('INVALID_ARGUMENT', 'The terms of a base and an overlay are not in one sorted order.', { hint: 'Look terms up with lookup().' });
  }
}

/**
 * The posting lists and term sequences of a base and an overlay: a base term's list is the
 * base's without the chunks the overlay replaced, renumbered, merged with the overlay's list
 * of it; a chunk kept from the base has the base's sequence. What must be fetched first (a
 * base read in pages) is fetched from the base.
 */
export class CompositePostings implements PostingSource {
  readonly #base: PostingSource;
  readonly #overlay: OverlayData;
  readonly #baseTerms: number;
  /** Base chunk id → chunk id, -1 for a base chunk the overlay replaced. */
  readonly #newDocOf: Int32Array;
  /** Chunk id → its place among the overlay's own chunks, -1 for a chunk kept from the base. */
  readonly #local: Int32Array;
  readonly #offsets: readonly Uint32Array[];
  readonly #termCount: number;

  constructor(base: PostingSource, overlay: OverlayData) {
    this.#base = base;
    this.#overlay = overlay;
    this.#termCount = overlay.docFrequencies.length;
    this.#baseTerms = overlay.base.termCount;
    this.#offsets = overlay.fields.map((field) => field.offsets);
    this.#newDocOf = new Int32Array(overlay.base.docCount).fill(-1);
    this.#local = new Int32Array(overlay.docCount).fill(-1);
    let local = 0;
    overlay.keptFrom.forEach((from, d) => {
      if (from === NOT_KEPT) this.#local[d] = local++;
      else this.#newDocOf[from] = d;
    });
  }

  postings(field: number, term: number): TermPostings {
    const offsets = this.#offsets[field]!;
    const length = offsets[term + 1]! - offsets[term]!;
    if (length === 0) return { docs: EMPTY_DOCS, tfs: EMPTY_TFS };
    if (!(length > 0)) throw inconsistent(`the list bounds of term ${term} in field ${field} are out of order`);
    const added = this.#overlayList(field, term);
    if (term >= this.#baseTerms) return added;
    const base = this.#base.postings(field, term);
    const docs = new Uint32Array(length);
    const tfs = new Uint16Array(length);
    const newDocOf = this.#newDocOf;
    let w = 0;
    let a = 0;
    for (let i = 0; i < base.docs.length; i++) {
      const d = newDocOf[base.docs[i]!]!;
      if (d < 0) continue;
      while (a < added.docs.length && added.docs[a]! < d) {
        docs[w] = added.docs[a]!;
        tfs[w++] = added.tfs[a++]!;
      }
      docs[w] = d;
      tfs[w++] = base.tfs[i]!;
    }
    for (; a < added.docs.length; a++) {
      docs[w] = added.docs[a]!;
      tfs[w++] = added.tfs[a]!;
    }
    if (w !== length) throw inconsistent(`term ${term} has ${w} postings in field ${field} where ${length} are recorded`);
    return { docs, tfs };
  }

  sequence(doc: number): Uint32Array {
    const from = this.#overlay.keptFrom[doc]!;
    if (from !== NOT_KEPT) return this.#base.sequence(from);
    const { offsets, terms } = this.#overlay.sequences;
    const local = this.#local[doc]!;
    const sequence = terms.subarray(offsets[local]!, offsets[local + 1]!);
    // Checked as it is handed out (see `OverlayDecodeOptions.checkedOnUse`): as long as the chunk's fields, its terms in range.
    let length = 0;
    for (const field of this.#overlay.fields) length += field.lengths[doc]!;
    let consistent = sequence.length === length;
    for (let i = 0; consistent && i < sequence.length; i++) consistent = (sequence[i]! & TERM_ID_MASK) < this.#termCount;
    if (!consistent) throw inconsistent(`the term sequence of chunk ${doc} does not match its fields`);
    return sequence;
  }

  async prefetch(terms: readonly number[], chunks: readonly number[]): Promise<() => void> {
    if (!this.#base.prefetch) return () => {};
    const baseTerms = terms.filter((term) => term < this.#baseTerms);
    const baseChunks: number[] = [];
    for (const doc of chunks) if (this.#overlay.keptFrom[doc] !== NOT_KEPT) baseChunks.push(this.#overlay.keptFrom[doc]!);
    return this.#base.prefetch(baseTerms, baseChunks);
  }

  async prefetchVocabulary(terms: Iterable<string>): Promise<void> {
    await this.#base.prefetchVocabulary?.(terms);
  }

  /** The overlay's document frequencies are all in memory: nothing to fetch. */
  async prefetchStatistics(): Promise<void> {}

  /** Term `term`'s list among the overlay's own chunks (chunk ids ascending). */
  #overlayList(field: number, term: number): TermPostings {
    const { touched, lists } = this.#overlay;
    let low = 0;
    let high = touched.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const at = touched[middle]!;
      if (at === term) {
        const { offsets, docs, tfs } = lists[field]!;
        const list = { docs: docs.subarray(offsets[middle]!, offsets[middle + 1]!), tfs: tfs.subarray(offsets[middle]!, offsets[middle + 1]!) };
        // Checked as it is handed out: the overlay's own chunks, ascending.
        for (let i = 0; i < list.docs.length; i++) {
          const d = list.docs[i]!;
          if (d >= this.#overlay.docCount || this.#overlay.keptFrom[d] !== NOT_KEPT || (i > 0 && list.docs[i - 1]! >= d)) throw inconsistent(`the overlay's own list of term ${term} in field ${field} is out of order or range`);
        }
        return list;
      }
      if (at < term) low = middle + 1;
      else high = middle - 1;
    }
    return { docs: EMPTY_DOCS, tfs: EMPTY_TFS };
  }
}

function inconsistent(what: string): RagError {
  return new RagError('INDEX_CORRUPT', `The bm25 overlay does not match its base: ${what}.`, { hint: 'Rebuild the index with `rag index --full`.' });
}

/**
 * The index a base (held whole or read in pages) and an overlay make together: the overlay's
 * statistics, lengths, features and anchor hashes, which cover every chunk, over the base's
 * and the overlay's lists and sequences (see `CompositePostings`).
 */
export function composeIndex(base: Bm25IndexData, basePostings: PostingSource, overlay: OverlayData): { data: Bm25IndexData; postings: CompositePostings } {
  const docCount = overlay.docCount;
  const lengths = overlay.fields.map((field) => field.lengths);
  const offsets = new Uint32Array(docCount + 1);
  for (let d = 0; d < docCount; d++) {
    let length = 0;
    for (const field of lengths) length += field[d]!;
    offsets[d + 1] = offsets[d]! + length;
  }
  const data: Bm25IndexData = {
    options: base.options,
    docCount,
    dictionary: new CompositeDictionary(base.dictionary, overlay.fresh, overlay.docFrequencies),
    docFrequencies: overlay.docFrequencies,
    fields: overlay.fields.map((field) => ({ offsets: field.offsets, docs: EMPTY_DOCS, tfs: EMPTY_TFS, lengths: field.lengths })),
    sequences: { offsets, terms: EMPTY_DOCS },
    features: overlay.features,
    anchorHashes: overlay.anchorHashes,
    chunkFingerprint: overlay.chunkFingerprint,
    composite: true,
  };
  return { data, postings: new CompositePostings(basePostings, overlay) };
}
