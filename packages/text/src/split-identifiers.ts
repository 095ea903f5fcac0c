import type { TokenizerOptions } from './options.js';
import { foldDerivation, stemWord } from './stem.js';

/** Receives each term of a segment; `isSubword` marks pieces split out of an identifier. */
export type TermSink = (term: string, isSubword: boolean) => void;

const UPPER = 1;
const LOWER = 2;
const DIGIT = 3;
const OTHER = 4;

const UNDERSCORE = 95;
/** A segment the segmenter joined from a word and its version number (`HTTP/2`, `utf-8`). */
const VERSIONED = /^([A-Za-z]{2,})[/-](\d{1,2})$/;
const DASH = 45;

const NON_ASCII_UPPER = /^\p{Lu}$/u;
const NON_ASCII_LOWER = /^\p{Ll}$/u;

function classify(word: string, i: number): number {
  const c = word.charCodeAt(i);
  if (c >= 97 && c <= 122) return LOWER;
  if (c >= 65 && c <= 90) return UPPER;
  if (c >= 48 && c <= 57) return DIGIT;
  if (c < 128) return OTHER;
  const ch = word[i]!;
  if (NON_ASCII_UPPER.test(ch)) return UPPER;
  if (NON_ASCII_LOWER.test(ch)) return LOWER;
  return OTHER;
}

/**
 * Cuts one underscore-free piece at case changes: `LLMEngine` → `LLM`, `Engine`;
 * `getHTTPServer2Port` → `get`, `HTTP`, `Server2`, `Port`; with `splitDigits` also at
 * letter/digit changes (`fp8` → `fp`, `8`). An acronym keeps a one-letter lowercase tail
 * (`APIs`, `GPUsAvailable` → `GPUs`, `Available`), the usual plural.
 */
function splitCase(piece: string, splitDigits: boolean, out: string[]): void {
  let start = 0;
  let prev = classify(piece, 0);
  for (let i = 1; i < piece.length; i++) {
    const cur = classify(piece, i);
    let cut = -1;
    if (cur === UPPER && (prev === LOWER || prev === DIGIT)) cut = i;
    else if (
      cur === LOWER &&
      prev === UPPER &&
      i - 2 >= start &&
      classify(piece, i - 2) === UPPER &&
      i + 1 < piece.length &&
      classify(piece, i + 1) === LOWER
    ) {
      cut = i - 1;
    } else if (splitDigits && (cur === DIGIT) !== (prev === DIGIT) && cur !== OTHER && prev !== OTHER) cut = i;
    if (cut > start) {
      out.push(piece.slice(start, cut));
      start = cut;
    }
    prev = cur;
  }
  out.push(piece.slice(start));
}

/** `APIs` → `API`, `GPUs` → `GPU`: an acronym's plural, which the stemmer cannot tell from `status`. */
function singularAcronym(word: string): string {
  const last = word.length - 1;
  if (last < 2 || word.charCodeAt(last) !== 115) return word;
  for (let i = 0; i < last; i++) if (classify(word, i) !== UPPER) return word;
  return word.slice(0, last);
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) return false;
  return true;
}

/** `__max-num_seqs` → `max`, `num`, `seqs`: kebab and snake separators are the same thing. */
function splitPieces(identifier: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  for (let i = 0; i <= identifier.length; i++) {
    const c = i < identifier.length ? identifier.charCodeAt(i) : UNDERSCORE;
    if (c === UNDERSCORE || c === DASH) {
      if (i > start) pieces.push(identifier.slice(start, i));
      start = i + 1;
    }
  }
  return pieces;
}

/**
 * True for the commonest segment, a plain lowercase word (`self`, `return`), or a number
 * or word with digits (`2048`, `fp8`) when digits do not split.
 */
function isPlainLower(word: string, digits: boolean): boolean {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (!((c >= 97 && c <= 122) || (digits && c >= 48 && c <= 57))) return false;
  }
  return true;
}

/** The terms of one identifier (a segment part between dots), ready to emit. */
interface IdentifierTerms {
  /** Normalised whole (`Max-Num__Seqs` → `max_num_seqs`) for building dotted names; `''` if none. */
  whole: string;
  terms: string[];
  /** terms[i] is a sub-word for i ≥ firstSubword. */
  firstSubword: number;
}

export interface ExpanderOptions {
  /** Dropped from plain words and sub-words on top of the options' `stopwords` (queries pass their `questionWords`). */
  extraStopwords?: readonly string[];
  /**
   * Remember each identifier's terms. The index build turns this on (an identifier
   * recurs in many dotted names: `self`, `model_config`); a long-lived query tokenizer
   * leaves it off so its memory stays flat.
   */
  memoize?: boolean;
  /**
   * Most identifiers the memo holds; when full it starts over, so a long-lived expander
   * (the shared one behind `tokenize`) stays within a fixed memory. Default: no limit.
   */
  memoLimit?: number;
}

