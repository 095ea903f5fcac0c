import { tokenize, tokenizeQuery } from './tokenize.js';

/** One line of a span shown around its best match. */
export interface MatchedLine {
  /** 0-based index of the line within the span's text. */
  line: number;
  text: string;
  /** Whether the line holds a query term (the context lines around it may not). */
  matches: boolean;
}

export interface MatchLinesOptions {
  /** Lines shown before and after the best line. Integer ≥ 0. Default 1. */
  context?: number;
  /** Longest line shown, in characters; longer lines are cut with `…`. Default 160. */
  maxLineLength?: number;
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(1, max - 1))}…`;
}

/**
 * The lines of `text` around the one that holds the most distinct terms of `query` (ties:
 * the first), with `context` lines either side, as ripgrep shows a match. Empty when no
 * line holds a query term. Terms are the search's own (`tokenizeQuery`, `tokenize`), so a
 * line matches when the retriever would have matched it: `max_num_seqs` matches "maximum
 * number of sequences" only through the same expansions.
 */
export function matchLines(text: string, query: string, options: MatchLinesOptions = {}): MatchedLine[] {
  const context = options.context ?? 1;
  const maxLineLength = options.maxLineLength ?? 160;
  const terms = new Set(tokenizeQuery(query).map((t) => t.term));
  if (terms.size === 0) return [];
  const lines = text.split('\n');
  const counts = lines.map((line) => new Set(tokenize(line).filter((term) => terms.has(term))).size);
  let best = -1;
  for (let i = 0; i < lines.length; i++) if (counts[i]! > 0 && (best < 0 || counts[i]! > counts[best]!)) best = i;
  if (best < 0) return [];
  const shown: MatchedLine[] = [];
  for (let i = Math.max(0, best - context); i <= Math.min(lines.length - 1, best + context); i++) {
    shown.push({ line: i, text: cut(lines[i]!.replace(/\s+$/, ''), maxLineLength), matches: counts[i]! > 0 });
  }
  return shown;
}

/**
 * `line` with every word that yields a query term wrapped by `mark` (for a terminal: bold or
 * colour). Words are the runs the tokenizer would index, so `max_num_seqs` is marked whole.
 */
export function markTerms(line: string, query: string, mark: (word: string) => string): string {
  const terms = new Set(tokenizeQuery(query).map((t) => t.term));
  if (terms.size === 0) return line;
  return line.replace(/[\p{L}\p{N}_][\p{L}\p{N}_.-]*[\p{L}\p{N}_]|[\p{L}\p{N}_]/gu, (word) => (tokenize(word).some((term) => terms.has(term)) ? mark(word) : word));
}
