import fc from 'fast-check';
import type { Chunk } from '@rag/core';
import { describe, expect, it } from 'vitest';
import { fingerprintChunks } from '../src/checksum.js';

/** The fingerprint as first written (the key built as a string), which stored indexes carry. */
function referenceFingerprint(chunks: readonly Pick<Chunk, 'file_path' | 'first_character_index' | 'last_character_index'>[]): string {
  const hashString = (hash: number, text: string): number => {
    let h = hash;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    return h;
  };
  let a = 0x811c9dc5;
  let b = 0x2f6e5a1d;
  for (const chunk of chunks) {
    const key = `${chunk.file_path}\u0000${chunk.first_character_index}\u0000${chunk.last_character_index}\u0001`;
    a = hashString(a, key);
    b = hashString(b ^ 0x5bd1e995, key);
  }
  const hex = (n: number): string => (n >>> 0).toString(16).padStart(8, '0');
  return `${chunks.length}-${hex(a)}${hex(b)}`;
}

const chunk = (file_path: string, first: number, last: number): Chunk =>
  ({ id: 0, file_path, first_character_index: first, last_character_index: last, start_line: 1, end_line: 1, kind: 'text', symbol: '', language: 'text', text: '' }) as Chunk;

describe('fingerprintChunks', () => {
  it('keeps the value indexes already store (computed by the first implementation)', () => {
    const chunks = [chunk('vllm/config.py', 0, 1234), chunk('docs/ü/naïve.md', 1234, 100000), chunk('a', 9, 10)];
    expect(fingerprintChunks(chunks)).toBe('3-e85cba027d9f1ebd');
    expect(fingerprintChunks([])).toBe('0-811c9dc52f6e5a1d');
  });

  it('equals the string-key formula for any paths and offsets', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string(), fc.nat(), fc.nat()), { maxLength: 20 }), (specs) => {
        const chunks = specs.map(([path, a, b]) => chunk(path, a, b));
        expect(fingerprintChunks(chunks)).toBe(referenceFingerprint(chunks));
      }),
      { numRuns: 500 },
    );
  });
});
