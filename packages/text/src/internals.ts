// `@rag/text/internals`: the building blocks under `tokenize`, for a retriever that indexes
// at scale and must walk segments and expand identifiers itself (as @rag/bm25's index
// builder does, memoizing per identifier). No stability promise beyond this workspace.
export { forEachSegment, forEachSegmentRange } from './segments.js';
export { SegmentExpander, type ExpanderOptions, type TermSink } from './split-identifiers.js';
