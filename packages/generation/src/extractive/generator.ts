import { OffsetMap } from '@rag/core';
import { answerTypesOf, backgroundRarity, namesSpelledInWords, tokenize, type QueryTerm } from '@rag/text';
import { toCitedSource } from '../citations.js';
import { sha256Hex, stableStringify } from '../hash.js';
import { throwIfAborted } from '../errors.js';
import { NO_SOURCES_ANSWER, NOT_FOUND_ANSWER } from '../messages.js';
import type { AnswerResult, CitedSource, GenerateOptions, GenerateRequest, GenerationEvent, Generator, SourceForAnswer, Span } from '../types.js';
import { resolveExtractiveOptions, type ExtractiveOptions, type ResolvedExtractiveOptions } from './options.js';
import { detectAnswerKind, type AnswerKind } from '../answer-kind.js';
import { describeSource } from '../sources.js';
import { collectStatistics, COVERAGE_IDF_FLOOR, inverseFrequency, queryTerms, scoreUnits, unitTerms, type ScoredUnit, type ScoringStatistics } from './score.js';
import { isCodePath, isListPiece, splitIntoUnits } from './units.js';
import { antecedentOf, assignmentsUsedBy, branchOutcomes, conditionOf, constantValuesOf, introducedLines, leadCompletion, listIntroductionOf, listSiblingsOf } from './lead.js';
import { compressCode, compressSentence } from './compress.js';
import { findTypedValueLine } from './typed-line.js';

/** Bumped whenever the algorithm changes what it answers (part of the cache key). */
const EXTRACTIVE_VERSION = 42;
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
/** Share of the answer budget the leading quote (the direct answer) may take. */
const LEAD_SHARE = 0.6;
/** Fewest characters an introduced list item is shortened to when the items share the lead's room. */
const MIN_ITEM_CHARS = 60;
/** Most closest sources listed when the answer is not found. */
const CLOSEST_LISTED = 3;
export const EXTRACTIVE_GENERATOR_NAME = 'extractive';

const MIN_PROSE_TERMS = 2;

function scoredUnitsOf(sources: readonly SourceForAnswer[]): ScoredUnit[] {
  const units: ScoredUnit[] = [];
  sources.forEach((source, sourceIndex) => {
    const fromDocs = !isCodePath(source.file_path);
    const placeTerms = new Set(tokenize(`${source.symbol}\n${source.file_path}`));
    for (const unit of splitIntoUnits(source.text, source.file_path)) {
      const terms = unitTerms(unit);
      // A one-word sentence ("Example::", "Note") says nothing on its own.
      if (unit.kind === 'prose' && terms.terms.size < MIN_PROSE_TERMS) continue;
      units.push({ unit, sourceIndex, ...terms, score: 0, matched: 0, coverage: 0, fromDocs, placeTerms });
    }
  });
  // "Every setting has an environment variable that overrides it:" says what the items after it are.
  for (let i = 0; i + 1 < units.length; i++) {
    const [intro, next] = [units[i]!, units[i + 1]!];
    if (intro.unit.kind === 'prose' && intro.unit.display.endsWith(':') && next.sourceIndex === intro.sourceIndex && isListPiece(next.unit)) intro.introducesList = true;
  }
  return units;
}

/**
 * "Add this to `~/.zshrc`:" means what the code line after it says: such a sentence matches
 * with that line's words too (the line comes with it when quoted, see `introducedLines`).
 * After the statistics, so that no word counts twice in a document frequency.
 */
function addIntroducedTerms(units: ScoredUnit[], kind: AnswerKind): void {
  for (let i = 0; i + 1 < units.length; i++) {
    const [intro, next] = [units[i]!, units[i + 1]!];
    // A docstring's example shows a call: its words answer how to use the code, nothing else (see `scoreUnits`).
    if (next.unit.doc && kind !== 'how') continue;
    if (intro.unit.kind === 'prose' && intro.unit.display.endsWith(':') && next.unit.kind === 'code' && next.sourceIndex === intro.sourceIndex) {
      intro.terms = new Set([...intro.terms, ...next.terms]);
    }
  }
}

