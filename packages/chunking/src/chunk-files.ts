import type { Chunk, Language } from '@rag/core';
import { createChunker, type Chunker } from './chunker.js';
import type { ChunkerOptions } from './options.js';

/** What chunking one file needs: the worker protocol and the in-thread path share it. */
export interface FileToChunk {
  text: string;
  file_path: string;
  language: Language;
}

/** Chunks files in order with one chunker per language; `onFile` runs after each file. */
export function chunkFiles(files: readonly FileToChunk[], options: ChunkerOptions, onFile?: (index: number, chunks: Chunk[]) => void): Chunk[][] {
  const chunkers = new Map<Language, Chunker>();
  return files.map((file, index) => {
    let chunker = chunkers.get(file.language);
    if (!chunker) {
      chunker = createChunker(file.language, options);
      chunkers.set(file.language, chunker);
    }
    const chunks = chunker.chunk(file.text, file.file_path);
    onFile?.(index, chunks);
    return chunks;
  });
}
