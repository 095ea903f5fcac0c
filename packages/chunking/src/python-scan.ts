import type { TreeCursor } from './parsers.js';

/**
 * The statement skeleton of Python source without a parser: lines, brackets, strings,
 * comments and indentation are enough to find every statement, block, clause and definition
 * the chunker reads (see `StatementReader` in python.ts), at a fraction of a full parse's
 * cost. The skeleton has the shape tree-sitter-python gives those nodes — the same node
 * types, fields and ranges, and comments placed where its scanner places them — so the
 * chunker reads it through {@link SkeletonCursor} exactly as it reads a tree. Expressions are
 * not parsed: source tree-sitter would reject for its expressions gets a skeleton all the
 * same; source whose structure this cannot read (unbalanced brackets, an unterminated
 * string, an unexpected indent) gets `undefined`, and the caller parses it.
 */
export interface SkeletonNode {
  type: string;
  /** UTF-16 range, as tree-sitter's `startIndex` / `endIndex`. */
  start: number;
  end: number;
  /** The field this node fills in its parent (`name`, `body`), if any. */
  field?: string;
  children: SkeletonNode[];
}

const enum Char {
  Tab = 0x09,
  Newline = 0x0a,
  FormFeed = 0x0c,
  Return = 0x0d,
  Space = 0x20,
  Hash = 0x23,
  Quote = 0x22,
  Apostrophe = 0x27,
  OpenParen = 0x28,
  CloseParen = 0x29,
  Colon = 0x3a,
  Semicolon = 0x3b,
  Equals = 0x3d,
  At = 0x40,
  OpenBracket = 0x5b,
  Backslash = 0x5c,
  CloseBracket = 0x5d,
  Underscore = 0x5f,
  OpenBrace = 0x7b,
  CloseBrace = 0x7d,
}

/** The source cannot be read as statements here; the caller falls back to a parser. */
class Unreadable extends Error {}

function isWordUnit(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === Char.Underscore || c >= 0x80;
}

/** Letters that may prefix a string literal (`rb"…"`, `f'…'`, `t"…"`), as tree-sitter-python accepts them. */
function isStringPrefix(text: string, from: number, to: number): boolean {
  if (to - from > 3) return false;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i) | 0x20;
    if (c !== 0x72 && c !== 0x62 && c !== 0x75 && c !== 0x66 && c !== 0x74) return false;
  }
  return true;
}

function isQuote(c: number): boolean {
  return c === Char.Quote || c === Char.Apostrophe;
}

/**
 * Past the word at `i` (a name, a keyword, a number) or, when the word prefixes a string
 * literal (`rb"…"`, `f'…'`), past that literal: a word never ends with a quote, so the caller
 * tells the two apart by the last unit.
 */
function skipWord(text: string, i: number): number {
  let j = i + 1;
  while (j < text.length && isWordUnit(text.charCodeAt(j))) j++;
  if (!isQuote(text.charCodeAt(j)) || !isStringPrefix(text, i, j)) return j;
  const prefix = text.slice(i, j);
  return skipString(text, j, /[fFtT]/.test(prefix), /[rR]/.test(prefix));
}

/** One statement of a logical line: simple statements split at `;`, or a compound header. */
interface Part {
  start: number;
  /** End of its last token. */
  end: number;
  /** Tokens in it, and whether its only token is a string (a docstring-like statement). */
  tokens: number;
  bareString: boolean;
}

/** A logical line: physical lines joined by brackets, strings or backslashes. */
interface LogicalLine {
  start: number;
  indent: number;
  /** Statements split at depth-0 `;` (and, for a header, at its `:`). */
  parts: Part[];
  /** Index just past the header's `:` at depth 0, or -1 (the first such colon, `:=` aside). */
  colon: number;
  /** A comment after the last token, on the line's last physical line. */
  comment?: { start: number; end: number };
  /** Index of the newline that ends it (or the text's length). */
  next: number;
}

