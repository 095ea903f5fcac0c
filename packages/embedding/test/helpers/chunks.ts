import type { Chunk } from '@rag/core';

export interface ChunkSpec {
  file: string;
  text: string;
  symbol?: string;
}

/** Chunks as the chunker would emit them, one per spec, with dense ids. */
export function makeChunks(specs: readonly ChunkSpec[]): Chunk[] {
  const offsets = new Map<string, number>();
  return specs.map((spec, id) => {
    const start = offsets.get(spec.file) ?? 0;
    offsets.set(spec.file, start + spec.text.length + 1);
    return {
      id,
      file_path: spec.file,
      first_character_index: start,
      last_character_index: start + spec.text.length,
      start_line: 1,
      end_line: 1 + (spec.text.match(/\n/g)?.length ?? 0),
      kind: spec.file.endsWith('.py') ? 'function' : 'section',
      symbol: spec.symbol ?? '',
      language: spec.file.endsWith('.py') ? 'python' : 'markdown',
      text: spec.text,
    };
  });
}
