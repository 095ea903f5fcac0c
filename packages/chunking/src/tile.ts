import type { TextLayout } from './layout.js';
import type { Piece } from './regions.js';

/**
 * Makes consecutive pieces of one file meet: a piece starts at the start of its first line
 * (its indentation included) and ends where the next piece starts, so the blank lines
 * between two pieces belong to the one above. Two neighbouring chunks are then one exact
 * span, their texts concatenated, which is what lets a search join the adjacent chunks of a
 * function it found in parts without reading the file again. Pieces stay trimmed where
 * meeting would take more than whitespace, overlap a neighbour or grow past `max` code
 * points. Returns new pieces; `pieces` must be in file order.
 */
export function tilePieces(layout: TextLayout, pieces: readonly Piece[], max: number): Piece[] {
  const tiled = pieces.map((piece) => ({ ...piece }));
  for (let i = 0; i < tiled.length; i++) {
    const piece = tiled[i]!;
    const floor = i > 0 ? tiled[i - 1]!.end : 0;
    const lineStart = layout.lineStart(layout.lineOf(piece.start));
    if (lineStart >= floor && lineStart < piece.start && layout.isSpaceBetween(lineStart, piece.start) && layout.codePoints(lineStart, piece.end) <= max) {
      piece.start = lineStart;
    }
  }
  for (let i = 0; i + 1 < tiled.length; i++) {
    const piece = tiled[i]!;
    const next = tiled[i + 1]!.start;
    if (next > piece.end && layout.isSpaceBetween(piece.end, next) && layout.codePoints(piece.start, next) <= max) piece.end = next;
  }
  return tiled;
}
