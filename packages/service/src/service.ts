import { chunkIdsOf, compilePathGlobs, RagError, scopeSize, type Chunk, type Source } from '@rag/core';
import { toSourceForAnswer, type AnswerResult } from '@rag/generation';
import { AnswerQueue, type QueueState, type Release } from './answer-queue.js';
import { CorpusReader, type SpanRequest, type SpanText } from './corpus-reader.js';
import { GeneratorPool } from './generator-pool.js';
import type { IndexSession, SessionHit } from '@rag/core';
import type { SearchPool, SearchPoolState } from './search-pool.js';
import { DEFAULT_ANSWER_K, DEFAULT_SEARCH_K, MAX_K, MAX_QUERY_LENGTH } from './options.js';
import { noMatchesInScope, noMatchesReason } from './search.js';
import { StalenessTracker } from '@rag/core';
import { searchViewOf, serializeSearchView, viewHits, type SearchView } from './search-view.js';

export interface SearchRequest {
  query: string;
  /** 1 … {@link MAX_K}; default {@link DEFAULT_SEARCH_K}. */
  k?: number | undefined;
  /** One of the index's retrievers; default the server's. */
  retriever?: string | undefined;
  /**
   * Only hits in the files these globs match (.gitignore syntax, relative to the indexed
   * folder; `!` leaves out; see `compilePathGlobs` of @rag/core). None or `[]`: every file.
   */
  globs?: readonly string[] | undefined;
}

export interface AnswerRequest {
  query: string;
  /** Sources handed to the generator, 1 … {@link MAX_K}; default {@link DEFAULT_ANSWER_K}. */
  k?: number | undefined;
  generator?: string | undefined;
  retriever?: string | undefined;
  /** Answer from the files these globs match only (see {@link SearchRequest.globs}). */
  globs?: readonly string[] | undefined;
}

export interface CitedSourceView extends Source {
  /** The `[n]` the answer uses: the n-th hit of the `sources` event. */
  n: number;
  lines: { start: number; end: number };
  symbol: string;
  /** Exact quoted spans (code points), when the generator knows them. */
  quotes?: { first_character_index: number; last_character_index: number }[];
}

export interface AnswerView {
  question: string;
  answer: string;
  cited_sources: CitedSourceView[];
  dropped_citations: number[];
  generator: string;
  model_id?: string;
  finish_reason: 'stop' | 'length';
  sources_used: number;
  prompt_tokens: number;
  generated_tokens: number;
  elapsed_ms: number;
}

/** What an answer stream yields: sources first, maybe a wait, tokens, and the answer last. */
export type AnswerEvent =
  | { type: 'sources'; search: SearchView }
  | { type: 'queued'; position: number }
  | { type: 'token'; text: string }
  | { type: 'done'; answer: AnswerView };

export interface StatsView {
  index_dir: string;
  corpus_dir: string;
  files: number;
  chunks: number;
  index_created_at: string;
  index_age_seconds: number;
  tool_version: string;
  retriever: string;
  retrievers: string[];
  generator: string;
  generators: string[];
  /** True when any indexed file changed or disappeared since indexing. */
  stale: boolean;
  changed_count: number;
  missing_count: number;
  /** The first {@link LISTED_STALE_FILES} changed files, as output paths. */
  changed_files: string[];
  missing_files: string[];
  answers: QueueState;
  /** Search worker threads (all zero when searches run on the server's own thread). */
  search_workers: SearchPoolState;
  /** The corpus watcher's state (see `ServiceOptions.watch`); null when the index is not watched. */
  watch: WatchState | null;
  uptime_seconds: number;
}

/** What a service's corpus watcher has done (see {@link StatsView.watch}). */
export interface WatchState {
  /** Milliseconds between looks at the corpus by the clock (see {@link change_reports}). */
  interval_ms: number;
  /**
   * True while the file system reports changes in the corpus's folders and looks start on
   * them (the clock then looks once a minute); false when the watcher looks by the clock only
   * (`--watch_poll`, folders that cannot be watched, or before its first look).
   */
  change_reports: boolean;
  /** Updates served since the service started. */
  updates: number;
  /** When the last update was served (ISO 8601); null before the first. */
  last_update_at: string | null;
  /** Why the last look or update failed, when it did (the next look tries again); null otherwise. */
  last_failure: string | null;
}

