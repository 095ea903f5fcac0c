import type { ResolvedChunkerOptions } from './options.js';
import type { TextLayout } from './layout.js';
import { parseText, type TreeCursor } from './parsers.js';
import { scanPythonStatements, SkeletonCursor } from './python-scan.js';
import { cutRegions, type Piece, type Region } from './regions.js';
import { windowText } from './text.js';
import { tilePieces } from './tile.js';

/** Clause nodes of tree-sitter-python: parts of a compound statement with blocks of their own. */
export const CLAUSES: ReadonlySet<string> = new Set(['elif_clause', 'else_clause', 'except_clause', 'except_group_clause', 'finally_clause', 'case_clause']);
/** Compound statement nodes (clauses included): the statements whose blocks the reader enters. */
export const COMPOUND: ReadonlySet<string> = new Set([
  'if_statement',
  'for_statement',
  'while_statement',
  'try_statement',
  'with_statement',
  'match_statement',
  'function_definition',
  'class_definition',
  'decorated_definition',
  ...CLAUSES,
]);

/** What the chunker needs of a statement, read once from the tree into plain objects. */
interface Statement {
  type: string;
  /** UTF-16 range. */
  start: number;
  end: number;
  /** Set for a function or class definition (seen through its decorators). */
  definition?: { kind: 'function' | 'class'; name: string; body: Statement[] };
}

/** Per-line facts about statement structure that break costs are computed from. */
interface LineFacts {
  /** Block depth of the shallowest statement starting on the line (module level 0); Infinity if none. */
  depth: Float64Array;
  /** The line holds only a comment. */
  comment: Uint8Array;
  /** A bare string statement starts here: a docstring that belongs with what is above it. */
  docstring: Uint8Array;
}

/**
 * Reads statements from the tree with a cursor (far cheaper than materialising node
 * objects in the Node binding), visiting only statements and their blocks, never
 * expressions, and recording line facts on the way.
 */
class StatementReader {
  readonly facts: LineFacts;

  constructor(
    private readonly layout: TextLayout,
    private readonly cursor: TreeCursor,
  ) {
    this.facts = {
      depth: new Float64Array(layout.lineCount).fill(Infinity),
      comment: new Uint8Array(layout.lineCount),
      docstring: new Uint8Array(layout.lineCount),
    };
  }

  /** Statements that are children of the cursor's node (a module or block), at `depth`. */
  readChildren(depth: number): Statement[] {
    const cursor = this.cursor;
    const statements: Statement[] = [];
    if (!cursor.gotoFirstChild()) return statements;
    do {
      if (cursor.nodeIsNamed) statements.push(this.readStatement(depth));
    } while (cursor.gotoNextSibling());
    cursor.gotoParent();
    return statements;
  }

  private mark(statement: Statement, depth: number, docstring: boolean): void {
    const { layout, facts } = this;
    const row = layout.lineOf(statement.start);
    if (!layout.isSpaceBetween(layout.lineStart(row), statement.start)) return;
    if (depth < facts.depth[row]!) facts.depth[row] = depth;
    if (statement.type === 'comment' && layout.lineOf(statement.end - 1) === row) facts.comment[row] = 1;
    if (docstring) facts.docstring[row] = 1;
  }

  private readStatement(depth: number): Statement {
    const cursor = this.cursor;
    const statement: Statement = { type: cursor.nodeType, start: cursor.startIndex, end: cursor.endIndex };
    this.mark(statement, depth, statement.type === 'expression_statement' && this.isBareString());
    if (COMPOUND.has(statement.type)) this.readCompound(statement, depth);
    return statement;
  }

  /** The cursor is on an expression statement: is it a lone string (a docstring)? */
  private isBareString(): boolean {
    const cursor = this.cursor;
    let named = 0;
    let isString = false;
    if (!cursor.gotoFirstChild()) return false;
    do {
      if (!cursor.nodeIsNamed) continue;
      named++;
      isString = cursor.nodeType === 'string';
    } while (cursor.gotoNextSibling());
    cursor.gotoParent();
    return named === 1 && isString;
  }

