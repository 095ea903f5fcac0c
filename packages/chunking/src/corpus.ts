import type { Chunk, FileRecord, Language, ProgressFn } from '@rag/core';
import { createChunker, type Chunker } from './chunker.js';
import { resolveChunkerOptions, type ChunkerOptions } from './options.js';
import { walkCorpus, type WalkOptions } from './walk.js';

export interface ChunkCorpusOptions extends ChunkerOptions, WalkOptions {
  /** Called after each file is chunked with phase `chunk`, done = files so far, total = file count. */
  onProgress?: ProgressFn;
}

export interface ChunkedCorpus {
  /** Indexed files, sorted by path. */
  files: FileRecord[];
  /** All chunks, file by file in file order, with dense ids 0..n-1. */
  chunks: Chunk[];
}

/** Walks `dir` (see walkCorpus) and chunks every file; chunk ids are global and dense. */
export async function chunkCorpus(dir: string, options: ChunkCorpusOptions = {}): Promise<ChunkedCorpus> {
  // Bad options fail before any file is read.
  resolveChunkerOptions(options);
  const corpus = await walkCorpus(dir, options);
  const chunkers = new Map<Language, Chunker>();
  const files: FileRecord[] = [];
  const chunks: Chunk[] = [];
  for (const [index, file] of corpus.entries()) {
    let chunker = chunkers.get(file.language);
    if (!chunker) {
      chunker = createChunker(file.language, options);
      chunkers.set(file.language, chunker);
    }
    for (const chunk of chunker.chunk(file.text, file.file_path)) {
      chunk.id = chunks.length;
      chunks.push(chunk);
    }
    files.push({ file_path: file.file_path, sha256: file.sha256, bytes: file.bytes, length: file.length, language: file.language });
    options.onProgress?.({ phase: 'chunk', done: index + 1, total: corpus.length });
  }
  return { files, chunks };
}
