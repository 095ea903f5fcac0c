import type { AnswerKind } from '../answer-kind.js';
import type { SourceForAnswer } from '../types.js';
import { carriesKind } from './evidence.js';
import type { ScoredUnit } from './score.js';
import { isListPiece } from './units.js';

/**
 * What completes the leading quote of an extractive answer: the best unit often says where
 * or when, and the lines right after it say what. Each rule here is about the shape of
 * Python code or prose documentation, never about a corpus or a question set.
 */

/** A `class` or `def` line says only that something exists; its first body lines say what it holds. */
const HEADER = /^(async\s+)?(def|class)\s/;
/** Body lines quoted after a leading `class` or `def` line. */
const BODY_LINES = 4;
/**
 * A condition or handler (`if …:`, `except …:`) says when; the lines of its block say what
 * happens then (the `raise`, the fallback value): they come with it.
 */
const BLOCK_OPENER = /^(if|elif|else|except|try|with|for|while)\b.*:$/;
/** Block lines quoted after a leading condition or handler. */
const BLOCK_LINES = 3;
/** Code lines quoted after a how-to sentence (its example). */
const EXAMPLE_LINES = 2;
/** A prose lead with at most this share of words the question does not have only restates it. */
const ECHO_NOVELTY = 0.65;
/** Inline code in prose (`name`, ``name``, :func:`name`): the thing a how-to sentence says to use. */
const INLINE_CODE = /`[^`\s][^`]*`/;
const BLANK_LINE = /\n\s*\n/;

/** The units of `unit`'s source that start where it ends or later, in text order. */
export function unitsAfter(units: readonly ScoredUnit[], unit: ScoredUnit): ScoredUnit[] {
  return units.filter((u) => u.sourceIndex === unit.sourceIndex && u.unit.start >= unit.unit.end).sort((a, b) => a.unit.start - b.unit.start);
}

/** Columns of indentation of the line `offset` lies on. */
function indentAt(text: string, offset: number): number {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  let column = lineStart;
  while (column < text.length && (text[column] === ' ' || text[column] === '\t')) column++;
  return column - lineStart;
}

/** Whether a line of `text` between `from` and `to` holds something and is indented `depth` columns or less. */
function hasLineAtOrAbove(text: string, from: number, to: number, depth: number): boolean {
  let at = text.indexOf('\n', from);
  while (at >= 0 && at < to) {
    const start = at + 1;
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end < 0 || end > to ? to : end);
    if (line.trim() !== '' && indentAt(text, start) <= depth) return true;
    at = end;
  }
  return false;
}

/**
 * The first `max` code lines of the block `opener` opens: deeper indented, right after it.
 * Lines no unit quotes (`try:`, `else:`) still end the block when they stand at its
 * opener's indentation: what follows them is another block's.
 */
function blockOf(opener: ScoredUnit, following: readonly ScoredUnit[], text: string, max: number): ScoredUnit[] {
  const depth = indentAt(text, opener.unit.start);
  const block: ScoredUnit[] = [];
  let end = opener.unit.end;
  for (const unit of following) {
    if (block.length >= max || unit.unit.kind !== 'code' || indentAt(text, unit.unit.start) <= depth) break;
    if (hasLineAtOrAbove(text, end, unit.unit.start, depth)) break;
    block.push(unit);
    end = unit.unit.end;
  }
  return block;
}

/** Where the docstring the units `following` start in ends: the first unit that is not part of one. */
function docstringEnd(following: readonly ScoredUnit[]): number {
  return following.find((u) => !u.unit.doc)?.unit.start ?? Number.POSITIVE_INFINITY;
}

/** `following` up to the first blank line between two of them: what a colon introduces, not the block after it. */
function firstParagraph(following: readonly ScoredUnit[], text: string): ScoredUnit[] {
  const out: ScoredUnit[] = [];
  for (const unit of following) {
    const previous = out.at(-1);
    if (previous && BLANK_LINE.test(text.slice(previous.unit.end, unit.unit.start))) break;
    out.push(unit);
  }
  return out;
}

/**
 * The `except` line that handles a failure of `line` (the first one after it at the indentation
 * of the `try` it sits in) and the first line of that handler's block; [] outside a `try`.
 */
