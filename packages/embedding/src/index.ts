export { chunkFingerprint, embeddingText } from './chunk-text.js';
export { checkpointKey, EmbeddingCheckpoint } from './checkpoint.js';
export { CORPUS_MODEL_FILE, CorpusEmbedder, fitCorpusEmbedder, type FittedCorpusEmbedder, type TermContribution } from './corpus/embedder.js';
export { DEFAULT_CORPUS_EMBEDDER_OPTIONS, type CorpusEmbedderOptions } from './corpus/options.js';
export { embedTexts, type EmbeddedTexts, type EmbedTextsOptions } from './embed-chunks.js';
export type { Embedder } from './embedder.js';
export {
  buildEmbeddingRetriever,
  createEmbeddingRetrieverFactory,
  embeddingRetrieverFactory,
  loadEmbeddingRetriever,
  mergeEmbeddingSettings,
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
export {
  EMBEDDING_FORMAT,
  EMBEDDING_FORMAT_VERSION,
  EMBEDDING_MANIFEST_FILE,
  EmbeddingRetriever,
  HNSW_FILE,
  readEmbeddingManifest,
  type EmbeddingManifest,
} from './retriever.js';
export { searchExact } from './search/exact-index.js';
export { HnswVectorIndex } from './search/hnsw-index.js';
export { TopK } from './search/top-k.js';
export { DEFAULT_WINDOW_CAP, TransformersEmbedder } from './transformers/embedder.js';
export { loadSentenceModel, requiredModelFiles, type LoadedModel } from './transformers/load.js';
export { planWindows } from './transformers/windows.js';
export { decodeVectors, dequantizeInt8, encodeVectors, quantizeInt8, VECTORS_FILE } from './vector-file.js';
export { dot, normalizeInPlace } from './vector-math.js';
