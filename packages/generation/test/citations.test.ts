import { describe, expect, it } from 'vitest';
import { mapCitations } from '../src/internals.js';
import { source } from './helpers/sources.js';

const sources = [
  source('a', { file_path: 'a.py', first_character_index: 10, last_character_index: 20, start_line: 2, end_line: 3, symbol: 'A' }),
  source('b', { file_path: 'b.md', first_character_index: 0, last_character_index: 5 }),
  source('c', { file_path: 'c.py' }),
];

describe('mapCitations', () => {
  it('maps [n] to the n-th source, in order of first citation, each once', () => {
    const m = mapCitations('Uses b [2] and a [1], again b [2].', sources);
    expect(m.answer).toBe('Uses b [2] and a [1], again b [2].');
    expect(m.citedSources.map((c) => [c.n, c.file_path])).toEqual([
      [2, 'b.md'],
      [1, 'a.py'],
    ]);
    expect(m.citedSources[1]).toEqual({ n: 1, file_path: 'a.py', first_character_index: 10, last_character_index: 20, start_line: 2, end_line: 3, symbol: 'A' });
    expect(m.droppedCitations).toEqual([]);
  });

  it('expands lists and ranges', () => {
    const m = mapCitations('All three [1, 3] or [1-2] or [2–3][1].', sources);
    expect(m.citedSources.map((c) => c.n)).toEqual([1, 3, 2]);
  });

  it('drops unknown numbers from the text and reports each once', () => {
    const m = mapCitations('Known [1] unknown [7] mixed [2, 9] again [7] paren ([8]).', sources);
    expect(m.answer).toBe('Known [1] unknown mixed [2] again paren.');
    expect(m.droppedCitations).toEqual([7, 9, 8]);
    expect(m.citedSources.map((c) => c.n)).toEqual([1, 2]);
  });

  it('treats [0] as unknown: numbering starts at 1', () => {
    expect(mapCitations('zero [0]', sources).droppedCitations).toEqual([0]);
  });

  it('leaves indexing, code spans and huge ranges alone', () => {
    const text = 'Use `x[7]` or shape[9] or f()[8], not a range [1-2000].\n```\ny = z[5]\n```';
    const m = mapCitations(text, sources);
    expect(m.answer).toBe(text);
    expect(m.citedSources).toEqual([]);
    expect(m.droppedCitations).toEqual([]);
  });
});