/**
 * Lexes the logical line that starts at `start`, whose first physical line is indented
 * `indent`: tracks brackets, strings and comments to find where it ends and its statements;
 * a `header` line is also cut at its first depth-0 colon (a lambda's colon in a simple
 * statement is not a cut).
 */
function readLogicalLine(text: string, start: number, indent: number, header: boolean): LogicalLine {
  const length = text.length;
  const parts: Part[] = [];
  let part: Part = { start: -1, end: -1, tokens: 0, bareString: false };
  let depth = 0;
  let colon = -1;
  let comment: LogicalLine['comment'];
  let i = start;
  const token = (from: number, to: number, isString: boolean): void => {
    if (part.start < 0) part.start = from;
    part.end = to;
    part.tokens++;
    part.bareString = part.tokens === 1 && isString;
  };
  const closePart = (): void => {
    if (part.start >= 0) parts.push(part);
    part = { start: -1, end: -1, tokens: 0, bareString: false };
  };
  while (i < length) {
    const c = text.charCodeAt(i);
    if (c === Char.Newline) {
      if (depth > 0) {
        i++;
        continue;
      }
      break;
    }
    if (c === Char.Space || c === Char.Tab || c === Char.FormFeed || c === Char.Return) {
      i++;
      continue;
    }
    if (c === Char.Hash) {
      const end = lineEnd(text, i);
      if (depth === 0) comment = { start: i, end };
      i = end;
      continue;
    }
    if (c === Char.Backslash) {
      // A line continuation: the backslash must end its physical line.
      let j = i + 1;
      if (text.charCodeAt(j) === Char.Return) j++;
      if (j < length && text.charCodeAt(j) !== Char.Newline) throw new Unreadable();
      i = j + 1;
      continue;
    }
    if (isQuote(c)) {
      const end = skipString(text, i, false);
      token(i, end, true);
      i = end;
      continue;
    }
    if (isWordUnit(c)) {
      const end = skipWord(text, i);
      token(i, end, isQuote(text.charCodeAt(end - 1)));
      i = end;
      continue;
    }
    if (c === Char.OpenParen || c === Char.OpenBracket || c === Char.OpenBrace) depth++;
    else if (c === Char.CloseParen || c === Char.CloseBracket || c === Char.CloseBrace) {
      if (--depth < 0) throw new Unreadable();
    } else if (depth === 0 && c === Char.Semicolon) {
      closePart();
      i++;
      continue;
    } else if (header && depth === 0 && c === Char.Colon && colon < 0 && text.charCodeAt(i + 1) !== Char.Equals) {
      colon = i + 1;
      token(i, i + 1, false);
      closePart();
      i++;
      continue;
    }
    token(i, i + 1, false);
    i++;
  }
  if (depth > 0) throw new Unreadable();
  closePart();
  return { start, indent, parts, colon, comment, next: i };
}

function lineEnd(text: string, from: number): number {
  const at = text.indexOf('\n', from);
  let end = at < 0 ? text.length : at;
  if (end > from && text.charCodeAt(end - 1) === Char.Return) end--;
  return end;
}

/**
 * The index just past the string literal whose opening quote is at `at`. In an f-string
 * (`formatted`) a replacement field `{…}` may hold strings and brackets of its own; a
 * backslash escapes the next unit, even in a raw string, as Python's tokenizer reads it.
 */
