import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forEachSegmentRange } from '../src/segments.js';

/**
 * The segmenter as first written, one `wordWidth` call per character: the specification the
 * faster loops of `forEachSegmentRange` must keep to the letter.
 */
function referenceRanges(text: string): number[] {
  const word = /^[\p{L}\p{N}\p{M}]$/u;
  const letter = /^[\p{L}\p{M}]$/u;
  const asciiWord = /^[A-Za-z0-9_]$/;
  const asciiLetter = /^[A-Za-z]$/;
  const widthAt = (i: number, letterOnly: boolean): number => {
    if (i >= text.length) return 0;
    const c = text.charCodeAt(i);
    if (c < 128) return (letterOnly ? asciiLetter : asciiWord).test(text[i]!) ? 1 : 0;
    const unit = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? text.slice(i, i + 2) : text[i]!;
    return (letterOnly ? letter : word).test(unit) ? unit.length : 0;
  };
  const versionTail = (start: number, end: number): number => {
    const c = text[end];
    if ((c !== '/' && c !== '-') || end - start < 2 || !/^[A-Za-z]+$/.test(text.slice(start, end))) return 0;
    const digits = /^\d{1,3}/.exec(text.slice(end + 1))?.[0].length ?? 0;
    if (digits < 1 || digits > 2) return 0;
    const after = end + 1 + digits;
    if (widthAt(after, false) > 0 || (text[after] === '.' && widthAt(after + 1, false) > 0)) return 0;
    return 1 + digits;
  };
  const out: number[] = [];
  let i = 0;
  while (i < text.length) {
    const first = widthAt(i, false);
    if (first === 0) {
      i++;
      continue;
    }
    const start = i;
    i += first;
    for (;;) {
      let width: number;
      while ((width = widthAt(i, false)) > 0) i += width;
      if ((text[i] === '.' || text[i] === '-') && widthAt(i + 1, text[i] === '-') > 0) {
        i++;
        continue;
      }
      break;
    }
    i += versionTail(start, i);
    out.push(start, i);
  }
  return out;
}

function ranges(text: string): number[] {
  const out: number[] = [];
  forEachSegmentRange(text, (start, end) => out.push(start, end));
  return out;
}

describe('forEachSegmentRange', () => {
  it('joins dotted and kebab-case names and keeps a short version with its word', () => {
    const text = 'see vllm.entrypoints.llm, --max-model-len, HTTP/2 and utf-8 but seq_len-1 and x-1';
    const segments: string[] = [];
    forEachSegmentRange(text, (start, end) => segments.push(text.slice(start, end)));
    expect(segments).toEqual(['see', 'vllm.entrypoints.llm', 'max-model-len', 'HTTP/2', 'and', 'utf-8', 'but', 'seq_len', '1', 'and', 'x', '1']);
  });

  it('cuts the same ranges as the specification on any text', () => {
    // Pieces chosen to meet every branch: ASCII words of one and several letters, digit runs
    // of one to three (version tails), `_`, the joining `.`, `-` and `/`, separators,
    // non-ASCII letters, digits and marks, a letter outside the BMP (a surrogate pair), a
    // lone surrogate and punctuation.
    const pieces = ['a', 'HTTP', 'utf', 'x1', '7', '12', '123', '_', '.', '-', '/', ' ', '\n', '(', 'é', '中', '٣', '\u0301', '𝒳', '\ud835', '—'];
    const texts = fc.array(fc.constantFrom(...pieces), { maxLength: 12 }).map((chosen) => chosen.join(''));
    fc.assert(
      fc.property(texts, (text) => {
        expect(ranges(text)).toEqual(referenceRanges(text));
      }),
      { numRuns: 5000 },
    );
  });
});
