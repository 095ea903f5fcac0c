import type { TextLayout } from './layout.js';
import type { Piece } from './regions.js';
import { splitLines } from './split.js';

/**
 * Adds finer pieces inside long prose pieces: a section over `2 · nestedSize` code points
 * is also cut, at its own best breaks (paragraphs, list items, table rows), into pieces
 * near `nestedSize`, each placed right after the section it lies in. A question about one
 * paragraph of a long section can then be cited with that paragraph, and a retriever can
 * tell which part of a section matches; the section itself stays, for questions that need
 * all of it. Nested pieces keep the section's symbol; `classify` may give a piece its own
 * kind (a fenced code block). `nestedSize` 0 returns `pieces` unchanged.
 */
export function addNestedPieces(
  layout: TextLayout,
  pieces: readonly Piece[],
  breakCost: (line: number) => number,
  nestedSize: number,
  maxSize: number,
  classify?: (start: number, end: number) => Piece['kind'] | undefined,
): Piece[] {
  if (nestedSize === 0) return [...pieces];
  const out: Piece[] = [];
  for (const piece of pieces) {
    out.push(piece);
    if (layout.codePoints(piece.start, piece.end) <= 2 * nestedSize) continue;
    const from = layout.lineOf(piece.start);
    const to = layout.lineOf(piece.end - 1) + 1;
    const boundaries = splitLines(layout, from, to, breakCost, { max: maxSize, target: nestedSize });
    const nested: Piece[] = [];
    for (let i = 0; i + 1 < boundaries.length; i++) {
      // Clamp to the parent: its first and last lines may hold text outside it.
      const span = layout.trim(Math.max(boundaries[i]!, piece.start), Math.min(boundaries[i + 1]!, piece.end));
      if (span) nested.push({ start: span[0], end: span[1], kind: classify?.(span[0], span[1]) ?? piece.kind, symbol: piece.symbol });
    }
    if (nested.length > 1) out.push(...nested);
  }
  return out;
}
