import type { ResolvedChunkerOptions } from './options.js';
import type { TextLayout } from './layout.js';
import { isSpaceUnit } from './layout.js';
import { cutRegions, type Piece } from './regions.js';

/** Break costs for prose: cheapest after a blank line, dearer mid-paragraph. */
export function proseBreakCost(layout: TextLayout): (line: number) => number {
  return (line) => (line > 0 && layout.isBlankLine(line - 1) ? 0 : 3);
}

/** Earliest UTF-16 start of an overlap of at most `budget` code points before `start`. */
function overlapStart(layout: TextLayout, start: number, floor: number, budget: number): number {
  const offsets = layout.offsets;
  const earliest = Math.max(floor, offsets.toUtf16(Math.max(0, offsets.toCodePoint(start) - budget)));
  // A line start is the natural place to begin; failing that, a word start.
  let line = layout.lineOf(earliest);
  if (layout.lineStart(line) < earliest) line++;
  if (line < layout.lineCount && layout.lineStart(line) < start) return layout.lineStart(line);
  for (let i = earliest; i < start; i++) {
    if (i > 0 && isSpaceUnit(layout.text.charCodeAt(i - 1)) && !isSpaceUnit(layout.text.charCodeAt(i))) return i;
  }
  return start;
}

/**
 * Windows over plain text: base pieces split at blank lines (else line ends) with room
 * left under the cap, then each window after the first reaches back up to `overlap`
 * code points (never more than its base piece, so at most half the window) to repeat the
 * end of the previous one.
 */
export function windowText(layout: TextLayout, options: ResolvedChunkerOptions, overlap: number): Piece[] {
  const max = options.maxChunkSize - overlap;
  const limits = { max, target: Math.min(options.targetChunkSize, max) };
  const region = { from: 0, to: layout.lineCount, kind: 'text', symbol: '', mode: 'pack', splitKind: 'text' } as const;
  const base = cutRegions(layout, [region], proseBreakCost(layout), limits);
  if (overlap === 0) return base;
  return base.map((piece, i) => {
    if (i === 0) return piece;
    const budget = Math.min(overlap, layout.codePoints(piece.start, piece.end));
    const start = overlapStart(layout, piece.start, base[i - 1]!.start + 1, budget);
    const span = layout.trim(start, piece.end);
    return span ? { ...piece, start: span[0] } : piece;
  });
}
