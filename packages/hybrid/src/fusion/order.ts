import type { ComponentHits, FusedHit, Provenance } from './types.js';

/**
 * Collects each candidate's provenance across all lists, then scores it with
 * `contribution(listIndex, position)`; a list that lacks the candidate adds `missing(listIndex)`.
 */
export function fuseWith(
  lists: readonly ComponentHits[],
  contribution: (list: number, position: number) => number,
  missing: (list: number) => number,
): FusedHit[] {
  const byChunk = new Map<number, FusedHit>();
  lists.forEach((list, l) => {
    list.hits.forEach((hit, position) => {
      let fused = byChunk.get(hit.chunkId);
      if (!fused) {
        fused = {
          chunkId: hit.chunkId,
          score: 0,
          components: lists.map((other) => ({ name: other.name, rank: null, score: null, contribution: 0 })),
        };
        byChunk.set(hit.chunkId, fused);
      }
      const slot = fused.components[l]!;
      // A list that names a chunk twice keeps its first (best) rank.
      if (slot.rank === null) {
        slot.rank = position + 1;
        slot.score = hit.score;
        slot.contribution = contribution(l, position);
      }
    });
  });
  const fused = [...byChunk.values()];
  for (const hit of fused) {
    hit.components.forEach((slot, l) => {
      if (slot.rank === null) slot.contribution = missing(l);
    });
    hit.score = hit.components.reduce((sum, slot) => sum + slot.contribution, 0);
  }
  return fused.sort(compareFused);
}

const best = (components: readonly Provenance[]): number => Math.max(...components.map((c) => c.contribution));

/** Score descending; ties to the hit with the larger single contribution, then the lower chunk id. */
export function compareFused(a: FusedHit, b: FusedHit): number {
  return b.score - a.score || best(b.components) - best(a.components) || a.chunkId - b.chunkId;
}
