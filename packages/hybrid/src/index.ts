export { createHybridRetrieverFactory } from './factory.js';
export { fusionMethodNames, getFusionMethod, registerFusionMethod } from './fusion/registry.js';
export { fuseReciprocalRank, reciprocalRankFusion } from './fusion/rrf.js';
export { fuseScores, minMaxFusion, zScoreFusion } from './fusion/score.js';
export type { ComponentHits, FusedHit, FusionMethod, Provenance } from './fusion/types.js';
export {
  DEFAULT_HYBRID_OPTIONS,
  DEFAULT_POOL,
  DEFAULT_RRF_K,
  LEXICAL_DENSE_SETTINGS,
  resolveHybridOptions,
  type HybridOptions,
  type HybridSettings,
} from './options.js';
export { HybridRetriever } from './retriever.js';
export { HYBRID_SETTINGS_SCHEMA } from './options.js';
