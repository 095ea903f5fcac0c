import fc from 'fast-check';
import { describe, it } from 'vitest';
import type { Language } from '@rag/core';
import { chunkText } from '../src/index.js';
import { expectValidChunks } from './helpers.js';

const pythonLines = [
  'import os',
  'from typing import Optional',
  'X = "é🚀"  # astral',
  '@decorator',
  '@app.route("/x")',
  'def f(a, b=1):',
  'async def g():',
  '    """Docstring with ünïcode 🚀."""',
  '    return a + b',
  '    if a:',
  '        pass',
  '    else:',
  '        x = [1, 2,',
  '             3]',
  'class A(Base):',
  '    field: int = 0',
  '    def method(self):',
  '        return self.field',
  '# a comment',
  '',
  '    ',
  '\t',
];

const markdownLines = [
  '# Title',
  '## Install 🚀',
  '### GPU',
  'Setext title',
  '===',
  '---',
  '```python',
  '```',
  '~~~',
  '- item one',
  '  - nested',
  '1. first',
  '| a | b |',
  '|---|---|',
  '> quote',
  'Plain text with ünïcödé and 𝔘𝔫𝔦.',
  '',
];

const rstLines = ['Title', '=====', 'Sub', '---', '*****', 'Part', '*****', '.. note::', '   indented', 'para text 🚀', ''];

const randomLine = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 50, maxLength: 400 }) },
  { weight: 1, arbitrary: fc.constantFrom('🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀', ' \r ', '\u00a0x') },
);

function fileOf(lines: readonly string[]): fc.Arbitrary<string> {
  const line = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...lines) }, { weight: 1, arbitrary: randomLine });
  const ending = fc.constantFrom('\n', '\n', '\r\n');
  return fc
    .array(fc.tuple(line, ending), { maxLength: 80 })
    .chain((pairs) => fc.tuple(fc.constant(pairs), fc.boolean()))
    .map(([pairs, finalNewline]) => {
      const text = pairs.map(([l, e]) => l + e).join('');
      return finalNewline || pairs.length === 0 ? text : text.slice(0, text.length - pairs[pairs.length - 1]![1].length);
    });
}

const sizes = fc
  .integer({ min: 20, max: 400 })
  .chain((max) => fc.record({ maxChunkSize: fc.constant(max), targetChunkSize: fc.integer({ min: 1, max }), textOverlap: fc.integer({ min: 0, max: Math.floor(max / 2) }) }));

const cases: [Language, readonly string[]][] = [
  ['python', pythonLines],
  ['markdown', markdownLines],
  ['rst', rstLines],
  ['text', markdownLines],
];

describe('chunk spans on random files', () => {
  for (const [language, lines] of cases) {
    it(`${language}: exact, in range, capped, tight, ordered and covering`, () => {
      fc.assert(
        fc.property(fileOf(lines), sizes, (text, options) => {
          const chunks = chunkText(text, 'f', language, options);
          expectValidChunks(text, chunks, {
            maxChunkSize: options.maxChunkSize,
            overlap: language === 'text' ? options.textOverlap : 0,
          });
        }),
        { numRuns: 150 },
      );
    });
  }

  const configLines: [string, readonly string[]][] = [
    ['f.yaml', ['name: ci', 'on:', '  push:', '    branches: [main]', '# a comment', '"quoted key": 1', '- item', '---', 'jobs:', '  test:', '    runs-on: ubuntu', 'é🚀: x', '']],
    ['f.toml', ['[project]', 'name = "x"', '[[tool.list]]', '# about it', '; ini comment', '[tool.ruff] # trailing', 'line-length = 80', '  [indented]', 'é = "🚀"', '']],
  ];
  for (const [path, lines] of configLines) {
    it(`configuration (${path}): exact, in range, capped, tight, ordered, covering and not overlapping`, () => {
      fc.assert(
        fc.property(fileOf(lines), sizes, (text, options) => {
          expectValidChunks(text, chunkText(text, path, 'text', options), { maxChunkSize: options.maxChunkSize, overlap: options.textOverlap });
        }),
        { numRuns: 150 },
      );
    });
  }

  it('python-looking text as markdown and markdown-looking text as python stay valid', () => {
    fc.assert(
      fc.property(fileOf([...pythonLines, ...markdownLines]), fc.constantFrom<Language>('python', 'markdown', 'rst'), (text, language) => {
        expectValidChunks(text, chunkText(text, 'f', language, { maxChunkSize: 120 }), { maxChunkSize: 120 });
      }),
      { numRuns: 100 },
    );
  });
});

/** Text safe inside a Python string literal: any code points but quotes, backslashes, NUL, line breaks. */
const literal = fc.string({ unit: 'binary', maxLength: 40 }).map((s) => s.replace(/["'\\\0\r\n\u2028\u2029\u0085\f\v\u001c-\u001e]/g, 'x'));
const name = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'run', 'load');

const pythonBlock = fc.oneof(
  fc.constant('import os\nfrom typing import Any'),
  literal.map((s) => `# ${s}`),
  fc.tuple(name, literal, fc.integer({ min: 1, max: 40 })).map(
    ([n, s, k]) => `def ${n}(a):\n    """${s}"""\n` + Array.from({ length: k }, (_, i) => `    v${i} = "${s}" + a\n`).join('') + '    return a',
  ),
  fc.tuple(name, literal).map(([n, s]) => `@decorator("${s}")\ndef ${n}():\n    pass`),
  fc.tuple(name, literal, fc.integer({ min: 0, max: 6 })).map(
    ([n, s, k]) =>
      `class ${n.toUpperCase()}:\n    """${s}"""\n    field: int = 1\n` +
      Array.from({ length: k }, (_, i) => `\n    # about m${i}\n    def m${i}(self):\n        return "${s}${i}"\n`).join(''),
  ),
  fc.tuple(literal, fc.integer({ min: 1, max: 60 })).map(([s, k]) => 'TABLE = [\n' + `    "${s}",\n`.repeat(k) + ']'),
);

const pythonFile = fc
  .tuple(fc.array(fc.tuple(pythonBlock, fc.constantFrom('\n', '\n\n', '\n\n\n')), { maxLength: 12 }), fc.boolean())
  .map(([blocks, crlf]) => {
    const text = blocks.map(([b, gap]) => b + gap).join('');
    return crlf ? text.replace(/\n/g, '\r\n') : text;
  });

describe('chunk spans on random valid Python', () => {
  it('parses cleanly (no text fallback) and keeps every invariant', () => {
    fc.assert(
      fc.property(pythonFile, sizes, (text, options) => {
        const chunks = chunkText(text, 'f.py', 'python', options);
        expectValidChunks(text, chunks, { maxChunkSize: options.maxChunkSize });
        if (chunks.some((chunk) => chunk.kind === 'text')) throw new Error(`fell back to text:\n${text}`);
      }),
      { numRuns: 200 },
    );
  });
});
