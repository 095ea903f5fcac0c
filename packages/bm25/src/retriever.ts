import { closeSync, existsSync, openSync, readSync } from 'node:fs';
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
  type SaveContext,
  type SearchOptions,
} from '@rag/core';
import { Bm25Index, type FirstStageOptions } from './bm25-index.js';
import { fingerprintChunks } from './checksum.js';
import { resolveBm25Options, type Bm25Settings } from './options.js';
import type { Bm25IndexData, ReusableBuild } from './build.js';
import { composeIndex } from './composite.js';
import type { LayeredFiles } from './overlay.js';
import { BASE_FILE_NAME, checkOverlayBase, decodeOverlay, encodeOverlayParts, OVERLAY_FILE_NAME, readOverlayHeader } from './overlay-file.js';
import { openPreviousIndex, updateAsOverlay } from './update.js';
import { openPagedIndex } from './paged.js';
import { BM25_FILE_NAME, decodeIndex, encodeIndexParts, HEADER_PROBE_BYTES, MAGIC, readHeader } from './persist.js';
import { arrayPostings, type PostingSource } from './postings.js';
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
  readonly #layered: LayeredFiles | undefined;

  /**
   * `prefetchTexts`: see `LoadContext.prefetchTexts` (the second stage reads candidates'
   * texts). `layered`: for an index made of a base and an overlay, what `save` writes.
   */
  constructor(index: Bm25Index, chunks?: readonly Chunk[], prefetchTexts?: (ids: readonly number[]) => Promise<void>, layered?: LayeredFiles) {
    this.index = index;
    this.#prefetchTexts = prefetchTexts;
    this.#layered = layered;
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

  /**
   * Writes `bm25.bin`; an index made of a base and an overlay writes `bm25-overlay.bin` and
   * puts its base next to it as `bm25-base.bin`, linked where the store can (`SaveContext.linkFile`).
   */
  async save(dir: string, context?: SaveContext): Promise<void> {
    if (this.#layered) return saveLayered(this.#layered, dir, context);
    if (this.index.postings.prefetch) {
      throw new RagError('INVALID_ARGUMENT', 'A bm25 index read in pages cannot be saved: its posting lists are in the store it was read from.', {
        hint: 'Build the retriever from the chunks (`rag index`) to save it.',
      });
    }
    await writeFileAtomic(join(dir, BM25_FILE_NAME), encodeIndexParts(this.index.data));
  }
}

/** Writes `bm25-overlay.bin` and puts the base beside it as `bm25-base.bin`, linked where the store can. */
async function saveLayered(layered: LayeredFiles, dir: string, context?: SaveContext): Promise<void> {
  await writeFileAtomic(join(dir, OVERLAY_FILE_NAME), encodeOverlayParts(layered.overlay));
  const target = join(dir, BASE_FILE_NAME);
  if (!(await context?.linkFile?.(layered.base.path, target))) await writeFileAtomic(target, await layered.base.read());
}

/**
 * What an update that writes an overlay returns: its files are written without composing the
 * index (an update only saves it); the first search, explanation or word lookup composes it.
 */
class LayeredUpdate implements Retriever {
  readonly name = 'bm25';
  readonly #files: LayeredFiles;
  readonly #make: () => Bm25Retriever;
  #made: Bm25Retriever | undefined;

  constructor(files: LayeredFiles, make: () => Bm25Retriever) {
    this.#files = files;
    this.#make = make;
  }

  /** The retriever over the composed index (made on first use). */
  get retriever(): Bm25Retriever {
    return (this.#made ??= this.#make());
  }

  search(query: string, options: SearchOptions): Promise<Hit[]> {
    return this.retriever.search(query, options);
  }

  explain(query: string, chunkId: number): Explanation {
    return this.retriever.explain(query, chunkId);
  }

  unindexedWords(query: string): Promise<string[]> {
    return this.retriever.unindexedWords(query);
  }

  rareWords(query: string): Promise<string[]> {
    return this.retriever.rareWords(query);
  }

  save(dir: string, context?: SaveContext): Promise<void> {
    return saveLayered(this.#files, dir, context);
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
 * `onNotice` is told why. A previous build made of a base and an overlay is given as its base
 * held whole, each new chunk the copy of a base chunk or of none.
 */
export async function readReusableBuild(previous: PreviousBuild, settings: Bm25Settings, onNotice?: (message: string) => void): Promise<ReusableBuild | undefined> {
  const stored = await openPreviousIndex(previous, resolveBm25Options(settings), onNotice);
  return stored ? await stored.wholeBase() : undefined;
}

/** Loads a retriever saved by `Bm25Retriever.save` from `dir`, checking it matches `chunks`. */
export async function loadBm25Retriever(dir: string, chunks: readonly Chunk[], context: LoadContext = {}): Promise<Bm25Retriever> {
  const layered = context.files ? !context.files.includes(BM25_FILE_NAME) && context.files.includes(OVERLAY_FILE_NAME) : !existsSync(join(dir, BM25_FILE_NAME)) && existsSync(join(dir, OVERLAY_FILE_NAME));
  if (layered) return loadLayered(dir, chunks, context);
  const path = join(dir, BM25_FILE_NAME);
  // A store that serves the file in checked pages: keep the dictionary and norms, fetch lists per search.
  const ranges = context.openRanges?.(path);
  if (ranges) {
    const paged = await openPagedIndex(ranges, path);
    checkChunkCount(paged.data.docCount, chunks.length, path);
    return new Bm25Retriever(new Bm25Index(paged.data, paged.postings), chunks, context.prefetchTexts);
  }
  const bytes = await readWhole(path, context);
  // Inside an index the store has just checked this file's sha256: the payload checksum would hash it twice.
  const data = decodeIndex(bytes, path, { checksum: context.verified !== true });
  // The store wrote this file with these chunks in one generation; elsewhere, check.
  checkFingerprint(data.chunkFingerprint, chunks, path, context);
  return new Bm25Retriever(new Bm25Index(data), chunks, context.prefetchTexts);
}

/** A base and its overlay: the base read in pages where the store serves it so, the overlay (a few MB) whole. */
async function loadLayered(dir: string, chunks: readonly Chunk[], context: LoadContext): Promise<Bm25Retriever> {
  const basePath = join(dir, BASE_FILE_NAME);
  const overlayPath = join(dir, OVERLAY_FILE_NAME);
  const ranges = context.openRanges?.(basePath);
  // Read for a few searches (its base in pages): the per-entry checks are made on use.
  const overlay = decodeOverlay(await readWhole(overlayPath, context), overlayPath, { checksum: context.verified !== true, checkedOnUse: ranges !== undefined });
  let base: { data: Bm25IndexData; postings: PostingSource; payloadChecksum: number };
  if (ranges) {
    base = await openPagedIndex(ranges, basePath);
  } else {
    const bytes = await readWhole(basePath, context);
    const data = decodeIndex(bytes, basePath, { checksum: context.verified !== true });
    base = { data, postings: arrayPostings(data), payloadChecksum: readHeader(bytes, basePath).payloadChecksum };
  }
  checkOverlayBase(overlay, base.data, base.payloadChecksum, overlayPath);
  const { data, postings } = composeIndex(base.data, base.postings, overlay, ranges !== undefined);
  checkChunkCount(data.docCount, chunks.length, overlayPath);
  checkFingerprint(data.chunkFingerprint, chunks, overlayPath, context);
  return new Bm25Retriever(new Bm25Index(data, postings), chunks, context.prefetchTexts, { overlay, base: { path: basePath, read: () => readWhole(basePath, context) } });
}

async function readWhole(path: string, context: LoadContext): Promise<Uint8Array> {
  try {
    return await (context.readFile ?? readFile)(path);
  } catch (error) {
    throw new RagError('INDEX_CORRUPT', `The bm25 index file ${path} is missing or unreadable.`, {
      hint: 'Rebuild the index with `rag index --corpus_dir <dir>`.',
      cause: error,
    });
  }
}

function checkChunkCount(indexed: number, given: number, path: string): void {
  if (indexed !== given) {
    throw new RagError('INDEX_CORRUPT', `The bm25 index ${path} has ${indexed} chunks where the index has ${given}.`, {
      hint: 'Rebuild the index with `rag index --corpus_dir <dir>`.',
    });
  }
}

/** The store wrote the index with these chunks in one generation (`LoadContext.verified`); elsewhere, check. */
function checkFingerprint(fingerprint: string, chunks: readonly Chunk[], path: string, context: LoadContext): void {
  if (context.verified !== true && fingerprint !== fingerprintChunks(chunks)) {
    throw new RagError('INDEX_CORRUPT', `The bm25 index ${path} was built over other chunks than the ${chunks.length} it is loaded with.`, {
      hint: 'Rebuild the index with `rag index --corpus_dir <dir>`.',
    });
  }
}

export const bm25RetrieverFactory: RetrieverFactory = {
  name: 'bm25',
  description: 'Code-aware BM25F over chunk text, file path and symbol (lexical, no model).',
  async build(chunks: readonly Chunk[], context: BuildContext = {}): Promise<Retriever> {
    const settings = (context.settings ?? {}) as Bm25Settings;
    if (!context.previous) return createBm25Retriever(chunks, settings, context.onProgress, undefined, context.collectGarbage);
    const options = resolveBm25Options(settings);
    const stored = await openPreviousIndex(context.previous, options, context.onNotice);
    const updated = stored ? await updateAsOverlay(chunks, options, stored) : undefined;
    if (updated) {
      context.onProgress?.({ phase: 'fit', done: chunks.length, total: chunks.length });
      return new LayeredUpdate(updated.files, () => new Bm25Retriever(updated.compose(), chunks, undefined, updated.files));
    }
    // No overlay (it would hold too much of the index): a whole index, taken over from the base.
    return createBm25Retriever(chunks, settings, context.onProgress, stored ? await stored.wholeBase() : undefined, context.collectGarbage);
  },
  load: loadBm25Retriever,
  async isCurrent(previous: CurrentBuildCheck, context: Pick<BuildContext, 'settings'> = {}): Promise<boolean> {
    try {
      const wanted = resolveBm25Options(context.settings ?? {});
      if (existsSync(join(previous.dir, BM25_FILE_NAME))) {
        const header = readHeader(readHead(join(previous.dir, BM25_FILE_NAME)), BM25_FILE_NAME);
        return header.docCount === previous.chunkCount && isDeepStrictEqual(resolveBm25Options(header.options), wanted);
      }
      // A base and an overlay: the overlay counts the chunks, the base holds the options.
      const overlay = readOverlayHeader(readHead(join(previous.dir, OVERLAY_FILE_NAME)), OVERLAY_FILE_NAME);
      const base = readHeader(readHead(join(previous.dir, BASE_FILE_NAME)), BASE_FILE_NAME);
      return overlay.docCount === previous.chunkCount && overlay.base.payloadChecksum === base.payloadChecksum && isDeepStrictEqual(resolveBm25Options(base.options), wanted);
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