function skipString(text: string, at: number, formatted: boolean, raw = false): number {
  const quote = text.charCodeAt(at);
  const triple = text.charCodeAt(at + 1) === quote && text.charCodeAt(at + 2) === quote;
  let i = at + (triple ? 3 : 1);
  const length = text.length;
  while (i < length) {
    const c = text.charCodeAt(i);
    if (c === Char.Backslash) {
      // `\N{NAME}` is one escape, not a replacement field.
      if (!raw && text.charCodeAt(i + 1) === 0x4e && text.charCodeAt(i + 2) === Char.OpenBrace) {
        const close = text.indexOf('}', i + 3);
        if (close < 0) throw new Unreadable();
        i = close + 1;
        continue;
      }
      i += 2;
      continue;
    }
    if (c === quote) {
      if (!triple) return i + 1;
      if (text.charCodeAt(i + 1) === quote && text.charCodeAt(i + 2) === quote) return i + 3;
      i++;
      continue;
    }
    if (c === Char.Newline && !triple) throw new Unreadable();
    if (formatted && c === Char.OpenBrace) {
      if (text.charCodeAt(i + 1) === Char.OpenBrace) {
        i += 2;
        continue;
      }
      i = skipField(text, i + 1);
      continue;
    }
    i++;
  }
  throw new Unreadable();
}

/** Past the `}` that closes an f-string replacement field whose body starts at `from`. */
function skipField(text: string, from: number): number {
  let depth = 0;
  let i = from;
  const length = text.length;
  while (i < length) {
    const c = text.charCodeAt(i);
    if (isQuote(c)) {
      i = skipString(text, i, true);
      continue;
    }
    if (isWordUnit(c)) {
      i = skipWord(text, i);
      continue;
    }
    if (c === Char.OpenBrace || c === Char.OpenParen || c === Char.OpenBracket) depth++;
    else if (c === Char.CloseParen || c === Char.CloseBracket) depth--;
    else if (c === Char.CloseBrace) {
      if (depth === 0) return i + 1;
      depth--;
    }
    i++;
  }
  throw new Unreadable();
}

/** The identifier at `at`, or ''. */
function wordAt(text: string, at: number): string {
  let j = at;
  while (j < text.length && isWordUnit(text.charCodeAt(j))) j++;
  return text.slice(at, j);
}

/** The first non-space index at or after `at` on the same line. */
function skipSpaces(text: string, at: number): number {
  let i = at;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c !== Char.Space && c !== Char.Tab && c !== Char.FormFeed) break;
    i++;
  }
  return i;
}

/** The compound statement a header keyword opens. */
const COMPOUND_OF: Readonly<Record<string, string>> = {
  if: 'if_statement',
  for: 'for_statement',
  while: 'while_statement',
  try: 'try_statement',
  with: 'with_statement',
  def: 'function_definition',
  class: 'class_definition',
  match: 'match_statement',
};

/** The clause a keyword opens, and the statements it may continue. */
const CLAUSE_OF: Readonly<Record<string, { type: string; after: readonly string[] }>> = {
  elif: { type: 'elif_clause', after: ['if_statement'] },
  else: { type: 'else_clause', after: ['if_statement', 'for_statement', 'while_statement', 'try_statement'] },
  except: { type: 'except_clause', after: ['try_statement'] },
  finally: { type: 'finally_clause', after: ['try_statement'] },
};

/** Words that may open a header line (soft keywords too: whether they do is decided by the line). */
const HEADER_WORDS: ReadonlySet<string> = new Set([...Object.keys(COMPOUND_OF), ...Object.keys(CLAUSE_OF), 'async', 'case']);

/** How a logical line starts: a compound header, a clause, a `case`, a decorator, or a simple line. */
interface Opening {
  kind: 'compound' | 'clause' | 'decorator' | 'simple';
  type: string;
  /** For a definition: the range of its name. */
  name?: { start: number; end: number };
}

