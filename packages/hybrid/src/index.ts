export { createHybridRetrieverFactory } from './factory.js';
export { fuseWith, compareFused } from './fusion/order.js';
export { fusionMethodNames, getFusionMethod, registerFusionMethod } from './fusion/registry.js';
export { fuseReciprocalRank, reciprocalRankFusion } from './fusion/rrf.js';
export { fuseScores, minMaxFusion, missingScore, normalizeScore, statistics, zScoreFusion, type ListStatistics, type ScoreNormalization } from './fusion/score.js';
export type { ComponentHits, FusedHit, FusionMethod, Provenance } from './fusion/types.js';
export {
  DEFAULT_HYBRID_OPTIONS,
  DEFAULT_POOL,
  DEFAULT_RRF_K,
  LEXICAL_DENSE_SETTINGS,
  dropsNonPositive,
  poolOf,
  resolveHybridOptions,
  weightOf,
  type HybridOptions,
  type HybridSettings,
} from './options.js';
export { HYBRID_FORMAT, HYBRID_FORMAT_VERSION, HYBRID_MANIFEST_FILE, HybridRetriever, type HybridManifest } from './retriever.js';