/** A running corpus watcher, as the service holds it. */
export interface ServiceWatcher {
  state(): WatchState;
  close(): Promise<void>;
}

/** How many changed or missing files `/stats` names; the counts are always complete. */
export const LISTED_STALE_FILES = 50;

export interface RagServiceParts {
  session: IndexSession;
  generators: GeneratorPool;
  queue: AnswerQueue;
  staleCheckIntervalMs: number;
  /** Worker threads that run the searches; without one they run on this thread. */
  pool?: SearchPool;
  /**
   * Opens the index's published generation again (a session and, with workers, a pool):
   * how the service moves to a generation published after it started. With
   * `followIntervalMs` > 0 it checks at most that often, on a request, whether the store
   * publishes another generation, and then opens it and switches to it.
   */
  reopen?: () => Promise<{ session: IndexSession; pool?: SearchPool | undefined }>;
  /** See `reopen`; 0 (the default) keeps the generation opened. */
  followIntervalMs?: number;
  /**
   * Starts what keeps the index up to date while it is served (`watchCorpus`), given what
   * moves the service to a newly published generation; closed with the service.
   */
  startWatcher?: (followPublished: () => Promise<boolean>) => ServiceWatcher;
}

/** The index generation a service searches, with what reads from it. */
interface ServedGeneration {
  session: IndexSession;
  pool: SearchPool | undefined;
  tracker: StalenessTracker;
  reader: CorpusReader;
}

/**
 * How long a generation the service has moved away from stays open: searches that started
 * on it finish (they take milliseconds; answers read texts when their search ends).
 */
const RETIRED_GENERATION_GRACE_MS = 30_000;

function checkQuery(query: string): string {
  const trimmed = query.trim();
  if (trimmed.length === 0) throw new RagError('INVALID_ARGUMENT', 'query is empty.', { hint: 'Ask a question, e.g. "How is the cache sized?"' });
  if (query.length > MAX_QUERY_LENGTH) {
    throw new RagError('INVALID_ARGUMENT', `query is longer than ${MAX_QUERY_LENGTH} characters.`, { hint: 'Ask a shorter question.' });
  }
  return trimmed;
}

function checkK(k: number | undefined, fallback: number): number {
  const value = k ?? fallback;
  if (!Number.isInteger(value) || value < 1 || value > MAX_K) {
    throw new RagError('INVALID_ARGUMENT', `k must be a whole number in [1, ${MAX_K}]; got ${String(k)}.`);
  }
  return value;
}

function toAnswerView(question: string, result: AnswerResult): AnswerView {
  const view: AnswerView = {
    question,
    answer: result.answer,
    cited_sources: result.citedSources.map((c) => {
      const cited: CitedSourceView = {
        n: c.n,
        file_path: c.file_path,
        first_character_index: c.first_character_index,
        last_character_index: c.last_character_index,
        lines: { start: c.start_line, end: c.end_line },
        symbol: c.symbol,
      };
      if (c.quotes) cited.quotes = c.quotes.map((q) => ({ first_character_index: q.first_character_index, last_character_index: q.last_character_index }));
      return cited;
    }),
    dropped_citations: result.droppedCitations,
    generator: result.generator,
    finish_reason: result.finishReason,
    sources_used: result.sourcesUsed,
    prompt_tokens: result.promptTokens,
    generated_tokens: result.generatedTokens,
    elapsed_ms: Math.round(result.elapsedMs),
  };
  if (result.modelId !== undefined) view.model_id = result.modelId;
  return view;
}

/** Stops a generation's workers (after their searches), closes its texts and, with `store`, the store's connections. */
async function closeGeneration(session: IndexSession, pool: SearchPool | undefined, store = true): Promise<void> {
  await pool?.close();
  session.close();
  if (store) await session.store.close();
}

/**
 * Everything the HTTP routes and the MCP tools do, composed from the packages: search,
 * answer, read a span, report on the index. Transports only translate.
 */
export class RagService {
  readonly generators: GeneratorPool;
  readonly queue: AnswerQueue;
  readonly #started = Date.now();
  readonly #staleCheckIntervalMs: number;
  readonly #reopen: RagServiceParts['reopen'];
  readonly #followIntervalMs: number;
  #current: ServedGeneration;
  #lastFollowCheck = Date.now();
  #following: Promise<boolean> | undefined;
  /** Generations moved away from, each closed when its grace timer fires (or when the service closes). */
  readonly #retired = new Map<ServedGeneration, NodeJS.Timeout>();
  #closing: Promise<void> | undefined;
  readonly #watcher: ServiceWatcher | undefined;

