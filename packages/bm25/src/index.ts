export { Bm25Index, type Bm25IndexStats } from './bm25-index.js';
export type { Bm25IndexData, FieldPostings } from './build.js';
export { TermDictionary } from './dictionary.js';
export type { ResolvedQueryTerm } from './explain.js';
export { pathFieldText } from './fields.js';
export {
  DEFAULT_BM25_OPTIONS,
  FIELD_NAMES,
  resolveBm25Options,
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
export { stemWord } from './tokenizer/stem.js';
export { QUESTION_WORDS, STOPWORDS } from './tokenizer/stopwords.js';
export { tokenize, tokenizeQuery, type QueryTerm, type QueryTokenizeOptions } from './tokenizer/tokenize.js';
