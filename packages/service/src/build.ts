// `@rag/service/build`: what a program that only builds or updates an index needs (`rag
// index`), and nothing more: the service's barrel also brings the answer generators, whose
// modules every `rag index` would otherwise load and compile without calling.
export { buildIndex, MAX_UNRECORDED_SIGNATURES_SHARE, type BuildIndexOptions, type BuildIndexReport } from './build-index.js';
export { createDefaultRetrieverRegistry, DEFAULT_RETRIEVER, embeddingSettingsFor, type RetrieverRegistryOptions } from './retrievers.js';
export { isPostgresUrl, openStore, redactLocation, type OpenStoreOptions } from './stores.js';