  /** Children of a compound statement at `depth`: blocks one level deeper, clauses, a decorated definition. */
  private readCompound(statement: Statement, depth: number): void {
    const cursor = this.cursor;
    const text = this.layout.text;
    const isDefinition = statement.type === 'function_definition' || statement.type === 'class_definition';
    let name = '';
    let body: Statement[] = [];
    if (!cursor.gotoFirstChild()) return;
    do {
      const type = cursor.nodeType;
      if (type === 'block') {
        const statements = this.readChildren(depth + 1);
        if (isDefinition && cursor.currentFieldName === 'body') body = statements;
      } else if (CLAUSES.has(type)) {
        // `else:`/`except:` lines: a better break than mid-block, worse than between statements.
        const clause: Statement = { type, start: cursor.startIndex, end: cursor.endIndex };
        this.mark(clause, depth + 0.5, false);
        this.readCompound(clause, depth);
      } else if (type === 'function_definition' || type === 'class_definition') {
        const inner: Statement = { type, start: cursor.startIndex, end: cursor.endIndex };
        this.readCompound(inner, depth);
        if (inner.definition) statement.definition = inner.definition;
      } else if (isDefinition && cursor.currentFieldName === 'name') {
        name = text.slice(cursor.startIndex, cursor.endIndex);
      }
    } while (cursor.gotoNextSibling());
    cursor.gotoParent();
    if (isDefinition) statement.definition = { kind: statement.type === 'class_definition' ? 'class' : 'function', name, body };
  }
}

/** One statement at a nesting level, or several sharing lines. */
interface Item {
  from: number;
  /** Last row, inclusive. */
  last: number;
  /** The definition, when the item is exactly one. */
  definition: Statement['definition'] | undefined;
  onlyComments: boolean;
}

/** Groups statements that share a line, then attaches comment lines directly above a definition. */
function groupItems(layout: TextLayout, statements: readonly Statement[]): Item[] {
  const items: Item[] = [];
  for (const statement of statements) {
    const previous = items[items.length - 1];
    const from = layout.lineOf(statement.start);
    const last = layout.lineOf(Math.max(statement.start, statement.end - 1));
    const isComment = statement.type === 'comment';
    if (previous && (from <= previous.last || !layout.isSpaceBetween(layout.lineStart(from), statement.start))) {
      previous.last = Math.max(previous.last, last);
      previous.definition = undefined;
      previous.onlyComments &&= isComment;
      continue;
    }
    items.push({ from, last, definition: statement.definition, onlyComments: isComment });
  }
  for (let i = items.length - 1; i > 0; i--) {
    const item = items[i]!;
    const above = items[i - 1]!;
    if (item.definition && above.onlyComments && above.last + 1 === item.from) {
      item.from = above.from;
      items.splice(i - 1, 1);
    }
  }
  return items;
}

/**
 * Regions for the items of one nesting level: each definition its own region, the
 * statements between definitions packed together. `to` is one past the level's last line.
 */
function regionsOfItems(
  layout: TextLayout,
  options: ResolvedChunkerOptions,
  items: readonly Item[],
  to: number,
  scope: string,
  depth: number,
): Region[] {
  const regions: Region[] = [];
  const packKind = scope ? 'class' : 'module';
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const end = i + 1 < items.length ? items[i + 1]!.from : to;
    const definition = item.definition;
    if (!definition) {
      const previous = regions[regions.length - 1];
      if (previous && previous.mode === 'pack' && previous.kind === packKind && previous.symbol === scope) previous.to = end;
      else regions.push({ from: item.from, to: end, kind: packKind, symbol: scope, mode: 'pack', splitKind: packKind, depth });
      continue;
    }
    const symbol = scope ? `${scope}.${definition.name}` : definition.name;
    if (definition.kind === 'class') {
      regions.push(...classRegions(layout, options, definition.body, item.from, end, symbol, depth));
    } else {
      const kind = scope ? 'method' : 'function';
      regions.push({ from: item.from, to: end, kind, symbol, mode: 'whole', splitKind: 'block', depth: depth + 1 });
    }
  }
  return regions;
}

