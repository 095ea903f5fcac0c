import { RagError, type Chunk, type Explanation, type Hit, type ProgressFn } from '@rag/core';
import { buildIndexData, type Bm25IndexData, type ReusableBuild } from './build.js';
import { explainChunk, type ResolvedQueryTerm } from './explain.js';
import { FIELD_NAMES, resolveBm25Options, type Bm25Options } from './options.js';
import { fieldTermWeight, inverseDocumentFrequency, inverseLengthNorm, saturate } from './scoring.js';
import { createQueryTokenizer, type QueryTerm } from '@rag/text';
import { forEachSegment } from '@rag/text/internals';
import { selectTopK, takeTopKDense } from './top-k.js';
import { BlockSearch, blockTableBytes, DEFAULT_BLOCK_SHIFT, tabulateBlocks, type BlockedList } from './block-max.js';
import { maxScoreTopK, TermBounds, type PruningStats, type ScoringView } from './max-score.js';
import { arrayPostings, type PostingSource, type TermPostings } from './postings.js';

/** One term's chunks (ascending) with their saturated frequencies and block bounds (see `Bm25Index.#impactsOf`). */
interface TermImpacts extends BlockedList {
  /** What the cache counts for it. */
  bytes: number;
}

/**
 * Bytes of saturated frequencies and block tables a search index keeps (8 bytes per posting,
 * 4 more when a term's chunk ids had to be merged from several fields, at most 16 per block
 * a term occurs in and 4 per block for a term in many). The vLLM corpus has 1.8 M postings,
 * so a server keeps every term it was asked about; on a corpus many times larger the terms
 * kept longest make room.
 */
const MAX_CACHED_IMPACT_BYTES = 128 << 20;
/**
 * A query whose posting lists hold at least 1 / this many postings per chunk touches most
 * chunks: summing without tracking the touched ones, then scanning all chunks, costs less
 * than a branch per posting. Either way the hits are the same.
 */
const DENSE_POSTINGS_SHARE = 2;

/** Sizes of an index, for logs and benchmarks. */
export interface Bm25IndexStats {
  docCount: number;
  termCount: number;
  /** Postings per field, in `FIELD_NAMES` order. */
  postings: number[];
  averageFieldLengths: number[];
  /** Bytes of saturated frequencies and block tables kept for the terms searched so far. */
  cachedImpactBytes: number;
}

/** `docs` is a view of the index's postings (no memory of its own) unless `docsCopied`. */
function withBlockTable(docs: Uint32Array, impacts: Float64Array, blockCount: number, docsCopied: boolean): TermImpacts {
  const table = tabulateBlocks(docs, impacts, DEFAULT_BLOCK_SHIFT, blockCount);
  return { docs, impacts, table, bytes: (docsCopied ? docs.byteLength : 0) + impacts.byteLength + blockTableBytes(table) };
}

/**
 * How the first stage (`Bm25Index.searchTerms`) finds the best k chunks. Every choice returns
 * the same hits and scores, bit for bit; they differ in the work done.
 */
export interface FirstStageOptions {
  /**
   * Search several terms with MaxScore (see `maxScoreTopK`) instead. It reads a fraction of
   * the postings but does more work per chunk than the loops below, and is slower on
   * vLLM-sized corpora (see docs/scaling.md). Default false.
   */
  pruning?: boolean;
  /**
   * Sum into one score per chunk and look at chunks block by block (true), or track the
   * touched chunks and look only at them (false). Default: true when the query's postings
   * reach half the chunk count.
   */
  dense?: boolean;
  /**
   * With `dense`: skip every block of chunks whose bound (each term's largest impact in the
   * block, weighted and summed) is below the k-th best score so far — block-max pruning; false
   * sums every posting. Default true.
   */
  blocks?: boolean;
  /**
   * Keep each term's impacts and block table for later searches (true), or add every
   * posting's w · saturate(tf̃) straight into the scores and keep nothing (false): making the
   * impacts and tables costs more than one search saves with them, and a process that asks
   * one question (`rag search`) would spend most of its search on them. Default: false for an
   * index's first search (a one-question process never makes a second) unless `dense` or
   * `blocks` is given, true from then on.
   */
  cache?: boolean;
  /** Counts the postings summed (and blocks, when blocked). */
  stats?: PruningStats;
  /**
   * Only chunks whose id is 1 here are returned (see `SearchOptions.scope`). Scores are
   * summed as without a scope, so a hit in scope scores what it scores unscoped. MaxScore
   * (`pruning`) does not take a scope: a scoped search sums by blocks instead.
   */
  scope?: Uint8Array;
}

