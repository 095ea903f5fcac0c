import { OffsetMap } from '@rag/core';

/** ASCII whitespace: the only characters a chunk span may leave uncovered. */
export function isSpaceUnit(unit: number): boolean {
  return unit === 0x20 || (unit >= 0x09 && unit <= 0x0d);
}

/**
 * Line structure of one file's text, in UTF-16 indices (JS string indices), with the
 * code-point map alongside. Lines end at `\n`; a `\r` before it is whitespace of the line,
 * so `\r\n` files need no special handling and offsets count `\r` as a character.
 */
export class TextLayout {
  readonly text: string;
  readonly offsets: OffsetMap;
  /** UTF-16 index where each line starts; one entry per line. */
  readonly lineStarts: number[];

  constructor(text: string) {
    this.text = text;
    this.offsets = new OffsetMap(text);
    const starts = [0];
    let at = text.indexOf('\n');
    while (at !== -1) {
      starts.push(at + 1);
      at = text.indexOf('\n', at + 1);
    }
    this.lineStarts = starts;
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  /** UTF-16 index of line `line`'s start; `lineCount` maps to the text's end. */
  lineStart(line: number): number {
    return line >= this.lineStarts.length ? this.text.length : this.lineStarts[line]!;
  }

  /** UTF-16 index just past line `line`'s content, before its `\r\n`/`\n`. */
  contentEnd(line: number): number {
    let end = line + 1 >= this.lineStarts.length ? this.text.length : this.lineStarts[line + 1]! - 1;
    const start = this.lineStart(line);
    if (end > start && this.text.charCodeAt(end - 1) === 0x0d) end--;
    return end;
  }

  /** 0-based line holding UTF-16 index `index`. */
  lineOf(index: number): number {
    const starts = this.lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (starts[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  isBlankLine(line: number): boolean {
    const end = this.contentEnd(line);
    for (let i = this.lineStart(line); i < end; i++) if (!isSpaceUnit(this.text.charCodeAt(i))) return false;
    return true;
  }

  /** True when only whitespace lies between UTF-16 indices `from` and `to`. */
  isSpaceBetween(from: number, to: number): boolean {
    for (let i = from; i < to; i++) if (!isSpaceUnit(this.text.charCodeAt(i))) return false;
    return true;
  }

  /** Code-point length of UTF-16 range [start, end). */
  codePoints(start: number, end: number): number {
    return this.offsets.toCodePoint(end) - this.offsets.toCodePoint(start);
  }

  /** Range [start, end) with leading and trailing whitespace removed; null when all whitespace. */
  trim(start: number, end: number): [number, number] | null {
    const text = this.text;
    while (start < end && isSpaceUnit(text.charCodeAt(start))) start++;
    while (end > start && isSpaceUnit(text.charCodeAt(end - 1))) end--;
    return start < end ? [start, end] : null;
  }

  /** Code-point length of lines [from, to) once trimmed; 0 when blank. */
  trimmedSize(from: number, to: number): number {
    const span = this.trim(this.lineStart(from), this.lineStart(to));
    return span ? this.codePoints(span[0], span[1]) : 0;
  }
}