/** The prose sentence right before the code block `code` starts (a blank line or a fence between them at most), if any. */
function introductionOf(code: ScoredUnit, units: readonly ScoredUnit[], text: string): ScoredUnit | undefined {
  const at = units.indexOf(code);
  const previous = units[at - 1];
  if (!previous || previous.sourceIndex !== code.sourceIndex || previous.unit.kind !== 'prose') return undefined;
  // The code line must open its block: nothing but blank lines and markup between the two.
  const between = text.slice(previous.unit.end, code.unit.start);
  return (between.match(/\n/g)?.length ?? 0) <= 4 && !/[\p{L}\p{N}]/u.test(between.replace(/^\s*(```|~~~)\w*|^\s*\.\.\s+[\w:-]+::.*$/gm, '')) ? previous : undefined;
}

/** Puts `unit` first in `picked`, keeping at most `max` units. */
function moveToFront(picked: ScoredUnit[], unit: ScoredUnit, max = Number.POSITIVE_INFINITY): void {
  const at = picked.indexOf(unit);
  if (at >= 0) picked.splice(at, 1);
  picked.unshift(unit);
  if (picked.length > max) picked.length = max;
}

/**
 * A unit that carries the asked kind of fact is quoted when it scores at least this share of
 * the best unit, though below `minRelativeScore`. Chosen on the development answer sets
 * (`pnpm bench:answers`): 0.1 and 0.2 each stated four more facts (list, error and default
 * questions) and lost none; how-to questions are left out, since the lead's completion
 * already brings their command (with them, a public docs answer lost a fact).
 */
const MIN_CARRIER_SHARE = 0.2;
/** Kinds whose answer has no carrier of its own to add: the lead already is the place, the steps or the explanation. */
const NO_CARRIER_KINDS: ReadonlySet<AnswerKind> = new Set(['explain', 'where', 'how']);

/** The best unit that carries the fact `kind` asks for, scoring at least {@link MIN_CARRIER_SHARE} of `best`. */
function bestCarrier(units: readonly ScoredUnit[], kind: AnswerKind, best: number): ScoredUnit | undefined {
  if (NO_CARRIER_KINDS.has(kind)) return undefined;
  let found: ScoredUnit | undefined;
  for (const unit of units) if (unit.carries && unit.score >= MIN_CARRIER_SHARE * best && (!found || unit.score > found.score)) found = unit;
  return found;
}

/** Best units first, within the quote and character budgets, without repeats. */
function pickUnits(units: readonly ScoredUnit[], options: ResolvedExtractiveOptions): ScoredUnit[] {
  const ranked = units
    .filter((u) => u.score > 0)
    .sort((a, b) => b.score - a.score || a.sourceIndex - b.sourceIndex || a.unit.start - b.unit.start);
  const best = ranked[0]?.score ?? 0;
  const picked: ScoredUnit[] = [];
  const seen = new Set<string>();
  let chars = 0;
  for (const candidate of ranked) {
    if (picked.length >= options.maxQuotes || candidate.score < options.minRelativeScore * best) break;
    if (seen.has(candidate.unit.display)) continue;
    const cost = candidate.unit.display.length + 8;
    if (picked.length > 0 && chars + cost > options.maxAnswerChars) continue;
    picked.push(candidate);
    seen.add(candidate.unit.display);
    chars += cost;
  }
  return picked;
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(1, max - 1)).trimEnd()}…`;
}

/**
 * Longest comment kept after a supporting code line (`x = 1` — "…"). Its comment is kept
 * at all only when it holds a question word: the rest explained the code, not the answer.
 * Chosen on all 19 answer sets (`pnpm bench:answers`): public code median 382 → 368, no
 * fact lost; 40 lost click + requests rc-02 (the comment that says a 301 turns a POST into
 * a GET), and dropping every supporting comment gave 349 with the same loss.
 */
const SUPPORTING_NOTE_CHARS = 60;

function formatQuote(unit: ScoredUnit, maxChars: number, asked: ReadonlySet<string>, supporting = false): string {
  const { kind, display } = unit.unit;
  // A supporting line's comment stays only when it speaks of what was asked, and briefly.
  const note = supporting && !tokenize(unit.unit.note ?? '').some((term) => asked.has(term)) ? undefined : unit.unit.note;
  if (kind === 'prose') return shorten(compressSentence(display, asked), maxChars);
  const text = shorten(compressCode(display, asked), maxChars);
  const code = text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``;
  const room = Math.max(40, maxChars - text.length);
  return note ? `${code} — ${shorten(note, supporting ? Math.min(SUPPORTING_NOTE_CHARS, room) : room)}` : code;
}

/** What goes between two quoted items of one list: '; ', or a space after an item that ends its sentence. */
function itemSeparator(before: string): string {
  return /[.;:!?…]$/.test(before) ? ' ' : '; ';
}

/** Quotes of one source in text order: prose runs on; code, or a jump between kinds, gets an ellipsis. */
function joinQuotes(units: readonly ScoredUnit[], quotes: readonly string[]): string {
  let out = quotes[0] ?? '';
  for (let i = 1; i < quotes.length; i++) {
    const previous = units[i - 1]!.unit;
    const flowing = previous.kind === 'prose' && (units[i]!.unit.kind === 'prose' || previous.display.endsWith(':'));
    // Items of one list stay apart ("Models: Llama3; Hardware: H100"), as their bullets kept them.
    const items = isListPiece(previous) && isListPiece(units[i]!.unit);
    out += (items ? itemSeparator(out) : flowing ? ' ' : ' … ') + quotes[i];
  }
  return out;
}

interface Group {
  sourceIndex: number;
  units: ScoredUnit[];
}

/** Picks grouped by source (the best pick's source first), each group in text order. */
function groupBySource(picked: readonly ScoredUnit[]): Group[] {
  const groups = new Map<number, Group>();
  for (const unit of picked) {
    const group = groups.get(unit.sourceIndex) ?? { sourceIndex: unit.sourceIndex, units: [] };
    group.units.push(unit);
    groups.set(unit.sourceIndex, group);
  }
  for (const group of groups.values()) group.units.sort((a, b) => a.unit.start - b.unit.start);
  return [...groups.values()];
}

function quoteSpans(source: SourceForAnswer, units: readonly ScoredUnit[]): Span[] {
  const map = new OffsetMap(source.text);
  return units.map((u) => ({
    first_character_index: source.first_character_index + map.toCodePoint(u.unit.start),
    last_character_index: source.first_character_index + map.toCodePoint(u.unit.end),
  }));
}

export interface ExtractiveAnswer {
  lines: string[];
  citedSources: CitedSource[];
  /** The kind of answer the question asked for (see `detectAnswerKind`). */
  kind: AnswerKind;
  /** Share of the question's idf-weighted terms the leading quote holds (0 when nothing was quoted). */
  coverage: number;
}

/** `path` line N (`symbol`): where a quote of `source` stands, for the lead of a where-question. */
function placeOf(source: SourceForAnswer, unit: ScoredUnit): string {
  const before = source.text.slice(0, unit.unit.start);
  const line = source.start_line > 0 ? source.start_line + (before.match(/\n/g)?.length ?? 0) : 0;
  const at = line > 0 ? `${source.file_path}:${line}` : source.file_path;
  return source.symbol ? `In \`${at}\` (\`${source.symbol}\`):` : `In \`${at}\`:`;
}

/**
 * "In `ProxyFix._get_real_value`: ", when the lead quotes a code file's function or class
 * without naming it (a `return` line, a docstring sentence): the reader learns what behaves
 * so without opening the source. '' for docs, for chunks with no symbol, and for a lead
 * that already names it.
 */
function ownerOf(source: SourceForAnswer, unit: ScoredUnit): string {
  if (unit.fromDocs || !source.symbol) return '';
  const name = source.symbol.slice(source.symbol.lastIndexOf('.') + 1);
  return unit.unit.display.includes(name) ? '' : `In \`${source.symbol}\`: `;
}

/** Whether `terms` hold the question word `word`, or a longer term it begins (`start` in `startup`). */
function holdsWord(terms: ReadonlySet<string>, word: string): boolean {
  if (terms.has(word)) return true;
  if (word.length < MIN_PREFIX) return false;
  for (const term of terms) if (term.startsWith(word)) return true;
  return false;
}

/**
 * The largest share of the question's distinct words (not the short forms added for them)
 * that one source holds in its units, each word weighed by its background rarity
 * (`backgroundRarity` of @rag/text: "field" and "default" little, "immutable" much), less
 * for a word that more of the sources hold ({@link SHARED_WORD_DISCOUNT}).
 */
function sourceSupport(query: readonly QueryTerm[], units: readonly ScoredUnit[]): number {
  const asked = new Set(query.filter((q) => !q.expansion).map((q) => q.term));
  if (asked.size === 0) return 1;
  const bySource = new Map<number, Set<string>>();
  for (const unit of units) {
    let terms = bySource.get(unit.sourceIndex);
    if (!terms) bySource.set(unit.sourceIndex, (terms = new Set()));
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
 * thing asked about is not in the corpus, and the sources are only near it. Chosen on the
 * development and public questions asked of another codebase (`pnpm bench:answers`,
 * "answer-absent"): "not found" for 0.674 → 0.729 of them, while 1 of the 611 answerable
 * questions lost an answer that stated the fact (one asked "… has gone stale", words no
 * source uses); at 0.5 0.699 with none lost, at 0.35 0.741 with the same one lost, at 0.3
 * 0.749 with 3 more answerable questions "not found".
 */
const MAX_UNINDEXED_SHARE = 0.4;

/**
 * Share of the question's telling weight (each distinct word by `backgroundRarity`, as in
 * `sourceSupport`) that lies in words no indexed chunk holds at all (`unindexedWords`).
 */
function unindexedShare(query: readonly QueryTerm[], unindexedWords: readonly string[]): number {
  if (unindexedWords.length === 0) return 0;
  const absent = new Set(unindexedWords.flatMap((word) => tokenize(word)));
  let total = 0;
  let missing = 0;
  for (const { term, expansion } of query) {
    if (expansion) continue;
    const weight = backgroundRarity(term);
    total += weight;
    if (absent.has(term)) missing += weight;
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
  for (const unit of units) for (const term of unit.terms) held.add(term);
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
function notFound(sources: readonly SourceForAnswer[], kind: AnswerKind, coverage: number, why: string): ExtractiveAnswer {
  const closest = sources.slice(0, CLOSEST_LISTED);
  const listed = closest.map((source, i) => `[${i + 1}] ${describeSource(source)}`).join('; ');
  return {
    lines: [`${NOT_FOUND_ANSWER}${why} The closest sources: ${listed}.`],
    citedSources: closest.map((source, i) => toCitedSource(i + 1, source)),
    kind,
    coverage,
  };
}

/**
 * The extractive answer to `question`: the retrieved sentences and lines that share the
 * most idf-weighted terms with it, each group followed by the citation of its source.
 * Pure; the generator wraps it.
 */
export function answerExtractively(question: string, sources: readonly SourceForAnswer[], options: ExtractiveOptions = {}, unindexedWords: readonly string[] = []): ExtractiveAnswer {
  const resolved = resolveExtractiveOptions(options);
  const kind = detectAnswerKind(question);
  if (sources.length === 0) return { lines: [NO_SOURCES_ANSWER], citedSources: [], kind, coverage: 0 };
  const units = scoredUnitsOf(sources);
  const query = queryTerms(question);
  const statistics = collectStatistics(units);
  addIntroducedTerms(units, kind);
  const types = answerTypesOf(question);
  scoreUnits(units, query, statistics, kind, types, namesSpelledInWords(question));
  const picked = pickUnits(units, resolved);
  // The line that states the asked value may share no word with the question (`code = 308`
  // for "which HTTP status…"): it is quoted, in place of the weakest supporting quote.
  const typedLine = findTypedValueLine(units, types);
  if (typedLine && picked.length > 0 && !picked.includes(typedLine)) {
    if (picked.length < resolved.maxQuotes) picked.push(typedLine);
    else if (picked.length > 1) picked[picked.length - 1] = typedLine;
  }
  // An answer of a kind that has a carrier (a default, an error, a list, …) holds one when a
  // source has it: a summary sentence that repeats the question's words can outscore every
  // line that states the fact by more than `minRelativeScore` allows.
  const carrier = picked.length > 0 && !picked.some((u) => u.carries) ? bestCarrier(units, kind, picked[0]!.score) : undefined;
  if (carrier && !picked.some((u) => u.unit.display === carrier.unit.display)) {
    if (picked.length < resolved.maxQuotes) picked.push(carrier);
    else if (picked.length > 1) picked[picked.length - 1] = carrier;
  }
  // "Where is X?" is answered by the place that defines X: a sentence that mentions it does
  // not lead over that definition.
  // (A docs example that assigns the name is a use of it, not its place.)
  const definesInCode = (u: ScoredUnit | undefined): boolean => u?.defines === true && !u.fromDocs;
  const strongest = picked[0];
  if (kind === 'where' && !definesInCode(picked[0])) {
    const definition = units.filter(definesInCode).sort((a, b) => b.score - a.score)[0];
    if (definition) moveToFront(picked, definition, resolved.maxQuotes);
  }
  // A question that asks for several things, answered by one item of a list, leads with the
  // sentence that introduces the list: its items come with it (see `leadCompletion`).
  const listIntroduction = kind === 'list' && picked[0] ? listIntroductionOf(picked[0], units) : undefined;
  if (listIntroduction) moveToFront(picked, listIntroduction, resolved.maxQuotes);
  const best = picked[0];
  // Whether anything answers is read off the strongest unit, not the definition a where-question moved first.
  const coverage = Math.max(best?.coverage ?? 0, strongest?.coverage ?? 0);
  if (
    !best ||
    coverage < MIN_ANSWER_COVERAGE ||
    (coverage < WEAK_COVERAGE && absentShare(query, statistics) >= MAX_ABSENT_SHARE) ||
    (coverage < THIN_COVERAGE && sourceSupport(query, units) < MIN_SOURCE_SUPPORT) ||
    unindexedShare(query, unindexedWords) >= MAX_UNINDEXED_SHARE
  ) {
    const neverIndexed = tellingWords(question, unindexedWords);
    return notFound(sources, kind, coverage, neverIndexed.length > 0 ? ` The indexed sources never mention ${listAlternatives(neverIndexed)}.` : whyMissing(missingWords(question, units)));
  }
  // A how-to answered by a docs example leads with the sentence that introduces it ("To turn
  // the cache off, set its size to zero."): the example then follows it (`leadCompletion`).
  const introduction = kind === 'how' && best.unit.kind === 'code' && best.fromDocs ? introductionOf(best, units, sources[best.sourceIndex]!.text) : undefined;
  const lead = introduction ?? best;
  if (introduction) moveToFront(picked, introduction);
  // The direct answer first, on its own line; then the supporting quotes, by source.
  const leadSource = sources[lead.sourceIndex]!;
  // The lines that say what the lead only introduces (a block, a body, an example, the next sentence).
  const asked = new Set(query.map((q) => q.term));
  const body = leadCompletion(lead, units, leadSource, asked, kind);
  // A line that only names a value (`… %d", default_max_len)`) comes with the value.
  for (const assignment of assignmentsUsedBy(lead, units)) if (!body.includes(assignment)) body.unshift(assignment);
  // The items an introduction brings share the room: each shortened to its part, so that a
  // long first item does not crowd out the rest of the list (an item's later sentences are
  // left out then: its first one names the thing listed).
  const pieces = lead.unit.display.endsWith(':') ? body.filter((u) => isListPiece(u.unit)).length : 0;
  const items = pieces > 1 ? pieces : 1;
  // For a list question, a list's introduction with its items is the whole answer: it may take the whole budget.
  const leadBudget = picked.length === 1 || (kind === 'list' && items > 1) ? resolved.maxAnswerChars : Math.floor(resolved.maxAnswerChars * LEAD_SHARE);
  // Body lines join the lead (a picked one moves there from the supporting quotes).
  let leadQuote = formatQuote(lead, leadBudget, asked);
  const joined = new Set<ScoredUnit>();
  // A lead that points back ("This is …") comes after the sentence it points to; a code
  // line, after the condition or handler it runs under.
  const antecedent = antecedentOf(lead, units, leadSource) ?? conditionOf(lead, units, leadSource);
  if (antecedent) {
    const before = formatQuote(antecedent, leadBudget, asked);
    if (before.length + leadQuote.length + 1 <= leadBudget) {
      leadQuote = `${before} ${leadQuote}`;
      lead.unit.start = Math.min(lead.unit.start, antecedent.unit.start);
      joined.add(antecedent);
    }
  }
  const inLead = new Set([lead.unit.display]);
  const itemBudget = Math.max(MIN_ITEM_CHARS, Math.floor((leadBudget - leadQuote.length) / items) - 1);
  for (const unit of body) {
    if (items > 1 && !isListPiece(unit.unit)) continue;
    // The same line twice (`method = "GET"` in two branches) says nothing more the second time.
    if (inLead.has(unit.unit.display)) continue;
    inLead.add(unit.unit.display);
    const next = formatQuote(unit, items > 1 ? itemBudget : leadBudget, asked);
    if (leadQuote.length + next.length + 2 > leadBudget) break;
    leadQuote += `${isListPiece(unit.unit) && joined.size > 0 && isListPiece([...joined].at(-1)!.unit) ? itemSeparator(leadQuote) : ' '}${next}`;
    lead.unit.end = Math.max(lead.unit.end, unit.unit.end);
    joined.add(unit);
  }
  const lines = [`${kind === 'where' ? `${placeOf(leadSource, lead)} ` : ownerOf(leadSource, lead)}${leadQuote} [${lead.sourceIndex + 1}]`];
  const supporting = picked.slice(1).filter((unit) => !joined.has(unit));
  // For a list question, a supporting item brings the other items of its list (the lead's
  // list comes with its introduction, see `listIntroductionOf`).
  if (kind === 'list') for (const line of listSiblingsOf(supporting, units)) if (line !== lead && !joined.has(line) && !supporting.includes(line)) supporting.push(line);
  // A quoted sentence that introduces a code line ("…by running the following command:") brings it.
  for (const line of introducedLines(supporting, units)) if (line !== lead && !joined.has(line) && !supporting.includes(line)) supporting.push(line);
  // For "what happens when …", a quoted branch brings the line that says what happens then.
  if (kind === 'consequence') for (const line of branchOutcomes(supporting, units, sources)) if (line !== lead && !joined.has(line) && !supporting.includes(line)) supporting.push(line);
  // A default or a value quoted by a constant's name (`pool_connections=DEFAULT_POOLSIZE`) brings the constant's value.
  if (kind === 'default' || kind === 'value') for (const line of constantValuesOf([lead, ...joined, ...supporting], units)) if (line !== lead && !joined.has(line) && !supporting.includes(line)) supporting.push(line);
  const groups = groupBySource(supporting);
  const perQuote = supporting.length > 0 ? Math.floor((resolved.maxAnswerChars - Math.min(leadQuote.length, leadBudget)) / supporting.length) : 0;
  for (const group of groups) {
    const quotes = group.units.map((u) => formatQuote(u, Math.max(40, perQuote), asked, true));
    lines.push(`- ${joinQuotes(group.units, quotes)} [${group.sourceIndex + 1}]`);
  }
  const bySource = new Map<number, ScoredUnit[]>();
  for (const unit of picked) bySource.set(unit.sourceIndex, [...(bySource.get(unit.sourceIndex) ?? []), unit]);
  const citedSources = [...bySource].map(([index, quoted]) => {
    const source = sources[index]!;
    return toCitedSource(index + 1, source, quoteSpans(source, quoted.sort((a, b) => a.unit.start - b.unit.start)));
  });
  return { lines, citedSources, kind, coverage: lead.coverage };
}

/**
 * A generator that needs no model: it answers with the retrieved text itself, so answers
 * are grounded by construction and available on a machine with no download.
 */
export function createExtractiveGenerator(options: ExtractiveOptions = {}): Generator {
  const resolved = resolveExtractiveOptions(options);
  const identity = {
    name: EXTRACTIVE_GENERATOR_NAME,
    settings: { ...resolved },
    templateHash: sha256Hex(stableStringify({ v: EXTRACTIVE_VERSION, ...resolved })),
  };

  async function* generate(request: GenerateRequest, generateOptions: GenerateOptions = {}): AsyncGenerator<GenerationEvent> {
    const started = performance.now();
    throwIfAborted(generateOptions.signal);
    const { lines, citedSources } = answerExtractively(request.question, request.sources, resolved, request.unindexedWords);
    for (let i = 0; i < lines.length; i++) {
      throwIfAborted(generateOptions.signal);
      yield { type: 'token', text: i + 1 < lines.length ? `${lines[i]}\n` : lines[i]! };
    }
    const answer = lines.join('\n');
    const result: AnswerResult = {
      answer,
      citedSources,
      droppedCitations: [],
      generator: EXTRACTIVE_GENERATOR_NAME,
      sourcesUsed: request.sources.length,
      truncatedSource: false,
      promptTokens: 0,
      generatedTokens: answer.split(/\s+/).filter(Boolean).length,
      finishReason: 'stop',
      elapsedMs: performance.now() - started,
      cached: false,
    };
    yield { type: 'done', result };
  }

  return { name: EXTRACTIVE_GENERATOR_NAME, identity, generate, dispose: async () => undefined };
}
