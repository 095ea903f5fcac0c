/**
 * When an extractive answer says the sources do not answer the question, and what it says
 * then: the coverage and support tests, the words the sources or the whole corpus lack, and
 * the closest sources listed instead of quoted.
 */
import { tokenize, type QueryTerm } from '@rag/text';
import { backgroundRarity, isPhrasingWord } from '@rag/text/background';
import { toCitedSource } from '../citations.js';
import { NO_SOURCES_ANSWER, NOT_FOUND_ANSWER } from '../messages.js';
import { describeSource } from '../sources.js';
import type { CitedSource, SourceForAnswer } from '../types.js';
import { COVERAGE_IDF_FLOOR, inverseFrequency, queryTerms, type ScoredUnit, type ScoringStatistics } from './score.js';

/**
 * Below this share of the question's idf-weighted terms, the best sentence or line is only
 * near the question, not an answer to it: say so and list the closest sources instead of
 * quoting it as if it answered.
 */
const MIN_ANSWER_COVERAGE = 0.1;
/**
 * Up to this coverage, the answer is also "not found" when most of the question's weight
 * lies in words that no retrieved sentence contains at all: the sources are about something
 * near, and the thing asked (a driver, a protocol, a limit) is not in them.
 */
const WEAK_COVERAGE = 0.2;
const MAX_ABSENT_SHARE = 0.8;
/**
 * Up to this coverage, the answer is also "not found" when no source holds
 * {@link MIN_SOURCE_SUPPORT} of the question's distinct words anywhere, each word weighed by
 * how rare it is in Python code at large (`backgroundRarity`): a source that answers a
 * question holds its telling words somewhere (in the lines around the one quoted, in its
 * names), while sources that share only common words with it ("field", "default", "raise")
 * are about something else. Chosen on the development and public questions asked of another
 * codebase, where nothing answers (`pnpm bench:answers`, "answer-absent"): not found for
 * 0.32 → 0.60 of them without {@link SHARED_WORD_DISCOUNT} (0.69 with it), and the 611
 * answerable questions keep every answer that stated the fact. Words counted alike instead
 * of by rarity: 0.51 at 0.3 / 0.3; by rarity at 0.3 / 0.3: 0.72, with two such answers lost.
 */
const THIN_COVERAGE = 0.4;
/** A question word this long is held by a unit word it begins (`start` by `startup` of `STARTUP_BANNER`). */
const MIN_PREFIX = 4;
const MIN_SOURCE_SUPPORT = 0.25;
/**
 * A question word that every source holds weighs this much less in that support (linearly
 * from none for a word one source holds): the corpus's own name and subject ("vLLM", "task")
 * are in every source, whichever question was asked. At 0.5 the answer-absent questions got
 * "not found" 0.60 → 0.69; the three answerable questions that did too had no source with the
 * answer (retrieval misses), and no answer that stated the fact was lost; at 0.8 one was.
 */
const SHARED_WORD_DISCOUNT = 0.5;
/** Most closest sources listed when the answer is not found. */
const CLOSEST_LISTED = 3;

/** Whether `terms` hold the question word `word`, or a longer term it begins (`start` in `startup`). */
function holdsWord(terms: ReadonlySet<string>, word: string): boolean {
  if (terms.has(word)) return true;
  if (word.length < MIN_PREFIX) return false;
  for (const term of terms) if (term.startsWith(word)) return true;
  return false;
}

/**
 * The largest share of the question's distinct words (not the short forms added for them)
 * that one source holds in its units or its place (its path and symbol, `placeTerms`: a
 * question that names where to look, "the multimodal processing module", has said its own
 * "where" in words the source's lines need not repeat), each word
 * weighed by its background rarity (`backgroundRarity` of @rag/text: "field" and "default"
 * little, "immutable" much), less for a word that more of the sources hold
 * ({@link SHARED_WORD_DISCOUNT}).
 */
function sourceSupport(query: readonly QueryTerm[], units: readonly ScoredUnit[]): number {
  const asked = new Set(query.filter((q) => !q.expansion).map((q) => q.term));
  if (asked.size === 0) return 1;
  const bySource = new Map<number, Set<string>>();
  for (const unit of units) {
    let terms = bySource.get(unit.sourceIndex);
    // Every unit of a source carries its place's terms: taken once, with its first unit.
    if (!terms) bySource.set(unit.sourceIndex, (terms = new Set(unit.placeTerms)));
    for (const term of unit.terms) terms.add(term);
  }
  // Per source, the question's words it holds.
  const held = new Map<number, Set<string>>();
  for (const [source, terms] of bySource) held.set(source, new Set([...asked].filter((word) => holdsWord(terms, word))));
  const spread = new Map<string, number>();
  for (const terms of held.values()) for (const term of terms) spread.set(term, (spread.get(term) ?? 0) + 1);
  const weight = (terms: Iterable<string>): number => {
    let sum = 0;
    for (const term of terms) {
      const shared = held.size > 1 ? (Math.max(1, spread.get(term) ?? 0) - 1) / (held.size - 1) : 0;
      sum += backgroundRarity(term) * (1 - SHARED_WORD_DISCOUNT * shared);
    }
    return sum;
  };
  let most = 0;
  for (const terms of held.values()) most = Math.max(most, weight(terms));
  return most / weight(asked);
}

