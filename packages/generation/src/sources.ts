import type { Chunk } from '@rag/core';
import { sha256Hex } from './hash.js';
import type { SourceForAnswer } from './types.js';

/**
 * A retrieved chunk as a generator input. `filePath` is the path to show and cite (the CLI
 * maps corpus paths to output paths); it defaults to the chunk's own path.
 */
export function toSourceForAnswer(chunk: Chunk, filePath: string = chunk.file_path): SourceForAnswer {
  return {
    file_path: filePath,
    first_character_index: chunk.first_character_index,
    last_character_index: chunk.last_character_index,
    start_line: chunk.start_line,
    end_line: chunk.end_line,
    symbol: chunk.symbol,
    text: chunk.text,
  };
}

/** The source's content hash: its own `sha256` when given, else computed from its text. */
export function sourceHash(source: SourceForAnswer): string {
  return source.sha256 ?? sha256Hex(source.text);
}

/** `path:10-25 (Symbol)`, or `path chars 120-460` when lines are unknown. */
export function describeSource(source: SourceForAnswer): string {
  const where =
    source.start_line > 0
      ? source.end_line > source.start_line
        ? `${source.file_path}:${source.start_line}-${source.end_line}`
        : `${source.file_path}:${source.start_line}`
      : `${source.file_path} chars ${source.first_character_index}-${source.last_character_index}`;
  return source.symbol ? `${where} (${source.symbol})` : where;
}