function openingOf(text: string, line: LogicalLine, inMatch: boolean): Opening {
  const at = line.start;
  if (text.charCodeAt(at) === Char.At) return { kind: 'decorator', type: 'decorator' };
  let word = wordAt(text, at);
  let after = at + word.length;
  if (word === 'async') {
    const next = skipSpaces(text, after);
    const second = wordAt(text, next);
    if (second === 'def' || second === 'for' || second === 'with') {
      word = second;
      after = next + second.length;
    }
  }
  const following = text.charCodeAt(after);
  // A keyword is a whole word: `if_` and `else_branch = …` are names.
  if (isWordUnit(following)) return { kind: 'simple', type: 'expression_statement' };
  const endsWithColon = line.colon > 0 && line.parts.length > 0 && line.parts[line.parts.length - 1]!.end === line.colon;
  if (word === 'case' && inMatch && line.colon > 0) return { kind: 'clause', type: 'case_clause' };
  if (word === 'match') {
    // A soft keyword: `match x:` opening a block is a statement, `match = …` is not.
    return endsWithColon && following !== Char.Equals && following !== 0x2e ? { kind: 'compound', type: COMPOUND_OF.match! } : { kind: 'simple', type: 'expression_statement' };
  }
  const clause = CLAUSE_OF[word];
  if (clause) {
    const type = word === 'except' && text.charCodeAt(skipSpaces(text, after)) === 0x2a ? 'except_group_clause' : clause.type;
    return { kind: 'clause', type };
  }
  const compound = COMPOUND_OF[word];
  if (!compound) return { kind: 'simple', type: 'expression_statement' };
  if (word === 'def' || word === 'class') {
    const nameStart = skipSpaces(text, after);
    const name = wordAt(text, nameStart);
    if (!name) throw new Unreadable();
    return { kind: 'compound', type: compound, name: { start: nameStart, end: nameStart + name.length } };
  }
  return { kind: 'compound', type: compound };
}

/** A simple statement node; a lone string literal gets a `string` child (see `isBareString`). */
function simpleNode(part: Part): SkeletonNode {
  return { type: 'expression_statement', start: part.start, end: part.end, children: [{ type: part.bareString ? 'string' : 'expression', start: part.start, end: part.end, children: [] }] };
}

function commentNode(start: number, end: number): SkeletonNode {
  return { type: 'comment', start, end, children: [] };
}

/** A block being filled: the node, the indentation of its statements, and what waits to join it. */
interface Frame {
  node: SkeletonNode;
  indent: number;
  /** Inside a `match`: its lines are `case` clauses. */
  inMatch: boolean;
  /**
   * Comments that come after the block's last statement. They join the block before the
   * next statement; before a clause of the last statement they belong to that statement
   * (tree-sitter places an extra inside the node it interrupts) and are left out.
   */
  pending: SkeletonNode[];
  /** The nodes that end where the block ends: its statement, the block holding that, and so on out. */
  owners: readonly SkeletonNode[];
}

function extend(node: SkeletonNode, end: number): void {
  if (end > node.end) node.end = end;
}

/** Indentation as tree-sitter-python's scanner counts it: a space 1, a tab 8, a form feed or `\r` back to 0. */
function indentAt(text: string, from: number): { indent: number; at: number } {
  let indent = 0;
  let i = from;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === Char.Space) indent++;
    else if (c === Char.Tab) indent += 8;
    else if (c === Char.FormFeed || c === Char.Return) indent = 0;
    else break;
    i++;
  }
  return { indent, at: i };
}

/** A physical line that holds only a comment, or the next logical line. */
type Line = { kind: 'comment'; start: number; end: number; indent: number } | ({ kind: 'code' } & LogicalLine);

function* linesOf(text: string): Generator<Line> {
  // A byte-order mark is not part of the first line (tree-sitter starts the module after it).
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const length = text.length;
  while (i < length) {
    const { indent, at } = indentAt(text, i);
    const c = text.charCodeAt(at);
    if (at >= length) return;
    if (c === Char.Newline) {
      i = at + 1;
      continue;
    }
    if (c === Char.Hash) {
      const end = lineEnd(text, at);
      yield { kind: 'comment', start: at, end, indent };
      i = end;
      continue;
    }
    if (c === Char.Backslash) throw new Unreadable();
    const line = readLogicalLine(text, at, indent, HEADER_WORDS.has(wordAt(text, at)));
    yield { kind: 'code', ...line };
    i = line.next;
  }
}

/**
 * The statement skeleton of `text` (the `module` node), or `undefined` when its structure
 * cannot be read this way (the caller then parses it).
 */
