import type { CitedSource, SourceForAnswer, Span } from './types.js';

/**
 * `[1]`, `[1, 2]`, `[1-3]`, `[2,4–5]`: one bracket of citation numbers and ranges. Not
 * after a word character or `)`, where a bracket is indexing (`shape[1]`, `f()[0]`).
 */
const CITATION = /\s?(?<![\w)])\[(\s*\d+(?:\s*[-–]\s*\d+)?(?:\s*,\s*\d+(?:\s*[-–]\s*\d+)?)*\s*)\]/g;
/** Inline code and fenced blocks: brackets there are code, never citations. */
const CODE_SPAN = /```[\s\S]*?```|`[^`\n]*`/g;
/** Stands in for a citation removed entirely, until parentheses around it are removed too. */
const DROPPED = '\u0000';
/** A range longer than this is not a citation (`[1-2000]` is more likely code). */
const MAX_RANGE = 20;

export interface CitationMapping {
  /** The text with unknown numbers removed (and brackets left empty removed). */
  answer: string;
  citedSources: CitedSource[];
  /** Unknown numbers, each once, in order of appearance. */
  droppedCitations: number[];
}

function expandNumbers(inner: string): number[] | null {
  const numbers: number[] = [];
  for (const part of inner.split(',')) {
    const range = part.split(/[-–]/).map((s) => Number.parseInt(s.trim(), 10));
    const [from, to = from] = range as [number, number?];
    if (to < from || to - from > MAX_RANGE) return null;
    for (let n = from; n <= to; n++) numbers.push(n);
  }
  return numbers;
}

export function toCitedSource(n: number, source: SourceForAnswer, quotes?: Span[]): CitedSource {
  const cited: CitedSource = {
    n,
    file_path: source.file_path,
    first_character_index: source.first_character_index,
    last_character_index: source.last_character_index,
    start_line: source.start_line,
    end_line: source.end_line,
    symbol: source.symbol,
  };
  if (quotes && quotes.length > 0) cited.quotes = quotes;
  return cited;
}

/**
 * Maps the `[n]` citations of `text` to `sources` (n is 1-based). Numbers with no source
 * are dropped from the text and reported; a bracket left empty disappears with the space
 * before it. Brackets that are not citations (`[1-2000]`, `[x]`, anything in backticks)
 * are left alone.
 */
export function mapCitations(text: string, sources: readonly SourceForAnswer[]): CitationMapping {
  const cited = new Map<number, CitedSource>();
  const dropped: number[] = [];
  const rewrite = (match: string, inner: string): string => {
    const numbers = expandNumbers(inner);
    if (numbers === null) return match;
    const known = numbers.filter((n) => n >= 1 && n <= sources.length);
    for (const n of numbers) {
      if (n >= 1 && n <= sources.length) {
        if (!cited.has(n)) cited.set(n, toCitedSource(n, sources[n - 1]!));
      } else if (!dropped.includes(n)) dropped.push(n);
    }
    if (known.length === numbers.length) return match;
    if (known.length === 0) return DROPPED;
    const lead = match.startsWith('[') ? '' : match[0]!;
    return `${lead}[${[...new Set(known)].join(', ')}]`;
  };
  let answer = '';
  let last = 0;
  for (const code of text.matchAll(CODE_SPAN)) {
    answer += text.slice(last, code.index).replace(CITATION, rewrite) + code[0];
    last = code.index + code[0].length;
  }
  answer += text.slice(last).replace(CITATION, rewrite);
  // A dropped citation in parentheses, `see ([7])`, takes its parentheses with it.
  answer = answer.replace(/\s?\(\u0000\)/g, '').replaceAll(DROPPED, '');
  return { answer, citedSources: [...cited.values()], droppedCitations: dropped };
}
