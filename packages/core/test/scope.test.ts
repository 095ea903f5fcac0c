import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compilePathGlobs, inScope, isRagError, MAX_SCOPE_GLOBS, scopeOfFiles, scopeSize } from '../src/index.js';

const PATHS = [
  'README.md',
  'docs/guide.md',
  'docs/api/server.rst',
  'pkg/docs/notes.txt',
  'pkg/server.py',
  'pkg/tests/test_server.py',
  'tests/test_cli.py',
  'src/pkg/cli.py',
];

/** The paths of {@link PATHS} that `globs` lets in. */
const matching = (globs: string[]) => PATHS.filter(compilePathGlobs(globs));

describe('path globs', () => {
  it('read as .gitignore patterns relative to the indexed folder, as ripgrep reads --glob', () => {
    // No slash but a trailing one: a folder of that name at any depth, and what is under it.
    expect(matching(['docs/'])).toEqual(['docs/guide.md', 'docs/api/server.rst', 'pkg/docs/notes.txt']);
    // A leading slash anchors at the root: only the top-level docs folder.
    expect(matching(['/docs/'])).toEqual(['docs/guide.md', 'docs/api/server.rst']);
    // An inner slash anchors too: pkg/server.py, not src/pkg/cli.py.
    expect(matching(['pkg/*.py'])).toEqual(['pkg/server.py']);
    // A name pattern matches at any depth.
    expect(matching(['*.py'])).toEqual(['pkg/server.py', 'pkg/tests/test_server.py', 'tests/test_cli.py', 'src/pkg/cli.py']);
    // Several including globs: any of them.
    expect(matching(['*.md', '*.rst'])).toEqual(['README.md', 'docs/guide.md', 'docs/api/server.rst']);
  });

  it('leave out what a glob that starts with "!" matches, whether other globs include or not', () => {
    expect(matching(['*.py', '!tests/'])).toEqual(['pkg/server.py', 'src/pkg/cli.py']);
    // Only exclusions: everything else.
    expect(matching(['!*.py', '!README.md'])).toEqual(['docs/guide.md', 'docs/api/server.rst', 'pkg/docs/notes.txt']);
    // An exclusion wins over an inclusion of the same file, in either order.
    expect(matching(['!pkg/server.py', 'pkg/server.py'])).toEqual([]);
  });

  it('refuse an empty list, a blank or comment glob, a bare "!" and too many globs, saying how to write one', () => {
    for (const globs of [[], [''], ['  '], ['!'], ['#docs'], Array.from({ length: MAX_SCOPE_GLOBS + 1 }, (_, i) => `d${i}/`)]) {
      let caught: unknown;
      try {
        compilePathGlobs(globs);
      } catch (error) {
        caught = error;
      }
      expect(isRagError(caught) && caught.code, JSON.stringify(globs)).toBe('INVALID_ARGUMENT');
      expect(isRagError(caught) && caught.hint).toMatch(/\.gitignore/);
    }
  });

  it('put a path the matcher cannot relate to the root in no scope instead of throwing', () => {
    const test = compilePathGlobs(['*.py']);
    expect(test('./pkg/server.py')).toBe(false);
    expect(test('/abs/server.py')).toBe(false);
    expect(test('')).toBe(false);
  });

  it('never let in a path an exclusion matches, and with no exclusion let in exactly what the inclusions match (property)', () => {
    const segment = fc.constantFrom('docs', 'pkg', 'tests', 'a', 'b');
    const path = fc.tuple(fc.array(segment, { maxLength: 3 }), fc.constantFrom('x.py', 'y.md', 'z.rst')).map(([dirs, file]) => [...dirs, file].join('/'));
    const glob = fc.oneof(segment.map((s) => `${s}/`), fc.constantFrom('*.py', '*.md', 'x.py', 'docs/*.md', '/a/'));
    fc.assert(
      fc.property(fc.array(path, { minLength: 1, maxLength: 20 }), fc.array(glob, { minLength: 1, maxLength: 4 }), fc.array(glob, { maxLength: 3 }), (paths, included, excluded) => {
        const both = compilePathGlobs([...included, ...excluded.map((g) => `!${g}`)]);
        const onlyIncluded = compilePathGlobs(included);
        for (const p of paths) {
          if (excluded.length > 0 && compilePathGlobs(excluded)(p)) expect(both(p)).toBe(false);
          else expect(both(p)).toBe(onlyIncluded(p));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('a scope over chunks', () => {
  it('holds 1 for the chunks whose file is accepted, asking once per distinct path', () => {
    const chunks = ['a.py', 'a.py', 'b.md', 'b.md', 'a.py', 'c.rst'].map((file_path) => ({ file_path }));
    const asked: string[] = [];
    const scope = scopeOfFiles(chunks, (path) => {
      asked.push(path);
      return path !== 'b.md';
    });
    expect([...scope]).toEqual([1, 1, 0, 0, 1, 1]);
    // a.py comes back after b.md: remembered, not asked again.
    expect(asked).toEqual(['a.py', 'b.md', 'c.rst']);
    expect(scopeSize(scope)).toBe(4);
    expect([inScope(scope, 1), inScope(scope, 2), inScope(scope, 99), inScope(undefined, 2)]).toEqual([true, false, false, true]);
  });
});