/** Expands segments into terms under fixed options. */
export class SegmentExpander {
  readonly #options: TokenizerOptions;
  /** The options' stopwords and the extra ones, as one set: looked up for every word. */
  readonly #stopwords: ReadonlySet<string>;
  readonly #memo: Map<string, IdentifierTerms> | undefined;
  readonly #memoLimit: number;

  constructor(options: TokenizerOptions, expanderOptions: ExpanderOptions = {}) {
    this.#options = options;
    this.#stopwords = new Set([...options.stopwords, ...(expanderOptions.extraStopwords ?? [])]);
    this.#memo = expanderOptions.memoize ? new Map() : undefined;
    this.#memoLimit = expanderOptions.memoLimit ?? Number.POSITIVE_INFINITY;
  }

  #fitsLength(term: string): boolean {
    return term.length >= this.#options.minTokenLength && term.length <= this.#options.maxTokenLength;
  }

  /** A plain word or sub-word after the stoplists and the stemmer, or undefined when dropped. */
  #wordTerm(word: string): string | undefined {
    const options = this.#options;
    if (!this.#fitsLength(word)) return undefined;
    if (this.#stopwords.has(word)) return undefined;
    if (!options.stem) return word;
    const stem = stemWord(word);
    return options.derivations ? foldDerivation(stem) : stem;
  }

  /** Lowercase form of a plain word or sub-word, singular when stemming and it is an acronym plural. */
  #plainForm(word: string): string {
    return (this.#options.stem ? singularAcronym(word) : word).toLowerCase();
  }

  #analyse(identifier: string): IdentifierTerms {
    const cached = this.#memo?.get(identifier);
    if (cached) return cached;
    const analysed = this.#analyseUncached(identifier);
    if (this.#memo) {
      if (this.#memo.size >= this.#memoLimit) this.#memo.clear();
      this.#memo.set(identifier, analysed);
    }
    return analysed;
  }

  /**
   * A whole identifier is kept verbatim (lowercased), never stopped or stemmed; its
   * sub-words, like plain words, go through the stoplists and the stemmer.
   */
  #analyseUncached(identifier: string): IdentifierTerms {
    const terms: string[] = [];
    const single = (word: string, whole: string): IdentifierTerms => {
      const term = this.#wordTerm(word);
      if (term !== undefined) terms.push(term);
      return { whole, terms, firstSubword: terms.length };
    };
    if (isPlainLower(identifier, !this.#options.splitDigits)) return single(identifier, identifier);
    const pieces = splitPieces(identifier);
    if (pieces.length === 0) return { whole: '', terms, firstSubword: 0 };
    const whole = pieces.join('_').toLowerCase();
    const subwords: string[] = [];
    for (const piece of pieces) splitCase(piece, this.#options.splitDigits, subwords);
    if (subwords.length === 1) return single(this.#plainForm(subwords[0]!), whole);
    if (this.#fitsLength(whole)) terms.push(whole);
    const firstSubword = terms.length;
    if (this.#options.splitIdentifiers) {
      for (const subword of subwords) {
        const term = this.#wordTerm(this.#plainForm(subword));
        if (term !== undefined) terms.push(term);
      }
    }
    return { whole, terms, firstSubword };
  }

  #emitAll({ terms, firstSubword }: IdentifierTerms, emit: TermSink): void {
    for (let i = 0; i < terms.length; i++) emit(terms[i]!, i >= firstSubword);
  }

  /** Emits the terms of one segment as produced by `forEachSegment`. */
  expand(raw: string, emit: TermSink): void {
    // Only a segment with a `/` or `-` can be versioned: most are not, and skip the pattern.
    const versioned = raw.includes('/') || raw.includes('-') ? VERSIONED.exec(raw) : null;
    if (versioned) {
      // `HTTP/2` → `http2` (how code spells it) and `http`; `utf-8` → `utf8`, `utf`.
      const joined = `${versioned[1]!}${versioned[2]!}`.toLowerCase();
      if (this.#fitsLength(joined)) emit(joined, false);
      this.expand(versioned[1]!, emit);
      return;
    }
    // Composed and decomposed accents, full-width letters and ligatures spell the same word.
    const segment = isAscii(raw) ? raw : raw.normalize('NFKC');
    if (!segment.includes('.')) {
      this.#emitAll(this.#analyse(segment), emit);
      return;
    }
    const parts = segment.split('.').map((part) => this.#analyse(part));
    if (this.#options.dottedNames) {
      const wholes = parts.map((part) => part.whole).filter((whole) => whole.length > 0);
      const dotted = wholes.join('.');
      if (wholes.length > 1 && this.#fitsLength(dotted)) emit(dotted, false);
    }
    for (const part of parts) this.#emitAll(part, emit);
  }
}
