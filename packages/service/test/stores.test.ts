import { describe, expect, it } from 'vitest';
import { openStore, redactLocation } from '../src/index.js';

describe('openStore', () => {
  it('opens a folder as a file store', () => {
    const store = openStore('/tmp/some-index');
    expect(store.kind).toBe('file');
    expect(store.location).toBe('/tmp/some-index');
  });

  it('names a database store without connecting or loading its client, password masked', async () => {
    const store = openStore('postgresql://rag:secret@127.0.0.1:1/rag?schema=docs');
    expect(store.kind).toBe('postgresql');
    expect(store.location).not.toContain('secret');
    expect(store.location).toBe(redactLocation('postgresql://rag:secret@127.0.0.1:1/rag'));
    // Nothing was opened, so closing has nothing to end.
    await expect(store.close()).resolves.toBeUndefined();
  });

  it('refuses bad store options at once, as the store itself would', () => {
    expect(() => openStore('postgresql://rag@127.0.0.1/rag?vectors=sometimes')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(() => openStore('postgresql://rag@127.0.0.1/rag?paged_from=-1')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/pagedFromBytes/) }));
    expect(() => openStore('postgresql://rag@127.0.0.1/rag?paged_from=')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(openStore('postgresql://rag@127.0.0.1/rag?paged_from=0').kind).toBe('postgresql');
  });

  it('reports an unreachable server on first use with the store error', async () => {
    const store = openStore('postgresql://rag@127.0.0.1:1/rag');
    await expect(store.open()).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    await store.close();
  });
});