/**
 * At this share of the question's telling weight in words that no chunk of the whole
 * indexed corpus holds (`GenerateRequest.unindexedWords`; see {@link unindexedShare}), the
 * answer is "not found" whatever the retrieved sources share with the rest of it: the
 * thing asked about is not in the corpus, and the sources are only near it. Chosen with
 * {@link PHRASING_WEIGHT} on the development and public questions, answerable and asked of
 * another codebase (`pnpm bench:answers`, see docs/benchmarks.md).
 */
const MAX_UNINDEXED_SHARE = 0.35;
/**
 * How much a missing word counts when English uses it only to phrase a question — a verb,
 * adjective or adverb that is never a noun (`isPhrasingWord` of @rag/text: "refused",
 * "leaking", "polite", "twice"): a corpus of a few hundred chunks lacks many of those while
 * holding the answer in its own words, where a missing noun ("Kafka", "cookie") means the
 * thing asked about is not there. Every word at full weight with the threshold at 0.4 (as
 * before): answer-absent questions "not found" 0.692, answerable ones 0.024. Phrasing words
 * at half weight and 0.35: three answerable questions answered instead (each then states the
 * fact), answerable "not found" 0.021, answer-absent 0.687 (at 0 weight: 0.683 at 0.35, 0.674
 * at 0.4; at 0.3, 0.692, but then one unknown name among the question's telling words, at 31 %
 * of their weight, is enough for "not found").
 */
const PHRASING_WEIGHT = 0.5;
/**
 * The words the corpus holds in very few chunks (`GenerateRequest.rareWords`) count as
 * unindexed ones in {@link unindexedShare}, against the same threshold, when no source holds
 * this share of the question's telling words (`sourceSupport`): a corpus that mentions the
 * asked thing once, in passing, does not answer questions about it, while a source that
 * holds most of the question's words may be that one mention. Chosen on the answer sets
 * (`pnpm bench:answers`): answer-absent "not found" 0.689 → 0.715 with the answerable
 * questions' answers unchanged; at 0.5, 0.719, but one more answerable question "not found";
 * without the support test, 0.723 and three more.
 */
const RARE_MAX_SUPPORT = 0.4;

/**
 * Code-kind nouns: in "the confirm function" or "the stubborn option" the word before one
 * names a thing, whatever else English uses it for, and counts whole when no chunk holds it.
 */
const NAMED_KINDS = 'function|method|class|module|decorator|command|option|flag|parameter|argument|setting|variable|attribute|field|filter|hook|property|exception';

/** Whether `question` uses `word` as a name: written capitalised after its first word ("the Secure flag"), or right before a code-kind noun ("the confirm function"). */
function namedInQuestion(word: string, question: string): boolean {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`\\b${escaped}\\s+(${NAMED_KINDS})s?\\b`, 'i').test(question) || (/^[A-Z]/.test(word) && !question.trimStart().startsWith(word));
}

/**
 * Share of the question's telling weight (each distinct word by `backgroundRarity`, as in
 * `sourceSupport`) that lies in words no indexed chunk holds at all (`unindexedWords`), a
 * word that only phrases the question counting {@link PHRASING_WEIGHT} of its weight unless
 * the question uses it as a name ({@link namedInQuestion}).
 */
function unindexedShare(query: readonly QueryTerm[], unindexedWords: readonly string[], question: string): number {
  if (unindexedWords.length === 0) return 0;
  const absent = new Set(unindexedWords.flatMap((word) => tokenize(word)));
  const phrasing = new Set(unindexedWords.filter((word) => isPhrasingWord(word) && !namedInQuestion(word, question)).flatMap((word) => tokenize(word)));
  let total = 0;
  let missing = 0;
  for (const { term, expansion } of query) {
    if (expansion) continue;
    const weight = backgroundRarity(term);
    total += weight;
    if (absent.has(term)) missing += phrasing.has(term) ? weight * PHRASING_WEIGHT : weight;
  }
  return total > 0 ? missing / total : 0;
}

/** Share of the question's idf-weighted terms that no retrieved unit contains. */
function absentShare(query: readonly { term: string; weight: number }[], statistics: ScoringStatistics): number {
  let total = 0;
  let absent = 0;
  for (const { term, weight } of query) {
    const w = weight * Math.max(COVERAGE_IDF_FLOOR, inverseFrequency(statistics, term));
    total += w;
    if (!statistics.documentFrequency.has(term)) absent += w;
  }
  return total > 0 ? absent / total : 0;
}

/** Most of the question's words named as missing from every source in a "not found" answer. */
const MISSING_NAMED = 3;
/** A word is named as missing only when it is at least this telling (`backgroundRarity`): "use" or "value" missing says nothing. */
const MISSING_MIN_RARITY = 3;

