import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPassThrough } from '../src/definitions.js';
import { definedNames, definesName, explainsName, separatedNamesIn } from '../src/index.js';

// Pieces that make definitions, mentions, code spans, quotes and edge underscores meet.
const PIECES = ['max_num_seqs', '_max_num_seqs', 'num_seqs', 'self.', 'def ', 'class ', ' = 4', ': int = 4', ':', ' == 4', '"', "'", '`', '``', '\n', '    ', ' ', '(', ', ', 'x', 'rename_it', 'max_num_seqs2', '__init__', 'a_b'];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 24 }).map((pieces) => pieces.join(''));
const NAMES = ['max_num_seqs', 'num_seqs', 'rename_it', 'a_b', 'init'];

describe('separatedNamesIn: the names a chunk defines or explains, computed once', () => {
  it('holds exactly the names definesName and explainsName find, for any text', () => {
    fc.assert(
      fc.property(text, (t) => {
        const lowered = t.toLowerCase();
        const defined = separatedNamesIn(t, 'defines');
        const explained = separatedNamesIn(t, 'explains');
        for (const name of NAMES.filter((n) => n.includes('_'))) {
          expect(defined.has(name)).toBe(definesName(t, lowered, name));
          expect(explained.has(name)).toBe(explainsName(lowered, name));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('reads assignments, fields, signatures and code spans', () => {
    const code = 'class Config:\n    max_num_seqs: int = 256\n    def set_limit(self, block_size=16):\n        self.swap_space = 4\n        use(max_model_len)\n';
    expect([...separatedNamesIn(code, 'defines')].sort()).toEqual(['block_size', 'max_num_seqs', 'set_limit', 'swap_space']);
    const prose = 'Set `max_num_seqs` or ``block_size``; the max_model_len default is fine.';
    expect([...separatedNamesIn(prose, 'explains')].sort()).toEqual(['block_size', 'max_num_seqs']);
  });
});

describe('definedNames', () => {
  it.each([
    ['x = 5', ['x']],
    ['self.timeout = timeout or 30', ['timeout']],
    ['def f(a, b=1):', ['f', 'b']],
    ['class Loader(Base):', ['loader']],
    // Handing a name on defines nothing: a keyword argument passed through, a parameter stored.
    ['fp8_min=fp8_min,', []],
    ['self.timeout = timeout', []],
    ['x = x', []],
  ] as const)('%s → %j', (line, names) => {
    expect(definedNames(line)).toEqual(names);
  });

  it.each([
    ['  fp8_min=fp8_min,', true],
    ['self.x = x', true],
    ['self.x = y', false],
    ['f(x=x, y=2)', false],
    // A call that forwards its parameters under their own names gives no value either.
    ['CEmitter.__init__(self, stream, canonical=canonical, width=width, line_break=line_break)', true],
    ['super().__init__(config, prefix=prefix)', true],
    ['super().__init__(config, prefix=prefix, width=80)', false],
    ['self.emit(width=self.width)', false],
    ['f(a, b)', false],
    ['x = f(width=width)', false],
    // A keyword argument whose value is a call gives a value, whatever the call forwards.
    ['f(a=g(b=b), c=c)', false],
    ['f(a=a, b=make(size=size))', false],
  ] as const)('isPassThrough(%j) is %s: a line that only hands names on (assigns a name to itself, or forwards keyword arguments under their own names)', (line, passes) => {
    expect(isPassThrough(line)).toBe(passes);
  });
});