function handlerOf(line: ScoredUnit, following: readonly ScoredUnit[], text: string): ScoredUnit[] {
  const depth = indentAt(text, line.unit.start);
  // The nearest line above that is indented less: the statement whose block holds `line`.
  let at = text.lastIndexOf('\n', line.unit.start - 1);
  while (at > 0) {
    const start = text.lastIndexOf('\n', at - 1) + 1;
    const content = text.slice(start, at);
    if (content.trim() !== '' && indentAt(text, start) < depth) {
      if (!/^\s*try\s*:/.test(content)) return [];
      const tryDepth = indentAt(text, start);
      const handler = following.findIndex((u) => u.unit.kind === 'code' && indentAt(text, u.unit.start) === tryDepth && /^except\b/.test(u.unit.display));
      if (handler < 0) return [];
      const body = following[handler + 1];
      return body && body.unit.kind === 'code' && indentAt(text, body.unit.start) > tryDepth ? [following[handler]!, body] : [following[handler]!];
    }
    at = start - 1;
  }
  return [];
}

/** `name = <literal>` (or `name: type = <literal>`): a number, string, None/True/False. */
const LITERAL_ASSIGNMENT = /^([A-Za-z_]\w*)\s*(?::[^=]+)?=\s*(-?\d[\w.]*|["'][^"']*["']|None|True|False)\s*(#.*)?$/;
/** Most assignments brought for one lead. */
const MAX_ASSIGNMENTS = 1;

/**
 * The literal assignments, earlier in the same source, of names the code line `lead` uses
 * (`default_max_len = 2048` for a warning that prints `default_max_len`): the value the line
 * only names.
 */
export function assignmentsUsedBy(lead: ScoredUnit, units: readonly ScoredUnit[]): ScoredUnit[] {
  if (lead.unit.kind !== 'code' || HEADER.test(lead.unit.display)) return [];
  const used = new Set(lead.unit.display.match(/\b[A-Za-z_]\w*\b/g) ?? []);
  const out: ScoredUnit[] = [];
  for (const unit of units) {
    if (out.length >= MAX_ASSIGNMENTS) break;
    if (unit.sourceIndex !== lead.sourceIndex || unit.unit.kind !== 'code' || unit.unit.start >= lead.unit.start) continue;
    const name = LITERAL_ASSIGNMENT.exec(unit.unit.display)?.[1];
    if (name && used.has(name) && name.length > 2) out.push(unit);
  }
  return out;
}

/** Share of the unit's distinct terms that the question does not contain. */
function novelty(unit: ScoredUnit, asked: ReadonlySet<string>): number {
  if (unit.terms.size === 0) return 0;
  let novel = 0;
  for (const term of unit.terms) if (!asked.has(term)) novel++;
  return novel / unit.terms.size;
}

/** A prose unit that says how: an instruction, a flag, or the name of what to use. */
function showsHow(unit: ScoredUnit): boolean {
  return carriesKind(unit.unit, 'how', unit.fromDocs) || INLINE_CODE.test(unit.unit.display);
}

/**
 * The units that join the leading quote `lead`, in text order:
 * - after a `class`/`def` line, its first body lines (fields, enum members, first statements);
 * - after a condition or handler, the lines of its block;
 * - after a sentence ending in a colon ("Two main reasons:"), what it introduces;
 * - after a how-to sentence, the code example right after it;
 * - after a how-to sentence that names nothing to use ("you might want to let a user scroll
 *   through long output."), the next sentence of its paragraph when that one does ("This can
 *   be achieved by using `echo_via_pager`…");
 * - after a prose lead made mostly of the question's own words, which matches best and says
 *   least, the next sentence of its paragraph, and what that sentence introduces when it
 *   ends in a colon.
 */
export function leadCompletion(lead: ScoredUnit, units: readonly ScoredUnit[], source: SourceForAnswer, asked: ReadonlySet<string>, kind: AnswerKind): ScoredUnit[] {
  const following = unitsAfter(units, lead);
  if (lead.unit.kind === 'code' && kind === 'error') {
    // "What happens if posting the data fails?": the call sits in a `try`; its handler says.
    const handler = handlerOf(lead, following, source.text);
    if (handler.length > 0) return handler;
  }
  if (lead.unit.kind === 'code') {
    if (BLOCK_OPENER.test(lead.unit.display)) return blockOf(lead, following, source.text, BLOCK_LINES);
    // The examples of its docstring are not its body.
    if (HEADER.test(lead.unit.display)) return following.filter((u) => u.unit.kind === 'code' && !u.unit.doc).slice(0, BODY_LINES);
    const use = useOfComputed(lead, following, source.text);
    return use ? [use] : [];
  }
  if (lead.unit.display.endsWith(':')) return firstParagraph(following, source.text).slice(0, BODY_LINES);
  // A docstring's opening sentence says what a function does; its return field, what it gives back.
  if (lead.unit.docRole === 'summary') {
    const returns = following.find((u) => u.unit.docRole === 'returns' && u.unit.start < docstringEnd(following));
    if (returns) return [returns];
  }
  const next = following[0];
  if (!next) return [];
  if (kind === 'how' && next.unit.kind === 'code') return following.filter((u) => u.unit.kind === 'code').slice(0, EXAMPLE_LINES);
  if (BLANK_LINE.test(source.text.slice(lead.unit.end, next.unit.start))) return [];
  const restates = kind === 'how' && next.unit.kind === 'prose' && !showsHow(lead) && showsHow(next);
  if (!restates && novelty(lead, asked) > ECHO_NOVELTY) return [];
  // The sentence that joins may itself introduce what answers ("…by removing this line::").
  if (next.unit.kind === 'prose' && next.unit.display.endsWith(':')) return [next, ...firstParagraph(unitsAfter(units, next), source.text).slice(0, BODY_LINES)];
  return [next];
}

/** A code line that assigns a simple name: its name. */
const ASSIGNED_NAME = /^([A-Za-z_]\w*)\s*(?::[^=]+)?=(?!=)/;

/** A line that gives a function's result. */
const RETURNS = /^return\b/;

/**
 * The `return` right after a leading assignment of a computed value, when it uses that value
 * (`precisions = get_global('currency_fractions')`, then `return precisions.get(currency,
 * precisions['DEFAULT'])[0]`): the assignment only fetches what the result is made from. Not
 * for a literal assignment, which is the value itself; the next code line of the same block
 * only (no blank line between). Any next line that uses the name came with 25 changed
 * answers on the answer sets, one fact more and the rest only longer: a `return` is where the
 * fetched value becomes the answer.
 */
function useOfComputed(lead: ScoredUnit, following: readonly ScoredUnit[], text: string): ScoredUnit | undefined {
  const name = ASSIGNED_NAME.exec(lead.unit.display)?.[1];
  if (!name || LITERAL_ASSIGNMENT.test(lead.unit.display)) return undefined;
  const next = following[0];
  if (!next || next.unit.kind !== 'code' || next.unit.doc || BLANK_LINE.test(text.slice(lead.unit.end, next.unit.start))) return undefined;
  return RETURNS.test(next.unit.display) && new RegExp(`\\b${name}\\b`).test(next.unit.display) ? next : undefined;
}

/**
 * The sentence that introduces the list `item` stands in ("We recommend three ways of
 * implementation:", then the ways): for a question that asks for several things, a list's
 * introduction with its items answers it, where one item alone is a part of the answer. The
 * item must be among the first {@link BODY_LINES} pieces after the introduction (what the
 * introduction brings when it leads, see `leadCompletion`), every unit between the two a
 * piece of the same list; undefined otherwise.
 */
export function listIntroductionOf(item: ScoredUnit, units: readonly ScoredUnit[]): ScoredUnit | undefined {
  if (!isListPiece(item.unit)) return undefined;
  const before = units.filter((u) => u.sourceIndex === item.sourceIndex && u.unit.end <= item.unit.start).sort((a, b) => b.unit.start - a.unit.start);
  let pieces = 1;
  for (const unit of before) {
    if (isListPiece(unit.unit)) {
      if (++pieces > BODY_LINES) return undefined;
      continue;
    }
    return unit.introducesList === true ? unit : undefined;
  }
  return undefined;
}

/**
 * A sentence that opens by pointing back ("This is sufficient for most cases, however, it is
 * known to drain a laptop's battery.", "It requires the module …") names its subject in the
 * sentence before: English, not any corpus's wording.
 */
const ANAPHOR = /^(this|that|these|those|it|its|they|their|such)\b/i;

/**
 * The sentence a prose `lead` points back to: the one right before it in the same paragraph
 * of its source, when the lead opens with a pronoun or demonstrative ({@link ANAPHOR}).
 */
export function antecedentOf(lead: ScoredUnit, units: readonly ScoredUnit[], source: SourceForAnswer): ScoredUnit | undefined {
  if (lead.unit.kind !== 'prose' || !ANAPHOR.test(lead.unit.display)) return undefined;
  let before: ScoredUnit | undefined;
  for (const unit of units) {
    if (unit.sourceIndex !== lead.sourceIndex || unit.unit.end > lead.unit.start) continue;
    if (!before || unit.unit.start > before.unit.start) before = unit;
  }
  if (!before || before.unit.kind !== 'prose' || BLANK_LINE.test(source.text.slice(before.unit.end, lead.unit.start))) return undefined;
  return before;
}

/** A condition or handler line: what says when the lines of its block run. */
const CONDITION_OPENER = /^(if|elif|except|while)\b.*:$/;
/** Code lines between a block's condition and a leading line that still count as its first lines. */
const OPENER_REACH = 3;

/**
 * The condition or handler (`if …:`, `except …:`) whose block a code `lead` opens with: the
 * nearest line above it that is indented less, when that line is one and the lead is among
 * the first lines of its block. "What happens if posting the data fails?" is answered by
 * `logging.debug("Failed to send …")` under `except requests.RequestException:`, and
 * the handler says which failure.
 */
export function conditionOf(lead: ScoredUnit, units: readonly ScoredUnit[], source: SourceForAnswer): ScoredUnit | undefined {
  if (lead.unit.kind !== 'code' || HEADER.test(lead.unit.display) || BLOCK_OPENER.test(lead.unit.display)) return undefined;
  const depth = indentAt(source.text, lead.unit.start);
  const above = units
    .filter((u) => u.sourceIndex === lead.sourceIndex && u.unit.kind === 'code' && u.unit.end <= lead.unit.start)
    .sort((a, b) => b.unit.start - a.unit.start);
  for (let i = 0; i < above.length && i <= OPENER_REACH; i++) {
    const unit = above[i]!;
    if (indentAt(source.text, unit.unit.start) >= depth) continue;
    return CONDITION_OPENER.test(unit.unit.display) ? unit : undefined;
  }
  return undefined;
}

/**
 * List items or table rows a quoted sentence ending in a colon brings ("vLLM supports the
 * following hardware platforms:" and its first three items). Chosen on all 19 answer sets
 * (`pnpm bench:answers`): 3 stated two more facts (public docs, doit code) than none and lost
 * none, 2 and 1 fewer, 5 the same as 3 with longer answers.
 */
const INTRODUCED_ITEMS = 3;

/** For each quoted sentence that introduces something (ends in a colon), the code line right after it, or its first list items or rows. */
export function introducedLines(quoted: readonly ScoredUnit[], units: readonly ScoredUnit[]): ScoredUnit[] {
  const lines: ScoredUnit[] = [];
  for (const unit of quoted) {
    if (unit.unit.kind !== 'prose' || !unit.unit.display.endsWith(':')) continue;
    const after = unitsAfter(units, unit);
    const next = after[0];
    if (next?.unit.kind === 'code') lines.push(next);
    else if (next && isListPiece(next.unit)) {
      for (const item of after.slice(0, INTRODUCED_ITEMS)) {
        if (!isListPiece(item.unit)) break;
        lines.push(item);
      }
    }
  }
  return lines;
}

/**
 * For a question that asks for several things, the other items of each quoted list item's
 * list (the run of list items or table rows around it in its source, nothing else between
 * them), up to {@link INTRODUCED_ITEMS} items a list counting the quoted one: an item quoted
 * alone is one of the things asked for, its neighbours the rest.
 */
export function listSiblingsOf(quoted: readonly ScoredUnit[], units: readonly ScoredUnit[]): ScoredUnit[] {
  const lines: ScoredUnit[] = [];
  for (const unit of quoted) {
    if (unit.unit.kind !== 'prose' || !isListPiece(unit.unit)) continue;
    const own = units.filter((u) => u.sourceIndex === unit.sourceIndex).sort((a, b) => a.unit.start - b.unit.start);
    const at = own.indexOf(unit);
    let first = at;
    while (first > 0 && isListPiece(own[first - 1]!.unit)) first--;
    let last = at;
    while (last + 1 < own.length && isListPiece(own[last + 1]!.unit)) last++;
    const run = own.slice(first, last + 1);
    // The quoted item and the items nearest it, in text order.
    const nearest = [...run].sort((a, b) => Math.abs(run.indexOf(a) - (at - first)) - Math.abs(run.indexOf(b) - (at - first))).slice(0, INTRODUCED_ITEMS);
    for (const item of run) if (item !== unit && nearest.includes(item) && !quoted.includes(item) && !lines.includes(item)) lines.push(item);
  }
  return lines;
}

/**
 * The first block line of each quoted branch (`if …:`, `except …:`): for a question that asks
 * what happens under a condition, a supporting branch says when and this line says what.
 */
export function branchOutcomes(quoted: readonly ScoredUnit[], units: readonly ScoredUnit[], sources: readonly SourceForAnswer[]): ScoredUnit[] {
  const lines: ScoredUnit[] = [];
  for (const unit of quoted) {
    if (unit.unit.kind !== 'code' || !BLOCK_OPENER.test(unit.unit.display)) continue;
    lines.push(...blockOf(unit, unitsAfter(units, unit), sources[unit.sourceIndex]!.text, 1));
  }
  return lines;
}

/** A constant's name as Python code spells it: `DEFAULT_POOLSIZE`, `MAX_RANGE`. */
const CONSTANT_NAME = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b|\b[A-Z]{4,}\b/g;
/** Most constants' values brought for the quoted lines of one answer. */
const MAX_CONSTANTS = 2;

/**
 * The literal assignments, in any source, of the constants that quoted code lines only name
 * (`DEFAULT_POOLSIZE = 10` for `pool_connections=DEFAULT_POOLSIZE`): the value the quote
 * stands for, which a reader would otherwise have to look up.
 */
export function constantValuesOf(quoted: readonly ScoredUnit[], units: readonly ScoredUnit[]): ScoredUnit[] {
  const named = new Set<string>();
  for (const unit of quoted) {
    if (unit.unit.kind !== 'code') continue;
    const own = LITERAL_ASSIGNMENT.exec(unit.unit.display)?.[1];
    for (const name of unit.unit.display.match(CONSTANT_NAME) ?? []) if (name !== own) named.add(name);
  }
  const out: ScoredUnit[] = [];
  for (const unit of units) {
    if (out.length >= MAX_CONSTANTS || named.size === 0) break;
    if (unit.unit.kind !== 'code' || quoted.includes(unit)) continue;
    const name = LITERAL_ASSIGNMENT.exec(unit.unit.display)?.[1];
    if (name && named.has(name)) {
      out.push(unit);
      named.delete(name);
    }
  }
  return out;
}

/** A name written as inline code in prose: `threshold`, ``leeway`` (a lowercase identifier, not a call or a path). */
const INLINE_NAME = /`{1,2}([a-z_][a-z0-9_]*)`{1,2}/g;
/** Most parameter defaults brought for the quoted lines of one answer. */
const MAX_PARAMETER_DEFAULTS = 1;

/** Whether a code line gives parameter `name` a default in a signature (`name=.85`, `name: int = 5`). */
function defaultsParameter(line: string, name: string): boolean {
  if (!/^\s*(?:async\s+)?def\s/.test(line) && !/^\s*[a-z_]\w*\s*(?::[^=]+)?=[^=].*,\s*$/.test(line)) return false;
  return new RegExp(`[(,]\\s*${name}\\s*(?::[^=,()]+)?=(?!=)|^\\s*${name}\\s*(?::[^=]+)?=(?!=)`).test(line);
}

/**
 * For a default question, the signature lines that give a default to the parameters the
 * quoted sentences name as code ("with `threshold` you set the value after which …" brings
 * `def format_timedelta(delta, granularity='second', threshold=.85, …)`): the sentence says
 * what the parameter does, the signature what it is when nobody passes it.
 */
export function parameterDefaultsOf(quoted: readonly ScoredUnit[], units: readonly ScoredUnit[]): ScoredUnit[] {
  const named = new Set<string>();
  for (const unit of quoted) {
    if (unit.unit.kind !== 'prose') continue;
    for (const match of unit.unit.display.matchAll(INLINE_NAME)) named.add(match[1]!);
  }
  // A quoted line that already gives the default says it.
  for (const unit of quoted) if (unit.unit.kind === 'code') for (const name of named) if (defaultsParameter(unit.unit.display, name)) named.delete(name);
  const out: ScoredUnit[] = [];
  for (const unit of units) {
    if (out.length >= MAX_PARAMETER_DEFAULTS || named.size === 0) break;
    if (unit.unit.kind !== 'code' || unit.unit.doc === true || quoted.includes(unit)) continue;
    for (const name of named) {
      if (!defaultsParameter(unit.unit.display, name)) continue;
      out.push(unit);
      named.delete(name);
      break;
    }
  }
  return out;
}
