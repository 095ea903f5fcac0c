import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerExtractively, NOT_FOUND_ANSWER, NO_SOURCES_ANSWER } from '../src/internals.js';
import { source } from './helpers/sources.js';

// Pieces a retrieved span is made of: code, prose, markup, and characters that test the
// offsets (astral emoji, combining marks, CRLF, NUL) and the parsers (unbalanced brackets
// and quotes, a docstring never closed, a colon line with nothing after it).
const PIECES = [
  'def f(x=1):\n',
  '    """Return x.\n',
  '    raise ValueError("bad")\n',
  '    if x is None:\n        return 0\n',
  'DEFAULT_SIZE = 10\n',
  'size = DEFAULT_SIZE * 2\n',
  'The default size is 10.\n',
  'It is used when nothing is given:\n',
  '- first item\n- second item\n',
  '| a | b |\n|---|---|\n| 1 | 2 |\n',
  '```python\nx = (1,\n',
  '.. note:: careful\n',
  '# comment ----\n',
  'é́ 🚀 ',
  '\r\n',
  '\u0000',
  '((([[[',
  '"""',
  "'",
  ':\n',
];
const text = fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 30 })), { maxLength: 25 }).map((parts) => parts.join(''));
const question = fc.oneof(
  fc.constantFrom(
    'What is the default size?',
    'Which error is raised when x is bad?',
    'Where is f defined?',
    'How do I set the size?',
    'Which items are listed?',
    'What happens when x is None?',
    'How is size computed?',
    'Is it used when nothing is given?',
  ),
  fc.string({ maxLength: 60 }),
);
const paths = fc.constantFrom('pkg/mod.py', 'docs/guide.md', 'docs/api.rst', 'notes.txt');

describe('answerExtractively on arbitrary sources and questions', () => {
  it('never throws; cites only given sources; quotes lie inside their source; "not found" cites without quotes', () => {
    fc.assert(
      fc.property(question, fc.array(fc.tuple(text, paths, fc.nat({ max: 5000 })), { maxLength: 5 }), (q, specs) => {
        const sources = specs.map(([t, file_path, offset]) =>
          source(t, { file_path, first_character_index: offset, last_character_index: offset + Array.from(t).length }),
        );
        const answer = answerExtractively(q, sources);
        expect(answer.lines.length).toBeGreaterThan(0);
        if (sources.length === 0) {
          expect(answer.lines).toEqual([NO_SOURCES_ANSWER]);
          return;
        }
        for (const cited of answer.citedSources) {
          expect(cited.n).toBeGreaterThanOrEqual(1);
          expect(cited.n).toBeLessThanOrEqual(sources.length);
          const given = sources[cited.n - 1]!;
          expect(cited.file_path).toBe(given.file_path);
          for (const quote of cited.quotes ?? []) {
            expect(quote.first_character_index).toBeGreaterThanOrEqual(given.first_character_index);
            expect(quote.last_character_index).toBeLessThanOrEqual(given.last_character_index);
            expect(quote.first_character_index).toBeLessThanOrEqual(quote.last_character_index);
          }
        }
        // Every [n] in the text names a source of the request.
        for (const marker of answer.lines.join('\n').matchAll(/\[(\d+)\]$/gm)) expect(Number(marker[1])).toBeLessThanOrEqual(sources.length);
        if (answer.lines[0]!.startsWith(NOT_FOUND_ANSWER)) for (const cited of answer.citedSources) expect(cited.quotes).toBeUndefined();
        expect(answer.coverage).toBeGreaterThanOrEqual(0);
        expect(answer.coverage).toBeLessThanOrEqual(1);
      }),
      { numRuns: 300 },
    );
    // 300 runs take about a second alone; a busy machine may take many times that.
  }, 60_000);
});
