/** Small corpora of files for tests of updates: random edits, adds, deletes and renames. */
import fc from 'fast-check';
import type { Chunk } from '@rag/core';
import { makeChunks, type ChunkSpec } from './helpers.js';

// Words that exercise every field: identifiers that split and stem, dotted names, inline
// code that becomes anchor text for a definition elsewhere, table rows that get a header.
export const WORDS = ['launch', 'open_url', 'max_num_seqs', 'Session.mount', 'the', 'retry', 'caching', 'HTTP/2', 'utf-8', 'über', '`launch`', '`mount`', '| a | b |', '|---|---|', 'déjà', 'x1', 'fresh_name = 1', '`fresh_name`', 'raise ValueError'];

export interface FileSpec {
  path: string;
  language: 'python' | 'markdown';
  pieces: { symbol: string; words: number[] }[];
}

export const fileSpec = (path: string): fc.Arbitrary<FileSpec> =>
  fc.record({
    path: fc.constant(path),
    language: fc.constantFrom('python' as const, 'markdown' as const),
    pieces: fc.array(fc.record({ symbol: fc.constantFrom('', 'launch', 'Session.mount', 'Guide > Setup'), words: fc.array(fc.nat(WORDS.length - 1), { maxLength: 12 }) }), { minLength: 1, maxLength: 3 }),
  });

export function toChunks(files: readonly FileSpec[]): Chunk[] {
  const specs: ChunkSpec[] = [];
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    for (const piece of file.pieces) {
      specs.push({ file_path: file.path, symbol: piece.symbol, language: file.language, kind: file.language === 'python' ? 'function' : 'section', text: piece.words.map((w) => WORDS[w]).join(piece.words.length % 3 === 0 ? '\n' : ' ') });
    }
  }
  return makeChunks(specs);
}

/** For each new chunk, the old chunk of an unchanged file at the same position in that file. */
export function sourcesOf(oldFiles: readonly FileSpec[], oldChunks: readonly Chunk[], newFiles: readonly FileSpec[], newChunks: readonly Chunk[]): Int32Array {
  const unchanged = new Set(newFiles.filter((file) => oldFiles.some((o) => JSON.stringify(o) === JSON.stringify(file))).map((file) => file.path));
  const sourceOf = new Int32Array(newChunks.length).fill(-1);
  for (const path of unchanged) {
    const before = oldChunks.filter((chunk) => chunk.file_path === path);
    const after = newChunks.filter((chunk) => chunk.file_path === path);
    after.forEach((chunk, i) => (sourceOf[chunk.id] = before[i]!.id));
  }
  return sourceOf;
}

