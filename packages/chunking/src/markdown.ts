import type { ChunkKind } from '@rag/core';
import type { ResolvedChunkerOptions } from './options.js';
import type { TextLayout } from './layout.js';
import { MAX_MARKDOWN_NESTING, markdownNesting } from './nesting.js';
import { parseText, type SyntaxNode } from './parsers.js';
import { addNestedPieces } from './nested.js';
import { cutRegions, type Piece } from './regions.js';
import { sectionRegions, type SectionStart } from './sections.js';

/** Containers whose children are blocks in their own right (list items, quoted blocks). */
const CONTAINERS = new Set(['list', 'list_item', 'block_quote']);
const FENCES = new Set(['fenced_code_block', 'indented_code_block']);

interface LineFacts {
  /** Nesting depth of the shallowest block starting on the line; Infinity inside a block. */
  depth: Float64Array;
  /** The line is a heading: a break right after it would orphan it. */
  heading: Uint8Array;
  /** The line is inside a code block (not its first line). */
  code: Uint8Array;
}

interface Walk {
  layout: TextLayout;
  options: ResolvedChunkerOptions;
  facts: LineFacts;
  boundaries: SectionStart[];
  /** Trimmed UTF-16 ranges of code blocks, in order. */
  fences: [number, number][];
}

function rowOf(walk: Walk, node: SyntaxNode): number {
  return walk.layout.lineOf(node.startIndex);
}

function headingText(node: SyntaxNode): string {
  const content = node.childForFieldName('heading_content');
  return (content?.text ?? '').replace(/\s+/g, ' ').trim();
}

function markBlock(walk: Walk, node: SyntaxNode, depth: number): void {
  const { facts, layout } = walk;
  const row = rowOf(walk, node);
  if (depth < facts.depth[row]!) facts.depth[row] = depth;
  if (FENCES.has(node.type)) {
    const span = layout.trim(node.startIndex, node.endIndex);
    if (span) walk.fences.push(span);
    const last = layout.lineOf(Math.max(node.startIndex, node.endIndex - 1));
    for (let line = row + 1; line <= last; line++) facts.code[line] = 1;
  } else if (node.type === 'pipe_table') {
    for (const tableRow of node.namedChildren) {
      const r = rowOf(walk, tableRow);
      if (r > row && depth + 1.5 < facts.depth[r]!) facts.depth[r] = depth + 1.5;
    }
  } else if (CONTAINERS.has(node.type)) {
    for (const child of node.namedChildren) markBlock(walk, child, node.type === 'list_item' ? depth : depth + 1);
  }
}

function visitSection(walk: Walk, section: SyntaxNode, path: readonly string[]): void {
  const children = section.namedChildren;
  const heading = children[0]?.type === 'atx_heading' ? children[0] : undefined;
  const own = heading ? [...path, headingText(heading)] : [...path];
  const firstSub = children.find((child) => child.type === 'section');
  if (heading) {
    const row = rowOf(walk, heading);
    walk.facts.heading[row] = 1;
    const to = firstSub ? rowOf(walk, firstSub) : walk.layout.lineOf(Math.max(section.startIndex, section.endIndex - 1)) + 1;
    const glue = firstSub !== undefined && walk.layout.trimmedSize(row, to) < walk.options.minChunkSize;
    walk.boundaries.push({ row, symbol: own.join(' > '), glue });
  } else {
    walk.boundaries.push({ row: rowOf(walk, section), symbol: own.join(' > '), glue: false });
  }
  for (const child of children) {
    if (child === heading) continue;
    if (child.type === 'section') {
      visitSection(walk, child, own);
    } else if (child.type === 'setext_heading') {
      // The grammar does not open a section at a setext heading; we still start a region.
      const row = rowOf(walk, child);
      const last = walk.layout.lineOf(Math.max(child.startIndex, child.endIndex - 1));
      for (let line = row; line <= last; line++) walk.facts.heading[line] = 1;
      walk.boundaries.push({ row, symbol: [...own, headingText(child)].join(' > '), glue: false });
    } else {
      markBlock(walk, child, 0);
    }
  }
}

function isInsideFence(fences: readonly [number, number][], start: number, end: number): boolean {
  let lo = 0;
  let hi = fences.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const [s, e] = fences[mid]!;
    if (e <= start) lo = mid + 1;
    else if (s > start) hi = mid - 1;
    else return end <= e;
  }
  return false;
}

