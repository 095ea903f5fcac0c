export { Bm25Retriever, bm25RetrieverFactory, createBm25Retriever, loadBm25Retriever, RARE_WORD_MAX_CHUNKS } from './retriever.js';
export {
  BM25_SETTINGS_SCHEMA,
  DEFAULT_BM25_OPTIONS,
  DEFAULT_CONTEXT_OPTIONS,
  FIELD_NAMES,
  resolveBm25Options,
  type Bm25Options,
  type Bm25Settings,
  type ContextOptions,
  type FieldName,
  type FieldOptions,
} from './options.js';
export { DEFAULT_RERANK_OPTIONS, type RerankOptions } from './rerank/options.js';
