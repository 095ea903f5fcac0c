export { CorpusEmbedder, fitCorpusEmbedder } from './corpus/embedder.js';
export { DEFAULT_CORPUS_EMBEDDER_OPTIONS, type CorpusEmbedderOptions } from './corpus/options.js';
export type { Embedder } from './embedder.js';
export {
  buildEmbeddingRetriever,
  createEmbeddingRetrieverFactory,
  embeddingRetrieverFactory,
  loadEmbeddingRetriever,
  type LoadEmbeddingOptions,
} from './factory.js';
export {
  DEFAULT_EMBEDDING_OPTIONS,
  DEFAULT_HNSW_OPTIONS,
  DEFAULT_MODEL,
  resolveEmbeddingOptions,
  type EmbedderKind,
  type EmbeddingOptions,
  type EmbeddingSettings,
  type HnswOptions,
  type VectorEncoding,
  type VectorIndexChoice,
} from './options.js';
export { EmbeddingRetriever } from './retriever.js';
export { TransformersEmbedder } from './transformers/embedder.js';
export { EMBEDDING_SETTINGS_SCHEMA } from './options.js';
