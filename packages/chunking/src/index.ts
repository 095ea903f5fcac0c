export {
  CHUNKER_REVISION,
  DEFAULT_EXTENSIONS,
  DEFAULT_IGNORED_DIRS,
  DEFAULT_MAX_CHUNK_SIZE,
  DEFAULT_STUBS,
  DEFAULT_MIN_CHUNK_SIZE,
  DEFAULT_NESTED_CHUNK_SIZE,
  DEFAULT_TARGET_CHUNK_SIZE,
  DEFAULT_TEXT_OVERLAP,
  DEFAULT_PYTHON_READER,
  PYTHON_READERS,
  resolveChunkerOptions,
} from './options.js';
export type { ChunkerOptions, PythonReader, ResolvedChunkerOptions } from './options.js';
export { createChunker, chunkText } from './chunker.js';
export type { Chunker } from './chunker.js';
export { DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_LINE_LENGTH, readUnreadFile, SETTLED_MS, unchangedByRecords, walkCorpus } from './walk.js';
export { MAX_MARKDOWN_NESTING } from './nesting.js';
export type { CorpusFile, UnreadFile, WalkedFile, WalkOptions } from './walk.js';
export { chunkCorpus } from './corpus.js';
export { chunkFiles, chunkFilesReleasing, type FileToChunk } from './chunk-files.js';
export { TREE_RELEASE_CHARS } from './release-trees.js';
export { chunkFilesInParallel, defaultConcurrency, PARALLEL_MIN_CHARS, WORKERS_MIN_CORES } from './parallel.js';
export type { ChunkCorpusOptions, ChunkedCorpus } from './corpus.js';
