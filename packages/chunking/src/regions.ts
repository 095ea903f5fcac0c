import type { Chunk, ChunkKind, Language } from '@rag/core';
import type { TextLayout } from './layout.js';
import { splitLines, type SplitLimits } from './split.js';

/**
 * A run of whole lines that a language chunker wants as one unit. Regions of a file are
 * consecutive and together cover every line, so chunks built from them cover the text.
 */
export interface Region {
  /** First line (0-based). */
  from: number;
  /** One past the last line. */
  to: number;
  kind: ChunkKind;
  symbol: string;
  /**
   * `whole`: one chunk when it fits the cap (a definition, a fenced code block), split
   * only when it does not. `pack`: a run of small blocks, cut into pieces near the
   * target size.
   */
  mode: 'whole' | 'pack';
  /** Kind of the pieces when a `whole` region has to be split. */
  splitKind: ChunkKind;
  /** Nesting depth of the region's own children; break costs are relative to it. */
  depth?: number;
  /** Overrides the kind of a piece by its UTF-16 range (e.g. Markdown code fences). */
  classify?: (start: number, end: number) => ChunkKind | undefined;
}

/** A trimmed span (UTF-16 indices) with its kind and symbol, before it becomes a Chunk. */
export interface Piece {
  start: number;
  end: number;
  kind: ChunkKind;
  symbol: string;
}

/** Cuts regions into trimmed pieces within the cap; breaks follow `breakCost` (see splitLines). */
export function cutRegions(
  layout: TextLayout,
  regions: readonly Region[],
  breakCost: (line: number, region: Region) => number,
  limits: SplitLimits,
): Piece[] {
  const pieces: Piece[] = [];
  for (const region of regions) {
    const start = layout.lineStart(region.from);
    const end = layout.lineStart(region.to);
    const whole = layout.trim(start, end);
    if (!whole) continue;
    if (region.mode === 'whole' && layout.codePoints(whole[0], whole[1]) <= limits.max) {
      pieces.push({ start: whole[0], end: whole[1], kind: region.classify?.(whole[0], whole[1]) ?? region.kind, symbol: region.symbol });
      continue;
    }
    const boundaries = splitLines(layout, region.from, region.to, (line) => breakCost(line, region), limits);
    const parts = boundaries.length - 1;
    const kind = region.mode === 'whole' && parts > 1 ? region.splitKind : region.kind;
    for (let i = 0; i < parts; i++) {
      const span = layout.trim(boundaries[i]!, boundaries[i + 1]!);
      if (!span) continue;
      pieces.push({ start: span[0], end: span[1], kind: region.classify?.(span[0], span[1]) ?? kind, symbol: region.symbol });
    }
  }
  return pieces;
}

/** UTF-16 index of the piece's last non-whitespace character (its last when it has none). */
function lastContent(layout: TextLayout, piece: Piece): number {
  const span = layout.trim(piece.start, piece.end);
  return span ? span[1] - 1 : piece.end - 1;
}

/** Turns pieces into Chunks with code-point offsets and 1-based inclusive lines; ids 0..n-1. */
export function toChunks(layout: TextLayout, pieces: readonly Piece[], filePath: string, language: Language): Chunk[] {
  return pieces.map((piece, id) => ({
    id,
    file_path: filePath,
    first_character_index: layout.offsets.toCodePoint(piece.start),
    last_character_index: layout.offsets.toCodePoint(piece.end),
    start_line: layout.lineOf(piece.start) + 1,
    end_line: layout.lineOf(lastContent(layout, piece)) + 1,
    kind: piece.kind,
    symbol: piece.symbol,
    language,
    text: layout.text.slice(piece.start, piece.end),
  }));
}
