/**
 * `@rag/text/background`: how telling a word is in Python code at large, and whether
 * English uses it only to phrase a question. An entry point of its own because its tables
 * are large (hundreds of kilobytes of source) and only answer writing reads them: a search
 * process never loads them.
 */
import { BACKGROUND_FREQUENCIES, BACKGROUND_MIN_PIECES, BACKGROUND_PIECES } from './word-lists/background-frequencies.js';
import { PHRASING_WORD_LINES } from './word-lists/phrasing-words.js';

export { BACKGROUND_FREQUENCIES, BACKGROUND_MIN_PIECES, BACKGROUND_PIECES };

/** An unlisted term is taken to occur in this many background pieces: somewhere below the listing threshold. */
const UNLISTED_PIECES = BACKGROUND_MIN_PIECES / 2;

/**
 * How much `term` (as the tokenizer emits it) says about a text in any Python codebase:
 * BM25's idf over the background pieces of `BACKGROUND_FREQUENCIES`, always positive —
 * about 0.4 for `return`, 3 for `cache`, 6.4 for a term too rare to be listed. For a measure
 * that the few texts at hand cannot give (whether "field" or "banner" is the telling word of
 * a question), not for ranking a corpus, which has its own statistics.
 */
export function backgroundRarity(term: string): number {
  const pieces = BACKGROUND_FREQUENCIES[term] ?? UNLISTED_PIECES;
  return Math.log(1 + (BACKGROUND_PIECES - pieces + 0.5) / (pieces + 0.5));
}

let phrasingWords: ReadonlySet<string> | undefined;

/**
 * Whether `word` (any case) is a common English word that is never a noun — a verb,
 * adjective or adverb in every sense and form ("refused", "leaking", "polite", "twice"; see
 * `PHRASING_WORD_LINES`): how a question phrases what it asks rather than what it is about.
 * A corpus that lacks such a word may still hold the answer in other words; a corpus that
 * lacks the question's noun ("Kafka", "cookie") is about something else. Built on first use.
 */
export function isPhrasingWord(word: string): boolean {
  phrasingWords ??= new Set(PHRASING_WORD_LINES.flatMap((line) => line.split(' ')));
  return phrasingWords.has(word.toLowerCase());
}
