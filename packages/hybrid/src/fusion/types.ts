import type { Hit } from '@rag/core';

/** One component retriever's ranked candidates for a query, with its fusion weight. */
export interface ComponentHits {
  /** The component retriever's name, e.g. `bm25`. */
  name: string;
  /** Multiplies this component's contribution; ≥ 0. */
  weight: number;
  /** Best first, as the component returned them (after dropping non-positive scores). */
  hits: readonly Hit[];
}

/** Where a fused hit stood in one component. */
export interface Provenance {
  name: string;
  /** 1-based rank in the component's candidates, or null when it did not return the chunk. */
  rank: number | null;
  /** The component's own score, or null when it did not return the chunk. */
  score: number | null;
  /** What this component added to the fused score. */
  contribution: number;
}

/** A fused result: its score and its standing in every component (in component order). */
export interface FusedHit {
  chunkId: number;
  score: number;
  components: Provenance[];
}

/** A way of combining ranked lists, registered by name (see `getFusionMethod`). */
export interface FusionMethod {
  readonly name: string;
  /** One line for help texts. */
  readonly description: string;
  /** Fused candidates, best first. `rrfK` is only read by rank-based methods. */
  fuse(lists: readonly ComponentHits[], parameters: { rrfK: number }): FusedHit[];
  /** How one contribution was computed, for `explain`. */
  describe(provenance: Provenance, weight: number, parameters: { rrfK: number }): string;
}
