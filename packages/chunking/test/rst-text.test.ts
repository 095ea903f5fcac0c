import { describe, expect, it } from 'vitest';
import { chunkText } from '../src/index.js';
import { expectValidChunks } from './helpers.js';

const paragraph = (words: number, seed: string) => Array.from({ length: words }, (_, i) => `${seed}${i}`).join(' ');

describe('rst chunking', () => {
  it('cuts at underlined headings, levels in order of first use, overlines allowed', () => {
    const text = [
      '=========',
      'Reference',
      '=========',
      '',
      paragraph(80, 'r'),
      '',
      'Install',
      '-------',
      '',
      paragraph(80, 'i'),
      '',
      'GPU 🚀',
      '~~~~~~',
      '',
      paragraph(40, 'g'),
      '',
      'Usage',
      '-----',
      '',
      paragraph(40, 'u'),
      '',
    ].join('\n');
    const chunks = chunkText(text, 'doc.rst', 'rst');
    expectValidChunks(text, chunks, { maxChunkSize: 2000 });
    expect(chunks.map((c) => [c.symbol, c.start_line])).toEqual([
      ['Reference', 1],
      ['Reference > Install', 7],
      ['Reference > Install > GPU 🚀', 12],
      ['Reference > Usage', 17],
    ]);
  });

  it('does not take a short underline or a transition for a heading', () => {
    const text = ['Title that is long', '---', '', paragraph(20, 'a'), '', '----------', '', paragraph(20, 'b'), ''].join('\n');
    const chunks = chunkText(text, 'doc.rst', 'rst');
    expect(chunks.map((c) => c.symbol)).toEqual(['']);
  });

  it('splits a long section at paragraphs', () => {
    const text = ['Guide', '=====', '', paragraph(30, 'a'), '', paragraph(30, 'b'), '', paragraph(30, 'c'), ''].join('\n');
    const chunks = chunkText(text, 'doc.rst', 'rst', { maxChunkSize: 250 });
    expectValidChunks(text, chunks, { maxChunkSize: 250 });
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.every((c) => c.symbol === 'Guide')).toBe(true);
    for (const c of chunks) expect(c.text).toMatch(/^(Guide\n=====|[abc]0 )/);
  });
});

describe('text windows', () => {
  it('breaks at blank lines and overlaps the previous window by at most the overlap', () => {
    const text = Array.from({ length: 12 }, (_, i) => paragraph(12, `p${i}w`)).join('\n\n') + '\n';
    const options = { maxChunkSize: 300, textOverlap: 80 };
    const chunks = chunkText(text, 'notes.txt', 'text', options);
    expectValidChunks(text, chunks, { maxChunkSize: 300, overlap: 80 });
    expect(chunks.length).toBeGreaterThan(2);
    for (const [i, c] of chunks.entries()) {
      expect(c.kind).toBe('text');
      expect(c.text).toMatch(/^p\d+w0 /);
      if (i > 0) expect(c.first_character_index).toBeLessThan(chunks[i - 1]!.last_character_index);
    }
  });

  it('does not overlap when the overlap is 0, and rejects an overlap over half the cap', () => {
    const text = Array.from({ length: 30 }, (_, i) => `line ${i} with some words`).join('\n');
    const chunks = chunkText(text, 'notes.txt', 'text', { maxChunkSize: 100, textOverlap: 0 });
    expectValidChunks(text, chunks, { maxChunkSize: 100 });
    expect(() => chunkText(text, 'notes.txt', 'text', { maxChunkSize: 100, textOverlap: 51 })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });
});
