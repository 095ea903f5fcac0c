// `@rag/bm25/internals`: the index's data structures, file format and scoring parts, for
// benchmarks, tests and tools that inspect an index. No stability promise beyond this workspace.
export { Bm25Index, type Bm25IndexStats, type FirstStageOptions } from './bm25-index.js';
export { arrayPostings, type PostingSource, type TermPostings } from './postings.js';
export { DEFAULT_PAGED_CACHE_BYTES, openPagedIndex, PagedPostings, type PagedIndex, type PagedPostingsStats } from './paged.js';
export { BlockSearch, DEFAULT_BLOCK_SHIFT, tabulateBlocks, type BlockTable, type BlockedList } from './block-max.js';
export { CONTINUES_SEGMENT, TERM_ID_MASK, type Bm25IndexData, type FieldPostings, type TermSequences } from './build.js';
export { tableHeaderContexts } from './context.js';
export { TermDictionary } from './dictionary.js';
export type { ResolvedQueryTerm } from './explain.js';
export { pathFieldText } from './fields.js';
export { BM25_FILE_NAME, BM25_FORMAT, BM25_FORMAT_VERSION, decodeIndex, encodeIndex, type Bm25FileHeader } from './persist.js';
export { inverseDocumentFrequency, lengthNorm, termContribution } from './scoring.js';
export { Reranker, selectDisjoint, type RerankParts } from './rerank/reranker.js';
export { AUXILIARY_DIRS, HISTORY_NAMES, isAuxiliaryPath, isHistoryPath } from './rerank/priors.js';
export { createQueryShaper, type QueryShape } from './rerank/query.js';
export { CompositeDictionary, CompositePostings, composeIndex, NOT_KEPT } from './composite.js';
export { buildOverlay, OVERLAY_MAX_SHARE, overlayOf, planOverlay, type OverlayData, type OverlayPlan } from './overlay.js';
export { BASE_FILE_NAME, decodeOverlay, encodeOverlayParts, OVERLAY_FILE_NAME, OVERLAY_FORMAT, OVERLAY_FORMAT_VERSION } from './overlay-file.js';