function averageOf(lengths: Uint32Array): number {
  let sum = 0;
  for (let i = 0; i < lengths.length; i++) sum += lengths[i]!;
  return lengths.length === 0 ? 0 : sum / lengths.length;
}

/**
 * A BM25F index over chunks with its query-time state: per-field inverse length norms
 * computed once, and reusable score accumulators sized to the corpus, so a query only
 * touches the chunks in its terms' postings and allocates nothing proportional to the
 * corpus. Not safe for concurrent use from several threads (JS has none sharing it).
 */
/** What field f's length norm B_f(d) is made of (see `lengthNorm`). */
interface LengthNorms {
  b: number;
  average: number;
  lengths: Uint32Array;
}

export class Bm25Index {
  readonly data: Bm25IndexData;
  /** Where posting lists and term sequences are read (views of `data`, or pages fetched from a store). */
  readonly postings: PostingSource;
  readonly averageFieldLengths: number[];
  /**
   * Per field what its length norm B_f(d) is made of: b, the average length and each chunk's
   * length. 1 / B_f(d) is computed where a posting is read (`inverseLengthNorm`, the same
   * number whenever computed), so opening an index makes no per-chunk table.
   */
  readonly #norms: readonly LengthNorms[];
  readonly #tokenizeQuery: (text: string) => QueryTerm[];
  #expansionGate: ((terms: QueryTerm[]) => QueryTerm[]) | undefined;
  /**
   * Scores in float64, not float32: explain() must reproduce a search score exactly and
   * the tests compare top-k with a brute force; the cost is 8 bytes per chunk.
   */
  readonly #scores: Float64Array;
  readonly #termWeights: Float64Array;
  readonly #touched: Uint32Array;
  readonly #termDocs: Uint32Array;
  readonly #view: ScoringView;
  /** Per-term score bounds for pruning, made on first use. */
  #bounds: TermBounds | undefined;
  /** Each searched term's chunks and saturated frequencies (see `#impactsOf`), made on first use. */
  readonly #impacts = new Map<number, TermImpacts>();
  #cachedBytes = 0;
  /** Buffers of the block-max first stage (see `searchTerms`). */
  readonly #blockSearch: BlockSearch;
  /** Whether a search has run (see `FirstStageOptions.cache`). */
  #searched = false;

