import { expect } from 'vitest';
import type { Chunk } from '@rag/core';

/** The text as an array of code points, the unit every offset counts. */
export function codePoints(text: string): string[] {
  return Array.from(text);
}

const SPACE = /^[ \t\n\r\v\f]$/;

export function isSpace(character: string): boolean {
  return SPACE.test(character);
}

export interface InvariantOptions {
  maxChunkSize: number;
  /** Text windows may overlap by up to this much; 0 means chunks must not overlap. */
  overlap?: number;
}

/**
 * Checks everything a chunk list must satisfy for its file: exact spans, in range,
 * within the cap, tight, in order, non-overlapping (up to the text overlap), covering all
 * non-whitespace, correct line numbers, ids 0..n-1.
 */
export function expectValidChunks(text: string, chunks: readonly Chunk[], options: InvariantOptions): void {
  const points = codePoints(text);
  const overlap = options.overlap ?? 0;
  const covered = new Uint8Array(points.length);
  // linesBefore[k]: line breaks before code point k, so the 1-based line of k is linesBefore[k] + 1.
  const linesBefore = new Uint32Array(points.length + 1);
  points.forEach((character, k) => (linesBefore[k + 1] = linesBefore[k]! + (character === '\n' ? 1 : 0)));
  chunks.forEach((chunk, i) => {
    expect(chunk.id).toBe(i);
    expect(chunk.first_character_index).toBeGreaterThanOrEqual(0);
    expect(chunk.last_character_index).toBeGreaterThan(chunk.first_character_index);
    expect(chunk.last_character_index).toBeLessThanOrEqual(points.length);
    expect(points.slice(chunk.first_character_index, chunk.last_character_index).join('')).toBe(chunk.text);
    expect(chunk.last_character_index - chunk.first_character_index).toBeLessThanOrEqual(options.maxChunkSize);
    expect(isSpace(points[chunk.first_character_index]!)).toBe(false);
    expect(isSpace(points[chunk.last_character_index - 1]!)).toBe(false);
    expect(chunk.start_line).toBe(linesBefore[chunk.first_character_index]! + 1);
    expect(chunk.end_line).toBe(linesBefore[chunk.last_character_index - 1]! + 1);
    for (let k = chunk.first_character_index; k < chunk.last_character_index; k++) covered[k] = 1;
    const previous = chunks[i - 1];
    if (previous) {
      expect(chunk.first_character_index).toBeGreaterThan(previous.first_character_index);
      const shared = previous.last_character_index - chunk.first_character_index;
      expect(shared).toBeLessThanOrEqual(overlap);
      if (shared > 0) expect(2 * shared).toBeLessThanOrEqual(chunk.last_character_index - chunk.first_character_index);
    }
  });
  const uncovered = points.findIndex((character, k) => covered[k] === 0 && !isSpace(character));
  expect(uncovered).toBe(-1);
}
