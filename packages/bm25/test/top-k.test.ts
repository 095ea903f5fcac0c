import fc from 'fast-check';
import type { Hit } from '@rag/core';
import { describe, expect, it } from 'vitest';
import { Bm25Index } from '../src/index.js';
import { selectTopK } from '../src/top-k.js';
import { makeChunks } from './helpers.js';

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'max_len', 'MaxLen', 'pkg.mod', 'the'];

/** Every chunk scored through explain(), sorted by score then id: what search must return. */
function bruteForce(index: Bm25Index, query: string, k: number): Hit[] {
  const all: Hit[] = [];
  for (let id = 0; id < index.docCount; id++) {
    const score = index.explain(query, id).value;
    if (score > 0) all.push({ chunkId: id, score });
  }
  all.sort((a, b) => b.score - a.score || a.chunkId - b.chunkId);
  return all.slice(0, k);
}

const words = (max: number) => fc.array(fc.constantFrom(...WORDS), { maxLength: max }).map((w) => w.join(' '));

describe('top-k', () => {
  it('equals a brute-force sort of every chunk, scores included', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ text: words(12), symbol: words(2), path: fc.constantFrom('a/alpha.py', 'b/beta.md', 'c.txt') }), {
          minLength: 1,
          maxLength: 40,
        }),
        words(5),
        fc.integer({ min: 1, max: 12 }),
        fc.record({
          k1: fc.double({ min: 0.1, max: 3, noNaN: true }),
          b: fc.double({ min: 0, max: 1, noNaN: true }),
          path: fc.double({ min: 0, max: 3, noNaN: true }),
          symbol: fc.double({ min: 0, max: 5, noNaN: true }),
        }),
        (specs, query, k, settings) => {
          const chunks = makeChunks(specs.map((s) => ({ text: s.text, symbol: s.symbol, file_path: s.path })));
          const index = Bm25Index.build(chunks, {
            k1: settings.k1,
            b: settings.b,
            fields: { path: { weight: settings.path }, symbol: { weight: settings.symbol } },
          });
          expect(index.search(query, k)).toEqual(bruteForce(index, query, k));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('selectTopK breaks ties by the lower id and never returns more than asked', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 0, maxLength: 60 }), fc.integer({ min: 0, max: 70 }), (values, k) => {
        const scores = Float64Array.from(values);
        const candidates = Uint32Array.from(values.map((_, i) => i).reverse());
        const expected = values
          .map((score, chunkId) => ({ chunkId, score }))
          .sort((a, b) => b.score - a.score || a.chunkId - b.chunkId)
          .slice(0, k);
        expect(selectTopK(candidates, candidates.length, scores, k)).toEqual(expected);
      }),
    );
  });
});
