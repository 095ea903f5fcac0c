/**
 * How an extractive answer shows what it quotes: a unit as prose or as a code span (with its
 * comment, shortened), quotes of one source joined in text order, list items kept apart, and
 * where a quote stands (file, line, symbol) for the lead of an answer.
 */
import { OffsetMap } from '@rag/core';
import { tokenize } from '@rag/text';
import type { SourceForAnswer, Span } from '../types.js';
import { compressCode, compressSentence } from './compress.js';
import type { ScoredUnit } from './score.js';
import { ownerAt } from './owner.js';
import { isListPiece } from './units.js';

export function shorten(text: string, max: number): string {
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

export function formatQuote(unit: ScoredUnit, maxChars: number, asked: ReadonlySet<string>, supporting = false): string {
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
export function itemSeparator(before: string): string {
  return /[.;:!?…]$/.test(before) ? ' ' : '; ';
}

/** Quotes of one source in text order: prose runs on; code, or a jump between kinds, gets an ellipsis. */
export function joinQuotes(units: readonly ScoredUnit[], quotes: readonly string[]): string {
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

export interface Group {
  sourceIndex: number;
  units: ScoredUnit[];
}

/** Picks grouped by source (the best pick's source first), each group in text order. */
export function groupBySource(picked: readonly ScoredUnit[]): Group[] {
  const groups = new Map<number, Group>();
  for (const unit of picked) {
    const group = groups.get(unit.sourceIndex) ?? { sourceIndex: unit.sourceIndex, units: [] };
    group.units.push(unit);
    groups.set(unit.sourceIndex, group);
  }
  for (const group of groups.values()) group.units.sort((a, b) => a.unit.start - b.unit.start);
  return [...groups.values()];
}

export function quoteSpans(source: SourceForAnswer, units: readonly ScoredUnit[]): Span[] {
  const map = new OffsetMap(source.text);
  return units.map((u) => ({
    first_character_index: source.first_character_index + map.toCodePoint(u.unit.start),
    last_character_index: source.first_character_index + map.toCodePoint(u.unit.end),
  }));
}

/**
 * The function or class a quote of a code file (a line, a docstring's sentence) belongs to:
 * read from the source's text, since a source that joins neighbouring chunks holds several,
 * else the source's symbol. A docs quote has only its section's heading path.
 */
function symbolOf(source: SourceForAnswer, unit: ScoredUnit): string {
  return !unit.fromDocs && source.symbol ? ownerAt(source.text, unit.unit.start, source.symbol) : source.symbol;
}

/**
 * The definitions the quotes `units` of `source` belong to, each once, in text order, a
 * method left out beside its class: what
 * the answer's list of sources names for it (the matched chunk's symbol is only one of them
 * when its hit joins neighbours). The source's own symbol for a docs page or no quote.
 */
export function quotedSymbols(source: SourceForAnswer, units: readonly ScoredUnit[]): string {
  const owners: string[] = [];
  for (const unit of units) {
    const owner = symbolOf(source, unit);
    if (owner && !owners.includes(owner)) owners.push(owner);
  }
  // A method beside its own class says nothing more: `NotFound`, not `NotFound, NotFound.__init__`.
  const outermost = owners.filter((owner) => !owners.some((other) => owner.startsWith(`${other}.`)));
  return outermost.length > 0 ? outermost.join(', ') : source.symbol;
}

/** `path` line N (`symbol`): where a quote of `source` stands, for the lead of a where-question. */
export function placeOf(source: SourceForAnswer, unit: ScoredUnit): string {
  const before = source.text.slice(0, unit.unit.start);
  const line = source.start_line > 0 ? source.start_line + (before.match(/\n/g)?.length ?? 0) : 0;
  const at = line > 0 ? `${source.file_path}:${line}` : source.file_path;
  const symbol = symbolOf(source, unit);
  return symbol ? `In \`${at}\` (\`${symbol}\`):` : `In \`${at}\`:`;
}

/**
 * "In `ProxyFix._get_real_value`: ", when the lead quotes a code file's function or class
 * without naming it (a `return` line, a docstring sentence): the reader learns what behaves
 * so without opening the source. '' for docs, for chunks with no symbol, and for a lead
 * that already names it.
 */
export function ownerOf(source: SourceForAnswer, unit: ScoredUnit): string {
  if (unit.fromDocs || !source.symbol) return '';
  const symbol = symbolOf(source, unit);
  const name = symbol.slice(symbol.lastIndexOf('.') + 1);
  return unit.unit.display.includes(name) ? '' : `In \`${symbol}\`: `;
}
