import fc from 'fast-check';
import type { Hit } from '@rag/core';
import { describe, expect, it } from 'vitest';
import { Bm25Index } from '../src/internals.js';
import { selectTopK, takeTopKDense } from '../src/top-k.js';
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
          // Field weights are 0 (off) or ordinary numbers: with subnormal weights (5e-324) the
          // sums of the search and of explain() round differently, which no setting means.
          path: fc.oneof(fc.constant(0), fc.double({ min: 1e-3, max: 3, noNaN: true })),
          symbol: fc.oneof(fc.constant(0), fc.double({ min: 1e-3, max: 5, noNaN: true })),
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

  it('returns no hit whose score is zero, and a hit of the smallest positive score (found by the property above)', () => {
    // A path weight of 5e-324 makes tf̃ the smallest double: the chunk matched, by the least
    // that can be represented. Saturating tf̃ before weighting it keeps that above zero.
    const chunks = makeChunks([{ text: '', file_path: 'a/alpha.py' }, { text: '', file_path: 'a/alpha.py' }]);
    const index = Bm25Index.build(chunks, { k1: 1.2, b: 0, fields: { path: { weight: 5e-324 }, symbol: { weight: 0 } } });
    const hits = index.search('alpha', 1);
    expect(hits.every((hit) => hit.score > 0)).toBe(true);
    for (const hit of hits) expect(index.explain('alpha', hit.chunkId).value).toBe(hit.score);
    // Candidates listed twice, or with a score of 0 (contributions that underflowed), are skipped.
    expect(selectTopK(Uint32Array.from([0, 0, 1]), 3, Float64Array.from([0, 2]), 3)).toEqual([{ chunkId: 1, score: 2 }]);
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

  it('the dense selection over every id equals sorting the positive scores, ties to the lower id', () => {
    // Scores drawn from a few values, so ties are the rule: the dense scan lets only a
    // strictly higher score past a full heap, which is right because ids come in ascending order.
    fc.assert(
      fc.property(fc.array(fc.constantFrom(0, -1, 0.5, 1, 1, 2, 3, 3, Number.NaN), { maxLength: 200 }), fc.integer({ min: 0, max: 30 }), (values, k) => {
        const scores = Float64Array.from(values);
        const expected = values
          .map((score, chunkId) => ({ chunkId, score }))
          .filter((hit) => hit.score > 0)
          .sort((a, b) => b.score - a.score || a.chunkId - b.chunkId)
          .slice(0, k);
        const all = Uint32Array.from(values.keys());
        expect(selectTopK(all, all.length, scores, k)).toEqual(expected);
        // The dense selection clears what it reads: the next query starts from zeros.
        expect(takeTopKDense(scores, scores.length, k)).toEqual(expected);
        expect(scores.every((score) => score === 0)).toBe(true);
      }),
    );
  });
});
