// `@rag/embedding/internals`: the parts under the public interface, for this workspace's tests,
// benchmarks and sibling packages that need one step deeper. No stability promise beyond it.
export { chunkFingerprint, embeddingText } from './chunk-text.js';
export { checkpointKey, EmbeddingCheckpoint } from './checkpoint.js';
export { CORPUS_MODEL_FILE, type FittedCorpusEmbedder, type TermContribution } from './corpus/embedder.js';
export { embedTexts, type EmbeddedTexts, type EmbedTextsOptions } from './embed-chunks.js';
export { mergeEmbeddingSettings } from './factory.js';
export {
  EMBEDDING_FORMAT,
  EMBEDDING_FORMAT_VERSION,
  EMBEDDING_MANIFEST_FILE,
  HNSW_FILE,
  readEmbeddingManifest,
  type EmbeddingManifest,
} from './retriever.js';
export { searchExact } from './search/exact-index.js';
export { HnswVectorIndex } from './search/hnsw-index.js';
export { TopK } from './search/top-k.js';
export { DEFAULT_WINDOW_CAP } from './transformers/embedder.js';
export { loadSentenceModel, requiredModelFiles, type LoadedModel } from './transformers/load.js';
export { planWindows } from './transformers/windows.js';
export { decodeVectors, dequantizeInt8, encodeVectors, quantizeInt8, VECTORS_FILE } from './vector-file.js';
export { dot, normalizeInPlace } from './vector-math.js';
