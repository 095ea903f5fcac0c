import { fileURLToPath } from 'node:url';
import type { Chunk } from '@rag/core';
// @rag/bm25 does not depend on @rag/chunking; the golden tests borrow its build output
// (`pnpm test` builds every package first) so that they rank the chunks users get.
import { chunkCorpus } from '@rag/chunking';

/** The project's own test corpus (datasets/mini/corpus). */
export const MINI_CORPUS = fileURLToPath(new URL('../../../datasets/mini/corpus/', import.meta.url));

/** The mini corpus chunked with the production defaults (warnings about its broken files ignored). */
export async function miniChunks(): Promise<Chunk[]> {
  const { chunks } = await chunkCorpus(MINI_CORPUS, { onWarning: () => undefined });
  return chunks;
}

/** `file#symbol` of a chunk (or `file@offset` without a symbol): how the golden rankings name hits. */
export function label(chunk: Chunk): string {
  return chunk.symbol === '' ? `${chunk.file_path}@${chunk.first_character_index}` : `${chunk.file_path}#${chunk.symbol}`;
}

/** Appends chunks (ids continuing the list) made from whole texts, e.g. a test file the corpus lacks. */
export function withExtraChunks(chunks: readonly Chunk[], extra: readonly Omit<Chunk, 'id' | 'first_character_index' | 'last_character_index' | 'start_line' | 'end_line'>[]): Chunk[] {
  return [
    ...chunks,
    ...extra.map((chunk, i) => ({
      ...chunk,
      id: chunks.length + i,
      first_character_index: 0,
      last_character_index: [...chunk.text].length,
      start_line: 1,
      end_line: chunk.text.split('\n').length,
    })),
  ];
}