export function scanPythonStatements(text: string): SkeletonNode | undefined {
  try {
    return buildSkeleton(text);
  } catch (error) {
    // f-strings nested thousands deep exhaust the stack of the recursive string reader: the
    // parser gets the file, as for any other form the scan does not read.
    if (error instanceof Unreadable || error instanceof RangeError) return undefined;
    throw error;
  }
}

function buildSkeleton(text: string): SkeletonNode {
  const module: SkeletonNode = { type: 'module', start: 0, end: text.length, children: [] };
  const stack: Frame[] = [{ node: module, indent: 0, inMatch: false, pending: [], owners: [] }];
  /** Comments since the last logical line, in order. */
  let gap: { start: number; end: number; indent: number }[] = [];
  /** The block a header opened, waiting for its first indented line. */
  let opened: { block: SkeletonNode; owners: SkeletonNode[]; inMatch: boolean } | undefined;
  /** Decorators read so far, waiting for their definition. */
  let decorated: SkeletonNode | undefined;

  const top = (): Frame => stack[stack.length - 1]!;
  const addChild = (node: SkeletonNode, to: SkeletonNode, owners: readonly SkeletonNode[]): void => {
    to.children.push(node);
    extend(to, node.end);
    for (const owner of owners) extend(owner, node.end);
  };
  const flush = (frame: Frame): void => {
    for (const comment of frame.pending) addChild(comment, frame.node, frame.owners);
    frame.pending = [];
  };
  const pop = (): void => flush(stack.pop()!);
  /** Places the comments of a gap before a line indented `indent`, as tree-sitter's scanner does. */
  const placeGap = (indent: number): void => {
    for (const comment of gap) {
      // A dedent waits until the comments indented at least like the current block are consumed.
      while (stack.length > 1 && top().indent > indent && comment.indent < top().indent) pop();
      top().pending.push(commentNode(comment.start, comment.end));
    }
    gap = [];
    while (stack.length > 1 && top().indent > indent) pop();
  };

  for (let line of linesOf(text)) {
    if (line.kind === 'comment') {
      // Comments among decorators are inside the decorated definition: not statements.
      if (!decorated) gap.push(line);
      continue;
    }
    if (opened) {
      // A header's block. The comments between the header and the block's first statement
      // are inside the compound statement, before its block — except in a `match`, whose
      // block opens at the colon and holds them.
      if (line.indent <= top().indent) throw new Unreadable();
      const frame: Frame = { node: opened.block, indent: line.indent, inMatch: opened.inMatch, pending: [], owners: opened.owners };
      stack.push(frame);
      if (opened.inMatch) for (const comment of gap) addChild(commentNode(comment.start, comment.end), frame.node, frame.owners);
      gap = [];
      opened = undefined;
    } else {
      // A decorator's definition stands at the decorator's indent.
      if (decorated && line.indent !== top().indent) throw new Unreadable();
      placeGap(line.indent);
      if (line.indent !== top().indent) throw new Unreadable();
    }
    const frame = top();
    let opening = openingOf(text, line, frame.inMatch);
    if (opening.kind === 'simple' && line.colon >= 0) {
      // A soft keyword used as a name (`match = lambda x: x`): no header, no cut at the colon.
      line = { kind: 'code', ...readLogicalLine(text, line.start, line.indent, false) };
      opening = openingOf(text, line, frame.inMatch);
    }
    if (frame.inMatch !== (opening.type === 'case_clause')) throw new Unreadable();
    if (decorated && opening.kind !== 'decorator' && opening.type !== 'function_definition' && opening.type !== 'class_definition') throw new Unreadable();

    if (opening.kind === 'decorator') {
      const decorator: SkeletonNode = { type: 'decorator', start: line.start, end: line.parts[line.parts.length - 1]?.end ?? line.start + 1, children: [] };
      if (!decorated) {
        flush(frame);
        decorated = { type: 'decorated_definition', start: line.start, end: decorator.end, children: [] };
      }
      decorated.children.push(decorator);
      extend(decorated, decorator.end);
      continue;
    }
    if (opening.kind === 'simple') {
      flush(frame);
      for (const part of line.parts) addChild(simpleNode(part), frame.node, frame.owners);
      if (line.comment) addChild(commentNode(line.comment.start, line.comment.end), frame.node, frame.owners);
      continue;
    }
    if (line.colon < 0) throw new Unreadable();
    const block: SkeletonNode = { type: 'block', start: line.colon, end: line.colon, children: [] };
    /** What grows with the block: its statement (and clause), and everything that holds them. */
    let owners: SkeletonNode[];
    if (opening.kind === 'clause' && opening.type !== 'case_clause') {
      // A clause continues the block's last statement; comments between them are inside that statement.
      const last = frame.node.children[frame.node.children.length - 1];
      const allowed = CLAUSE_OF[wordAt(text, line.start)]!.after;
      if (!last || !allowed.includes(last.type)) throw new Unreadable();
      frame.pending = [];
      const clause: SkeletonNode = { type: opening.type, start: line.start, end: line.colon, children: [block] };
      addChild(clause, last, [frame.node, ...frame.owners]);
      owners = [clause, last, frame.node, ...frame.owners];
    } else {
      flush(frame);
      const node: SkeletonNode = { type: opening.type, start: line.start, end: line.colon, children: [] };
      if (opening.name) node.children.push({ type: 'identifier', start: opening.name.start, end: opening.name.end, field: 'name', children: [] });
      block.field = 'body';
      node.children.push(block);
      let statement = node;
      if (decorated) {
        node.field = 'definition';
        addChild(node, decorated, []);
        statement = decorated;
        decorated = undefined;
      }
      addChild(statement, frame.node, frame.owners);
      owners = statement === node ? [node, frame.node, ...frame.owners] : [node, statement, frame.node, ...frame.owners];
    }
    // The body: statements after the colon on the same line, or an indented block.
    const inline = line.parts.filter((part) => part.start >= line.colon);
    if (inline.length > 0) {
      for (const part of inline) addChild(simpleNode(part), block, owners);
      if (line.comment) addChild(commentNode(line.comment.start, line.comment.end), block, owners);
    } else {
      opened = { block, owners, inMatch: opening.type === 'match_statement' };
    }
  }
  if (opened || decorated) throw new Unreadable();
  placeGap(0);
  flush(top());
  return module;
}

