import { closeSync, openSync, readSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import {
  RagError,
  writeFileAtomic,
  type BuildContext,
  type Chunk,
  type CurrentBuildCheck,
  type Explanation,
  type Hit,
  type LoadContext,
  type PreviousBuild,
  type ProgressFn,
  type Retriever,
  type RetrieverFactory,
  type SearchOptions,
} from '@rag/core';
import { Bm25Index, type FirstStageOptions } from './bm25-index.js';
import { fingerprintChunks } from './checksum.js';
import { resolveBm25Options, type Bm25Settings } from './options.js';
import type { ReusableBuild } from './build.js';
import { openPagedIndex } from './paged.js';
import { BM25_FILE_NAME, decodeIndex, encodeIndexParts, HEADER_PROBE_BYTES, MAGIC, readHeader } from './persist.js';
import { Reranker } from './rerank/reranker.js';

function checkK(options: SearchOptions): number {
  const k = options?.k;
  if (typeof k !== 'number' || !Number.isInteger(k) || k < 1) {
    throw new RagError('INVALID_ARGUMENT', `Search needs k to be an integer ≥ 1 (got ${String(k)}).`, {
      hint: 'Pass { k: 5 } or another positive whole number.',
    });
  }
  return k;
}

function checkQuery(query: unknown): string {
  if (typeof query !== 'string') {
    throw new RagError('INVALID_ARGUMENT', 'Search needs the query as a string.', { hint: 'Pass the question text.' });
  }
  return query;
}

/**
 * Searches whose fetched lists a paged index keeps pinned after they return, so that
 * `explain` right after `search` (as hybrid fusion calls it) finds what it reads.
 */
const KEPT_SEARCHES = 4;

/**
 * Most chunks that may hold a word for `rareWords` to list it: a word one chunk of the
 * corpus holds is mentioned in passing (an example, a link, a changelog line), not a
 * subject of the corpus. Chosen on the answer sets of `pnpm bench:answers` (questions asked
 * of another codebase, and of their own): at 1 the answer-absent questions answered "not
 * found" 0.689 → 0.715 with no answerable one lost; at 2 → 0.733, but one answer that stated
 * the fact became "not found" (its "inside" is held by two chunks), and at 3 three did.
 */
export const RARE_WORD_MAX_CHUNKS = 1;

/**
 * The `Retriever` over a `Bm25Index`. Given the chunks the index was built over (their
 * texts, languages and paths), it also runs the second stage (`settings.rerank`); without
 * them, or with `rerank.depth` 0, hits carry plain BM25F scores.
 */
/** The first stage's options for a search's (`SearchOptions.scope`: only the chunks it holds). */
function firstStageOf(options: SearchOptions): FirstStageOptions {
  return options.scope === undefined ? {} : { scope: options.scope };
}

export class Bm25Retriever implements Retriever {
  readonly name = 'bm25';
  readonly index: Bm25Index;
  readonly reranker: Reranker | undefined;

  readonly #prefetchTexts: ((ids: readonly number[]) => Promise<void>) | undefined;
  /** Releases of the last searches' fetched lists (a paged index only; see `KEPT_SEARCHES`). */
  readonly #kept: (() => void)[] = [];

  /** `prefetchTexts`: see `LoadContext.prefetchTexts` (the second stage reads candidates' texts). */
  constructor(index: Bm25Index, chunks?: readonly Chunk[], prefetchTexts?: (ids: readonly number[]) => Promise<void>) {
    this.index = index;
    this.#prefetchTexts = prefetchTexts;
    if (chunks !== undefined && chunks.length !== index.docCount) {
      throw new RagError('INVALID_ARGUMENT', `The bm25 index has ${index.docCount} chunks but ${chunks.length} were given.`, {
        hint: 'Pass the chunks the index was built over.',
      });
    }
    this.reranker = chunks !== undefined && index.options.rerank.depth > 0 ? new Reranker(index, chunks) : undefined;
    const reranker = this.reranker;
    if (reranker && index.options.query.abbreviationWeight > 0) {
      // Abbreviations are how code spells words: only a question that reads like a code
      // question (its own words lean to code) searches them; a docs question keeps its words.
      index.gateQueryExpansions((terms) => {
        const ids = terms.filter((t) => !t.expansion).map((t) => index.data.dictionary.lookup(t.term)).filter((id) => id >= 0);
        const lean = reranker.leanOf(ids);
        return lean !== undefined && lean < 0 ? terms : terms.filter((t) => !t.expansion);
      });
    }
  }

  async search(query: string, options: SearchOptions): Promise<Hit[]> {
    if (this.index.postings.prefetch) return this.#searchPaged(query, options);
    if (!this.#prefetchTexts || !this.reranker) return this.searchSync(query, options);
    // Texts that live elsewhere (a database) are fetched once for all candidates, between the stages.
    const k = checkK(options);
    const reranker = this.reranker;
    const scope = reranker.scope(checkQuery(query));
    const terms = this.index.resolveQuery(scope.text);
    const candidates = this.index.searchTerms(terms, reranker.depthFor(k), firstStageOf(options));
    await this.#prefetchTexts(candidates.map((hit) => hit.chunkId));
    return reranker.rerank(scope.text, terms, candidates, k, scope.projects, options.join !== false);
  }

  /** See `Retriever.unindexedWords`; the question as asked, before any project scope is taken out of it. */
  async unindexedWords(query: string): Promise<string[]> {
    const text = checkQuery(query);
    await this.index.postings.prefetchVocabulary?.(this.index.termStringsOf(text));
    return this.index.unindexedWords(text);
  }

  /** See `Retriever.rareWords`: the words at most {@link RARE_WORD_MAX_CHUNKS} chunks hold. */
  async rareWords(query: string): Promise<string[]> {
    const text = checkQuery(query);
    const postings = this.index.postings;
    await postings.prefetchVocabulary?.(this.index.termStringsOf(text));
    await postings.prefetchStatistics?.(this.index.termIdsOf(text));
    return this.index.rareWords(text, RARE_WORD_MAX_CHUNKS);
  }

  /**
   * `search` over an index read in pages: the query's lists are fetched before the first
   * stage, the candidates' term sequences (and texts) between the stages; then both stages
   * run exactly as over an index held whole.
   */
  async #searchPaged(query: string, options: SearchOptions): Promise<Hit[]> {
    const k = checkK(options);
    const text = checkQuery(query);
    const postings = this.index.postings;
    const reranker = this.reranker;
    const scope = reranker ? reranker.scope(text) : { text, projects: [] };
    await postings.prefetchVocabulary?.(this.index.termStringsOf(scope.text));
    const releases = [await postings.prefetch!(this.index.termIdsOf(scope.text), [])];
    try {
      const terms = this.index.resolveQuery(scope.text);
      if (!reranker) return this.index.searchTerms(terms, k, firstStageOf(options));
      const candidates = this.index.searchTerms(terms, reranker.depthFor(k), firstStageOf(options));
      const ids = candidates.map((hit) => hit.chunkId);
      const [release] = await Promise.all([postings.prefetch!([], ids), this.#prefetchTexts?.(ids)]);
      releases.push(release);
      return reranker.rerank(scope.text, terms, candidates, k, scope.projects, options.join !== false);
    } finally {
      this.#kept.push(() => releases.forEach((release) => release()));
      while (this.#kept.length > KEPT_SEARCHES) this.#kept.shift()!();
    }
  }

  /** `search` without the promise, for callers in a hot loop (benchmarks, fusion); not for an index read in pages. */
  searchSync(query: string, options: SearchOptions): Hit[] {
    const k = checkK(options);
    checkQuery(query);
    if (!this.reranker) return this.index.searchTerms(this.index.resolveQuery(query), k, firstStageOf(options));
    const scope = this.reranker.scope(query);
    const terms = this.index.resolveQuery(scope.text);
    return this.reranker.rerank(scope.text, terms, this.index.searchTerms(terms, this.reranker.depthFor(k), firstStageOf(options)), k, scope.projects, options.join !== false);
  }

  /**
   * Why `chunkId` scores what it does. With the second stage on, the tree's root is the
   * second-stage score (equal to the search score of every hit it returned) and its first
   * detail holds the BM25F explanation; a chunk outside the re-scored depth gets the score
   * it would have had. An index read in pages explains from what its last few searches
   * fetched: search with the query first (`INVALID_ARGUMENT` says so otherwise).
   */
  explain(query: string, chunkId: number): Explanation {
    if (!this.reranker) return this.index.explain(query, chunkId);
    const scope = this.reranker.scope(query);
    const first = this.index.explain(scope.text, chunkId);
    const top = this.index.search(scope.text, 1)[0]?.score ?? 0;
    return this.reranker.explain(scope.text, chunkId, first, top, scope.projects);
  }

  async save(dir: string): Promise<void> {
    if (this.index.postings.prefetch) {
      throw new RagError('INVALID_ARGUMENT', 'A bm25 index read in pages cannot be saved: its posting lists are in the store it was read from.', {
        hint: 'Build the retriever from the chunks (`rag index`) to save it.',
      });
    }
    await writeFileAtomic(join(dir, BM25_FILE_NAME), encodeIndexParts(this.index.data));
  }
}

/**
 * Builds a BM25 retriever over `chunks` (ids equal to positions). `settings` is any
 * subset of the options (see `DEFAULT_BM25_OPTIONS`); invalid values throw
 * `RagError('INVALID_ARGUMENT')` naming the field.
 */
export function createBm25Retriever(chunks: readonly Chunk[], settings: Bm25Settings = {}, onProgress?: ProgressFn, previous?: ReusableBuild, collectGarbage?: () => void): Bm25Retriever {
  return new Bm25Retriever(Bm25Index.build(chunks, settings, onProgress, previous, collectGarbage), chunks);
}

/**
 * The previous build's index when it can be taken over for `settings`: same options, built
 * over exactly `previous.chunks`. Anything else (another format, other options, a damaged
 * file) gives undefined and the build analyses every chunk, as without a previous build;
 * `onNotice` is told why.
 */
export async function readReusableBuild(previous: PreviousBuild, settings: Bm25Settings, onNotice?: (message: string) => void): Promise<ReusableBuild | undefined> {
  const refit = (why: string): undefined => {
    onNotice?.(`the previous bm25 index was not reused, so every chunk was analysed again: ${why}`);
    return undefined;
  };
  try {
    // A file the store has just verified is not hashed again, nor matched to its chunks (see `PreviousBuild.verified`).
    const verified = previous.verified === true;
    const data = decodeIndex(await (previous.readFile ?? readFile)(join(previous.dir, BM25_FILE_NAME)), BM25_FILE_NAME, { checksum: !verified });
    if (!isDeepStrictEqual(data.options, resolveBm25Options(settings))) return refit('it was built with other settings.');
    if (!verified && data.chunkFingerprint !== fingerprintChunks(previous.chunks)) return refit('it was built over other chunks.');
    return { data, sourceOf: previous.sourceOf };
  } catch (error) {
    // Another format version (INDEX_INCOMPATIBLE) or a damaged file: its message says which.
    return refit(error instanceof Error ? error.message : String(error));
  }
}

/** Loads a retriever saved by `Bm25Retriever.save` from `dir`, checking it matches `chunks`. */
export async function loadBm25Retriever(dir: string, chunks: readonly Chunk[], context: LoadContext = {}): Promise<Bm25Retriever> {
  const path = join(dir, BM25_FILE_NAME);
  // A store that serves the file in checked pages: keep the dictionary and norms, fetch lists per search.
  const ranges = context.openRanges?.(path);
  if (ranges) {
    const paged = await openPagedIndex(ranges, path);
    if (paged.data.docCount !== chunks.length) {
      throw new RagError('INDEX_CORRUPT', `The bm25 index ${path} has ${paged.data.docCount} chunks where the index has ${chunks.length}.`, {
        hint: 'Rebuild the index with `rag index --corpus_dir <dir>`.',
      });
    }
    return new Bm25Retriever(new Bm25Index(paged.data, paged.postings), chunks, context.prefetchTexts);
  }
  let bytes: Uint8Array;
  try {
    bytes = await (context.readFile ?? readFile)(path);
  } catch (error) {
    throw new RagError('INDEX_CORRUPT', `The bm25 index file ${path} is missing or unreadable.`, {
      hint: 'Rebuild the index with `rag index --corpus_dir <dir>`.',
      cause: error,
    });
  }
  // Inside an index the store has just checked this file's sha256: the payload checksum would hash it twice.
  const data = decodeIndex(bytes, path, { checksum: context.verified !== true });
  // The store wrote this file with these chunks in one generation; elsewhere, check.
  if (context.verified !== true && data.chunkFingerprint !== fingerprintChunks(chunks)) {
    throw new RagError('INDEX_CORRUPT', `The bm25 index ${path} was built over other chunks than the ${chunks.length} it is loaded with.`, {
      hint: 'Rebuild the index with `rag index --corpus_dir <dir>`.',
    });
  }
  return new Bm25Retriever(new Bm25Index(data), chunks, context.prefetchTexts);
}

export const bm25RetrieverFactory: RetrieverFactory = {
  name: 'bm25',
  description: 'Code-aware BM25F over chunk text, file path and symbol (lexical, no model).',
  async build(chunks: readonly Chunk[], context: BuildContext = {}): Promise<Retriever> {
    const settings = (context.settings ?? {}) as Bm25Settings;
    const previous = context.previous ? await readReusableBuild(context.previous, settings, context.onNotice) : undefined;
    return createBm25Retriever(chunks, settings, context.onProgress, previous, context.collectGarbage);
  },
  load: loadBm25Retriever,
  async isCurrent(previous: CurrentBuildCheck, context: Pick<BuildContext, 'settings'> = {}): Promise<boolean> {
    try {
      const header = readHeader(readHead(join(previous.dir, BM25_FILE_NAME)), BM25_FILE_NAME);
      return header.docCount === previous.chunkCount && isDeepStrictEqual(resolveBm25Options(header.options), resolveBm25Options(context.settings ?? {}));
    } catch {
      return false;
    }
  },
};

/** The first bytes of a bm25 file, through the end of its header (what `readHeader` needs). */
function readHead(path: string): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const probe = Buffer.alloc(HEADER_PROBE_BYTES);
    const got = readSync(fd, probe, 0, probe.length, 0);
    const needed = got >= MAGIC.length + 4 ? MAGIC.length + 4 + probe.readUInt32LE(MAGIC.length) : got;
    if (needed <= got) return probe.subarray(0, got);
    const head = Buffer.alloc(needed);
    return head.subarray(0, readSync(fd, head, 0, needed, 0));
  } finally {
    closeSync(fd);
  }
}
