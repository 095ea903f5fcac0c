import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { codePointLength, OffsetMap, parseDataset, sliceCodePoints } from '../src/index.js';

// Strings rich in the cases that matter: ASCII, BMP non-ASCII, astral pairs, CRLF, and
// lone surrogates (which count as one code point each, as in Array.from and Python).
const unit = fc.oneof(
  fc.constantFrom('a', 'é', '—', '\r\n', '\n', '😀', '🚀', '𝒳', '\uD83D', '\uDE00'),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 3 }),
);
const text = fc.array(unit, { maxLength: 40 }).map((parts) => parts.join(''));

describe('OffsetMap on BMP-only text', () => {
  it('is the identity', () => {
    const sample = 'déjà vu — 日本語\r\nx';
    const map = new OffsetMap(sample);
    expect(map.isIdentity).toBe(true);
    expect(map.codePointLength).toBe(sample.length);
    for (let i = 0; i <= sample.length; i++) {
      expect(map.toCodePoint(i)).toBe(i);
      expect(map.toUtf16(i)).toBe(i);
    }
  });

  it('handles the empty string', () => {
    const map = new OffsetMap('');
    expect(map.isIdentity).toBe(true);
    expect(map.codePointLength).toBe(0);
    expect(map.toCodePoint(0)).toBe(0);
    expect(map.toUtf16(0)).toBe(0);
  });
});

describe('OffsetMap with astral characters', () => {
  // UTF-16:      a=0  🚀=1,2  b=3  😀=4,5  c=6  end=7
  // code points: a=0  🚀=1    b=2  😀=3    c=4  end=5
  const sample = 'a🚀b😀c';
  const map = new OffsetMap(sample);

  it('counts each astral character as one code point', () => {
    expect(map.isIdentity).toBe(false);
    expect(map.codePointLength).toBe(5);
    expect(codePointLength(sample)).toBe(5);
  });

  it('converts UTF-16 indices to code points', () => {
    expect([0, 1, 3, 4, 6, 7].map((i) => map.toCodePoint(i))).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('converts code points to UTF-16 indices', () => {
    expect([0, 1, 2, 3, 4, 5].map((o) => map.toUtf16(o))).toEqual([0, 1, 3, 4, 6, 7]);
  });

  it('maps an index inside a surrogate pair to the end of that character', () => {
    // Never produced by tree-sitter or String methods on whole characters; pinned so a
    // change of behaviour is noticed.
    expect(map.toCodePoint(2)).toBe(2);
    expect(map.toCodePoint(5)).toBe(4);
  });

  it('matches the tree-sitter note in stack.md: `y` of `x = "é🚀"; y = 1` is code point 10', () => {
    const line = 'x = "é🚀"; y = 1';
    expect(new OffsetMap(line).toCodePoint(line.indexOf('y'))).toBe(10);
  });

  it('slices by code points like Python', () => {
    expect(sliceCodePoints(sample, 1, 3)).toBe('🚀b');
    expect(sliceCodePoints(sample, 3, 5)).toBe('😀c');
  });
});

describe('OffsetMap properties', () => {
  it('round-trips every code-point offset through UTF-16', () => {
    fc.assert(
      fc.property(text, (s) => {
        const map = new OffsetMap(s);
        for (let o = 0; o <= map.codePointLength; o++) expect(map.toCodePoint(map.toUtf16(o))).toBe(o);
      }),
    );
  });

  it('round-trips every UTF-16 index on a character boundary', () => {
    fc.assert(
      fc.property(text, (s) => {
        const map = new OffsetMap(s);
        let index = 0;
        for (const char of s) {
          expect(map.toUtf16(map.toCodePoint(index))).toBe(index);
          index += char.length;
        }
        expect(map.toUtf16(map.toCodePoint(s.length))).toBe(s.length);
      }),
    );
  });

  it('agrees with Array.from on lengths and slices', () => {
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), (s, x, y) => {
        const points = Array.from(s);
        const map = new OffsetMap(s);
        expect(map.codePointLength).toBe(points.length);
        expect(codePointLength(s)).toBe(points.length);
        expect(map.isIdentity).toBe(points.length === s.length);
        const start = x % (points.length + 1);
        const end = start + (y % (points.length - start + 1));
        expect(sliceCodePoints(s, start, end, map)).toBe(points.slice(start, end).join(''));
      }),
    );
  });
});

describe('the mini dataset', () => {
  // The gold offsets were computed in Python; slicing them in JavaScript must give the
  // same text, whose edges build_questions.py anchored at known words.
  const repo = new URL('../../../', import.meta.url);
  const questions = parseDataset(readFileSync(new URL('datasets/mini/questions.json', repo), 'utf8'), 'questions.json');

  it('has gold spans that slice to non-blank text, some after astral characters', () => {
    let afterAstral = 0;
    for (const question of questions.rag_questions) {
      for (const source of question.sources ?? []) {
        const fileText = readFileSync(new URL(source.file_path, repo), 'utf8');
        const map = new OffsetMap(fileText);
        const span = sliceCodePoints(fileText, source.first_character_index, source.last_character_index, map);
        expect(span).toBe(Array.from(fileText).slice(source.first_character_index, source.last_character_index).join(''));
        expect(span.trim()).not.toBe('');
        expect(span).toBe(span.trimEnd());
        if (map.toUtf16(source.first_character_index) !== source.first_character_index) afterAstral++;
      }
    }
    expect(afterAstral).toBe(7);
  });

  it('cites grüße in i18n.py after five astral characters', () => {
    const question = questions.rag_questions.find((q) => q.question_id === 'code-06')!;
    const source = question.sources![0]!;
    const fileText = readFileSync(new URL(source.file_path, repo), 'utf8');
    const span = sliceCodePoints(fileText, source.first_character_index, source.last_character_index);
    expect(span.startsWith('def grüße(name')).toBe(true);
    expect(fileText.indexOf('def grüße(name')).toBe(source.first_character_index + 5);
  });
});
