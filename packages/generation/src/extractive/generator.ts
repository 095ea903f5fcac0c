import { OffsetMap } from '@rag/core';
import { toCitedSource } from '../citations.js';
import { sha256Hex, stableStringify } from '../hash.js';
import { throwIfAborted } from '../errors.js';
import { NO_SOURCES_ANSWER, NOT_FOUND_ANSWER } from '../messages.js';
import type { AnswerResult, CitedSource, GenerateOptions, GenerateRequest, GenerationEvent, Generator, SourceForAnswer, Span } from '../types.js';
import { resolveExtractiveOptions, type ExtractiveOptions, type ResolvedExtractiveOptions } from './options.js';
import { collectStatistics, queryTerms, scoreUnits, unitTerms, type ScoredUnit } from './score.js';
import { splitIntoUnits } from './units.js';

/** Bumped whenever the algorithm changes what it answers (part of the cache key). */
const EXTRACTIVE_VERSION = 1;

export const EXTRACTIVE_GENERATOR_NAME = 'extractive';

const MIN_PROSE_TERMS = 2;

function scoredUnitsOf(sources: readonly SourceForAnswer[]): ScoredUnit[] {
  const units: ScoredUnit[] = [];
  sources.forEach((source, sourceIndex) => {
    for (const unit of splitIntoUnits(source.text, source.file_path)) {
      const terms = unitTerms(unit);
      // A one-word sentence ("Example::", "Note") says nothing on its own.
      if (unit.kind === 'prose' && terms.terms.size < MIN_PROSE_TERMS) continue;
      units.push({ unit, sourceIndex, ...terms, score: 0, matched: 0 });
    }
  });
  return units;
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

function formatQuote(unit: ScoredUnit, maxChars: number): string {
  const { kind, display, note } = unit.unit;
  const text = shorten(display, maxChars);
  if (kind === 'prose') return text;
  const code = text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``;
  return note ? `${code} — ${shorten(note, Math.max(40, maxChars - text.length))}` : code;
}

/** Quotes of one source in text order: prose runs on; code, or a jump between kinds, gets an ellipsis. */
function joinQuotes(units: readonly ScoredUnit[], quotes: readonly string[]): string {
  let out = quotes[0] ?? '';
  for (let i = 1; i < quotes.length; i++) {
    const previous = units[i - 1]!.unit;
    const flowing = previous.kind === 'prose' && (units[i]!.unit.kind === 'prose' || previous.display.endsWith(':'));
    out += (flowing ? ' ' : ' … ') + quotes[i];
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
}

/**
 * The extractive answer to `question`: the retrieved sentences and lines that share the
 * most idf-weighted terms with it, each group followed by the citation of its source.
 * Pure; the generator wraps it.
 */
export function answerExtractively(question: string, sources: readonly SourceForAnswer[], options: ExtractiveOptions = {}): ExtractiveAnswer {
  const resolved = resolveExtractiveOptions(options);
  if (sources.length === 0) return { lines: [NO_SOURCES_ANSWER], citedSources: [] };
  const units = scoredUnitsOf(sources);
  scoreUnits(units, queryTerms(question), collectStatistics(units));
  const picked = pickUnits(units, resolved);
  if (picked.length === 0) return { lines: [NOT_FOUND_ANSWER], citedSources: [] };
  const groups = groupBySource(picked);
  const perQuote = Math.floor(resolved.maxAnswerChars / picked.length);
  const lines = groups.map((group) => {
    const quotes = group.units.map((u) => formatQuote(u, perQuote));
    return `${joinQuotes(group.units, quotes)} [${group.sourceIndex + 1}]`;
  });
  const citedSources = groups.map((group) => {
    const source = sources[group.sourceIndex]!;
    return toCitedSource(group.sourceIndex + 1, source, quoteSpans(source, group.units));
  });
  return { lines: lines.length > 1 ? lines.map((l) => `- ${l}`) : lines, citedSources };
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
    const { lines, citedSources } = answerExtractively(request.question, request.sources, resolved);
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