  /** `postings`: default views of `data`'s arrays; an index read in pages passes its own (see `openPagedIndex`). */
  constructor(data: Bm25IndexData, postings: PostingSource = arrayPostings(data)) {
    this.data = data;
    this.postings = postings;
    const { docCount, options } = data;
    this.averageFieldLengths = data.fields.map((field) => averageOf(field.lengths));
    this.#norms = data.fields.map((field, f) => ({ b: options.fields[FIELD_NAMES[f]!].b, average: this.averageFieldLengths[f]!, lengths: field.lengths }));
    const norms = this.#norms;
    this.#tokenizeQuery = createQueryTokenizer(options.tokenizer, options.query);
    this.#scores = new Float64Array(docCount);
    this.#termWeights = new Float64Array(docCount);
    this.#touched = new Uint32Array(docCount);
    this.#termDocs = new Uint32Array(docCount);
    this.#blockSearch = new BlockSearch(docCount, DEFAULT_BLOCK_SHIFT);
    let tables: Float64Array[] | undefined;
    this.#view = {
      fieldCount: data.fields.length,
      postings: (f, id) => postings.postings(f, id),
      // The pruned first stage (opt-in) reads norms by chunk in its inner loop: tables, made once.
      get inverseNorms() {
        tables ??= norms.map(({ b, average, lengths }) => Float64Array.from(lengths, (length) => inverseLengthNorm(b, length, average)));
        return tables;
      },
      fieldWeights: FIELD_NAMES.map((name) => options.fields[name].weight),
      k1: options.k1,
    };
  }

  /** Builds an index; `settings` are validated (see `resolveBm25Options`). */
  /** `previous`: a build over earlier chunks whose analysed terms are taken over (see `ReusableBuild`); `collectGarbage`: see `BuildContext.collectGarbage`. */
  static build(chunks: readonly Chunk[], settings: unknown = {}, onProgress?: ProgressFn, previous?: ReusableBuild, collectGarbage?: () => void): Bm25Index {
    return new Bm25Index(buildIndexData(chunks, resolveBm25Options(settings), onProgress, previous, collectGarbage));
  }

  get options(): Bm25Options {
    return this.data.options;
  }

  get docCount(): number {
    return this.data.docCount;
  }

  stats(): Bm25IndexStats {
    return {
      docCount: this.data.docCount,
      termCount: this.data.dictionary.size,
      postings: this.data.fields.map((field) => field.offsets[field.offsets.length - 1]!),
      averageFieldLengths: [...this.averageFieldLengths],
      cachedImpactBytes: this.#cachedBytes,
    };
  }

  /** The query's terms that occur in the index, with ids and idf-scaled weights. */
  resolveQuery(query: string): ResolvedQueryTerm[] {
    const resolved: ResolvedQueryTerm[] = [];
    for (const { term, weight } of this.#queryTerms(query)) {
      const id = this.data.dictionary.lookup(term);
      if (id < 0) continue;
      const docFrequency = this.data.docFrequencies[id]!;
      const idf = inverseDocumentFrequency(this.data.docCount, docFrequency);
      resolved.push({ term, id, queryWeight: weight, docFrequency, idf, weight: weight * idf });
    }
    return resolved;
  }

  /**
   * Every term `query` can search, expansions included whether or not the expansion gate
   * keeps them: what a paged index's dictionary fetches before `termIdsOf`.
   */
  termStringsOf(query: string): string[] {
    return this.#tokenizeQuery(query).map((term) => term.term);
  }

  /**
   * Ids of the terms of {@link termStringsOf} that the index holds: what a paged index fetches
   * before `resolveQuery` and `search`.
   */
  termIdsOf(query: string): number[] {
    const ids: number[] = [];
    for (const { term } of this.#tokenizeQuery(query)) {
      const id = this.data.dictionary.lookup(term);
      if (id >= 0) ids.push(id);
    }
    return ids;
  }

  /**
   * The words of `query`, as written, that the index cannot match: each gives at least one
   * query term and none of its terms (aliases and abbreviations included) is in the
   * dictionary. Words the query drops (stopwords, question words) are never listed. A paged
   * index must have fetched the vocabulary of `termStringsOf(query)` first.
   */
  unindexedWords(query: string): string[] {
    const words: string[] = [];
    forEachSegment(query, (segment) => {
      if (words.includes(segment)) return;
      const terms = this.#tokenizeQuery(segment);
      if (terms.length > 0 && terms.every(({ term }) => this.data.dictionary.lookup(term) < 0)) words.push(segment);
    });
    return words;
  }

  /**
   * The words of `query`, as written, that the index holds in at most `maxChunks` chunks:
   * each gives at least one query term, some of its terms (aliases and abbreviations
   * included) are in the dictionary, and none of those is in more chunks. Unindexed words
   * are not listed (see {@link unindexedWords}). A paged index must have fetched the
   * vocabulary of `termStringsOf(query)` and the statistics of `termIdsOf(query)` first.
   */
  rareWords(query: string, maxChunks: number): string[] {
    const words: string[] = [];
    forEachSegment(query, (segment) => {
      if (words.includes(segment)) return;
      let held = false;
      for (const { term } of this.#tokenizeQuery(segment)) {
        const id = this.data.dictionary.lookup(term);
        if (id < 0) continue;
        if (this.data.docFrequencies[id]! > maxChunks) return;
        held = true;
      }
      if (held) words.push(segment);
    });
    return words;
  }

  /** The best `k` chunks for `query`, best first; [] when no query term is indexed. */
  search(query: string, k: number): Hit[] {
    return this.searchTerms(this.resolveQuery(query), k);
  }

  /**
   * `search` for terms already resolved by `resolveQuery` (callers that need them too resolve
   * once). Every way it can go returns the same hits, bit for bit (see `FirstStageOptions`).
   */
  searchTerms(terms: readonly ResolvedQueryTerm[], k: number, options: FirstStageOptions = {}): Hit[] {
    if (terms.length === 0 || k < 1) return [];
    const scope = options.scope;
    if (terms.length > 1 && options.pruning === true && scope === undefined) {
      this.#bounds ??= new TermBounds(this.#view, this.data.dictionary.size);
      return maxScoreTopK(this.#view, terms, k, this.#bounds, options.stats);
    }
    // Choosing how to sum (a test, a benchmark) chooses the cached lists those ways read.
    const cache = options.cache ?? (this.#searched || options.blocks !== undefined || options.dense !== undefined);
    this.#searched = true;
    if (!cache) return this.#sumPostingsOnce(terms, k, options);
    const scores = this.#scores;
    const lists = terms.map((term) => this.#impactsOf(term.id));
    let postings = 0;
    for (const list of lists) postings += list.docs.length;
    if (options.dense ?? postings * DENSE_POSTINGS_SHARE >= this.data.docCount) {
      if (options.blocks ?? true) {
        return this.#blockSearch.topK(
          lists,
          terms.map((term) => term.weight),
          scores,
          k,
          options.stats,
          scope,
        );
      }
      // Most chunks will be touched anyway: accumulate without tracking which, then look at
      // every chunk once. The sums are the same additions in the same order as below.
      if (options.stats) options.stats.postingsVisited += postings;
      for (let t = 0; t < lists.length; t++) {
        const { docs, impacts } = lists[t]!;
        const weight = terms[t]!.weight;
        for (let p = 0; p < docs.length; p++) scores[docs[p]!]! += weight * impacts[p]!;
      }
      return takeTopKDense(scores, this.data.docCount, k, scope);
    }
    if (options.stats) options.stats.postingsVisited += postings;
    const touched = this.#touched;
    let touchedCount = 0;
    for (let t = 0; t < lists.length; t++) {
      const term = terms[t]!;
      // w · saturate(tf̃) per chunk, with saturate(tf̃) computed once per posting: the same
      // numbers termContribution (and so explain) gives, at one multiply-add per posting.
      const { docs, impacts } = lists[t]!;
      const weight = term.weight;
      for (let p = 0; p < docs.length; p++) {
        const d = docs[p]!;
        if (scores[d] === 0) touched[touchedCount++] = d;
        scores[d]! += weight * impacts[p]!;
      }
    }
    const hits = selectTopK(touched, touchedCount, scores, k, scope);
    for (let i = 0; i < touchedCount; i++) scores[touched[i]!] = 0;
    return hits;
  }

  /**
   * `searchTerms` without the cache: each posting's w · saturate(tf̃) is computed as
   * `#impactsOf` computes an impact (the same operations in the same order, so the same
   * double) and added to its chunk's score at once, term by term in query order, as every
   * other way adds them; the hits are the same bit for bit.
   */
  #sumPostingsOnce(terms: readonly ResolvedQueryTerm[], k: number, options: FirstStageOptions): Hit[] {
    const { k1, fields: fieldOptions } = this.data.options;
    // saturate(fieldTermWeight(…, inverseLengthNorm(…))) is written out below: these loops run
    // cold (before the engine optimises them), where each call costs more than its arithmetic.
    // The same operations in the same order give the same doubles (a test compares).
    const k1Plus1 = k1 + 1;
    const scores = this.#scores;
    let listed = 0;
    for (const term of terms) {
      for (let f = 0; f < FIELD_NAMES.length; f++) {
        if (fieldOptions[FIELD_NAMES[f]!].weight === 0) continue;
        const { offsets } = this.data.fields[f]!;
        listed += offsets[term.id + 1]! - offsets[term.id]!;
      }
    }
    // As in searchTerms: when most chunks are touched, sum without tracking which.
    const dense = options.dense ?? listed * DENSE_POSTINGS_SHARE >= this.data.docCount;
    const touched = this.#touched;
    let touchedCount = 0;
    let postings = 0;
    for (const term of terms) {
      const weight = term.weight;
      const only = this.#onlyField(term.id);
      if (only >= 0) {
        const fieldWeight = fieldOptions[FIELD_NAMES[only]!].weight;
        const { docs, tfs } = this.postings.postings(only, term.id);
        const { b, average, lengths } = this.#norms[only]!;
        postings += docs.length;
        const oneMinusB = 1 - b;
        for (let p = 0; p < docs.length; p++) {
          const d = docs[p]!;
          if (!dense && scores[d] === 0) touched[touchedCount++] = d;
          const inverseNorm = average > 0 ? 1 / (oneMinusB + (b * lengths[d]!) / average) : 1;
          const tf = fieldWeight * tfs[p]! * inverseNorm;
          scores[d]! += weight * ((k1Plus1 * tf) / (k1 + tf));
        }
        continue;
      }
      // Several fields: tf̃ summed over them per chunk first, as #impactsOf does.
      const termWeights = this.#termWeights;
      const termDocs = this.#termDocs;
      const count = this.#combineFields(term.id);
      postings += count;
      for (let i = 0; i < count; i++) {
        const d = termDocs[i]!;
        const impact = (k1Plus1 * termWeights[d]!) / (k1 + termWeights[d]!);
        termWeights[d] = 0;
        if (!dense && scores[d] === 0) touched[touchedCount++] = d;
        scores[d]! += weight * impact;
      }
    }
    if (options.stats) options.stats.postingsVisited += postings;
    if (dense) return takeTopKDense(scores, this.data.docCount, k, options.scope);
    const hits = selectTopK(touched, touchedCount, scores, k, options.scope);
    for (let i = 0; i < touchedCount; i++) scores[touched[i]!] = 0;
    return hits;
  }

  /**
   * The chunks term `id` occurs in (scored fields) with saturate(tf̃) for each, tf̃ summed over
   * the fields in their order as explain() sums them. Kept per term; past
   * {@link MAX_CACHED_IMPACTS} kept postings the oldest terms make room, so memory stays bounded.
   */
  #impactsOf(id: number): TermImpacts {
    const cached = this.#impacts.get(id);
    if (cached) return cached;
    const { k1, fields: fieldOptions } = this.data.options;
    const only = this.#onlyField(id);
    let made: TermImpacts;
    if (only >= 0) {
      // One field holds every posting (the common case: body only): its chunk ids are a view.
      const weight = fieldOptions[FIELD_NAMES[only]!].weight;
      const { docs, tfs } = this.postings.postings(only, id);
      const { b, average, lengths } = this.#norms[only]!;
      const impacts = new Float64Array(docs.length);
      for (let p = 0; p < docs.length; p++) impacts[p] = saturate(fieldTermWeight(weight, tfs[p]!, inverseLengthNorm(b, lengths[docs[p]!]!, average)), k1);
      // A paged index's lists are copies the cache must count; an index held whole lends views.
      made = withBlockTable(docs, impacts, this.#blockSearch.blockCount, this.postings.prefetch !== undefined);
    } else {
      const termWeights = this.#termWeights;
      const termDocs = this.#termDocs;
      const count = this.#combineFields(id);
      // Ascending, as a single field's lists are: the block tables cut lists by chunk id.
      const docs = termDocs.slice(0, count).sort();
      const impacts = new Float64Array(count);
      for (let i = 0; i < count; i++) {
        const d = docs[i]!;
        impacts[i] = saturate(termWeights[d]!, k1);
        termWeights[d] = 0;
      }
      made = withBlockTable(docs, impacts, this.#blockSearch.blockCount, true);
    }
    // The terms kept longest go first (a Map iterates in insertion order).
    for (const [old, kept] of this.#impacts) {
      if (this.#cachedBytes + made.bytes <= MAX_CACHED_IMPACT_BYTES) break;
      this.#impacts.delete(old);
      this.#cachedBytes -= kept.bytes;
    }
    this.#impacts.set(id, made);
    this.#cachedBytes += made.bytes;
    return made;
  }

  /**
   * Term `id`'s tf̃ per chunk, summed over the scored fields in field order (as explain sums
   * them), into `#termWeights`; returns how many chunks it occurs in, listed in
   * `#termDocs[0 … count)`. The caller reads `#termWeights` for those and clears them.
   */
  #combineFields(id: number): number {
    const { fields: fieldOptions } = this.data.options;
    const termWeights = this.#termWeights;
    const termDocs = this.#termDocs;
    let count = 0;
    for (let f = 0; f < FIELD_NAMES.length; f++) {
      const weight = fieldOptions[FIELD_NAMES[f]!].weight;
      if (weight === 0) continue;
      const { docs, tfs } = this.postings.postings(f, id);
      const { b, average, lengths } = this.#norms[f]!;
      const oneMinusB = 1 - b;
      for (let p = 0; p < docs.length; p++) {
        const d = docs[p]!;
        if (termWeights[d] === 0) termDocs[count++] = d;
        // fieldTermWeight(weight, tf, inverseLengthNorm(b, length, average)) written out (see
        // #sumPostingsOnce): the same operations in the same order.
        termWeights[d]! += weight * tfs[p]! * (average > 0 ? 1 / (oneMinusB + (b * lengths[d]!) / average) : 1);
      }
    }
    return count;
  }

  /** The one scored field (weight > 0) with postings for term `id`, or -1 when several have. */
  #onlyField(id: number): number {
    let only = -1;
    for (let f = 0; f < FIELD_NAMES.length; f++) {
      const { offsets } = this.data.fields[f]!;
      if (offsets[id + 1] === offsets[id] || this.data.options.fields[FIELD_NAMES[f]!].weight === 0) continue;
      if (only >= 0) return -1;
      only = f;
    }
    return only;
  }

  /** Term frequency of term `id` in field `f` of chunk `doc` (binary search in its postings). */
  termFrequency(f: number, id: number, doc: number): number {
    const { offsets } = this.data.fields[f]!;
    if (offsets[id + 1] === offsets[id]) return 0;
    const { docs, tfs }: TermPostings = this.postings.postings(f, id);
    let lo = 0;
    let hi = docs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = docs[mid]!;
      if (at === doc) return tfs[mid]!;
      if (at < doc) lo = mid + 1;
      else hi = mid - 1;
    }
    return 0;
  }

  /** 1 / B_f(doc): the inverse length norm of field `f` of chunk `doc`. */
  inverseNorm(f: number, doc: number): number {
    const { b, average, lengths } = this.#norms[f]!;
    return inverseLengthNorm(b, lengths[doc]!, average);
  }

  /** Why chunk `chunkId` scores what it does for `query`; `value` equals its search score. */
  explain(query: string, chunkId: number): Explanation {
    if (!Number.isInteger(chunkId) || chunkId < 0 || chunkId >= this.data.docCount) {
      throw new RagError('INVALID_ARGUMENT', `Chunk id ${chunkId} is not in this index (it has ${this.data.docCount} chunks).`, {
        hint: `Pass an id between 0 and ${this.data.docCount - 1}.`,
      });
    }
    return explainChunk(this, this.#queryTerms(query), chunkId);
  }

  /**
   * Decides, per query, which expansion terms (`QueryTerm.expansion`) take part; the
   * retriever installs one that keeps identifier abbreviations for code-leaning questions
   * only. Search and explain both go through it, so they always agree.
   */
  gateQueryExpansions(gate: (terms: QueryTerm[]) => QueryTerm[]): void {
    this.#expansionGate = gate;
  }

  #queryTerms(query: string): QueryTerm[] {
    const terms = this.#tokenizeQuery(query);
    if (!terms.some((term) => term.expansion)) return terms;
    return this.#expansionGate ? this.#expansionGate(terms) : terms;
  }
}
