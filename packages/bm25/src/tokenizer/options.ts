/** How text is cut into index terms. The same options apply to chunks and queries. */
export interface TokenizerOptions {
  /**
   * Also emit the sub-words of snake_case, kebab-case, camelCase and PascalCase
   * identifiers next to the whole identifier (`max_num_seqs` → `max_num_seqs`, `max`,
   * `num`, `seqs`; `HTTPServer` → `httpserver`, `http`, `server`). Default `true`.
   */
  splitIdentifiers: boolean;
  /**
   * Also split sub-words where letters and digits meet (`fp8` → `fp`, `8`). Default
   * `false`: in code the digit usually belongs to the name (`fp8`, `int4`, `llama3`).
   */
  splitDigits: boolean;
  /**
   * Emit a dotted name whole (`vllm.entrypoints.llm`) as well as its parts. Default `true`.
   */
  dottedNames: boolean;
  /** Drop English function words (see `STOPWORDS`). Default `true`. */
  stopwords: boolean;
  /**
   * Fold plurals and -ing/-ed forms of plain words with a light suffix stemmer
   * (`stemWord`). Whole identifiers are never stemmed. Default `true`.
   */
  stem: boolean;
  /**
   * With `stem`, also fold -ation nouns onto their verbs (`quantization` ~ `quantize`,
   * `allocation` ~ `allocate`; see `foldDerivation`). Default `false`: on the public
   * benchmark it is a wash (it merges terms a question used to tell places apart, such
   * as `classify` and `classification`), so the precise default stays.
   */
  derivations: boolean;
  /** Shortest term kept, in UTF-16 code units; 1 or more. Default `2`. */
  minTokenLength: number;
  /** Longest term kept (longer ones are hashes or blobs), ≥ minTokenLength. Default `64`. */
  maxTokenLength: number;
}

/** Query-only handling on top of the tokenizer. */
export interface QueryOptions {
  /** Drop question boilerplate such as `explain`, `describe`, `purpose` (see `QUESTION_WORDS`). Default `true`. */
  dropQuestionWords: boolean;
  /**
   * Weight of a sub-word split from a query identifier relative to the whole identifier
   * and to plain words, in [0, 1]. Default `1`.
   */
  subwordWeight: number;
  /**
   * Add the term code uses for a concept a question names in words (see `QUERY_ALIASES`):
   * "constructor" or "initialization" also searches `init`, as in `__init__`. Default `true`.
   */
  aliases: boolean;
  /**
   * Weight of the identifier abbreviations added for words of a question (see
   * `QUERY_ABBREVIATIONS`): "maximum number of sequences" also searches `max`, `num`, `seq`,
   * as in `max_num_seqs`. Relative to the word's own weight, in [0, 1]; 0 turns it off.
   * Default 0 (off): at 0.5 it lifts code questions (recall@5 +0.02 on vLLM) but costs docs
   * questions as much, whose prose matches `ctx`, `req`, `config` in unrelated code.
   */
  abbreviations: number;
}

export const DEFAULT_TOKENIZER_OPTIONS: Readonly<TokenizerOptions> = Object.freeze({
  splitIdentifiers: true,
  splitDigits: false,
  dottedNames: true,
  stopwords: true,
  stem: true,
  derivations: false,
  minTokenLength: 2,
  maxTokenLength: 64,
});

export const DEFAULT_QUERY_OPTIONS: Readonly<QueryOptions> = Object.freeze({
  dropQuestionWords: true,
  subwordWeight: 1,
  aliases: true,
  abbreviations: 0,
});
