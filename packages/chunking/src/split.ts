import type { TextLayout } from './layout.js';
import { isSpaceUnit } from './layout.js';

/** Cost of a break inside one line that alone exceeds the cap: a last resort. */
const INTRA_LINE_BREAK_COST = 12;

export interface SplitLimits {
  /** Hard cap in code points: every piece's untrimmed content fits it. */
  max: number;
  /** Preferred piece size in code points. */
  target: number;
}

/** Cut positions (UTF-16) inside line `line` so that no fragment exceeds `max` code points. */
function fragmentLine(layout: TextLayout, line: number, max: number): number[] {
  const text = layout.text;
  const offsets = layout.offsets;
  const end = layout.contentEnd(line);
  const cuts: number[] = [];
  let from = layout.lineStart(line);
  while (layout.codePoints(from, end) > max) {
    const hard = offsets.toUtf16(offsets.toCodePoint(from) + max);
    let cut = hard;
    // Prefer cutting just after a space in the second half of the fragment.
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

/**
 * Splits lines [from, to) into consecutive pieces that cover them exactly, each at most
 * `limits.max` code points of content. Breaks fall on line starts, each with its cost from
 * `breakCost` (lower is a better place to cut); a line longer than the cap is also cut
 * inside, preferably after a space. Dynamic programming minimises the sum of break costs
 * plus, per piece, `1 + (size / target)²`: that is smallest when pieces come out near
 * `target`, so the split is balanced rather than greedy. Returns UTF-16 boundaries
 * `[b0, b1, …, bn]`, piece i being [b_i, b_{i+1}).
 */
export function splitLines(
  layout: TextLayout,
  from: number,
  to: number,
  breakCost: (line: number) => number,
  limits: SplitLimits,
): number[] {
  const starts: number[] = [];
  const costs: number[] = [];
  const startCp: number[] = [];
  const endCp: number[] = [];
  const offsets = layout.offsets;
  for (let line = from; line < to; line++) {
    const lineStart = layout.lineStart(line);
    const contentEnd = layout.contentEnd(line);
    const pieceStarts = [lineStart];
    if (layout.codePoints(lineStart, contentEnd) > limits.max) pieceStarts.push(...fragmentLine(layout, line, limits.max));
    for (let k = 0; k < pieceStarts.length; k++) {
      const start = pieceStarts[k]!;
      const end = k + 1 < pieceStarts.length ? pieceStarts[k + 1]! : contentEnd;
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
    const end = endCp[j - 1]!;
    for (let i = j - 1; i >= 0; i--) {
      const size = end - startCp[i]!;
      if (size > limits.max && i < j - 1) break;
      const ratio = size / limits.target;
      const cost = best[i]! + 1 + ratio * ratio + (i > 0 ? costs[i]! : 0);
      if (cost < best[j]!) {
        best[j] = cost;
        back[j] = i;
      }
    }
  }
  const boundaries: number[] = [layout.lineStart(to)];
  for (let j = n; j > 0; j = back[j]!) boundaries.push(starts[back[j]!]!);
  return boundaries.reverse();
}