/**
 * The question's telling words that no retrieved unit holds (not even as the start of a
 * longer word), rarest first, as the question spells them: what a reader would search for
 * next, or learn the sources never mention.
 */
function missingWords(question: string, units: readonly ScoredUnit[]): string[] {
  const held = new Set<string>();
  for (const unit of units) for (const term of [...unit.terms, ...unit.placeTerms]) held.add(term);
  const isHeld = (term: string): boolean => holdsWord(held, term);
  const asked = new Set(queryTerms(question).filter((q) => !q.expansion).map((q) => q.term));
  const unheld: string[] = [];
  for (const word of question.match(/[\p{L}\p{N}_][\p{L}\p{N}_./-]*[\p{L}\p{N}_]|[\p{L}\p{N}_]/gu) ?? []) {
    const terms = tokenize(word).filter((term) => asked.has(term));
    if (terms.length > 0 && !terms.some(isHeld) && !unheld.includes(word)) unheld.push(word);
  }
  return tellingWords(question, unheld);
}

/** The telling ones of `words` (see {@link MISSING_MIN_RARITY}), rarest first, as the question spells them. */
function tellingWords(question: string, words: readonly string[]): string[] {
  const asked = new Set(queryTerms(question).filter((q) => !q.expansion).map((q) => q.term));
  const rarities = words
    .map((word): [string, number] => [word, Math.max(0, ...tokenize(word).filter((term) => asked.has(term)).map(backgroundRarity))])
    .filter(([, rarity]) => rarity >= MISSING_MIN_RARITY);
  return rarities.sort((a, b) => b[1] - a[1]).slice(0, MISSING_NAMED).map(([word]) => word);
}

/** "“kafka”", "“kafka” or “consumers”", "“a”, “b” or “c”". */
function listAlternatives(words: readonly string[]): string {
  const quoted = words.map((word) => `“${word}”`);
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

/** The sentence of a "not found" answer that names the words no retrieved source holds ('' when none). */
function whyMissing(missing: readonly string[]): string {
  return missing.length > 0 ? ` None of them mentions ${listAlternatives(missing)}.` : '';
}

/**
 * The answer when no retrieved sentence answers the question: say so, and name the closest
 * sources. `why`: a sentence (with its leading space) on what the sources lack, or ''.
 */
export function notFound(sources: readonly SourceForAnswer[], why: string): { lines: string[]; citedSources: CitedSource[] } {
  const closest = sources.slice(0, CLOSEST_LISTED);
  const listed = closest.map((source, i) => `[${i + 1}] ${describeSource(source)}`).join('; ');
  return {
    lines: [`${NOT_FOUND_ANSWER}${why} The closest sources: ${listed}.`],
    citedSources: closest.map((source, i) => toCitedSource(i + 1, source)),
  };
}

/**
 * Whether the sources hold no answer, though the strongest unit holds `coverage` of the
 * question: too little of it, or little and most of the rest in words no source holds, or
 * little and no source holds the question's telling words, or the telling words are ones the
 * whole corpus lacks, or lacks but for a chunk or so (`rareWords`) while no source holds them
 * (the thresholds above).
 */
export function answersNothing(
  coverage: number,
  query: readonly QueryTerm[],
  statistics: ScoringStatistics,
  units: readonly ScoredUnit[],
  unindexedWords: readonly string[],
  question = '',
  rareWords: readonly string[] = [],
): boolean {
  return (
    coverage < MIN_ANSWER_COVERAGE ||
    (coverage < WEAK_COVERAGE && absentShare(query, statistics) >= MAX_ABSENT_SHARE) ||
    (coverage < THIN_COVERAGE && sourceSupport(query, units) < MIN_SOURCE_SUPPORT) ||
    unindexedShare(query, unindexedWords, question) >= MAX_UNINDEXED_SHARE ||
    (rareWords.length > 0 && unindexedShare(query, [...unindexedWords, ...rareWords], question) >= MAX_UNINDEXED_SHARE && sourceSupport(query, units) < RARE_MAX_SUPPORT)
  );
}

/** The sentence of a "not found" answer on what is missing: the words the corpus never mentions, else those no source mentions ('' for none). */
export function whyNotFound(question: string, units: readonly ScoredUnit[], unindexedWords: readonly string[]): string {
  const neverIndexed = tellingWords(question, unindexedWords);
  return neverIndexed.length > 0 ? ` The indexed sources never mention ${listAlternatives(neverIndexed)}.` : whyMissing(missingWords(question, units));
}

/**
 * The answer when retrieval returned nothing: say so, and name the question's telling words
 * that the whole corpus never holds (`unindexedWords`), which is usually why: a misspelling,
 * another project's name, a word the sources never use.
 */
export function noSourcesAnswer(question: string, unindexedWords: readonly string[]): string {
  const neverIndexed = tellingWords(question, unindexedWords);
  return neverIndexed.length > 0 ? `${NO_SOURCES_ANSWER} The indexed sources never mention ${listAlternatives(neverIndexed)}.` : NO_SOURCES_ANSWER;
}
