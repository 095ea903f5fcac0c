import { answerTypesOf, namesSpelledInWords, tokenize } from '@rag/text';
import { toCitedSource } from '../citations.js';
import { sha256Hex, stableStringify } from '../hash.js';
import { throwIfAborted } from '../errors.js';
import type { AnswerResult, CitedSource, GenerateOptions, GenerateRequest, GenerationEvent, Generator, SourceForAnswer } from '../types.js';
import { resolveExtractiveOptions, type ExtractiveOptions, type ResolvedExtractiveOptions } from './options.js';
import { detectAnswerKind, type AnswerKind } from '../answer-kind.js';
import { collectStatistics, queryTerms, scoreUnits, unitTerms, type ScoredUnit } from './score.js';
import { isCodePath, isListPiece, splitIntoUnits } from './units.js';
import { antecedentOf, assignmentsUsedBy, branchOutcomes, conditionOf, constantValuesOf, introducedLines, leadCompletion, listIntroductionOf, listSiblingsOf, parameterDefaultsOf } from './lead.js';
import { findTypedValueLine } from './typed-line.js';
import { formatQuote, groupBySource, itemSeparator, joinQuotes, ownerOf, placeOf, quotedSymbols, quoteSpans } from './format.js';
import { answersNothing, noSourcesAnswer, notFound, whyNotFound } from './not-found.js';

/** Bumped whenever the algorithm changes what it answers (part of the cache key). */
const EXTRACTIVE_VERSION = 62;
/** Share of the answer budget the leading quote (the direct answer) may take. */
const LEAD_SHARE = 0.6;
/** Fewest characters an introduced list item is shortened to when the items share the lead's room. */
const MIN_ITEM_CHARS = 60;
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
    // A sentence of the docstring or comment a picked assignment already shows as its note.
    if (candidate.unit.kind === 'prose' && picked.some((p) => p.unit.note?.includes(candidate.unit.display))) continue;
    const cost = candidate.unit.display.length + 8;
    if (picked.length > 0 && chars + cost > options.maxAnswerChars) continue;
    picked.push(candidate);
    seen.add(candidate.unit.display);
    chars += cost;
  }
  return picked;
}

export interface ExtractiveAnswer {
  lines: string[];
  citedSources: CitedSource[];
  /** The kind of answer the question asked for (see `detectAnswerKind`). */
  kind: AnswerKind;
  /** Share of the question's idf-weighted terms the leading quote holds (0 when nothing was quoted). */
  coverage: number;
}

/** The sentences and lines of `sources`, each scored for `question` (see `scoreUnits`), in source order. */
export function scoreAnswerUnits(
  question: string,
  sources: readonly SourceForAnswer[],
  kind: AnswerKind = detectAnswerKind(question),
): { units: ScoredUnit[]; query: ReturnType<typeof queryTerms>; statistics: ReturnType<typeof collectStatistics>; types: ReturnType<typeof answerTypesOf> } {
  const units = scoredUnitsOf(sources);
  const query = queryTerms(question);
  const statistics = collectStatistics(units);
  addIntroducedTerms(units, kind);
  const types = answerTypesOf(question);
  scoreUnits(units, query, statistics, kind, types, namesSpelledInWords(question));
  return { units, query, statistics, types };
}

/**
 * The extractive answer to `question`: the retrieved sentences and lines that share the
 * most idf-weighted terms with it, each group followed by the citation of its source.
 * Pure; the generator wraps it.
 */
export function answerExtractively(
  question: string,
  sources: readonly SourceForAnswer[],
  options: ExtractiveOptions = {},
  unindexedWords: readonly string[] = [],
  rareWords: readonly string[] = [],
): ExtractiveAnswer {
  const resolved = resolveExtractiveOptions(options);
  const kind = detectAnswerKind(question);
  if (sources.length === 0) return { lines: [noSourcesAnswer(question, unindexedWords)], citedSources: [], kind, coverage: 0 };
  const { units, query, statistics, types } = scoreAnswerUnits(question, sources, kind);
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
  if (!best || answersNothing(coverage, query, statistics, units, unindexedWords, question, rareWords)) return { ...notFound(sources, whyNotFound(question, units, unindexedWords)), kind, coverage };
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
  // A default question answered by what a parameter does brings the signature that gives its default.
  if (kind === 'default') for (const line of parameterDefaultsOf([lead, ...joined, ...supporting], units)) if (line !== lead && !joined.has(line) && !supporting.includes(line)) supporting.push(line);
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
    const inOrder = quoted.sort((a, b) => a.unit.start - b.unit.start);
    return toCitedSource(index + 1, { ...source, symbol: quotedSymbols(source, inOrder) }, quoteSpans(source, inOrder));
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
    const { lines, citedSources } = answerExtractively(request.question, request.sources, resolved, request.unindexedWords, request.rareWords);
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
