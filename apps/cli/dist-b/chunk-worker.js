#!/usr/bin/env node
import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);
import {
  OffsetMap,
  RagError,
  external_exports,
  integerIn,
  optionError,
  parseOptions
} from "./chunk-4AD4YNFC.js";

// ../../packages/chunking/src/chunk-worker.ts
import { parentPort, workerData } from "worker_threads";

// ../../packages/chunking/src/layout.ts
function isSpaceUnit(unit) {
  return unit === 32 || unit >= 9 && unit <= 13;
}
var TextLayout = class {
  text;
  offsets;
  /** UTF-16 index where each line starts; one entry per line. */
  lineStarts;
  constructor(text) {
    this.text = text;
    this.offsets = new OffsetMap(text);
    const starts = [0];
    let at = text.indexOf("\n");
    while (at !== -1) {
      starts.push(at + 1);
      at = text.indexOf("\n", at + 1);
    }
    this.lineStarts = starts;
  }
  get lineCount() {
    return this.lineStarts.length;
  }
  /** UTF-16 index of line `line`'s start; `lineCount` maps to the text's end. */
  lineStart(line) {
    return line >= this.lineStarts.length ? this.text.length : this.lineStarts[line];
  }
  /** UTF-16 index just past line `line`'s content, before its `\r\n`/`\n`. */
  contentEnd(line) {
    let end = line + 1 >= this.lineStarts.length ? this.text.length : this.lineStarts[line + 1] - 1;
    const start = this.lineStart(line);
    if (end > start && this.text.charCodeAt(end - 1) === 13) end--;
    return end;
  }
  /** 0-based line holding UTF-16 index `index`. */
  lineOf(index) {
    const starts = this.lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = lo + hi + 1 >>> 1;
      if (starts[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
  isBlankLine(line) {
    const end = this.contentEnd(line);
    for (let i = this.lineStart(line); i < end; i++) if (!isSpaceUnit(this.text.charCodeAt(i))) return false;
    return true;
  }
  /** True when only whitespace lies between UTF-16 indices `from` and `to`. */
  isSpaceBetween(from, to) {
    for (let i = from; i < to; i++) if (!isSpaceUnit(this.text.charCodeAt(i))) return false;
    return true;
  }
  /** Code-point length of UTF-16 range [start, end). */
  codePoints(start, end) {
    return this.offsets.toCodePoint(end) - this.offsets.toCodePoint(start);
  }
  /** Range [start, end) with leading and trailing whitespace removed; null when all whitespace. */
  trim(start, end) {
    const text = this.text;
    while (start < end && isSpaceUnit(text.charCodeAt(start))) start++;
    while (end > start && isSpaceUnit(text.charCodeAt(end - 1))) end--;
    return start < end ? [start, end] : null;
  }
  /** Code-point length of lines [from, to) once trimmed; 0 when blank. */
  trimmedSize(from, to) {
    const span = this.trim(this.lineStart(from), this.lineStart(to));
    return span ? this.codePoints(span[0], span[1]) : 0;
  }
};

// ../../packages/chunking/src/nesting.ts
var MAX_MARKDOWN_NESTING = 100;
function markdownNesting(text) {
  let deepest = 0;
  let depth = 0;
  let indent = 0;
  let inPrefix = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      deepest = Math.max(deepest, depth + (indent >> 1));
      depth = 0;
      indent = 0;
      inPrefix = true;
      continue;
    }
    if (!inPrefix) continue;
    if (c === 62) depth++;
    else if (c === 32) indent++;
    else if (c === 9) indent += 4;
    else inPrefix = false;
  }
  return Math.max(deepest, depth + (indent >> 1));
}

// ../../packages/chunking/src/parsers.ts
import { createRequire } from "module";
var require2 = createRequire(import.meta.url);
var grammars = {
  python: "tree-sitter-python",
  markdown: "@tree-sitter-grammars/tree-sitter-markdown"
};
var parsers = /* @__PURE__ */ new Map();
function getParser(name) {
  let parser = parsers.get(name);
  if (!parser) {
    const Parser = require2("tree-sitter");
    parser = new Parser();
    parser.setLanguage(require2(grammars[name]));
    parsers.set(name, parser);
  }
  return parser;
}
function parseText(name, text) {
  return getParser(name).parse(text);
}

// ../../packages/chunking/src/split.ts
var INTRA_LINE_BREAK_COST = 12;
function fragmentLine(layout, line, max) {
  const text = layout.text;
  const offsets = layout.offsets;
  const end = layout.contentEnd(line);
  const cuts = [];
  let from = layout.lineStart(line);
  while (layout.codePoints(from, end) > max) {
    const hard = offsets.toUtf16(offsets.toCodePoint(from) + max);
    let cut = hard;
    const floor = from + Math.ceil((hard - from) / 2);
    for (let i = hard; i > floor; i--) {
      if (isSpaceUnit(text.charCodeAt(i - 1))) {
        cut = i;
        break;
      }
    }
    cuts.push(cut);
    from = cut;
  }
  return cuts;
}
function splitLines(layout, from, to, breakCost, limits) {
  const starts = [];
  const costs = [];
  const startCp = [];
  const endCp = [];
  const offsets = layout.offsets;
  for (let line = from; line < to; line++) {
    const lineStart = layout.lineStart(line);
    const contentEnd = layout.contentEnd(line);
    const pieceStarts = [lineStart];
    if (layout.codePoints(lineStart, contentEnd) > limits.max) pieceStarts.push(...fragmentLine(layout, line, limits.max));
    for (let k = 0; k < pieceStarts.length; k++) {
      const start = pieceStarts[k];
      const end = k + 1 < pieceStarts.length ? pieceStarts[k + 1] : contentEnd;
      starts.push(start);
      costs.push(k === 0 ? breakCost(line) : INTRA_LINE_BREAK_COST);
      startCp.push(offsets.toCodePoint(start));
      endCp.push(offsets.toCodePoint(end));
    }
  }
  const n = starts.length;
  if (n === 0) return [layout.lineStart(from), layout.lineStart(to)];
  const best = new Float64Array(n + 1).fill(Infinity);
  const back = new Int32Array(n + 1);
  best[0] = 0;
  for (let j = 1; j <= n; j++) {
    const end = endCp[j - 1];
    for (let i = j - 1; i >= 0; i--) {
      const size = end - startCp[i];
      if (size > limits.max && i < j - 1) break;
      const ratio = size / limits.target;
      const cost = best[i] + 1 + ratio * ratio + (i > 0 ? costs[i] : 0);
      if (cost < best[j]) {
        best[j] = cost;
        back[j] = i;
      }
    }
  }
  const boundaries = [layout.lineStart(to)];
  for (let j = n; j > 0; j = back[j]) boundaries.push(starts[back[j]]);
  return boundaries.reverse();
}

// ../../packages/chunking/src/nested.ts
function addNestedPieces(layout, pieces, breakCost, nestedSize, maxSize, classify) {
  if (nestedSize === 0) return [...pieces];
  const out = [];
  for (const piece of pieces) {
    out.push(piece);
    if (layout.codePoints(piece.start, piece.end) <= 2 * nestedSize) continue;
    const from = layout.lineOf(piece.start);
    const to = layout.lineOf(piece.end - 1) + 1;
    const boundaries = splitLines(layout, from, to, breakCost, { max: maxSize, target: nestedSize });
    const nested = [];
    for (let i = 0; i + 1 < boundaries.length; i++) {
      const span = layout.trim(Math.max(boundaries[i], piece.start), Math.min(boundaries[i + 1], piece.end));
      if (span) nested.push({ start: span[0], end: span[1], kind: classify?.(span[0], span[1]) ?? piece.kind, symbol: piece.symbol });
    }
    if (nested.length > 1) out.push(...nested);
  }
  return out;
}

// ../../packages/chunking/src/regions.ts
function cutRegions(layout, regions, breakCost, limits) {
  const pieces = [];
  for (const region of regions) {
    const start = layout.lineStart(region.from);
    const end = layout.lineStart(region.to);
    const whole = layout.trim(start, end);
    if (!whole) continue;
    if (region.mode === "whole" && layout.codePoints(whole[0], whole[1]) <= limits.max) {
      pieces.push({ start: whole[0], end: whole[1], kind: region.classify?.(whole[0], whole[1]) ?? region.kind, symbol: region.symbol });
      continue;
    }
    const boundaries = splitLines(layout, region.from, region.to, (line) => breakCost(line, region), limits);
    const parts = boundaries.length - 1;
    const kind = region.mode === "whole" && parts > 1 ? region.splitKind : region.kind;
    for (let i = 0; i < parts; i++) {
      const span = layout.trim(boundaries[i], boundaries[i + 1]);
      if (!span) continue;
      pieces.push({ start: span[0], end: span[1], kind: region.classify?.(span[0], span[1]) ?? kind, symbol: region.symbol });
    }
  }
  return pieces;
}
function toChunks(layout, pieces, filePath, language) {
  return pieces.map((piece, id) => ({
    id,
    file_path: filePath,
    first_character_index: layout.offsets.toCodePoint(piece.start),
    last_character_index: layout.offsets.toCodePoint(piece.end),
    start_line: layout.lineOf(piece.start) + 1,
    end_line: layout.lineOf(piece.end - 1) + 1,
    kind: piece.kind,
    symbol: piece.symbol,
    language,
    text: layout.text.slice(piece.start, piece.end)
  }));
}

// ../../packages/chunking/src/sections.ts
function sectionRegions(layout, starts, classify) {
  const regions = [];
  let gluedFrom;
  for (let i = 0; i < starts.length; i++) {
    const start = starts[i];
    const from = gluedFrom ?? (i === 0 ? 0 : start.row);
    const to = i + 1 < starts.length ? starts[i + 1].row : layout.lineCount;
    if (to <= from) continue;
    if (start.glue && i + 1 < starts.length) {
      gluedFrom = from;
      continue;
    }
    gluedFrom = void 0;
    const region = { from, to, kind: "section", symbol: start.symbol, mode: "whole", splitKind: "section" };
    if (classify) region.classify = classify;
    regions.push(region);
  }
  if (regions.length === 0 && layout.text.length > 0) {
    regions.push({ from: 0, to: layout.lineCount, kind: "section", symbol: "", mode: "whole", splitKind: "section" });
  }
  return regions;
}

// ../../packages/chunking/src/markdown.ts
var CONTAINERS = /* @__PURE__ */ new Set(["list", "list_item", "block_quote"]);
var FENCES = /* @__PURE__ */ new Set(["fenced_code_block", "indented_code_block"]);
function rowOf(walk, node) {
  return walk.layout.lineOf(node.startIndex);
}
function headingText(node) {
  const content = node.childForFieldName("heading_content");
  return (content?.text ?? "").replace(/\s+/g, " ").trim();
}
function markBlock(walk, node, depth) {
  const { facts, layout } = walk;
  const row = rowOf(walk, node);
  if (depth < facts.depth[row]) facts.depth[row] = depth;
  if (FENCES.has(node.type)) {
    const span = layout.trim(node.startIndex, node.endIndex);
    if (span) walk.fences.push(span);
    const last = layout.lineOf(Math.max(node.startIndex, node.endIndex - 1));
    for (let line = row + 1; line <= last; line++) facts.code[line] = 1;
  } else if (node.type === "pipe_table") {
    for (const tableRow of node.namedChildren) {
      const r = rowOf(walk, tableRow);
      if (r > row && depth + 1.5 < facts.depth[r]) facts.depth[r] = depth + 1.5;
    }
  } else if (CONTAINERS.has(node.type)) {
    for (const child of node.namedChildren) markBlock(walk, child, node.type === "list_item" ? depth : depth + 1);
  }
}
function visitSection(walk, section, path) {
  const children = section.namedChildren;
  const heading = children[0]?.type === "atx_heading" ? children[0] : void 0;
  const own = heading ? [...path, headingText(heading)] : [...path];
  const firstSub = children.find((child) => child.type === "section");
  if (heading) {
    const row = rowOf(walk, heading);
    walk.facts.heading[row] = 1;
    const to = firstSub ? rowOf(walk, firstSub) : walk.layout.lineOf(Math.max(section.startIndex, section.endIndex - 1)) + 1;
    const glue = firstSub !== void 0 && walk.layout.trimmedSize(row, to) < walk.options.minChunkSize;
    walk.boundaries.push({ row, symbol: own.join(" > "), glue });
  } else {
    walk.boundaries.push({ row: rowOf(walk, section), symbol: own.join(" > "), glue: false });
  }
  for (const child of children) {
    if (child === heading) continue;
    if (child.type === "section") {
      visitSection(walk, child, own);
    } else if (child.type === "setext_heading") {
      const row = rowOf(walk, child);
      const last = walk.layout.lineOf(Math.max(child.startIndex, child.endIndex - 1));
      for (let line = row; line <= last; line++) walk.facts.heading[line] = 1;
      walk.boundaries.push({ row, symbol: [...own, headingText(child)].join(" > "), glue: false });
    } else {
      markBlock(walk, child, 0);
    }
  }
}
function isInsideFence(fences, start, end) {
  let lo = 0;
  let hi = fences.length - 1;
  while (lo <= hi) {
    const mid = lo + hi >>> 1;
    const [s, e] = fences[mid];
    if (e <= start) lo = mid + 1;
    else if (s > start) hi = mid - 1;
    else return end <= e;
  }
  return false;
}
function markdownBreakCost(layout, facts) {
  return (line) => {
    const previousBlank = line > 0 && layout.isBlankLine(line - 1);
    let cost;
    if (facts.code[line]) cost = previousBlank ? 5 : 6;
    else if (facts.depth[line] === Infinity) cost = previousBlank ? 3.5 : 4;
    else cost = 0.5 * facts.depth[line] + (previousBlank ? 0 : 0.25);
    if (line > 0 && facts.heading[line - 1]) cost += 3;
    return cost;
  };
}
var FENCE = /^[ \t]*(`{3,}|~{3,})/;
var ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
function chunkMarkdownByLines(layout, options2) {
  const facts = {
    depth: new Float64Array(layout.lineCount).fill(Infinity),
    heading: new Uint8Array(layout.lineCount),
    code: new Uint8Array(layout.lineCount)
  };
  const headings = [];
  let fence;
  for (let line = 0; line < layout.lineCount; line++) {
    const text = layout.text.slice(layout.lineStart(line), layout.contentEnd(line));
    const marker = FENCE.exec(text)?.[1];
    if (fence !== void 0) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && text.trim() === marker) fence = void 0;
      else facts.code[line] = 1;
      continue;
    }
    if (marker) {
      fence = marker;
      facts.depth[line] = 0;
      continue;
    }
    const atx = ATX.exec(text);
    if (atx) {
      headings.push({ row: line, level: atx[1].length, title: (atx[2] ?? "").trim() });
      facts.heading[line] = 1;
      facts.depth[line] = 0;
    } else if (line === 0 || layout.isBlankLine(line - 1)) {
      facts.depth[line] = 0;
    }
  }
  const starts = [];
  if (headings.length === 0 || headings[0].row > 0) starts.push({ row: 0, symbol: "", glue: false });
  const path = [];
  headings.forEach((heading, i) => {
    while (path.length > 0 && path[path.length - 1].level >= heading.level) path.pop();
    path.push(heading);
    const next = headings[i + 1];
    const glue = next !== void 0 && next.level > heading.level && layout.trimmedSize(heading.row, next.row) < options2.minChunkSize;
    starts.push({ row: heading.row, symbol: path.map((h) => h.title).join(" > "), glue });
  });
  const limits = { max: options2.maxChunkSize, target: options2.targetChunkSize };
  const breakCost = markdownBreakCost(layout, facts);
  const pieces = cutRegions(layout, sectionRegions(layout, starts), breakCost, limits);
  return addNestedPieces(layout, pieces, breakCost, options2.nestedChunkSize, options2.maxChunkSize);
}
function chunkMarkdown(layout, options2) {
  if (markdownNesting(layout.text) > MAX_MARKDOWN_NESTING) return chunkMarkdownByLines(layout, options2);
  const tree = parseText("markdown", layout.text);
  const root = tree.rootNode;
  if (root.hasError) return chunkMarkdownByLines(layout, options2);
  const walk = {
    layout,
    options: options2,
    facts: {
      depth: new Float64Array(layout.lineCount).fill(Infinity),
      heading: new Uint8Array(layout.lineCount),
      code: new Uint8Array(layout.lineCount)
    },
    boundaries: [],
    fences: []
  };
  for (const child of root.namedChildren) {
    if (child.type === "section") visitSection(walk, child, []);
    else walk.boundaries.push({ row: rowOf(walk, child), symbol: "", glue: false });
  }
  const classify = (start, end) => isInsideFence(walk.fences, start, end) ? "code" : void 0;
  const regions = sectionRegions(layout, walk.boundaries, classify);
  const limits = { max: options2.maxChunkSize, target: options2.targetChunkSize };
  const breakCost = markdownBreakCost(layout, walk.facts);
  const pieces = cutRegions(layout, regions, breakCost, limits);
  return addNestedPieces(layout, pieces, breakCost, options2.nestedChunkSize, options2.maxChunkSize, classify);
}

// ../../packages/chunking/src/options.ts
var DEFAULT_MAX_CHUNK_SIZE = 2e3;
var DEFAULT_TARGET_CHUNK_SIZE = 800;
var DEFAULT_MIN_CHUNK_SIZE = 200;
var DEFAULT_TEXT_OVERLAP = 200;
var DEFAULT_NESTED_CHUNK_SIZE = 600;
var DEFAULT_EXTENSIONS = Object.freeze({
  ".py": "python",
  ".md": "markdown",
  ".rst": "rst",
  ".txt": "text"
});
var DEFAULT_IGNORED_DIRS = Object.freeze([
  // version control
  ".git",
  ".hg",
  ".svn",
  ".bzr",
  // caches of Python tools
  "__pycache__",
  ".mypy_cache",
  ".pytest_cache",
  ".ruff_cache",
  ".hypothesis",
  ".ipynb_checkpoints",
  // virtual environments and installed packages
  ".venv",
  "venv",
  ".tox",
  ".nox",
  ".eggs",
  "site-packages",
  "node_modules"
]);
var CONTEXT = { subject: "chunking" };
var CHUNKER_OPTIONS_SCHEMA = external_exports.strictObject({
  maxChunkSize: integerIn(20, 1e6).optional(),
  targetChunkSize: external_exports.number().int().optional(),
  minChunkSize: external_exports.number().int().optional(),
  textOverlap: external_exports.number().int().optional(),
  nestedChunkSize: external_exports.number().int().optional()
});
function withinCap(name, value, fallback, min, max) {
  const chosen = value ?? fallback;
  if (chosen < min || chosen > max) throw optionError(CONTEXT, [name], `an integer in [${min}, ${max}]`, chosen);
  return chosen;
}
function resolveChunkerOptions(options2 = {}) {
  const parsed = parseOptions(CHUNKER_OPTIONS_SCHEMA, options2, CONTEXT);
  const maxChunkSize = parsed.maxChunkSize ?? DEFAULT_MAX_CHUNK_SIZE;
  const half = Math.floor(maxChunkSize / 2);
  return {
    maxChunkSize,
    targetChunkSize: withinCap("targetChunkSize", parsed.targetChunkSize, Math.min(DEFAULT_TARGET_CHUNK_SIZE, maxChunkSize), 1, maxChunkSize),
    minChunkSize: withinCap("minChunkSize", parsed.minChunkSize, Math.min(DEFAULT_MIN_CHUNK_SIZE, maxChunkSize), 0, maxChunkSize),
    textOverlap: withinCap("textOverlap", parsed.textOverlap, Math.min(DEFAULT_TEXT_OVERLAP, half), 0, half),
    nestedChunkSize: withinCap("nestedChunkSize", parsed.nestedChunkSize, Math.min(DEFAULT_NESTED_CHUNK_SIZE, maxChunkSize), 0, maxChunkSize)
  };
}

// ../../packages/chunking/src/text.ts
function proseBreakCost(layout) {
  return (line) => line > 0 && layout.isBlankLine(line - 1) ? 0 : 3;
}
function overlapStart(layout, start, floor, budget) {
  const offsets = layout.offsets;
  const earliest = Math.max(floor, offsets.toUtf16(Math.max(0, offsets.toCodePoint(start) - budget)));
  let line = layout.lineOf(earliest);
  if (layout.lineStart(line) < earliest) line++;
  if (line < layout.lineCount && layout.lineStart(line) < start) return layout.lineStart(line);
  for (let i = earliest; i < start; i++) {
    if (i > 0 && isSpaceUnit(layout.text.charCodeAt(i - 1)) && !isSpaceUnit(layout.text.charCodeAt(i))) return i;
  }
  return start;
}
function windowText(layout, options2, overlap) {
  const max = options2.maxChunkSize - overlap;
  const limits = { max, target: Math.min(options2.targetChunkSize, max) };
  const region = { from: 0, to: layout.lineCount, kind: "text", symbol: "", mode: "pack", splitKind: "text" };
  const base = cutRegions(layout, [region], proseBreakCost(layout), limits);
  if (overlap === 0) return base;
  return base.map((piece, i) => {
    if (i === 0) return piece;
    const budget = Math.min(overlap, layout.codePoints(piece.start, piece.end));
    const start = overlapStart(layout, piece.start, base[i - 1].start + 1, budget);
    const span = layout.trim(start, piece.end);
    return span ? { ...piece, start: span[0] } : piece;
  });
}

// ../../packages/chunking/src/python.ts
var CLAUSES = /* @__PURE__ */ new Set(["elif_clause", "else_clause", "except_clause", "except_group_clause", "finally_clause", "case_clause"]);
var COMPOUND = /* @__PURE__ */ new Set([
  "if_statement",
  "for_statement",
  "while_statement",
  "try_statement",
  "with_statement",
  "match_statement",
  "function_definition",
  "class_definition",
  "decorated_definition",
  ...CLAUSES
]);
var StatementReader = class {
  constructor(layout, cursor) {
    this.layout = layout;
    this.cursor = cursor;
    this.facts = {
      depth: new Float64Array(layout.lineCount).fill(Infinity),
      comment: new Uint8Array(layout.lineCount),
      docstring: new Uint8Array(layout.lineCount)
    };
  }
  layout;
  cursor;
  facts;
  /** Statements that are children of the cursor's node (a module or block), at `depth`. */
  readChildren(depth) {
    const cursor = this.cursor;
    const statements = [];
    if (!cursor.gotoFirstChild()) return statements;
    do {
      if (cursor.nodeIsNamed) statements.push(this.readStatement(depth));
    } while (cursor.gotoNextSibling());
    cursor.gotoParent();
    return statements;
  }
  mark(statement, depth, docstring) {
    const { layout, facts } = this;
    const row = layout.lineOf(statement.start);
    if (!layout.isSpaceBetween(layout.lineStart(row), statement.start)) return;
    if (depth < facts.depth[row]) facts.depth[row] = depth;
    if (statement.type === "comment" && layout.lineOf(statement.end - 1) === row) facts.comment[row] = 1;
    if (docstring) facts.docstring[row] = 1;
  }
  readStatement(depth) {
    const cursor = this.cursor;
    const statement = { type: cursor.nodeType, start: cursor.startIndex, end: cursor.endIndex };
    this.mark(statement, depth, statement.type === "expression_statement" && this.isBareString());
    if (COMPOUND.has(statement.type)) this.readCompound(statement, depth);
    return statement;
  }
  /** The cursor is on an expression statement: is it a lone string (a docstring)? */
  isBareString() {
    const cursor = this.cursor;
    let named = 0;
    let isString = false;
    if (!cursor.gotoFirstChild()) return false;
    do {
      if (!cursor.nodeIsNamed) continue;
      named++;
      isString = cursor.nodeType === "string";
    } while (cursor.gotoNextSibling());
    cursor.gotoParent();
    return named === 1 && isString;
  }
  /** Children of a compound statement at `depth`: blocks one level deeper, clauses, a decorated definition. */
  readCompound(statement, depth) {
    const cursor = this.cursor;
    const text = this.layout.text;
    const isDefinition = statement.type === "function_definition" || statement.type === "class_definition";
    let name = "";
    let body = [];
    if (!cursor.gotoFirstChild()) return;
    do {
      const type = cursor.nodeType;
      if (type === "block") {
        const statements = this.readChildren(depth + 1);
        if (isDefinition && cursor.currentFieldName === "body") body = statements;
      } else if (CLAUSES.has(type)) {
        const clause = { type, start: cursor.startIndex, end: cursor.endIndex };
        this.mark(clause, depth + 0.5, false);
        this.readCompound(clause, depth);
      } else if (type === "function_definition" || type === "class_definition") {
        const inner = { type, start: cursor.startIndex, end: cursor.endIndex };
        this.readCompound(inner, depth);
        if (inner.definition) statement.definition = inner.definition;
      } else if (isDefinition && cursor.currentFieldName === "name") {
        name = text.slice(cursor.startIndex, cursor.endIndex);
      }
    } while (cursor.gotoNextSibling());
    cursor.gotoParent();
    if (isDefinition) statement.definition = { kind: statement.type === "class_definition" ? "class" : "function", name, body };
  }
};
function groupItems(layout, statements) {
  const items = [];
  for (const statement of statements) {
    const previous = items[items.length - 1];
    const from = layout.lineOf(statement.start);
    const last = layout.lineOf(Math.max(statement.start, statement.end - 1));
    const isComment = statement.type === "comment";
    if (previous && (from <= previous.last || !layout.isSpaceBetween(layout.lineStart(from), statement.start))) {
      previous.last = Math.max(previous.last, last);
      previous.definition = void 0;
      previous.onlyComments &&= isComment;
      continue;
    }
    items.push({ from, last, definition: statement.definition, onlyComments: isComment });
  }
  for (let i = items.length - 1; i > 0; i--) {
    const item = items[i];
    const above = items[i - 1];
    if (item.definition && above.onlyComments && above.last + 1 === item.from) {
      item.from = above.from;
      items.splice(i - 1, 1);
    }
  }
  return items;
}
function regionsOfItems(layout, options2, items, to, scope, depth) {
  const regions = [];
  const packKind = scope ? "class" : "module";
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const end = i + 1 < items.length ? items[i + 1].from : to;
    const definition = item.definition;
    if (!definition) {
      const previous = regions[regions.length - 1];
      if (previous && previous.mode === "pack" && previous.kind === packKind && previous.symbol === scope) previous.to = end;
      else regions.push({ from: item.from, to: end, kind: packKind, symbol: scope, mode: "pack", splitKind: packKind, depth });
      continue;
    }
    const symbol = scope ? `${scope}.${definition.name}` : definition.name;
    if (definition.kind === "class") {
      regions.push(...classRegions(layout, options2, definition.body, item.from, end, symbol, depth));
    } else {
      const kind = scope ? "method" : "function";
      regions.push({ from: item.from, to: end, kind, symbol, mode: "whole", splitKind: "block", depth: depth + 1 });
    }
  }
  return regions;
}
function classRegions(layout, options2, body, from, to, symbol, depth) {
  if (layout.trimmedSize(from, to) <= options2.maxChunkSize) {
    return [{ from, to, kind: "class", symbol, mode: "whole", splitKind: "block", depth: depth + 1 }];
  }
  const items = groupItems(layout, body).filter((item) => item.from > from);
  const regions = regionsOfItems(layout, options2, items, to, symbol, depth + 1);
  const first = regions[0];
  if (first && first.mode === "pack" && first.kind === "class" && first.symbol === symbol) first.from = from;
  else regions.unshift({ from, to: first?.from ?? to, kind: "class", symbol, mode: "pack", splitKind: "class", depth: depth + 1 });
  return regions;
}
function pythonBreakCost(layout, facts) {
  return (line, region) => {
    const previousBlank = line > 0 && layout.isBlankLine(line - 1);
    const depth = facts.depth[line];
    if (depth === Infinity) return previousBlank ? 3.5 : 4;
    let cost = 0.5 * Math.max(0, depth - (region.depth ?? 0));
    if (!previousBlank) cost += 0.25;
    if (facts.docstring[line]) cost += 1.5;
    if (line > 0 && facts.comment[line - 1]) cost += 1.5;
    return cost;
  };
}
function chunkPython(layout, options2) {
  const tree = parseText("python", layout.text);
  if (tree.rootNode.hasError) return windowText(layout, options2, 0);
  const reader = new StatementReader(layout, tree.walk());
  const items = groupItems(layout, reader.readChildren(0));
  const regions = regionsOfItems(layout, options2, items, layout.lineCount, "", 0);
  if (regions.length > 0) regions[0].from = 0;
  const limits = { max: options2.maxChunkSize, target: options2.targetChunkSize };
  return cutRegions(layout, regions, pythonBreakCost(layout, reader.facts), limits);
}

// ../../packages/chunking/src/rst.ts
var ADORNMENT = /^([!-/:-@[-`{-~])\1+[ \t]*$/;
function lineText(layout, line) {
  return layout.text.slice(layout.lineStart(line), layout.contentEnd(line));
}
function adornment(layout, line) {
  if (line < 0 || line >= layout.lineCount) return void 0;
  const match = ADORNMENT.exec(lineText(layout, line));
  return match ? match[0].trimEnd() : void 0;
}
function findHeadings(layout) {
  const headings = [];
  for (let line = 0; line + 1 < layout.lineCount; line++) {
    const raw = lineText(layout, line);
    const title = raw.trim();
    if (title === "" || adornment(layout, line) !== void 0) continue;
    const under = adornment(layout, line + 1);
    if (!under || [...under].length < [...title].length) continue;
    const over = adornment(layout, line - 1);
    const hasOver = over !== void 0 && over === under;
    if (!hasOver && (raw !== raw.trimStart() || line > 0 && !layout.isBlankLine(line - 1))) continue;
    headings.push({ row: hasOver ? line - 1 : line, next: line + 2, title, style: `${under[0]}${hasOver ? "o" : "u"}` });
    line++;
  }
  return headings;
}
function chunkRst(layout, options2) {
  const headings = findHeadings(layout);
  const levels = [];
  const path = [];
  const headingLine = new Uint8Array(layout.lineCount);
  const starts = [];
  if (headings.length === 0 || headings[0].row > 0) starts.push({ row: 0, symbol: "", glue: false });
  headings.forEach((heading, i) => {
    let level = levels.indexOf(heading.style);
    if (level === -1) level = levels.push(heading.style) - 1;
    path.length = Math.min(path.length, level);
    path.push(heading.title);
    for (let line = heading.row; line < heading.next; line++) headingLine[line] = 1;
    const nextHeading = headings[i + 1];
    const ownEnd = nextHeading ? nextHeading.row : layout.lineCount;
    const deeper = nextHeading !== void 0 && !levels.slice(0, level + 1).includes(nextHeading.style);
    const glue = deeper && layout.trimmedSize(heading.row, ownEnd) < options2.minChunkSize;
    starts.push({ row: heading.row, symbol: path.join(" > "), glue });
  });
  const regions = sectionRegions(layout, starts);
  const breakCost = (line) => {
    const previousBlank = line > 0 && layout.isBlankLine(line - 1);
    let cost = previousBlank ? 0 : 4;
    if (previousBlank && /^[ \t]/.test(lineText(layout, line))) cost += 0.5;
    if (line > 0 && headingLine[line - 1] && !headingLine[line]) cost += 3;
    return cost;
  };
  const pieces = cutRegions(layout, regions, breakCost, { max: options2.maxChunkSize, target: options2.targetChunkSize });
  return addNestedPieces(layout, pieces, breakCost, options2.nestedChunkSize, options2.maxChunkSize);
}

// ../../packages/chunking/src/chunker.ts
var LANGUAGES = ["python", "markdown", "rst", "text"];
function piecesFor(language, layout, options2) {
  switch (language) {
    case "python":
      return chunkPython(layout, options2);
    case "markdown":
      return chunkMarkdown(layout, options2);
    case "rst":
      return chunkRst(layout, options2);
    case "text":
      return windowText(layout, options2, options2.textOverlap);
  }
}
function createChunker(language, options2 = {}) {
  if (!LANGUAGES.includes(language)) {
    throw new RagError("UNKNOWN_NAME", `Unknown language "${String(language)}".`, {
      hint: `Use one of: ${LANGUAGES.join(", ")}.`
    });
  }
  const resolved = Object.freeze(resolveChunkerOptions(options2));
  return {
    language,
    options: resolved,
    chunk(text, filePath) {
      const layout = new TextLayout(text);
      return toChunks(layout, piecesFor(language, layout, resolved), filePath, language);
    }
  };
}

// ../../packages/chunking/src/release-trees.ts
import { setFlagsFromString } from "v8";
import { runInNewContext } from "vm";
var TREE_RELEASE_CHARS = 5e5;
var collect;
function collector() {
  if (collect !== void 0) return collect;
  try {
    setFlagsFromString("--expose-gc");
    collect = runInNewContext("gc");
  } catch {
    collect = null;
  }
  return collect;
}
async function releaseParseTrees() {
  collector()?.({ type: "minor" });
  await new Promise((resolve) => setImmediate(resolve));
}

// ../../packages/chunking/src/chunk-files.ts
function chunkerCache(options2) {
  const chunkers = /* @__PURE__ */ new Map();
  return (language) => {
    let chunker = chunkers.get(language);
    if (!chunker) {
      chunker = createChunker(language, options2);
      chunkers.set(language, chunker);
    }
    return chunker;
  };
}
async function chunkFilesReleasing(files2, options2, onFile) {
  const chunkerFor = chunkerCache(options2);
  const out = new Array(files2.length);
  let sinceRelease = 0;
  for (let index = 0; index < files2.length; index++) {
    const file = files2[index];
    const chunks = chunkerFor(file.language).chunk(file.text, file.file_path);
    out[index] = chunks;
    onFile?.(index, chunks);
    sinceRelease += file.text.length;
    if (sinceRelease >= TREE_RELEASE_CHARS) {
      sinceRelease = 0;
      await releaseParseTrees();
    }
  }
  return out;
}

// ../../packages/chunking/src/chunk-worker.ts
var { files, options } = workerData;
try {
  const chunks = await chunkFilesReleasing(files, options);
  parentPort.postMessage({ ok: true, chunks: chunks.map((perFile) => perFile.map(({ text: _text, ...rest }) => rest)) });
} catch (error) {
  parentPort.postMessage({ ok: false, message: error.message });
}
//# sourceMappingURL=chunk-worker.js.map