import fc from 'fast-check';
import type { Chunk } from '@rag/core';
import { describe, expect, it } from 'vitest';
import { fingerprintChunks } from '../src/checksum.js';

/**
 * The fingerprint as specified, written plainly: per chunk, its path's FNV-1a hash (worked
 * out again for every chunk), then its offsets, into two FNV-1a chains over 32-bit words.
 */
function referenceFingerprint(chunks: readonly Pick<Chunk, 'file_path' | 'first_character_index' | 'last_character_index'>[]): string {
  const fnv = (seed: number, text: string): number => {
    let h = seed;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    return h;
  };
  const word = (hash: number, value: number): number => Math.imul(hash ^ value, 0x01000193);
  let a = 0x811c9dc5;
  let b = 0x2f6e5a1d;
  for (const { file_path, first_character_index: first, last_character_index: last } of chunks) {
    a = word(word(word(a, fnv(0x811c9dc5, file_path)), first), last);
    b = word(word(word(b, fnv(0x2f6e5a1d, file_path)), first ^ 0x5bd1e995), last);
  }
  const hex = (n: number): string => (n >>> 0).toString(16).padStart(8, '0');
  return `${chunks.length}-${hex(a)}${hex(b)}`;
}

const chunk = (file_path: string, first: number, last: number): Chunk =>
  ({ id: 0, file_path, first_character_index: first, last_character_index: last, start_line: 1, end_line: 1, kind: 'text', symbol: '', language: 'text', text: '' }) as Chunk;

const offsets = fc.integer({ min: 0, max: 2 ** 31 - 1 });

describe('fingerprintChunks', () => {
  it('keeps the value of format 16 (a change here makes every stored index look built over other chunks)', () => {
    const chunks = [chunk('vllm/config.py', 0, 1234), chunk('vllm/config.py', 1234, 5000), chunk('docs/ü/naïve.md', 1234, 100000), chunk('a', 9, 10)];
    expect(fingerprintChunks(chunks)).toBe(referenceFingerprint(chunks));
    expect(fingerprintChunks(chunks)).toBe('4-d769e66442998584');
    expect(fingerprintChunks([])).toBe('0-811c9dc52f6e5a1d');
  });

  it('equals the plain formula for any paths and offsets, consecutive chunks of one file included', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('a.py', 'b/c.md', 'ü.rst', ''), offsets, offsets), { maxLength: 20 }), (specs) => {
        const chunks = specs.map(([path, first, last]) => chunk(path, first, last));
        expect(fingerprintChunks(chunks)).toBe(referenceFingerprint(chunks));
      }),
      { numRuns: 500 },
    );
  });

  it('changes when any chunk moves, grows or changes file', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string(), offsets, offsets), { minLength: 1, maxLength: 10 }), fc.nat(), fc.constantFrom('path', 'first', 'last'), (specs, at, what) => {
        const chunks = specs.map(([path, first, last]) => chunk(path, first, last));
        const i = at % chunks.length;
        const changed = [...chunks];
        const c = chunks[i]!;
        changed[i] = what === 'path' ? chunk(`${c.file_path}x`, c.first_character_index, c.last_character_index) : what === 'first' ? chunk(c.file_path, c.first_character_index + 1, c.last_character_index) : chunk(c.file_path, c.first_character_index, c.last_character_index + 1);
        expect(fingerprintChunks(changed)).not.toBe(fingerprintChunks(chunks));
      }),
      { numRuns: 500 },
    );
  });
});
