import fc from 'fast-check';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { DEFAULT_HNSW_OPTIONS } from '../src/index.js';
import { HnswVectorIndex, normalizeInPlace, planWindows, searchExact, TopK } from '../src/internals.js';

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/** Unit vectors around `clusters` random centres: the shape of real embeddings, where HNSW does well. */
function clusteredVectors(count: number, dimension: number, clusters: number, seed: number): Float32Array {
  const next = seeded(seed);
  const gaussian = () => Math.sqrt(-2 * Math.log(next() + 1e-12)) * Math.cos(2 * Math.PI * next());
  const centres = Array.from({ length: clusters }, () => Float32Array.from({ length: dimension }, gaussian));
  const out = new Float32Array(count * dimension);
  for (let r = 0; r < count; r++) {
    const centre = centres[r % clusters]!;
    for (let i = 0; i < dimension; i++) out[r * dimension + i] = centre[i]! + 0.6 * gaussian();
    normalizeInPlace(out, r * dimension, dimension);
  }
  return out;
}

function bruteForce(vectors: Float32Array, dimension: number, query: Float32Array, k: number) {
  const scores = [];
  for (let r = 0; r < vectors.length / dimension; r++) {
    let s = 0;
    for (let i = 0; i < dimension; i++) s += query[i]! * vectors[r * dimension + i]!;
    scores.push({ chunkId: r, score: s });
  }
  return scores.sort((a, b) => b.score - a.score || a.chunkId - b.chunkId).slice(0, k);
}

describe('TopK', () => {
  test('keeps the k best, best first, ties to the lower id', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 60 }), fc.integer({ min: 0, max: 12 }), (scores, k) => {
        const top = new TopK(k);
        scores.forEach((s, id) => top.push(id, s));
        const expected = scores
          .map((score, chunkId) => ({ chunkId, score }))
          .sort((a, b) => b.score - a.score || a.chunkId - b.chunkId)
          .slice(0, k);
        expect(top.drain()).toEqual(expected);
      }),
    );
  });
});

describe('searchExact', () => {
  test('equals a brute-force sort, for any dimension (unrolled loop and its tail)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 11 }), fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 15 }), fc.nat(), (dimension, count, k, seed) => {
        const vectors = clusteredVectors(count, dimension, 3, seed);
        const query = clusteredVectors(1, dimension, 1, seed + 1);
        const hits = searchExact(vectors, dimension, query, k);
        const expected = bruteForce(vectors, dimension, query, k);
        expect(hits.map((h) => h.chunkId)).toEqual(expected.map((h) => h.chunkId));
        hits.forEach((h, i) => expect(h.score).toBeCloseTo(expected[i]!.score, 5));
      }),
      { numRuns: 80 },
    );
  });
});

describe('a scoped vector search', () => {
  test('exact: equals the unscoped ranking of every row with the rows outside the scope taken out', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 15 }), fc.nat(), (dimension, count, k, seed) => {
        const vectors = clusteredVectors(count, dimension, 3, seed);
        const query = clusteredVectors(1, dimension, 1, seed + 1);
        const next = seeded(seed + 2);
        const scope = Uint8Array.from({ length: count }, () => (next() < 0.5 ? 1 : 0));
        const expected = searchExact(vectors, dimension, query, count).filter((hit) => scope[hit.chunkId] === 1).slice(0, k);
        expect(searchExact(vectors, dimension, query, k, scope)).toEqual(expected);
      }),
      { numRuns: 80 },
    );
  });

  test('HNSW: only rows in the scope, at most as many as it holds, nearly all of them the best the exact search finds there', () => {
    const dimension = 16;
    const vectors = clusteredVectors(1500, dimension, 30, 11);
    const hnsw = HnswVectorIndex.build(vectors, dimension, DEFAULT_HNSW_OPTIONS);
    // Every 3rd row: a scope spread over the whole graph.
    const scope = Uint8Array.from({ length: 1500 }, (_, i) => (i % 3 === 0 ? 1 : 0));
    let found = 0;
    for (let q = 0; q < 20; q++) {
      const query = clusteredVectors(1, dimension, 1, 500 + q);
      const hits = hnsw.search(query, 10, scope, 500);
      expect(hits).toHaveLength(10);
      for (const hit of hits) expect(scope[hit.chunkId]).toBe(1);
      const exact = new Set(searchExact(vectors, dimension, query, 10, scope).map((hit) => hit.chunkId));
      found += hits.filter((hit) => exact.has(hit.chunkId)).length;
    }
    expect(found / 200).toBeGreaterThanOrEqual(0.9);
    // A scope of two rows: no more than two hits.
    const two = new Uint8Array(1500);
    two[7] = 1;
    two[900] = 1;
    expect(hnsw.search(clusteredVectors(1, dimension, 1, 3), 10, two, 2).map((hit) => hit.chunkId).sort((a, b) => a - b)).toEqual([7, 900]);
  });
});

describe('exact and HNSW search agree', () => {
  const dimension = 32;
  const vectors = clusteredVectors(3000, dimension, 40, 5);
  const queries = Array.from({ length: 50 }, (_, i) => clusteredVectors(1, dimension, 1, 1000 + i));

  test('recall@10 of HNSW against exact search is at least 0.95, with the same scores', () => {
    const hnsw = HnswVectorIndex.build(vectors, dimension, DEFAULT_HNSW_OPTIONS);
    let found = 0;
    for (const query of queries) {
      const exact = searchExact(vectors, dimension, query, 10);
      const approximate = hnsw.search(query, 10);
      expect(approximate).toHaveLength(10);
      const exactScores = new Map(exact.map((h) => [h.chunkId, h.score]));
      for (const hit of approximate) {
        const score = exactScores.get(hit.chunkId);
        if (score !== undefined) {
          found++;
          expect(hit.score).toBeCloseTo(score, 4);
        }
      }
    }
    expect(found / (queries.length * 10)).toBeGreaterThanOrEqual(0.95);
  });

  test('a written and re-read graph answers identically, and k is capped at the corpus size', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rag-hnsw-'));
    try {
      const small = vectors.subarray(0, 200 * dimension);
      const hnsw = HnswVectorIndex.build(small, dimension, DEFAULT_HNSW_OPTIONS);
      hnsw.write(join(dir, 'hnsw.bin'));
      const reread = HnswVectorIndex.read(join(dir, 'hnsw.bin'), dimension, 200, DEFAULT_HNSW_OPTIONS);
      for (const query of queries.slice(0, 10)) expect(reread.search(query, 10)).toEqual(hnsw.search(query, 10));
      expect(hnsw.search(queries[0]!, 500)).toHaveLength(200);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('planWindows', () => {
  test('windows cover every token, fit, share at least the overlap and end at the text end', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 20 }), (tokens, content, rawOverlap) => {
        const overlap = Math.min(rawOverlap, Math.floor(content / 2));
        const starts = planWindows(tokens, content, overlap);
        expect(starts[0]).toBe(0);
        if (tokens <= content) {
          expect(starts).toEqual([0]);
          return;
        }
        expect(starts.at(-1)! + content).toBe(tokens);
        for (let i = 1; i < starts.length; i++) {
          expect(starts[i]!).toBeGreaterThan(starts[i - 1]!);
          expect(starts[i - 1]! + content - starts[i]!).toBeGreaterThanOrEqual(overlap);
        }
      }),
    );
  });
});
