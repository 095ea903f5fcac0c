import type { Chunk, Language } from '@rag/core';
import { createChunker, type Chunker } from './chunker.js';
import type { ChunkerOptions } from './options.js';
import { parsedSoFar } from './parsers.js';
import { releaseParseTrees, TREE_RELEASE_CHARS } from './release-trees.js';

/** What chunking one file needs: the worker protocol and the in-thread path share it. */
export interface FileToChunk {
  text: string;
  file_path: string;
  language: Language;
}

/** One chunker per language, created on first use. */
function chunkerCache(options: ChunkerOptions): (language: Language) => Chunker {
  const chunkers = new Map<Language, Chunker>();
  return (language) => {
    let chunker = chunkers.get(language);
    if (!chunker) {
      chunker = createChunker(language, options);
      chunkers.set(language, chunker);
    }
    return chunker;
  };
}

/** Chunks files in order with one chunker per language; `onFile` runs after each file. */
export function chunkFiles(files: readonly FileToChunk[], options: ChunkerOptions, onFile?: (index: number, chunks: Chunk[]) => void): Chunk[][] {
  const chunkerFor = chunkerCache(options);
  return files.map((file, index) => {
    const chunks = chunkerFor(file.language).chunk(file.text, file.file_path);
    onFile?.(index, chunks);
    return chunks;
  });
}

/**
 * {@link chunkFiles} for whole corpora: the same chunks, with parse trees released every
 * {@link TREE_RELEASE_CHARS} characters parsed, so memory stays flat however many files
 * there are (files cut without a tree — scanned Python, RST, plain text — count nothing).
 */
export async function chunkFilesReleasing(files: readonly FileToChunk[], options: ChunkerOptions, onFile?: (index: number, chunks: Chunk[]) => void): Promise<Chunk[][]> {
  const chunkerFor = chunkerCache(options);
  const out: Chunk[][] = new Array(files.length);
  let releasedAt = parsedSoFar();
  for (let index = 0; index < files.length; index++) {
    const file = files[index]!;
    const chunks = chunkerFor(file.language).chunk(file.text, file.file_path);
    out[index] = chunks;
    onFile?.(index, chunks);
    if (parsedSoFar() - releasedAt >= TREE_RELEASE_CHARS) {
      releasedAt = parsedSoFar();
      await releaseParseTrees();
    }
  }
  return out;
}
