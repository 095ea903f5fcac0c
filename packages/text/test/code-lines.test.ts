import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CODE_STATEMENT, isCodeStatement } from '../src/descriptions.js';
import { ASSIGNS } from '../src/question-kind.js';

// Pieces of Python lines (and of prose that looks like it): keywords and near-keywords,
// names, dotted and subscripted targets, annotations, every kind of `=` (augmented, `==`,
// keyword arguments), decorators, brackets that open and close, quotes, comments, and white
// space of several kinds at either end.
const PIECES = ['def', 'class', 'return', 'if', 'elif', 'iffy', 'import', 'from', 'nonlocal', 'x', 'self.max_len', 'a[0]', "'k'", '"v"', '_', 'é', '@', 'property', ':', ' int', '=', '==', '+=', '|=', '->', '(', ')', '[', ']', '{', '}', ',', '\\', '#', ' ', '  ', '\t', '\r', '\u00a0', '16', 'None', 'f(', 'n=1', 'word'];
const lines = fc.array(fc.constantFrom(...PIECES), { maxLength: 10 }).map((chosen) => chosen.join(''));

describe('code lines', () => {
  it('isCodeStatement answers as CODE_STATEMENT does, for any line', () => {
    fc.assert(
      fc.property(lines, (line) => {
        expect(isCodeStatement(line)).toBe(CODE_STATEMENT.test(line));
      }),
      { numRuns: 10000 },
    );
  });

  it('ASSIGNS, written from the `=`, matches where its plain form does', () => {
    const plain = /(^|[\s(,])[A-Za-z_][\w.]*\s*(:\s*[^=\n]{1,60})?=(?!=)\s*[^\s=]/;
    fc.assert(
      fc.property(fc.array(lines, { maxLength: 3 }), (parts) => {
        const code = parts.join('\n');
        expect(ASSIGNS.test(code)).toBe(plain.test(code));
      }),
      { numRuns: 10000 },
    );
  });
});
