import { resolveQueryOptions, resolveTokenizerOptions, type QueryOptions, type QuerySettings, type TokenizerOptions, type TokenizerSettings } from './options.js';
import { forEachSegment } from './segments.js';
import { SegmentExpander } from './split-identifiers.js';

/** A distinct query term and how much it counts. */
export interface QueryTerm {
  term: string;
  /**
   * `subwordWeight` for a term seen only as a sub-word, else 1, times `1 + ln(count)`:
   * repeating a word raises its say a little, never linearly.
   */
  weight: number;
  /** Set on terms the query did not write but an expansion added (abbreviations). */
  expansion?: true;
}

let sharedExpander: SegmentExpander | undefined;
let sharedQueryTokenizer: ((text: string) => QueryTerm[]) | undefined;
/**
 * Identifiers the shared expander remembers (a few MB at most): `tokenize` runs per chunk and
 * per sentence, and the same names (`self`, `model_config`) recur in every one of them.
 */
const SHARED_MEMO_LIMIT = 50_000;

/** Identifiers a query tokenizer remembers (well under a megabyte). */
const QUERY_MEMO_LIMIT = 5_000;

/** The expander of the default options, built once. */
function defaultExpander(): SegmentExpander {
  return (sharedExpander ??= new SegmentExpander(resolveTokenizerOptions({}), { memoize: true, memoLimit: SHARED_MEMO_LIMIT }));
}

/** No own enumerable key (without the array of keys: `tokenize` runs per sentence of every answer). */
function isEmpty(options: object): boolean {
  for (const key in options) if (Object.hasOwn(options, key)) return false;
  return true;
}

/** The index terms of `text`, in order, repeats included. Throws `INVALID_ARGUMENT` on bad options. */
export function tokenize(text: string, options?: TokenizerSettings): string[] {
  const expander = options === undefined || isEmpty(options) ? defaultExpander() : new SegmentExpander(resolveTokenizerOptions(options));
  const terms: string[] = [];
  const emit = (term: string): void => {
    terms.push(term);
  };
  forEachSegment(text, (segment) => expander.expand(segment, emit));
  return terms;
}

/**
 * `tokenize` under fixed, already validated options (a retriever's, read from its index):
 * no validation per call, and one expander for every text it is given.
 */
export function createTokenizer(options: TokenizerOptions): (text: string) => string[] {
  const expander = new SegmentExpander(options);
  return (text) => {
    const terms: string[] = [];
    forEachSegment(text, (segment) => expander.expand(segment, (term) => terms.push(term)));
    return terms;
  };
}

/** Turns query text into weighted terms under fixed, already validated options. */
export function createQueryTokenizer(tokenizer: TokenizerOptions, query: QueryOptions): (text: string) => QueryTerm[] {
  // A long-lived query tokenizer (one per index) meets the same identifiers again and again.
  const expander = new SegmentExpander(tokenizer, { extraStopwords: query.questionWords, memoize: true, memoLimit: QUERY_MEMO_LIMIT });
  // Maps, not the option objects: a word such as `constructor` must not find Object.prototype's.
  const aliases = new Map(Object.entries(query.aliases));
  const abbreviations = new Map(Object.entries(query.abbreviations));
  return (text) => {
    const seen = new Map<string, { count: number; weight: number; expansion?: true }>();
    const emit = (term: string, isSubword: boolean): void => {
      const weight = isSubword ? query.subwordWeight : 1;
      const entry = seen.get(term);
      if (entry) {
        entry.count++;
        entry.weight = Math.max(entry.weight, weight);
      } else {
        seen.set(term, { count: 1, weight });
      }
    };
    forEachSegment(text, (segment) => expander.expand(segment, emit));
    if (aliases.size > 0) {
      for (const term of [...seen.keys()]) {
        const alias = aliases.get(term);
        // An alias counts once, as a plain word, however many of its spellings appear.
        if (alias !== undefined && !seen.has(alias)) seen.set(alias, { count: 1, weight: 1 });
      }
    }
    if (query.abbreviationWeight > 0) {
      for (const term of [...seen.keys()]) {
        const weight = query.abbreviationWeight * (seen.get(term)?.weight ?? 0);
        for (const short of abbreviations.get(term) ?? []) {
          // Only adds: a question that already writes the short form keeps its own weight.
          if (!seen.has(short) && weight > 0) seen.set(short, { count: 1, weight, expansion: true });
        }
      }
    }
    const terms: QueryTerm[] = [];
    for (const [term, { count, weight, expansion }] of seen) {
      if (weight > 0) terms.push(expansion ? { term, weight: weight * (1 + Math.log(count)), expansion } : { term, weight: weight * (1 + Math.log(count)) });
    }
    return terms;
  };
}

export interface QueryTokenizeOptions {
  tokenizer?: TokenizerSettings;
  query?: QuerySettings;
}

/**
 * The distinct terms of a query with their weights, in order of first appearance. The
 * same tokenizer as `tokenize`, plus the query-only stoplist and weighting.
 */
export function tokenizeQuery(text: string, options: QueryTokenizeOptions = {}): QueryTerm[] {
  if (options.tokenizer === undefined && options.query === undefined) {
    sharedQueryTokenizer ??= createQueryTokenizer(resolveTokenizerOptions({}), resolveQueryOptions({}));
    return sharedQueryTokenizer(text);
  }
  const tokenizer = resolveTokenizerOptions(options.tokenizer ?? {});
  const query = resolveQueryOptions(options.query ?? {});
  return createQueryTokenizer(tokenizer, query)(text);
}
