/**
 * Offsets in outputs are Unicode code points (Python's `str` indices); JavaScript strings
 * and tree-sitter index UTF-16 code units. They differ after any astral character
 * (emoji, some CJK), which take two code units but one code point.
 */

/** A high surrogate followed by a low one: one astral character, two UTF-16 code units. */
const ASTRAL_PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

/**
 * Number of code points in `text`; a lone surrogate counts as one, as in `Array.from`.
 * A native regex scan: most texts have no astral character, and finding none that way costs
 * a fraction of a JS loop over every code unit.
 */
export function codePointLength(text: string): number {
  let count = text.length;
  ASTRAL_PAIR.lastIndex = 0;
  while (ASTRAL_PAIR.exec(text)) count--;
  return count;
}

/**
 * Converts between UTF-16 indices and code-point offsets of one string. Building it is
 * O(n) once; each conversion is O(log a) where a is the number of astral characters,
 * and O(1) for the common all-BMP text.
 */
export class OffsetMap {
  /** UTF-16 index of each astral character, ascending. */
  readonly #astral: number[];
  readonly #utf16Length: number;

  constructor(text: string) {
    const astral: number[] = [];
    ASTRAL_PAIR.lastIndex = 0;
    for (let match = ASTRAL_PAIR.exec(text); match; match = ASTRAL_PAIR.exec(text)) astral.push(match.index);
    this.#astral = astral;
    this.#utf16Length = text.length;
  }

  /** True when both index systems agree everywhere (no astral characters). */
  get isIdentity(): boolean {
    return this.#astral.length === 0;
  }

  /** Length of the text in code points. */
  get codePointLength(): number {
    return this.#utf16Length - this.#astral.length;
  }

  /** Code-point offset of UTF-16 index `index` (0 ≤ index ≤ text.length). */
  toCodePoint(index: number): number {
    if (this.#astral.length === 0) return index;
    // Each astral character whose pair ends before `index` counted one code unit too many.
    let lo = 0;
    let hi = this.#astral.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#astral[mid]! + 1 < index) lo = mid + 1;
      else hi = mid;
    }
    return index - lo;
  }

  /** UTF-16 index of code-point offset `offset` (0 ≤ offset ≤ codePointLength). */
  toUtf16(offset: number): number {
    if (this.#astral.length === 0) return offset;
    // The k-th astral character (0-based) sits at code-point offset astral[k] - k.
    let lo = 0;
    let hi = this.#astral.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#astral[mid]! - mid < offset) lo = mid + 1;
      else hi = mid;
    }
    return offset + lo;
  }
}

/** `text` sliced by code-point offsets, like Python's `text[start:end]`. */
export function sliceCodePoints(text: string, start: number, end: number, map = new OffsetMap(text)): string {
  return text.slice(map.toUtf16(start), map.toUtf16(end));
}
