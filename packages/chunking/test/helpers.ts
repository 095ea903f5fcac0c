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

/** True when `inner` lies within `outer` (and is not `outer` itself). */
export function liesWithin(inner: Chunk, outer: Chunk): boolean {
  return (
    inner !== outer &&
    inner.file_path === outer.file_path &&
    inner.first_character_index >= outer.first_character_index &&
    inner.last_character_index <= outer.last_character_index
  );
}

/**
 * Splits a file's chunks into the top-level ones and, per top-level chunk, the nested
 * chunks that follow it and lie within it.
 */
export function splitNested(chunks: readonly Chunk[]): { top: Chunk[]; nested: Map<Chunk, Chunk[]> } {
  const top: Chunk[] = [];
  const nested = new Map<Chunk, Chunk[]>();
  for (const chunk of chunks) {
    const parent = top.at(-1);
    if (parent && liesWithin(chunk, parent)) nested.get(parent)!.push(chunk);
    else {
      top.push(chunk);
      nested.set(chunk, []);
    }
  }
  return { top, nested };
}

/** Checks that chunks run in file order without overlapping (up to `overlap`). */
function expectInOrder(chunks: readonly Chunk[], overlap: number): void {
  chunks.forEach((chunk, i) => {
    const previous = chunks[i - 1];
    if (!previous) return;
    expect(chunk.first_character_index).toBeGreaterThan(previous.first_character_index);
    const shared = previous.last_character_index - chunk.first_character_index;
    expect(shared).toBeLessThanOrEqual(overlap);
    if (shared > 0) expect(2 * shared).toBeLessThanOrEqual(chunk.last_character_index - chunk.first_character_index);
  });
}

/**
 * Checks everything a chunk list must satisfy for its file: exact spans, in range,
 * within the cap, tight (but for code chunks' indentation and the blank lines up to the
 * next chunk), correct line numbers, ids 0..n-1; code chunks meeting; top-level chunks in order,
 * non-overlapping (up to the text overlap) and covering all non-whitespace; nested chunks
 * right after the chunk they lie in, in order, disjoint, and covering its non-whitespace.
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
    // Tight: leading whitespace only as the indentation of the first line, trailing
    // whitespace only up to where the next chunk starts (code chunks meet, see below).
    let first = chunk.first_character_index;
    while (isSpace(points[first]!)) {
      expect(points[first], `chunk ${chunk.id} starts with a line break`).not.toBe('\n');
      first++;
    }
    expect(first).toBeLessThan(chunk.last_character_index);
    if (first > chunk.first_character_index && chunk.first_character_index > 0) expect(points[chunk.first_character_index - 1]).toBe('\n');
    let last = chunk.last_character_index - 1;
    while (isSpace(points[last]!)) last--;
    if (last < chunk.last_character_index - 1) expect(chunks[i + 1]?.first_character_index, `chunk ${chunk.id} ends in whitespace without meeting the next`).toBe(chunk.last_character_index);
    expect(chunk.start_line).toBe(linesBefore[chunk.first_character_index]! + 1);
    expect(chunk.end_line).toBe(linesBefore[last]! + 1);
  });
  const { top, nested } = splitNested(chunks);
  expectInOrder(top, overlap);
  // Code chunks of a file meet, unless meeting would take a chunk past the cap.
  top.forEach((chunk, i) => {
    const next = top[i + 1];
    if (!next || chunk.language !== 'python' || chunk.kind === 'text' || next.kind === 'text') return;
    if (next.first_character_index - chunk.first_character_index > options.maxChunkSize) return;
    const startOfNext = points.lastIndexOf('\n', next.first_character_index - 1) + 1;
    if (next.last_character_index - startOfNext > options.maxChunkSize) return;
    expect(chunk.last_character_index, `chunks ${chunk.id} and ${next.id} do not meet`).toBe(next.first_character_index);
  });
  for (const chunk of top) for (let k = chunk.first_character_index; k < chunk.last_character_index; k++) covered[k] = 1;
  const uncovered = points.findIndex((character, k) => covered[k] === 0 && !isSpace(character));
  expect(uncovered).toBe(-1);
  for (const [parent, children] of nested) {
    if (children.length === 0) continue;
    expect(children.length).toBeGreaterThan(1);
    expectInOrder(children, 0);
    const inner = new Uint8Array(points.length);
    for (const child of children) {
      expect(child.symbol).toBe(parent.symbol);
      for (let k = child.first_character_index; k < child.last_character_index; k++) inner[k] = 1;
    }
    for (let k = parent.first_character_index; k < parent.last_character_index; k++) {
      if (!isSpace(points[k]!)) expect(inner[k], `code point ${k} of chunk ${parent.id} is in no nested chunk`).toBe(1);
    }
  }
}
