import fc from 'fast-check';
import type { Chunk } from '@rag/core';
import { describe, expect, it } from 'vitest';
import { anchorFieldTexts } from '../src/anchors.js';
import { CLASS_SUMMARY_LIMITS, classSummaries, summaryLine } from '../src/class-summaries.js';
import { DEFAULT_CONTEXT_OPTIONS } from '../src/options.js';
import { codeRanking, makeChunks } from './helpers.js';

// A template engine's restricted mode: the class says what it is for ("restricted",
// "untrusted"), its methods say `is_safe_attribute` and `call`. A second file has a
// module-level function and a class with no docstring; a third is documentation.
const corpus = makeChunks([
  {
    file_path: 'engine/sandbox.py',
    symbol: 'SandboxedEnvironment',
    language: 'python',
    kind: 'class',
    text: '@final\nclass SandboxedEnvironment(\n    Environment, metaclass=Meta(ABC)\n):\n    """A restricted environment for untrusted templates.  It works like the\n    regular environment.\n\n    More on the rules below.\n    """\n\n    sandboxed = True',
  },
  {
    file_path: 'engine/sandbox.py',
    symbol: 'SandboxedEnvironment.is_safe_attribute',
    language: 'python',
    kind: 'method',
    text: '    def is_safe_attribute(self, obj, attr, value):\n        return not (attr.startswith("_") or is_internal_attribute(obj, attr))',
  },
  {
    file_path: 'engine/sandbox.py',
    symbol: 'SandboxedEnvironment.call',
    language: 'python',
    kind: 'method',
    text: '    def call(self, context, obj, *args):\n        if not self.is_safe_callable(obj):\n            raise SecurityError(f"{obj!r} is not safely callable")\n        return context.call(obj, *args)',
  },
  {
    file_path: 'engine/sandbox.py',
    symbol: 'is_internal_attribute',
    language: 'python',
    kind: 'function',
    text: 'def is_internal_attribute(obj, attr):\n    return attr in UNSAFE_FUNCTION_ATTRIBUTES',
  },
  {
    file_path: 'engine/lexer.py',
    symbol: 'Lexer',
    language: 'python',
    kind: 'class',
    text: "class Lexer:\n    # no docstring here\n    def __init__(self, environment):\n        '''Not the class's docstring.'''\n        self.rules = compile_rules(environment)",
  },
  {
    file_path: 'engine/lexer.py',
    symbol: 'Lexer.tokenize',
    language: 'python',
    kind: 'method',
    text: '    def tokenize(self, source):\n        return TokenStream(self.tokeniter(source))',
  },
  {
    file_path: 'docs/api.rst',
    symbol: 'API > Environment',
    language: 'rst',
    kind: 'section',
    text: 'Environment\n-----------\n\nThe regular environment renders templates from trusted authors: every attribute of a\ntemplate variable is reachable.',
  },
]);

