import { createSharedFileReader, formatRagError, integerIn, isRagError, openIndexSession, parseOptions, RagError, v, type IndexSession, type IndexStore, type RetrieverSource } from '@rag/core';
import { chooseDefaultGenerator, createGeneratorRegistry, type GeneratorRegistry, type GeneratorSettings } from '@rag/generation';
import { AnswerQueue } from './answer-queue.js';
import type { SearchWorkerData } from './search-protocol.js';
import { GeneratorPool } from './generator-pool.js';
import {
  DEFAULT_MAX_CONCURRENT_ANSWERS,
  DEFAULT_MAX_QUEUED_ANSWERS,
  DEFAULT_FOLLOW_INDEX_MS,
  DEFAULT_STALE_CHECK_INTERVAL_MS,
  type ServiceOptions,
  type WatchSettings,
} from './options.js';
import { loadRetrieverRegistry, retrieverModuleUrl } from './retriever-module.js';
import type { RetrieverRegistryOptions } from './retrievers.js';
import { defaultSearchWorkers, MAX_SEARCH_WORKERS, SearchPool, searchWorkerScript } from './search-pool.js';
import { RagService, type ServiceWatcher, type WatchState } from './service.js';
import { openStore } from './stores.js';
import { DEFAULT_WATCH_INTERVAL_MS, requireIndexJobScript, watchCorpus, type WatchEvent } from './watch-corpus.js';

export interface ResolvedServiceOptions {
  indexDir: string;
  retriever: string | undefined;
  retrievers: RetrieverSource | undefined;
  retrieverSettings: RetrieverRegistryOptions;
  workers: number;
  retrieverModule: string | undefined;
  generator: string | undefined;
  generators: GeneratorRegistry | undefined;
  generatorSettings: GeneratorSettings;
  pathBase: string;
  maxConcurrentAnswers: number;
  maxQueuedAnswers: number;
  staleCheckIntervalMs: number;
  followIndexMs: number | undefined;
  watch: WatchSettings | undefined;
}

/** The schema of {@link ServiceOptions}; servers extend it with their own keys. */
export const SERVICE_OPTIONS_SCHEMA = v.strictObject({
  indexDir: v.string().check(v.minLength(1)),
  retriever: v.optional(v.string().check(v.minLength(1))),
  retrievers: v.optional(v.custom<RetrieverSource>((v) => typeof v === 'object' && v !== null && typeof (v as RetrieverSource).get === 'function', 'a retriever registry')),
  retrieverSettings: v.optional(v.strictObject({ embedding: v.optional(v.record(v.string(), v.unknown())) })),
  workers: v.optional(integerIn(0, MAX_SEARCH_WORKERS)),
  retrieverModule: v.optional(v.string().check(v.minLength(1))),
  generator: v.optional(v.string().check(v.minLength(1))),
  generatorSettings: v.optional(v.custom<GeneratorSettings>((v) => typeof v === 'object' && v !== null, 'an object')),
  generators: v.optional(v.custom<GeneratorRegistry>((v) => typeof v === 'object' && v !== null, 'a generator registry')),
  pathBase: v.optional(v.string().check(v.minLength(1))),
  maxConcurrentAnswers: v.optional(integerIn(1, 64)),
  maxQueuedAnswers: v.optional(integerIn(0, 10_000)),
  staleCheckIntervalMs: v.optional(integerIn(0, 3_600_000)),
  followIndexMs: v.optional(integerIn(0, 3_600_000)),
  watch: v.optional(
    v.strictObject({
      toolVersion: v.string().check(v.minLength(1)),
      intervalMs: v.optional(integerIn(100, 3_600_000)),
      events: v.optional(v.boolean()),
      onEvent: v.optional(v.custom<(event: WatchEvent) => void>((f) => typeof f === 'function', 'a function')),
    }),
  ),
});

