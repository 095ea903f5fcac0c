import { parseOptions, v } from '@rag/core';
import { DEFAULT_ABBREVIATIONS } from './word-lists/abbreviations.js';
import { DEFAULT_ALIASES } from './word-lists/aliases.js';
import { DEFAULT_QUESTION_WORDS } from './word-lists/question-words.js';
import { DEFAULT_STOPWORDS } from './word-lists/stopwords.js';

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
  /**
   * Words dropped from plain words and sub-words (lowercase, as written, before stemming);
   * whole identifiers are never dropped. Default {@link DEFAULT_STOPWORDS}; `[]` keeps every word.
   */
  stopwords: readonly string[];
  /**
   * Fold plurals and -ing/-ed forms of plain words with a light suffix stemmer
   * (`stemWord`). Whole identifiers are never stemmed. Default `true`.
   */
  stem: boolean;
  /**
   * With `stem`, also fold -ation nouns onto their verbs (`quantization` ~ `quantize`,
   * `allocation` ~ `allocate`; see `foldDerivation`). Default `false`: it merges terms a
   * question uses to tell places apart, such as `classify` and `classification`.
   */
  derivations: boolean;
  /** Shortest term kept, in UTF-16 code units; 1 or more. Default `2`. */
  minTokenLength: number;
  /** Longest term kept (longer ones are hashes or blobs), ≥ minTokenLength. Default `64`. */
  maxTokenLength: number;
}

/** Query-only handling on top of the tokenizer. */
export interface QueryOptions {
  /**
   * Question boilerplate dropped from queries only, such as `explain`, `describe`,
   * `purpose`. Default {@link DEFAULT_QUESTION_WORDS}; `[]` keeps them.
   */
  questionWords: readonly string[];
  /**
   * Weight of a sub-word split from a query identifier relative to the whole identifier
   * and to plain words, in [0, 1]. Default `1`.
   */
  subwordWeight: number;
  /**
   * The term code uses for a concept a question names in words, added to the query:
   * "constructor" or "initialization" also searches `init`, as in `__init__`. Keys and
   * values are terms as the tokenizer emits them. Default {@link DEFAULT_ALIASES}; `{}` adds none.
   */
  aliases: Readonly<Record<string, string>>;
  /**
   * Identifier abbreviations added for words of a question: "maximum number of
   * sequences" also searches `max`, `num`, `seq`, as in `max_num_seqs`. Only used when
   * {@link abbreviationWeight} > 0. Default {@link DEFAULT_ABBREVIATIONS}.
   */
  abbreviations: Readonly<Record<string, readonly string[]>>;
  /**
   * Weight of the added abbreviations relative to the word's own weight, in [0, 1]; 0
   * adds none. Default 0.5. The bm25 retriever adds them only to questions whose own words
   * lean to code (a docs question's prose would otherwise match `ctx`, `req`, `config` in
   * unrelated code); on questions it was not tuned on they lift code recall, and docs
   * recall does not move.
   */
  abbreviationWeight: number;
}

export const DEFAULT_TOKENIZER_OPTIONS: Readonly<TokenizerOptions> = Object.freeze({
  splitIdentifiers: true,
  splitDigits: false,
  dottedNames: true,
  stopwords: DEFAULT_STOPWORDS,
  stem: true,
  derivations: false,
  minTokenLength: 2,
  maxTokenLength: 64,
});

export const DEFAULT_QUERY_OPTIONS: Readonly<QueryOptions> = Object.freeze({
  questionWords: DEFAULT_QUESTION_WORDS,
  subwordWeight: 1,
  aliases: DEFAULT_ALIASES,
  abbreviations: DEFAULT_ABBREVIATIONS,
  abbreviationWeight: 0.5,
});

const unit = v.number().check(v.minimum(0), v.maximum(1));
const count = v.int().check(v.minimum(1));
const words = v.readonly(v.array(v.string()));

/** Tokenizer settings: any subset of {@link TokenizerOptions}. */
export const TOKENIZER_SETTINGS_SCHEMA = v.strictObject({
    splitIdentifiers: v.optional(v.boolean()),
    splitDigits: v.optional(v.boolean()),
    dottedNames: v.optional(v.boolean()),
    stopwords: v.optional(words),
    stem: v.optional(v.boolean()),
    derivations: v.optional(v.boolean()),
    minTokenLength: v.optional(count),
    maxTokenLength: v.optional(count),
  }).check(v.refine((s) => (s.maxTokenLength ?? Math.max(DEFAULT_TOKENIZER_OPTIONS.maxTokenLength, s.minTokenLength ?? 0)) >= (s.minTokenLength ?? DEFAULT_TOKENIZER_OPTIONS.minTokenLength), {
    message: 'an integer ≥ minTokenLength',
    path: ['maxTokenLength'],
  }));

/** Query settings: any subset of {@link QueryOptions}. */
export const QUERY_SETTINGS_SCHEMA = v.strictObject({
  questionWords: v.optional(words),
  subwordWeight: v.optional(unit),
  aliases: v.optional(v.record(v.string(), v.string())),
  abbreviations: v.optional(v.record(v.string(), words)),
  abbreviationWeight: v.optional(unit),
});

export type TokenizerSettings = v.input<typeof TOKENIZER_SETTINGS_SCHEMA>;
export type QuerySettings = v.input<typeof QUERY_SETTINGS_SCHEMA>;

/** Complete tokenizer options from validated settings. */
export function withTokenizerDefaults(settings: v.output<typeof TOKENIZER_SETTINGS_SCHEMA>): TokenizerOptions {
  const d = DEFAULT_TOKENIZER_OPTIONS;
  const minTokenLength = settings.minTokenLength ?? d.minTokenLength;
  return {
    splitIdentifiers: settings.splitIdentifiers ?? d.splitIdentifiers,
    splitDigits: settings.splitDigits ?? d.splitDigits,
    dottedNames: settings.dottedNames ?? d.dottedNames,
    stopwords: settings.stopwords ?? d.stopwords,
    stem: settings.stem ?? d.stem,
    derivations: settings.derivations ?? d.derivations,
    minTokenLength,
    maxTokenLength: settings.maxTokenLength ?? Math.max(d.maxTokenLength, minTokenLength),
  };
}

/** Complete query options from validated settings. */
export function withQueryDefaults(settings: v.output<typeof QUERY_SETTINGS_SCHEMA>): QueryOptions {
  const d = DEFAULT_QUERY_OPTIONS;
  return {
    questionWords: settings.questionWords ?? d.questionWords,
    subwordWeight: settings.subwordWeight ?? d.subwordWeight,
    aliases: settings.aliases ?? d.aliases,
    abbreviations: settings.abbreviations ?? d.abbreviations,
    abbreviationWeight: settings.abbreviationWeight ?? d.abbreviationWeight,
  };
}

/** Validated tokenizer options; throws `INVALID_ARGUMENT` naming the bad option. */
export function resolveTokenizerOptions(settings: unknown = {}): TokenizerOptions {
  return withTokenizerDefaults(parseOptions(TOKENIZER_SETTINGS_SCHEMA, settings, { subject: 'tokenizer', root: 'tokenizer' }));
}

/** Validated query options; throws `INVALID_ARGUMENT` naming the bad option. */
export function resolveQueryOptions(settings: unknown = {}): QueryOptions {
  return withQueryDefaults(parseOptions(QUERY_SETTINGS_SCHEMA, settings, { subject: 'query', root: 'query' }));
}
