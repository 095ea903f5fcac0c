import fc from 'fast-check';
import ignore from 'ignore';
import { describe, expect, it } from 'vitest';
import { ignoreRulePrefilter } from '../src/ignore-prefilter.js';

// Pieces of `.gitignore` lines meant to reach every corner of the syntax: wildcards, `**`
// with and without slashes, `?`, bracket expressions (ranges, negated, POSIX classes, a `]`
// first, unclosed), escapes, negation, comments, anchoring and folder-only slashes, spaces
// (leading, trailing, escaped), a byte order mark, a carriage return, and names in any case.
const RULE_PIECES = ['a', 'b', 'B', 'x.py', '__pycache__', '.', '*', '**', '?', '/', '[a-c]', '[!a]', '[^b]', '[[:alpha:]]', '[]a]', '[', ']', '\\', '\\*', '\\?', '\\[', '\\ ', '\\!', '\\#', '!', '#', ' ', '\uFEFF', '\r', '\t', 'é'];
// Path segments: plain, dotted, hidden, with spaces (inside, leading, trailing), brackets,
// `!`, `#`, a newline, non-ASCII, and a rule's text inside a longer name (`xa`, `a.`, `bx.py`),
// which an anchored prefilter must tell from the name itself.
const PATH_PIECES = ['a', 'b', 'A', 'B', 'ab', 'xa', 'a.', '.a', 'bx.py', 'x.pyc', ' a', 'a ', 'x.py', 'X.PY', '.hidden', '__pycache__', 'c d', '[a]', '!x', '#y', 'a\nb', '\t', 'é', 'É', '*', '?'];

const rule = fc.array(fc.constantFrom(...RULE_PIECES), { minLength: 0, maxLength: 6 }).map((pieces) => pieces.join(''));
const path = fc.tuple(fc.array(fc.constantFrom(...PATH_PIECES), { minLength: 1, maxLength: 4 }), fc.boolean()).map(([segments, folder]) => segments.join('/') + (folder ? '/' : ''));

describe('ignoreRulePrefilter', () => {
  it('matches every path that some rule ignores or re-includes (the matcher gives no verdict on any other)', () => {
    fc.assert(
      fc.property(fc.array(rule, { minLength: 1, maxLength: 5 }), fc.array(path, { minLength: 1, maxLength: 8 }), (lines, paths) => {
        const text = lines.join('\n');
        const rules = ignore().add(text);
        const prefilter = ignoreRulePrefilter([text]);
        for (const tested of paths) {
          const verdict = rules.test(tested);
          if ((verdict.ignored || verdict.unignored) && prefilter) expect(prefilter.test(tested), `${JSON.stringify(text)} on ${JSON.stringify(tested)}`).toBe(true);
        }
      }),
      { numRuns: 4000 },
    );
  });

  it('lets most paths of a typical Python .gitignore pass without the matcher', () => {
    const text = ['# Byte-compiled', '__pycache__/', '*.py[cod]', '*$py.class', '/build/', 'dist/', '*.egg-info/', '.env', '!.env.example', 'docs/_build/', '**/node_modules/', '.vscode/*'].join('\n');
    const prefilter = ignoreRulePrefilter([text])!;
    // Why each may match: a rule's literal text is in it (`__pycache__`, `.pyc`, `build`, `.env`, …).
    expect(['pkg/__pycache__/', 'pkg/mod.pyc', 'build/', 'a/dist/', 'x.egg-info/', '.env', '.env.example', 'docs/_build/', 'web/node_modules/', '.vscode/settings.json'].filter((p) => !prefilter.test(p))).toEqual([]);
    // Why none of these may: none holds the literal text of any rule.
    expect(['pkg/mod.py', 'docs/index.rst', 'README.md', 'tests/test_api.py', 'pkg/sub/'].filter((p) => prefilter.test(p))).toEqual([]);
    // Nor these, which hold a rule's text inside a longer name only (`dist/` and `/build/` name whole folders).
    expect(['pkg/distributed/comm.py', 'pkg/builder.py', 'src/rebuild/', 'environment.py'].filter((p) => prefilter.test(p))).toEqual([]);
  });

  it('gives up (undefined) on a rule that may match anything, and never matches for no rules', () => {
    expect(ignoreRulePrefilter(['*.log\n*'])).toBeUndefined();
    expect(ignoreRulePrefilter(['/**/'])).toBeUndefined();
    expect(ignoreRulePrefilter(['# only a comment\n\n   \n'])?.test('any/path.py')).toBe(false);
  });

  it('stays linear on a rule of many stars against a long path', () => {
    // Only the pieces before the first star and after the last are kept, so the engine
    // cannot backtrack through every way of splitting the path among the stars.
    const prefilter = ignoreRulePrefilter(['a*a*a*a*a*a*a*a*a*a*b'])!;
    // Anchored at segment edges: the rule starts and ends with literal text.
    expect(prefilter.source).toBe('(?:(?:^|\\/)a[\\s\\S]*b(?=\\/|$))');
    expect(prefilter.test('a'.repeat(5000))).toBe(false);
  });
});
