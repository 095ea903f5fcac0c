import { describe, expect, test } from 'vitest';
import { isRagError, type Hit } from '@rag/core';
import { fuseReciprocalRank, fuseScores, fusionMethodNames, getFusionMethod, type ComponentHits } from '../src/index.js';

const hits = (...pairs: [number, number][]): Hit[] => pairs.map(([chunkId, score]) => ({ chunkId, score }));
const list = (name: string, weight: number, h: Hit[]): ComponentHits => ({ name, weight, hits: h });

describe('reciprocal rank fusion', () => {
  test('hand-computed order with k = 60', () => {
    // A: 1, 2, 3   B: 3, 1, 4
    // 1: 1/61 + 1/62 = 0.032522   3: 1/63 + 1/61 = 0.032266   2: 1/62 = 0.016129   4: 1/63 = 0.015873
    const fused = fuseReciprocalRank([list('A', 1, hits([1, 9], [2, 8], [3, 7])), list('B', 1, hits([3, 0.9], [1, 0.8], [4, 0.7]))], 60);
    expect(fused.map((h) => h.chunkId)).toEqual([1, 3, 2, 4]);
    expect(fused[0]!.score).toBeCloseTo(1 / 61 + 1 / 62, 12);
    expect(fused[1]!.score).toBeCloseTo(1 / 63 + 1 / 61, 12);
    expect(fused[0]!.components).toEqual([
      { name: 'A', rank: 1, score: 9, contribution: 1 / 61 },
      { name: 'B', rank: 2, score: 0.8, contribution: 1 / 62 },
    ]);
    expect(fused[3]!.components[0]).toEqual({ name: 'A', rank: null, score: null, contribution: 0 });
  });

  test('weights scale a list: with k = 1 and A weighing 2, a chunk second in A but first in B wins', () => {
    // A (w 2): x=1, y=2   B (w 1): y=2, z=3
    // x: 2/2 = 1   y: 2/3 + 1/2 = 1.1667   z: 1/3
    const fused = fuseReciprocalRank([list('A', 2, hits([1, 5], [2, 4])), list('B', 1, hits([2, 5], [3, 4]))], 1);
    expect(fused.map((h) => [h.chunkId, Number(h.score.toFixed(4))])).toEqual([
      [2, 1.1667],
      [1, 1],
      [3, 0.3333],
    ]);
  });

  test('ties go to the larger single contribution, then to the lower chunk id', () => {
    // k = 1. A: 10, 11, 12   B: 13, 14, 12
    // 10: 1/2   13: 1/2   12: 1/4 + 1/4 = 1/2 (but its best single part is 1/4)   11: 1/3   14: 1/3
    const fused = fuseReciprocalRank([list('A', 1, hits([10, 3], [11, 2], [12, 1])), list('B', 1, hits([13, 3], [14, 2], [12, 1]))], 1);
    expect(fused.map((h) => h.chunkId)).toEqual([10, 13, 12, 11, 14]);
    expect(fused.slice(0, 3).map((h) => h.score)).toEqual([0.5, 0.5, 0.5]);
  });

  test('a weight of 0 mutes a list but keeps its provenance; empty lists fuse to nothing', () => {
    const fused = fuseReciprocalRank([list('A', 1, hits([1, 1])), list('B', 0, hits([2, 1], [1, 0.5]))], 60);
    expect(fused.map((h) => h.chunkId)).toEqual([1, 2]);
    expect(fused[1]!.score).toBe(0);
    expect(fused[0]!.components[1]).toMatchObject({ rank: 2, score: 0.5, contribution: 0 });
    expect(fuseReciprocalRank([list('A', 1, [])], 60)).toEqual([]);
  });
});

describe('score fusion', () => {
  const a = list('A', 1, hits([1, 10], [2, 6], [3, 2]));
  const b = list('B', 0.5, hits([3, 0.9], [4, 0.5], [1, 0.1]));

  test('min-max: hand-computed weighted sum, a missing chunk counting as the list minimum (0)', () => {
    // A → 1: 1, 2: 0.5, 3: 0      B (× 0.5) → 3: 1, 4: 0.5, 1: 0
    // 1: 1 + 0 = 1   2: 0.5 + 0 = 0.5   3: 0 + 0.5 = 0.5   4: 0 + 0.25 = 0.25
    // 2 and 3 tie at 0.5 with equal best parts (0.5), so the lower id comes first.
    const fused = fuseScores([a, b], 'minmax');
    expect(fused.map((h) => [h.chunkId, h.score])).toEqual([
      [1, 1],
      [2, 0.5],
      [3, 0.5],
      [4, 0.25],
    ]);
  });

  test('z-score: hand-computed, a missing chunk counting as the list’s lowest z', () => {
    // Both lists have z-scores (+1.2247, 0, −1.2247) for their three hits.
    // 1: 1.2247 − 0.5·1.2247 = 0.6124   2: 0 − 0.5·1.2247 = −0.6124
    // 3: −1.2247 + 0.5·1.2247 = −0.6124  4: −1.2247 + 0.5·0 = −1.2247
    const z = Math.sqrt(3 / 2);
    const fused = fuseScores([a, b], 'zscore');
    const byId = new Map(fused.map((h) => [h.chunkId, h.score]));
    expect(byId.get(1)).toBeCloseTo(z / 2, 10);
    expect(byId.get(2)).toBeCloseTo(-z / 2, 10);
    expect(byId.get(3)).toBeCloseTo(-z / 2, 10);
    expect(byId.get(4)).toBeCloseTo(-z, 10);
    expect(fused[0]!.chunkId).toBe(1);
    expect(fused.at(-1)!.chunkId).toBe(4);
  });

  test('lists whose scores are all equal still reward presence', () => {
    // Min-max: every hit of a flat list normalises to 1, absence to 0.
    const flat = [list('A', 1, hits([5, 3], [6, 3])), list('B', 1, hits([6, 2]))];
    expect(fuseScores(flat, 'minmax').map((h) => [h.chunkId, h.score])).toEqual([
      [6, 2],
      [5, 1],
    ]);
    // Z-score: a flat list gives its hits z = 0 and absence −1.
    expect(fuseScores(flat, 'zscore').map((h) => [h.chunkId, h.score])).toEqual([
      [6, 0],
      [5, -1],
    ]);
  });
});

describe('the fusion registry', () => {
  test('names the built-in methods and refuses unknown ones with the valid names', () => {
    expect(fusionMethodNames()).toEqual(['rrf', 'minmax', 'zscore']);
    expect(getFusionMethod('rrf').name).toBe('rrf');
    let error: unknown;
    try {
      getFusionMethod('borda');
    } catch (e) {
      error = e;
    }
    expect(isRagError(error)).toBe(true);
    expect((error as { code: string }).code).toBe('UNKNOWN_NAME');
    expect((error as { hint: string }).hint).toBe('Valid fusion methods: rrf, minmax, zscore.');
  });
});
