export { Bm25Index, type Bm25IndexStats } from './bm25-index.js';
export { CONTINUES_SEGMENT, TERM_ID_MASK, type Bm25IndexData, type FieldPostings, type TermSequences } from './build.js';
export { tableHeaderContexts } from './context.js';
export { TermDictionary } from './dictionary.js';
export type { ResolvedQueryTerm } from './explain.js';
export { pathFieldText } from './fields.js';
export {
  DEFAULT_BM25_OPTIONS,
  DEFAULT_CONTEXT_OPTIONS,
  FIELD_NAMES,
  resolveBm25Options,
  type ContextOptions,
  type Bm25Options,
  type Bm25Settings,
  type FieldName,
  type FieldOptions,
} from './options.js';
export { BM25_FILE_NAME, BM25_FORMAT, BM25_FORMAT_VERSION, decodeIndex, encodeIndex, type Bm25FileHeader } from './persist.js';
export { Bm25Retriever, bm25RetrieverFactory, createBm25Retriever, loadBm25Retriever } from './retriever.js';
export { inverseDocumentFrequency, lengthNorm, termContribution } from './scoring.js';
export {
  DEFAULT_QUERY_OPTIONS,
  DEFAULT_TOKENIZER_OPTIONS,
  type QueryOptions,
  type TokenizerOptions,
} from './tokenizer/options.js';
export { foldDerivation, stemWord } from './tokenizer/stem.js';
export { QUERY_ABBREVIATIONS, QUERY_ALIASES, QUESTION_WORDS, STOPWORDS } from './tokenizer/stopwords.js';
export { tokenize, tokenizeQuery, type QueryTerm, type QueryTokenizeOptions } from './tokenizer/tokenize.js';
export { DEFAULT_RERANK_OPTIONS, type RerankOptions } from './rerank/options.js';
export { Reranker, selectDisjoint, type RerankParts } from './rerank/reranker.js';
export { AUXILIARY_DIRS, isAuxiliaryPath } from './rerank/priors.js';
export { isIdentifierSpelling } from './rerank/query.js';
