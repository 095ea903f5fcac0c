import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ownerAt } from '../src/extractive/owner.js';
import { answerExtractively } from '../src/internals.js';
import { source } from './helpers/sources.js';

/** `ownerAt` at the first occurrence of `quote` in `text`. */
const ownerOf = (text: string, quote: string, fallback: string): string => ownerAt(text, text.indexOf(quote), fallback);

// Two neighbouring chunks of one file joined into one source: the matched chunk is the end
// of `HTTPError.handle`, the joined one a whole class.
const JOINED = [
  '    @classmethod',
  '    def handle(cls, exception, status=500):',
  '        """Translate exception into an HTTPError."""',
  '        try:',
  '            yield',
  '        except exception as exc:',
  '            raise cls(status, str(exc))',
  '',
  '',
  'class NotFound(HTTPError):',
  '',
  '    """Exception raised when a URL could not be mapped to any handler (404)."""',
  '',
  '    def __init__(self, path=None):',
  '        HTTPError.__init__(self, 404, "The path %r was not found." % path)',
  '',
].join('\n');

describe('ownerAt', () => {
  it('reads the definition a quoted line belongs to from the text, not from the matched chunk', () => {
    expect(ownerOf(JOINED, 'Exception raised when', 'HTTPError.handle')).toBe('NotFound');
    expect(ownerOf(JOINED, 'HTTPError.__init__(self, 404', 'HTTPError.handle')).toBe('NotFound.__init__');
  });

  it('keeps the matched chunk\'s symbol for its own lines, with the qualification the chunker gave', () => {
    // The class of `handle` starts before the text: its lines are the symbol's.
    expect(ownerOf(JOINED, 'raise cls(status', 'HTTPError.handle')).toBe('HTTPError.handle');
    expect(ownerOf('def safe_join(base, *parts):\n    return None\n', 'return None', 'paths.safe_join')).toBe('paths.safe_join');
  });

  it('names a definition line after itself', () => {
    expect(ownerOf(JOINED, 'class NotFound', 'HTTPError.handle')).toBe('NotFound');
    expect(ownerOf('async def fetch(url):\n    pass\n', 'async def fetch', '')).toBe('fetch');
  });

  it('looks past a multi-line signature and the blocks around the line', () => {
    const code = [
      '    def create(',
      '        num_gpu_blocks: int,',
      '        num_cpu_blocks: int,',
      '    ) -> "Allocator":',
      '        """Creates the allocator."""',
      '        if num_cpu_blocks:',
      '            for i in range(num_cpu_blocks):',
      '                blocks.append(i)',
    ].join('\n');
    expect(ownerOf(code, 'Creates the allocator', 'Allocator.__init__')).toBe('Allocator.create');
    expect(ownerOf(code, 'blocks.append', 'Allocator.__init__')).toBe('Allocator.create');
  });

  it('qualifies a definition whose class starts before the text by as many of the symbol\'s names as it is deep', () => {
    const sibling = '        return self.x\n\n    def other(self):\n        return 1\n';
    expect(ownerOf(sibling, 'return 1', 'Box.get')).toBe('Box.other');
    const nested = '        x = 1\n\n        def inner():\n            return x\n';
    expect(ownerOf(nested, 'return x', 'Box.get')).toBe('Box.get.inner');
  });

  it('falls back to the symbol when no definition holds the line within the text', () => {
    expect(ownerOf('        x = compute()\n        return x\n', 'return x', 'Box.get')).toBe('Box.get');
    expect(ownerOf('TIMEOUT = 5\nRETRIES = 3\n', 'RETRIES', '')).toBe('');
  });

  it('always names a definition of the text or the symbol itself', () => {
    const line = fc.constantFrom('x = 1', 'if x:', 'return y', 'def f(a):', 'class C:', '"""Doc."""', ')', 'for i in z:');
    const lines = fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), line), { minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(lines, fc.nat(), (rows, pick) => {
        const text = rows.map(([depth, code]) => `${'    '.repeat(depth)}${code}`).join('\n');
        const offset = pick % text.length;
        const owner = ownerAt(text, offset, 'Sym.method');
        const defined = new Set([...text.matchAll(/(?:def|class) (\w+)/g)].map((m) => m[1]));
        // Every name is the symbol's or one the text defines.
        for (const name of owner.split('.')) expect(name === 'Sym' || name === 'method' || defined.has(name)).toBe(true);
      }),
    );
  });
});

describe('the lead of an answer from a joined source', () => {
  it('names the class whose docstring it quotes, not the method the search matched', () => {
    const joined = source(JOINED, { file_path: 'pkg/errors.py', symbol: 'HTTPError.handle' });
    const { lines, citedSources } = answerExtractively('Which exception is raised when a URL matches no handler at all?', [joined]);
    expect(lines[0]).toMatch(/^In `NotFound`: Exception raised when a URL could not be mapped to any handler/);
    // The list of sources names what the quotes belong to (a method beside its class left out).
    expect(citedSources[0]!.symbol).toBe('NotFound');
  });
});