/** Applies defaults to validated service options. */
export function withServiceDefaults(options: v.output<typeof SERVICE_OPTIONS_SCHEMA>): ResolvedServiceOptions {
  return {
    indexDir: options.indexDir,
    retriever: options.retriever,
    retrievers: options.retrievers,
    retrieverSettings: (options.retrieverSettings ?? {}) as RetrieverRegistryOptions,
    workers: options.workers ?? (options.retrievers === undefined || options.retrieverModule !== undefined ? defaultSearchWorkers() : 0),
    retrieverModule: options.retrieverModule,
    generator: options.generator,
    generators: options.generators,
    generatorSettings: options.generatorSettings ?? {},
    pathBase: options.pathBase ?? process.cwd(),
    maxConcurrentAnswers: options.maxConcurrentAnswers ?? DEFAULT_MAX_CONCURRENT_ANSWERS,
    maxQueuedAnswers: options.maxQueuedAnswers ?? DEFAULT_MAX_QUEUED_ANSWERS,
    staleCheckIntervalMs: options.staleCheckIntervalMs ?? DEFAULT_STALE_CHECK_INTERVAL_MS,
    followIndexMs: options.followIndexMs,
    watch: options.watch as WatchSettings | undefined,
  };
}

/** The options with defaults applied; throws `INVALID_ARGUMENT` naming the bad option. */
export function resolveServiceOptions(options: ServiceOptions): ResolvedServiceOptions {
  return withServiceDefaults(parseOptions(SERVICE_OPTIONS_SCHEMA, options, { subject: 'service' }));
}

/**
 * Opens the index and wires the packages into a service. The default generator is
 * created now, so a missing model fails at startup rather than on the first question.
 */
export async function openRagService(options: ServiceOptions, { loadGenerator = true } = {}): Promise<RagService> {
  const resolved = resolveServiceOptions(options);
  if (resolved.workers > 0 && resolved.retrievers !== undefined && resolved.retrieverModule === undefined && options.workers !== undefined) {
    throw new RagError('INVALID_ARGUMENT', 'Search workers cannot use a retriever registry object: it cannot cross into a worker thread.', {
      hint: 'Give `retrieverModule` (a module exporting createRetrieverRegistry()) or `retrieverSettings` instead of `retrievers`, or set `workers: 0`.',
    });
  }
  // Before anything is opened: a missing script must not leave a session behind.
  if (resolved.watch) requireIndexJobScript();
  if (resolved.watch && resolved.retrievers !== undefined && resolved.retrieverModule === undefined) {
    throw new RagError('INVALID_ARGUMENT', 'Watching the corpus cannot use a retriever registry object: it cannot cross into the update process.', {
      hint: 'Give `retrieverModule` (a module exporting createRetrieverRegistry()) or `retrieverSettings` instead of `retrievers`, or do not watch.',
    });
  }
  const registry = resolved.generators ?? createGeneratorRegistry();
  const generatorName = resolved.generator ?? chooseDefaultGenerator(resolved.generatorSettings);
  const script = resolved.workers > 0 ? searchWorkerScript() : undefined;
  const store = openStore(resolved.indexDir);
  // Every generation the service opens (the first, and those it moves to) reads through one store.
  const open = async (): Promise<{ session: IndexSession; pool?: SearchPool | undefined }> => (script ? openPooled(resolved, script, store) : { session: await openSession(resolved, store) });
  const { session, pool } = await open().catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  const generators = new GeneratorPool(registry, generatorName, resolved.generatorSettings);
  try {
    if (loadGenerator) await generators.get();
  } catch (error) {
    await pool?.close();
    session.close();
    await store.close();
    throw error;
  }
  return new RagService({
    session,
    generators,
    queue: new AnswerQueue(resolved.maxConcurrentAnswers, resolved.maxQueuedAnswers),
    staleCheckIntervalMs: resolved.staleCheckIntervalMs,
    ...(pool ? { pool } : {}),
    reopen: open,
    followIntervalMs: resolved.followIndexMs ?? DEFAULT_FOLLOW_INDEX_MS,
    ...(resolved.watch ? { startWatcher: (followPublished: () => Promise<boolean>) => startWatcher(resolved, resolved.watch!, followPublished) } : {}),
  });
}

