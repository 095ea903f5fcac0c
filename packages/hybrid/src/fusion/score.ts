import { fuseWith } from './order.js';
import type { ComponentHits, FusedHit, FusionMethod } from './types.js';

export type ScoreNormalization = 'minmax' | 'zscore';

export interface ListStatistics {
  min: number;
  max: number;
  mean: number;
  deviation: number;
}

export function statistics(list: ComponentHits): ListStatistics {
  const scores = list.hits.map((h) => h.score);
  if (scores.length === 0) return { min: 0, max: 0, mean: 0, deviation: 0 };
  const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
  const variance = scores.reduce((a, s) => a + (s - mean) ** 2, 0) / scores.length;
  return { min: Math.min(...scores), max: Math.max(...scores), mean, deviation: Math.sqrt(variance) };
}

/** A score on the list's common scale: min-max to [0, 1] (1 when all are equal), or a z-score (0 when all are equal). */
export function normalizeScore(score: number, stats: ListStatistics, normalization: ScoreNormalization): number {
  if (normalization === 'minmax') return stats.max > stats.min ? (score - stats.min) / (stats.max - stats.min) : 1;
  return stats.deviation > 0 ? (score - stats.mean) / stats.deviation : 0;
}

/**
 * What a list adds for a candidate it did not return: the bottom of its scale, as if the
 * candidate sat at the list's cut-off. Min-max: 0. Z-score: the lowest z in the list, or
 * −1 when all its scores are equal (they all get z = 0, and absence must still count less).
 */
export function missingScore(stats: ListStatistics, normalization: ScoreNormalization): number {
  if (normalization === 'minmax') return 0;
  return stats.deviation > 0 ? (stats.min - stats.mean) / stats.deviation : -1;
}

/** Weighted sum of per-list normalised scores over each list's candidates (see `missingScore`). */
export function fuseScores(lists: readonly ComponentHits[], normalization: ScoreNormalization): FusedHit[] {
  const stats = lists.map(statistics);
  return fuseWith(
    lists,
    (l, position) => lists[l]!.weight * normalizeScore(lists[l]!.hits[position]!.score, stats[l]!, normalization),
    (l) => (lists[l]!.hits.length === 0 ? 0 : lists[l]!.weight * missingScore(stats[l]!, normalization)),
  );
}

function scoreFusion(normalization: ScoreNormalization, description: string): FusionMethod {
  return {
    name: normalization,
    description,
    fuse: (lists) => fuseScores(lists, normalization),
    describe: (p, weight) =>
      p.rank === null
        ? `${p.name}: not among its candidates, counted as the bottom of its scale (${p.contribution.toFixed(4)})`
        : `${p.name}: rank ${p.rank}, score ${p.score!.toFixed(4)} → ${weight} × ${normalization}(score) = ${p.contribution.toFixed(4)}`,
  };
}

export const minMaxFusion = scoreFusion('minmax', 'weighted sum of scores min-max normalised per retriever');
export const zScoreFusion = scoreFusion('zscore', 'weighted sum of z-scored scores per retriever');