describe('class summaries', () => {
  it("reads a docstring's summary line: its first sentence, white space collapsed", () => {
    expect(summaryLine('A restricted environment for untrusted templates.  It works like the\n    regular one.')).toBe('A restricted environment for untrusted templates.');
    expect(summaryLine('\n  Loads templates\n  from a folder\n\n  Details.')).toBe('Loads templates from a folder');
    expect(summaryLine('')).toBe('');
    // A "first sentence" longer than the limit is a description, not a summary.
    expect(summaryLine('word '.repeat(CLASS_SUMMARY_LIMITS.maxLength))).toBe('');
  });

  it("gives every member of a documented class the class's summary, and nothing else", () => {
    const summaries = classSummaries(corpus);
    // The class's own chunk holds the docstring already; its methods get its summary line
    // (a decorated class whose bases span lines, nested parentheses included).
    expect(summaries[0]).toBe('');
    expect(summaries[1]).toBe('A restricted environment for untrusted templates.');
    expect(summaries[2]).toBe('A restricted environment for untrusted templates.');
    // A module-level function belongs to no class.
    expect(summaries[3]).toBe('');
    // A class whose body opens with a comment and a method has no docstring: the method's
    // docstring is not taken for the class's.
    expect(summaries[4]).toBe('');
    expect(summaries[5]).toBe('');
    // Documentation is not Python.
    expect(summaries[6]).toBe('');
  });

  it('reads the texts of class chunks only, as a re-index whose texts load lazily needs', () => {
    const read: number[] = [];
    // Each text read is recorded, as the index's lazy chunk table would load it.
    const lazy = corpus.map((chunk) => {
      const { text, ...rest } = chunk;
      return Object.defineProperty({ ...rest }, 'text', { get: () => (read.push(chunk.id), text), enumerable: true }) as Chunk;
    });
    expect(classSummaries(lazy)).toEqual(classSummaries(corpus));
    expect(new Set(read.map((id) => corpus[id]!.kind))).toEqual(new Set(['class']));
  });

  it('takes the innermost documented class of a nested one, and a docstring on one line', () => {
    const nested = makeChunks([
      { file_path: 'pkg/forms.py', symbol: 'Form', language: 'python', kind: 'class', text: "class Form:\n    'A set of fields validated together.'\n\n    prefix = ''" },
      { file_path: 'pkg/forms.py', symbol: 'Form.Meta', language: 'python', kind: 'class', text: '    class Meta:\n        """Options that say how the form is rendered."""\n        layout = "grid"' },
      { file_path: 'pkg/forms.py', symbol: 'Form.Meta.columns', language: 'python', kind: 'method', text: '        def columns(self):\n            return 12' },
      { file_path: 'pkg/forms.py', symbol: 'Form.Plain', language: 'python', kind: 'class', text: '    class Plain:\n        pass' },
      { file_path: 'pkg/forms.py', symbol: 'Form.Plain.run', language: 'python', kind: 'method', text: '        def run(self):\n            return None' },
      { file_path: 'pkg/forms.py', symbol: 'Form.validate', language: 'python', kind: 'method', text: '    def validate(self):\n        return all(f.ok for f in self.fields)' },
    ]);
    expect(classSummaries(nested)).toEqual([
      // Each class's own chunk holds its docstring.
      '',
      '',
      // A method of the nested class: the nested class's summary.
      'Options that say how the form is rendered.',
      // A nested class without a docstring, and its method: the enclosing class's summary.
      'A set of fields validated together.',
      'A set of fields validated together.',
      'A set of fields validated together.',
    ]);
  });

  it('puts the summary in the anchor field after the docs links, and leaves it out when switched off', () => {
    const both = anchorFieldTexts(corpus, DEFAULT_CONTEXT_OPTIONS)!;
    expect(both[1]).toBe('A restricted environment for untrusted templates.');
    expect(anchorFieldTexts(corpus, { ...DEFAULT_CONTEXT_OPTIONS, classSummaries: false })![1]).toBe('');
    expect(anchorFieldTexts(corpus, { ...DEFAULT_CONTEXT_OPTIONS, anchors: false, classSummaries: false })).toBeUndefined();
  });

  it('lets a question that describes the class reach the method that does the work', () => {
    const query = 'Which attributes may an untrusted template read in the restricted mode?';
    // `is_safe_attribute` answers it, but its own text shares only "attribute" with the
    // question, as does the helper `is_internal_attribute`, and the docs page also says
    // "template" and "attribute". With the class's summary ("restricted", "untrusted")
    // the method is the best code hit; without it the helper, which also says "attr"
    // twice, ranks above it.
    expect(codeRanking(corpus, query)[0]).toBe('SandboxedEnvironment.is_safe_attribute');
    expect(codeRanking(corpus, query, { context: { classSummaries: false } })[0]).not.toBe('SandboxedEnvironment.is_safe_attribute');
  });

  it('never gives a summary to a chunk outside a class, whatever the files hold (property)', () => {
    const chunk = fc.record({
      file: fc.constantFrom('a.py', 'b.py', 'c.md'),
      symbol: fc.constantFrom('', 'f', 'C', 'C.m', 'D.m'),
      text: fc.constantFrom('class C:\n    """Doc of C."""', 'def f():\n    """Doc of f."""', '    def m(self):\n        pass', 'x = 1'),
    });
    fc.assert(
      fc.property(fc.array(chunk, { maxLength: 12 }), (specs) => {
        const chunks = makeChunks(
          specs
            .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
            // As the chunker gives them: a chunk that opens with a class header is of kind `class`.
            .map((s) => ({
              file_path: s.file,
              symbol: s.symbol,
              text: s.text,
              kind: s.text.startsWith('class ') ? ('class' as const) : ('function' as const),
              language: s.file.endsWith('.py') ? ('python' as const) : ('markdown' as const),
            })),
        );
        const summaries = classSummaries(chunks);
        chunks.forEach((c, i) => {
          if (summaries[i] === '') return;
          // Only members of class C, which alone has a docstring, in a Python file that defines it.
          expect(c.language).toBe('python');
          expect(c.symbol === 'C' || c.symbol.startsWith('C.')).toBe(true);
          expect(summaries[i]).toBe('Doc of C.');
          expect(chunks.some((d) => d.file_path === c.file_path && d.symbol === 'C' && d.text.startsWith('class C'))).toBe(true);
        });
      }),
    );
  });
});