/** The corpus watcher of a service: after each update it moves the service to the new generation, then tells of it. */
function startWatcher(resolved: ResolvedServiceOptions, watch: WatchSettings, followPublished: () => Promise<boolean>): ServiceWatcher {
  const { onEvent } = watch;
  const intervalMs = watch.intervalMs ?? DEFAULT_WATCH_INTERVAL_MS;
  const state: Omit<WatchState, 'change_reports'> = { interval_ms: intervalMs, updates: 0, last_update_at: null, last_failure: null };
  const failed = (error: Error): void => {
    state.last_failure = isRagError(error) ? formatRagError(error) : error.message;
    onEvent?.({ type: 'failed', error });
  };
  const watcher = watchCorpus({
    indexDir: resolved.indexDir,
    toolVersion: watch.toolVersion,
    intervalMs,
    ...(watch.events === undefined ? {} : { events: watch.events }),
    retrieverSettings: resolved.retrieverSettings,
    ...(resolved.retrieverModule === undefined ? {} : { retrieverModule: resolved.retrieverModule }),
    // An update is told once the service serves it: whoever hears of it can search it.
    onEvent: (event) => {
      if (event.type === 'failed') return failed(event.error);
      if (event.type === 'polling') return onEvent?.(event);
      followPublished().then(
        () => {
          state.updates++;
          state.last_update_at = new Date().toISOString();
          state.last_failure = null;
          onEvent?.(event);
        },
        (error: unknown) => failed(error instanceof Error ? error : new Error(String(error))),
      );
    },
  });
  return { state: () => ({ ...state, change_reports: watcher.reportsChanges() }), close: () => watcher.close() };
}

function retrieverSourceOf(resolved: ResolvedServiceOptions): Promise<RetrieverSource> {
  return resolved.retrievers ? Promise.resolve(resolved.retrievers) : loadRetrieverRegistry(resolved.retrieverModule, resolved.retrieverSettings);
}

function sessionOptionsOf(resolved: ResolvedServiceOptions, retrievers: RetrieverSource): Parameters<typeof openIndexSession>[1] {
  const options: Parameters<typeof openIndexSession>[1] = { pathBase: resolved.pathBase, retrievers };
  if (resolved.retriever !== undefined) options.retriever = resolved.retriever;
  return options;
}

async function openSession(resolved: ResolvedServiceOptions, store: IndexStore): Promise<IndexSession> {
  return openIndexSession(store, sessionOptionsOf(resolved, await retrieverSourceOf(resolved)));
}

/**
 * Opens the index for a pool of search workers: this thread reads every retriever file
 * into shared memory and verifies it, and loads no retriever itself (only if every worker
 * is gone); the workers open the same generation over the shared bytes.
 */
async function openPooled(resolved: ResolvedServiceOptions, script: URL, store: IndexStore): Promise<{ session: IndexSession; pool: SearchPool }> {
  // A folder's files are read straight into shared memory; a database's are fetched, then copied there.
  const shared = createSharedFileReader(store.kind === 'file' ? undefined : store.readFile);
  const session = await openIndexSession(store, { ...sessionOptionsOf(resolved, await retrieverSourceOf(resolved)), readFile: shared.read, deferLoad: true });
  await session.verifyFiles();
  const data: SearchWorkerData = {
    indexDir: resolved.indexDir,
    pin: session.pin,
    files: shared.files(),
    retriever: session.defaultRetriever,
    retrieverSettings: resolved.retrieverSettings,
    pathBase: resolved.pathBase,
    staleCheckIntervalMs: resolved.staleCheckIntervalMs,
  };
  if (resolved.retrieverModule !== undefined) data.retrieverModule = retrieverModuleUrl(resolved.retrieverModule);
  const pool = await SearchPool.start({
    script,
    workers: resolved.workers,
    data,
    onWarning: (message) => process.stderr.write(`warning: ${message}\n`),
  });
  return { session, pool };
}
