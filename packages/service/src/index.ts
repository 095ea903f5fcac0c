export {
  DEFAULT_ANSWER_K,
  DEFAULT_MAX_CONCURRENT_ANSWERS,
  DEFAULT_MAX_QUEUED_ANSWERS,
  DEFAULT_SEARCH_K,
  DEFAULT_FOLLOW_INDEX_MS,
  DEFAULT_STALE_CHECK_INTERVAL_MS,
  MAX_K,
  MAX_QUERY_LENGTH,
  type ServiceOptions,
  type WatchSettings,
} from './options.js';
export { openRagService, resolveServiceOptions, SERVICE_OPTIONS_SCHEMA, withServiceDefaults, type ResolvedServiceOptions } from './open-service.js';
export {
  LISTED_STALE_FILES,
  RagService,
  type AnswerEvent,
  type AnswerRequest,
  type AnswerView,
  type CitedSourceView,
  type RagServiceParts,
  type SearchRequest,
  type ServiceWatcher,
  type StatsView,
  type WatchState,
} from './service.js';
export { serializeSearchView, type HitView, type SearchView } from './search-view.js';
export { createDefaultRetrieverRegistry, DEFAULT_RETRIEVER, embeddingSettingsFor, type RetrieverRegistryOptions } from './retrievers.js';
export { describeNoMatches, findStaleFiles, noMatchesReason, openSearchSession, searchSources, toMinimalSource, type RankedSource, type SearchSession, type SearchSessionOptions } from './search.js';
export { CorpusReader, type SpanRequest, type SpanText } from './corpus-reader.js';
export { createIndexedSpanReader } from './span-source.js';
export { createUnindexedWordsReader, type UnindexedWordsReader } from './unindexed-words.js';
export { answerCacheDir, openAnswerGenerator, type AnswerGeneratorOptions, type OpenedGenerator } from './generators.js';
export { AnswerQueue, type QueueState, type Release } from './answer-queue.js';
export { GeneratorPool } from './generator-pool.js';
export { defaultSearchWorkers, MAX_SEARCH_WORKERS, SearchPool, searchWorkerScript, type SearchPoolOptions, type SearchPoolState } from './search-pool.js';
export type { SearchWorkerData } from './search-protocol.js';
export { buildIndex, MAX_UNRECORDED_SIGNATURES_SHARE, type BuildIndexOptions, type BuildIndexReport } from './build-index.js';
export { DEFAULT_WATCH_INTERVAL_MS, WATCH_SAFETY_LOOK_MS, WATCH_SETTLE_MS, WATCH_UPDATE_GAP_MS, describeWatchEvent, indexJobScript, watchCorpus, type CorpusWatcher, type WatchCorpusOptions, type WatchEvent } from './watch-corpus.js';
export { isPostgresUrl, openStore, redactLocation, type OpenStoreOptions } from './stores.js';
