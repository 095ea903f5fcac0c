import { fuseWith } from './order.js';
import type { ComponentHits, FusedHit, FusionMethod } from './types.js';

/**
 * Reciprocal Rank Fusion (Cormack, Clarke & Büttcher 2009): score(d) = Σᵢ wᵢ / (k + rankᵢ(d))
 * over the lists that contain d. It needs no score calibration, only ranks; a larger `k`
 * flattens the difference between the top ranks, a smaller one trusts each list's head.
 */
export function fuseReciprocalRank(lists: readonly ComponentHits[], rrfK: number): FusedHit[] {
  return fuseWith(
    lists,
    (l, position) => lists[l]!.weight / (rrfK + position + 1),
    () => 0,
  );
}

export const reciprocalRankFusion: FusionMethod = {
  name: 'rrf',
  description: 'reciprocal rank fusion: Σ weight / (rrf_k + rank)',
  fuse: (lists, { rrfK }) => fuseReciprocalRank(lists, rrfK),
  describe: (p, weight, { rrfK }) =>
    p.rank === null ? `${p.name}: not among its candidates` : `${p.name}: rank ${p.rank} (score ${p.score!.toFixed(4)}) → ${weight} / (${rrfK} + ${p.rank})`,
};
