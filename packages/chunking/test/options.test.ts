import { describe, expect, it } from 'vitest';
import type { Language } from '@rag/core';
import {
  createChunker,
  DEFAULT_MAX_CHUNK_SIZE,
  DEFAULT_PYTHON_READER,
  DEFAULT_MIN_CHUNK_SIZE,
  DEFAULT_NESTED_CHUNK_SIZE,
  DEFAULT_TARGET_CHUNK_SIZE,
  DEFAULT_TEXT_OVERLAP,
  resolveChunkerOptions,
} from '../src/index.js';

describe('chunker options', () => {
  it('fills the documented defaults', () => {
    expect(resolveChunkerOptions()).toEqual({
      maxChunkSize: DEFAULT_MAX_CHUNK_SIZE,
      targetChunkSize: DEFAULT_TARGET_CHUNK_SIZE,
      minChunkSize: DEFAULT_MIN_CHUNK_SIZE,
      textOverlap: DEFAULT_TEXT_OVERLAP,
      nestedChunkSize: DEFAULT_NESTED_CHUNK_SIZE,
      pythonReader: DEFAULT_PYTHON_READER,
    });
    expect(DEFAULT_MAX_CHUNK_SIZE).toBe(2000);
    expect(DEFAULT_PYTHON_READER).toBe('scan');
  });

  it('scales defaults that would not fit a small cap', () => {
    expect(resolveChunkerOptions({ maxChunkSize: 100 })).toEqual({ maxChunkSize: 100, targetChunkSize: 100, minChunkSize: 100, textOverlap: 50, nestedChunkSize: 100, pythonReader: 'scan' });
  });

  it.each([
    [{ maxChunkSize: 10 }],
    [{ maxChunkSize: 1.5 }],
    [{ targetChunkSize: 3000 }],
    [{ minChunkSize: -1 }],
    [{ textOverlap: 1001 }],
    [{ nestedChunkSize: 2001 }],
  ])('rejects %o with a hint', (options) => {
    expect(() => resolveChunkerOptions(options)).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', hint: expect.stringMatching(/between/) }),
    );
  });

  it('rejects an unknown way of reading Python, naming the valid ones', () => {
    expect(() => resolveChunkerOptions({ pythonReader: 'regex' as never })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/pythonReader/) }));
  });

  it('rejects an unknown language', () => {
    expect(() => createChunker('cobol' as Language)).toThrow(expect.objectContaining({ code: 'UNKNOWN_NAME' }));
  });

  it('exposes its language and resolved options', () => {
    const chunker = createChunker('markdown', { maxChunkSize: 500 });
    expect(chunker.language).toBe('markdown');
    expect(chunker.options.maxChunkSize).toBe(500);
    expect(chunker.chunk('# A\n\ntext\n', 'a.md').map((c) => c.id)).toEqual([0]);
  });
});