function markdownBreakCost(layout: TextLayout, facts: LineFacts): (line: number) => number {
  return (line) => {
    const previousBlank = line > 0 && layout.isBlankLine(line - 1);
    let cost: number;
    if (facts.code[line]) cost = previousBlank ? 5 : 6;
    else if (facts.depth[line] === Infinity) cost = previousBlank ? 3.5 : 4;
    else cost = 0.5 * facts.depth[line]! + (previousBlank ? 0 : 0.25);
    if (line > 0 && facts.heading[line - 1]) cost += 3;
    return cost;
  };
}

// Fences inside list items are indented, so any indentation opens or closes one here.
const FENCE = /^[ \t]*(`{3,}|~{3,})/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;

/**
 * What tree-sitter could not parse cleanly (a stray ERROR node misplaces sections) is
 * read line by line: ATX headings outside code fences, breaks at blank lines.
 */
function chunkMarkdownByLines(layout: TextLayout, options: ResolvedChunkerOptions): Piece[] {
  const facts: LineFacts = {
    depth: new Float64Array(layout.lineCount).fill(Infinity),
    heading: new Uint8Array(layout.lineCount),
    code: new Uint8Array(layout.lineCount),
  };
  const headings: { row: number; level: number; title: string }[] = [];
  let fence: string | undefined;
  for (let line = 0; line < layout.lineCount; line++) {
    const text = layout.text.slice(layout.lineStart(line), layout.contentEnd(line));
    const marker = FENCE.exec(text)?.[1];
    if (fence !== undefined) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && text.trim() === marker) fence = undefined;
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
      headings.push({ row: line, level: atx[1]!.length, title: (atx[2] ?? '').trim() });
      facts.heading[line] = 1;
      facts.depth[line] = 0;
    } else if (line === 0 || layout.isBlankLine(line - 1)) {
      facts.depth[line] = 0;
    }
  }
  const starts: SectionStart[] = [];
  if (headings.length === 0 || headings[0]!.row > 0) starts.push({ row: 0, symbol: '', glue: false });
  const path: { level: number; title: string }[] = [];
  headings.forEach((heading, i) => {
    while (path.length > 0 && path[path.length - 1]!.level >= heading.level) path.pop();
    path.push(heading);
    const next = headings[i + 1];
    const glue =
      next !== undefined && next.level > heading.level && layout.trimmedSize(heading.row, next.row) < options.minChunkSize;
    starts.push({ row: heading.row, symbol: path.map((h) => h.title).join(' > '), glue });
  });
  const limits = { max: options.maxChunkSize, target: options.targetChunkSize };
  const breakCost = markdownBreakCost(layout, facts);
  const pieces = cutRegions(layout, sectionRegions(layout, starts), breakCost, limits);
  return addNestedPieces(layout, pieces, breakCost, options.nestedChunkSize, options.maxChunkSize);
}

/**
 * Markdown pieces: one region per heading (symbol = heading path), front matter and the
 * preamble before the first heading on their own; a section over the target splits at
 * its blocks, code blocks stay whole where they fit.
 */
export function chunkMarkdown(layout: TextLayout, options: ResolvedChunkerOptions): Piece[] {
  // Checked before parsing: past the scanner's limit tree-sitter aborts the process.
  if (markdownNesting(layout.text) > MAX_MARKDOWN_NESTING) return chunkMarkdownByLines(layout, options);
  const tree = parseText('markdown', layout.text);
  const root = tree.rootNode;
  if (root.hasError) return chunkMarkdownByLines(layout, options);
  const walk: Walk = {
    layout,
    options,
    facts: {
      depth: new Float64Array(layout.lineCount).fill(Infinity),
      heading: new Uint8Array(layout.lineCount),
      code: new Uint8Array(layout.lineCount),
    },
    boundaries: [],
    fences: [],
  };
  for (const child of root.namedChildren) {
    if (child.type === 'section') visitSection(walk, child, []);
    else walk.boundaries.push({ row: rowOf(walk, child), symbol: '', glue: false });
  }
  const classify = (start: number, end: number): ChunkKind | undefined =>
    isInsideFence(walk.fences, start, end) ? 'code' : undefined;
  const regions = sectionRegions(layout, walk.boundaries, classify);
  const limits = { max: options.maxChunkSize, target: options.targetChunkSize };
  const breakCost = markdownBreakCost(layout, walk.facts);
  const pieces = cutRegions(layout, regions, breakCost, limits);
  return addNestedPieces(layout, pieces, breakCost, options.nestedChunkSize, options.maxChunkSize, classify);
}
