// `@rag/hybrid/internals`: the parts under the public interface, for this workspace's tests,
// benchmarks and sibling packages that need one step deeper. No stability promise beyond it.
export { fuseWith, compareFused } from './fusion/order.js';
export { missingScore, normalizeScore, statistics, type ListStatistics, type ScoreNormalization } from './fusion/score.js';
export { dropsNonPositive, poolOf, weightOf } from './options.js';
export { HYBRID_FORMAT, HYBRID_FORMAT_VERSION, HYBRID_MANIFEST_FILE, type HybridManifest } from './retriever.js';