/**
 * A `TreeCursor` over a skeleton, with the members `StatementReader` uses: the chunker reads
 * a skeleton exactly as it reads a tree-sitter tree.
 */
export class SkeletonCursor {
  readonly #path: { nodes: readonly SkeletonNode[]; at: number }[];

  constructor(root: SkeletonNode) {
    this.#path = [{ nodes: [root], at: 0 }];
  }

  get #node(): SkeletonNode {
    const level = this.#path[this.#path.length - 1]!;
    return level.nodes[level.at]!;
  }

  get nodeType(): string {
    return this.#node.type;
  }

  get nodeIsNamed(): boolean {
    return true;
  }

  get startIndex(): number {
    return this.#node.start;
  }

  get endIndex(): number {
    return this.#node.end;
  }

  get currentFieldName(): string {
    return this.#node.field ?? '';
  }

  gotoFirstChild(): boolean {
    const children = this.#node.children;
    if (children.length === 0) return false;
    this.#path.push({ nodes: children, at: 0 });
    return true;
  }

  gotoNextSibling(): boolean {
    const level = this.#path[this.#path.length - 1]!;
    if (this.#path.length === 1 || level.at + 1 >= level.nodes.length) return false;
    level.at++;
    return true;
  }

  gotoParent(): boolean {
    if (this.#path.length === 1) return false;
    this.#path.pop();
    return true;
  }

  /** As the reader's type: the members it uses, nothing more. */
  asTreeCursor(): TreeCursor {
    return this as unknown as TreeCursor;
  }
}
