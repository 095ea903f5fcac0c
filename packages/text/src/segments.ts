/**
 * Splits text into segments: runs of word characters (letters, digits, combining marks,
 * `_`), where a `.` between word characters joins a dotted name (`vllm.entrypoints.llm`,
 * `0.10.1`) and a `-` followed by a letter joins a kebab-case name (`max-model-len`,
 * `--tensor-parallel-size` without its dashes), and a short version number after a plain
 * word stays with it (`HTTP/2`, `utf-8`, which the expander also spells `http2`, `utf8`:
 * the digit alone is too short to index). Everything else separates. Hand-written,
 * with a table for ASCII, because it sees every character of the corpus.
 */

const NON_ASCII_WORD = /^[\p{L}\p{N}\p{M}]$/u;
const NON_ASCII_LETTER = /^[\p{L}\p{M}]$/u;

const DOT = 46;
const DASH = 45;
const SLASH = 47;

function isAsciiLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

/**
 * Length of the `/2` or `-8` that follows the plain word text[start, end): the separator
 * and one or two digits that end the word; 0 when there is none. Only after a word of two
 * or more ASCII letters (`HTTP`, `utf`), so `seq_len-1` and `x-1` stay apart.
 */
function versionTail(text: string, start: number, end: number): number {
  const c = text.charCodeAt(end);
  if ((c !== SLASH && c !== DASH) || end - start < 2) return 0;
  for (let i = start; i < end; i++) if (!isAsciiLetter(text.charCodeAt(i))) return 0;
  let j = end + 1;
  while (j < text.length && j - end - 1 < 3 && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j++;
  const digits = j - end - 1;
  if (digits < 1 || digits > 2) return 0;
  if (j < text.length && (wordWidth(text, j, false) > 0 || (text.charCodeAt(j) === DOT && j + 1 < text.length && wordWidth(text, j + 1, false) > 0))) return 0;
  return 1 + digits;
}

const WORD = 1;
const LETTER = 2;
/** ASCII character classes: bit WORD for [A-Za-z0-9_], bit LETTER for [A-Za-z]. */
const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const letter = (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
  if (letter || (c >= 48 && c <= 57) || c === 95) ASCII_CLASS[c] = WORD | (letter ? LETTER : 0);
}

/** Width in code units (1 or 2) of the non-ASCII character `c` at `i` when it matches `pattern`, else 0. */
function nonAsciiWidth(text: string, i: number, c: number, pattern: RegExp): number {
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) return pattern.test(text.slice(i, i + 2)) ? 2 : 0;
  return pattern.test(text[i]!) ? 1 : 0;
}

/** Width in code units (1 or 2) of the word character at `i`, or 0 when it is not one. */
function wordWidth(text: string, i: number, letterOnly: boolean): number {
  const c = text.charCodeAt(i);
  if (c < 128) return ASCII_CLASS[c]! & (letterOnly ? LETTER : WORD) ? 1 : 0;
  return nonAsciiWidth(text, i, c, letterOnly ? NON_ASCII_LETTER : NON_ASCII_WORD);
}

/** End of the run of word characters of `text` that starts at `i` (`i` itself when there is none). */
function wordRunEnd(text: string, i: number): number {
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      if ((ASCII_CLASS[c]! & WORD) === 0) return i;
      i++;
    } else {
      const width = nonAsciiWidth(text, i, c, NON_ASCII_WORD);
      if (width === 0) return i;
      i += width;
    }
  }
  return i;
}

/**
 * Calls `visit` with the UTF-16 range [start, end) of each segment of `text`, in order.
 * Every character of the corpus passes here (several times over, for a build's fields): the
 * runs are scanned by a small function of their own, and this one stays small enough for the
 * compiler to inline it, with the `visit` of its caller, where it is called.
 */
export function forEachSegmentRange(text: string, visit: (start: number, end: number) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    const start = i;
    i = wordRunEnd(text, i);
    if (i === start) {
      i++;
      continue;
    }
    let c = text.charCodeAt(i);
    while (i + 1 < n && (c === DOT || c === DASH) && wordWidth(text, i + 1, c === DASH) > 0) {
      i = wordRunEnd(text, i + 1);
      c = text.charCodeAt(i);
    }
    if (c === SLASH || c === DASH) i += versionTail(text, start, i);
    visit(start, i);
  }
}

/** Calls `visit` with each segment of `text`, in order. */
export function forEachSegment(text: string, visit: (segment: string) => void): void {
  forEachSegmentRange(text, (start, end) => visit(text.slice(start, end)));
}
