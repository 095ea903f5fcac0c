import type { ResolvedChunkerOptions } from './options.js';
import type { TextLayout } from './layout.js';
import { addNestedPieces } from './nested.js';
import { cutRegions, type Piece } from './regions.js';
import { sectionRegions, type SectionStart } from './sections.js';

/** A line made of one repeated punctuation character: a possible RST adornment. */
const ADORNMENT = /^([!-/:-@[-`{-~])\1+[ \t]*$/;

interface Heading {
  /** First line of the heading (the overline, when there is one). */
  row: number;
  /** Line after the underline. */
  next: number;
  title: string;
  /** Adornment style: character plus whether it has an overline; levels follow first use. */
  style: string;
}

function lineText(layout: TextLayout, line: number): string {
  return layout.text.slice(layout.lineStart(line), layout.contentEnd(line));
}

function adornment(layout: TextLayout, line: number): string | undefined {
  if (line < 0 || line >= layout.lineCount) return undefined;
  const match = ADORNMENT.exec(lineText(layout, line));
  return match ? match[0].trimEnd() : undefined;
}

/** Headings: a title line underlined (and optionally overlined) at least as long as it. */
function findHeadings(layout: TextLayout): Heading[] {
  const headings: Heading[] = [];
  for (let line = 0; line + 1 < layout.lineCount; line++) {
    const raw = lineText(layout, line);
    const title = raw.trim();
    if (title === '' || adornment(layout, line) !== undefined) continue;
    const under = adornment(layout, line + 1);
    if (!under || [...under].length < [...title].length) continue;
    const over = adornment(layout, line - 1);
    const hasOver = over !== undefined && over === under;
    // Without an overline the title must not be indented and must start a block.
    if (!hasOver && (raw !== raw.trimStart() || (line > 0 && !layout.isBlankLine(line - 1)))) continue;
    headings.push({ row: hasOver ? line - 1 : line, next: line + 2, title, style: `${under[0]}${hasOver ? 'o' : 'u'}` });
    line++;
  }
  return headings;
}

/**
 * RST pieces: one region per underlined heading (symbol = heading path, levels in order
 * of first use as RST defines them), split at paragraphs when over the target.
 */
export function chunkRst(layout: TextLayout, options: ResolvedChunkerOptions): Piece[] {
  const headings = findHeadings(layout);
  const levels: string[] = [];
  const path: string[] = [];
  const headingLine = new Uint8Array(layout.lineCount);
  const starts: SectionStart[] = [];
  if (headings.length === 0 || headings[0]!.row > 0) starts.push({ row: 0, symbol: '', glue: false });
  headings.forEach((heading, i) => {
    let level = levels.indexOf(heading.style);
    if (level === -1) level = levels.push(heading.style) - 1;
    path.length = Math.min(path.length, level);
    path.push(heading.title);
    for (let line = heading.row; line < heading.next; line++) headingLine[line] = 1;
    const nextHeading = headings[i + 1];
    const ownEnd = nextHeading ? nextHeading.row : layout.lineCount;
    const deeper = nextHeading !== undefined && !levels.slice(0, level + 1).includes(nextHeading.style);
    const glue = deeper && layout.trimmedSize(heading.row, ownEnd) < options.minChunkSize;
    starts.push({ row: heading.row, symbol: path.join(' > '), glue });
  });
  const regions = sectionRegions(layout, starts);
  const breakCost = (line: number): number => {
    const previousBlank = line > 0 && layout.isBlankLine(line - 1);
    let cost = previousBlank ? 0 : 4;
    // An indented block after a blank line is a literal block or directive body.
    if (previousBlank && /^[ \t]/.test(lineText(layout, line))) cost += 0.5;
    if (line > 0 && headingLine[line - 1] && !headingLine[line]) cost += 3;
    return cost;
  };
  const pieces = cutRegions(layout, regions, breakCost, { max: options.maxChunkSize, target: options.targetChunkSize });
  return addNestedPieces(layout, pieces, breakCost, options.nestedChunkSize, options.maxChunkSize);
}