/** A class that fits stays whole; a larger one becomes its header and fields plus one region per method. */
function classRegions(
  layout: TextLayout,
  options: ResolvedChunkerOptions,
  body: readonly Statement[],
  from: number,
  to: number,
  symbol: string,
  depth: number,
): Region[] {
  if (layout.trimmedSize(from, to) <= options.maxChunkSize) {
    return [{ from, to, kind: 'class', symbol, mode: 'whole', splitKind: 'block', depth: depth + 1 }];
  }
  // Members on the `class` line itself stay with the header.
  const items = groupItems(layout, body).filter((item) => item.from > from);
  const regions = regionsOfItems(layout, options, items, to, symbol, depth + 1);
  // The header (decorators, `class` line, docstring, fields) starts the first region.
  const first = regions[0];
  if (first && first.mode === 'pack' && first.kind === 'class' && first.symbol === symbol) first.from = from;
  else regions.unshift({ from, to: first?.from ?? to, kind: 'class', symbol, mode: 'pack', splitKind: 'class', depth: depth + 1 });
  return regions;
}

function pythonBreakCost(layout: TextLayout, facts: LineFacts): (line: number, region: Region) => number {
  return (line, region) => {
    const previousBlank = line > 0 && layout.isBlankLine(line - 1);
    const depth = facts.depth[line]!;
    // Mid-statement (inside a long expression or string): possible, but a poor place.
    if (depth === Infinity) return previousBlank ? 3.5 : 4;
    let cost = 0.5 * Math.max(0, depth - (region.depth ?? 0));
    if (!previousBlank) cost += 0.25;
    // A docstring describes the line above it; a comment line, the line below it.
    if (facts.docstring[line]) cost += 1.5;
    if (line > 0 && facts.comment[line - 1]) cost += 1.5;
    return cost;
  };
}

/**
 * Python pieces: top-level definitions (with decorators and the comment lines right
 * above) one each, big classes split into header/fields and methods, other statements
 * packed, oversized definitions split at statement boundaries; the pieces meet (see
 * `tilePieces`). A file whose statements cannot be read (see `readStatements`) is cut as
 * plain text.
 */
export function chunkPython(layout: TextLayout, options: ResolvedChunkerOptions): Piece[] {
  const read = readStatements(layout, options.pythonReader === 'scan');
  if (!read) return windowText(layout, options, 0);
  const items = groupItems(layout, read.statements);
  const regions = regionsOfItems(layout, options, items, layout.lineCount, '', 0);
  if (regions.length > 0) regions[0]!.from = 0;
  const limits = { max: options.maxChunkSize, target: options.targetChunkSize };
  return tilePieces(layout, cutRegions(layout, regions, pythonBreakCost(layout, read.facts), limits), options.maxChunkSize);
}

/**
 * The module's statements and line facts: from the scanned skeleton when `scan` and the
 * scanner can read the file, else from tree-sitter's tree; undefined when tree-sitter finds
 * an error (the file is then cut as plain text).
 */
function readStatements(layout: TextLayout, scan: boolean): { statements: Statement[]; facts: LineFacts } | undefined {
  const skeleton = scan ? scanPythonStatements(layout.text) : undefined;
  let cursor: TreeCursor;
  if (skeleton) {
    cursor = new SkeletonCursor(skeleton).asTreeCursor();
  } else {
    const tree = parseText('python', layout.text);
    if (tree.rootNode.hasError) return undefined;
    cursor = tree.walk();
  }
  const reader = new StatementReader(layout, cursor);
  return { statements: reader.readChildren(0), facts: reader.facts };
}