  constructor(options: RagServiceParts) {
    this.generators = options.generators;
    this.queue = options.queue;
    this.#staleCheckIntervalMs = options.staleCheckIntervalMs;
    this.#reopen = options.reopen;
    this.#followIntervalMs = options.followIntervalMs ?? 0;
    this.#current = this.#serve(options.session, options.pool);
    this.#watcher = options.startWatcher?.(() => this.followPublished());
  }

  /** The index session searched now (another one after the service moved to a newer generation). */
  get session(): IndexSession {
    return this.#current.session;
  }

  get reader(): CorpusReader {
    return this.#current.reader;
  }

  get tracker(): StalenessTracker {
    return this.#current.tracker;
  }

  #serve(session: IndexSession, pool: SearchPool | undefined): ServedGeneration {
    const tracker = new StalenessTracker(session.manifest.corpusDir, session.manifest.files, this.#staleCheckIntervalMs);
    return { session, pool, tracker, reader: new CorpusReader(session.manifest, session.outputPath, tracker) };
  }

  /**
   * On a request, at most every `followIntervalMs`: asks the store which generation is
   * published and, when it is another one, opens it and serves it from then on. Runs beside
   * the request (never delays it); a failure keeps the generation served and is retried later.
   */
  #follow(): void {
    if (!this.#reopen || this.#followIntervalMs <= 0 || this.#following || this.#closing) return;
    if (Date.now() - this.#lastFollowCheck < this.#followIntervalMs) return;
    this.#lastFollowCheck = Date.now();
    void this.followPublished().catch(() => undefined);
  }

  /**
   * Moves to the index's published generation now when it is another than the one served
   * (what a request does at most every `followIntervalMs`): opens it, serves it from then
   * on, and closes the old one after a grace period. Resolves true when the service moved;
   * a second call while one runs waits for it. Rejects when the new generation cannot be
   * opened (the old one is still served).
   */
  followPublished(): Promise<boolean> {
    const reopen = this.#reopen;
    if (!reopen || this.#closing) return Promise.resolve(false);
    if (this.#following) return this.#following;
    const following = (async () => {
      const served = this.#current;
      const published = await served.session.store.open();
      if (published.pin.generation === served.session.pin.generation) return false;
      const next = await reopen();
      if (this.#closing) {
        await closeGeneration(next.session, next.pool);
        return false;
      }
      this.#current = this.#serve(next.session, next.pool);
      const timer = setTimeout(() => {
        this.#retired.delete(served);
        void closeGeneration(served.session, served.pool, false).catch(() => undefined);
      }, RETIRED_GENERATION_GRACE_MS);
      timer.unref();
      this.#retired.set(served, timer);
      return true;
    })().finally(() => {
      this.#following = undefined;
    });
    this.#following = following;
    return following;
  }

  async search(request: SearchRequest): Promise<SearchView> {
    this.#follow();
    const question = checkQuery(request.query);
    const k = checkK(request.k, DEFAULT_SEARCH_K);
    return (await this.#search(question, k, request.retriever ?? this.session.defaultRetriever, this.#checkGlobs(request.globs))).view;
  }

  /**
   * {@link search}'s view as JSON text, its keys in the order the HTTP API documents. With
   * search workers, the worker that searched builds and serializes the view, so this thread
   * only forwards the text: less of its time per request, which is what bounds the requests
   * a server answers once every core runs searches.
   */
  async searchJson(request: SearchRequest): Promise<string> {
    this.#follow();
    const question = checkQuery(request.query);
    const k = checkK(request.k, DEFAULT_SEARCH_K);
    const retriever = request.retriever ?? this.session.defaultRetriever;
    const globs = this.#checkGlobs(request.globs);
    const served = this.#current;
    const fromPool = served.pool?.searchView(question, k, retriever, globs);
    if (!fromPool) return serializeSearchView((await this.#search(question, k, retriever, globs)).view);
    const answer = await fromPool;
    // A worker answers with hits when it found none: why nothing matched is asked here.
    if (typeof answer === 'string') return answer;
    return serializeSearchView((await this.#viewOf(served, question, retriever, globs, served.session.hitsOf(answer))).view);
  }

  /** {@link search}, plus each hit's text as it was indexed (for agents, who want it in one call). */
  async searchWithText(request: SearchRequest): Promise<{ view: SearchView; texts: string[] }> {
    this.#follow();
    const question = checkQuery(request.query);
    const k = checkK(request.k, DEFAULT_SEARCH_K);
    const { view, chunks } = await this.#search(question, k, request.retriever ?? this.session.defaultRetriever, this.#checkGlobs(request.globs));
    return { view, texts: chunks.map((c) => c.text) };
  }

  /**
   * `globs` as a search takes them: undefined for none (or an empty list), else the list,
   * checked here (`INVALID_ARGUMENT` names a bad glob) so a worker is never sent one. Only
   * compiled: the scope itself is made where the search runs (a worker makes its own), so
   * new globs cost this thread no pass over the files.
   */
  #checkGlobs(globs: readonly string[] | undefined): readonly string[] | undefined {
    if (globs === undefined || globs.length === 0) return undefined;
    compilePathGlobs(globs);
    return globs;
  }

  async #search(question: string, k: number, retriever: string, globs?: readonly string[]): Promise<{ view: SearchView; chunks: Chunk[] }> {
    // One generation from start to end, even if the service moves to another meanwhile.
    const served = this.#current;
    return this.#viewOf(served, question, retriever, globs, await this.#searchHits(served, question, k, retriever, globs));
  }

  async #viewOf(served: ServedGeneration, question: string, retriever: string, globs: readonly string[] | undefined, hits: SessionHit[]): Promise<{ view: SearchView; chunks: Chunk[] }> {
    const views = await viewHits(hits, served.tracker);
    const why = views.length === 0 ? await this.#whyNoMatches(served, question, retriever, globs) : undefined;
    return { view: searchViewOf(question, retriever, views, why, globs), chunks: hits.map((h) => h.chunk) };
  }

  /** Through a worker when the pool has one running, else on this thread; the same hits either way. */
  async #searchHits(served: ServedGeneration, question: string, k: number, retriever: string, globs: readonly string[] | undefined): Promise<SessionHit[]> {
    const { session, pool } = served;
    const fromPool = pool?.search(question, k, retriever, globs);
    if (!fromPool) return session.search(question, k, retriever, globs === undefined ? undefined : session.scopeOf(globs));
    const hits = await fromPool;
    await session.prefetchTexts(hits.flatMap(chunkIdsOf));
    return session.hitsOf(hits);
  }

  /**
   * Why a search found nothing: no file matches the globs; or, within them, none holds the
   * query's words (when the whole index would have had hits); else the words no indexed chunk
   * holds (`noMatchesReason`).
   */
  async #whyNoMatches(served: ServedGeneration, question: string, retriever: string, globs: readonly string[] | undefined): Promise<string | undefined> {
    if (globs !== undefined) {
      const chunksInScope = scopeSize(served.session.scopeOf(globs));
      const why = noMatchesInScope(globs, chunksInScope, chunksInScope > 0 && (await this.#searchHits(served, question, 1, retriever, undefined)).length > 0);
      if (why !== undefined) return why;
    }
    return noMatchesReason(await this.#unindexedWords(served, question, retriever));
  }

  /** The question's words the index never holds (`Retriever.unindexedWords`), from a worker when the pool has one running. */
  async #unindexedWords(served: ServedGeneration, question: string, retriever: string): Promise<string[] | undefined> {
    const fromPool = served.pool?.unindexedWords(question, retriever);
    if (fromPool) return fromPool;
    return (await served.session.retriever(retriever)).unindexedWords?.(question);
  }

  /** The question's words the index holds in very few chunks (`Retriever.rareWords`), as {@link #unindexedWords}. */
  async #rareWords(served: ServedGeneration, question: string, retriever: string): Promise<string[] | undefined> {
    const fromPool = served.pool?.rareWords(question, retriever);
    if (fromPool) return fromPool;
    return (await served.session.retriever(retriever)).rareWords?.(question);
  }

  /** Stops the search workers (after the searches in flight), frees the generators' models and closes the index. */
  close(): Promise<void> {
    return (this.#closing ??= (async () => {
      // The watcher first: it may be about to move the service to a new generation.
      await this.#watcher?.close();
      await this.#following?.catch(() => undefined);
      const retired = [...this.#retired];
      this.#retired.clear();
      await Promise.all(
        retired.map(([served, timer]) => {
          clearTimeout(timer);
          return closeGeneration(served.session, served.pool, false);
        }),
      );
      // The current generation last: it closes the store the others read through.
      await closeGeneration(this.#current.session, this.#current.pool);
      await this.generators.dispose();
    })());
  }

  readSpan(request: SpanRequest): Promise<SpanText> {
    this.#follow();
    return this.reader.read(request);
  }

  /**
   * Starts answering `request`. Admission is decided now: a bad name or a full queue
   * throws before anything is streamed, so an HTTP caller can still answer 400 or 503.
   * Aborting `signal` (the client left) stops the search, the wait or the generation.
   */
  beginAnswer(request: AnswerRequest, signal?: AbortSignal): AsyncIterable<AnswerEvent> {
    this.#follow();
    const question = checkQuery(request.query);
    const k = checkK(request.k, DEFAULT_ANSWER_K);
    const generatorName = request.generator ?? this.generators.defaultName;
    if (!this.generators.names().includes(generatorName)) {
      throw new RagError('UNKNOWN_NAME', `Unknown generator "${generatorName}".`, { hint: `This server offers: ${this.generators.names().join(', ')}.` });
    }
    const retriever = request.retriever ?? this.session.defaultRetriever;
    if (!this.session.retrieverNames.includes(retriever)) {
      throw new RagError('UNKNOWN_NAME', `The index was not built with the "${retriever}" retriever.`, { hint: `Use one of: ${this.session.retrieverNames.join(', ')}.` });
    }
    const globs = this.#checkGlobs(request.globs);
    const position = this.queue.busy ? this.queue.state().queued + 1 : 0;
    const slot = this.queue.acquire(signal);
    // Until the stream awaits it, a rejected slot must not count as unhandled.
    slot.catch(() => undefined);
    return this.#answer(question, k, generatorName, retriever, globs, slot, position, signal);
  }

  async *#answer(
    question: string,
    k: number,
    generatorName: string,
    retriever: string,
    globs: readonly string[] | undefined,
    slot: Promise<Release>,
    position: number,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<AnswerEvent> {
    let release: Release | undefined;
    try {
      const served = this.#current;
      const { view: search, chunks } = await this.#search(question, k, retriever, globs);
      const unindexedWords = await this.#unindexedWords(served, question, retriever);
      const rareWords = await this.#rareWords(served, question, retriever);
      yield { type: 'sources', search };
      if (position > 0) yield { type: 'queued', position };
      release = await slot;
      const generator = await this.generators.get(generatorName);
      const sources = chunks.map((chunk, i) => toSourceForAnswer(chunk, search.hits[i]!.file_path));
      const request = { question, sources, ...(unindexedWords ? { unindexedWords } : {}), ...(rareWords ? { rareWords } : {}) };
      for await (const event of generator.generate(request, signal ? { signal } : {})) {
        if (event.type === 'token') yield { type: 'token', text: event.text };
        else yield { type: 'done', answer: toAnswerView(question, event.result) };
      }
    } finally {
      if (release) release();
      // Left before the slot came: give it back as soon as it is granted.
      else slot.then((r) => r(), () => undefined);
    }
  }

  async stats(): Promise<StatsView> {
    const { manifest, outputPath } = this.session;
    const report = await this.tracker.report();
    const created = Date.parse(manifest.createdAt);
    return {
      index_dir: this.session.indexDir,
      corpus_dir: manifest.corpusDir,
      files: manifest.counts.files,
      chunks: manifest.counts.chunks,
      index_created_at: manifest.createdAt,
      index_age_seconds: Number.isNaN(created) ? -1 : Math.max(0, Math.round((Date.now() - created) / 1000)),
      tool_version: manifest.toolVersion,
      retriever: this.session.defaultRetriever,
      retrievers: [...this.session.retrieverNames],
      generator: this.generators.defaultName,
      generators: this.generators.names(),
      stale: report.stale,
      changed_count: report.changed.length,
      missing_count: report.missing.length,
      changed_files: report.changed.slice(0, LISTED_STALE_FILES).map(outputPath),
      missing_files: report.missing.slice(0, LISTED_STALE_FILES).map(outputPath),
      answers: this.queue.state(),
      search_workers: this.#current.pool?.state() ?? { workers: 0, starting: 0, restarts: 0, in_flight: 0 },
      watch: this.#watcher?.state() ?? null,
      uptime_seconds: Math.round((Date.now() - this.#started) / 1000),
    };
  }
}
