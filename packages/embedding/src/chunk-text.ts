import { createHash } from 'node:crypto';
import type { Chunk } from '@rag/core';

/**
 * The text embedded for a chunk. With metadata, a first line names the file and symbol,
 * because questions name them ("the LLM class in vllm/entrypoints/llm.py") and the
 * chunk body often does not.
 */
export function embeddingText(chunk: Chunk, includeMetadata: boolean): string {
  if (!includeMetadata) return chunk.text;
  return `${chunk.file_path}${chunk.symbol ? ` ${chunk.symbol}` : ''}\n${chunk.text}`;
}

/** sha256 of every chunk's location and text: an index only loads over the chunks it was built on. */
export function chunkFingerprint(chunks: readonly Chunk[]): string {
  const hash = createHash('sha256');
  for (const c of chunks) {
    hash.update(`${c.file_path}\0${c.first_character_index}\0${c.last_character_index}\0${c.text.length}\0`);
    hash.update(c.text);
  }
  return hash.digest('hex').slice(0, 32);
}
