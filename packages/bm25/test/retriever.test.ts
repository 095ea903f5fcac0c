import { RetrieverRegistry, type ProgressEvent } from '@rag/core';
import { describe, expect, it } from 'vitest';
import { Bm25Retriever, bm25RetrieverFactory, createBm25Retriever } from '../src/index.js';
import { makeChunks, rejection } from './helpers.js';

const chunks = makeChunks(Array.from({ length: 2500 }, (_, i) => ({ text: `chunk number${i} shared ${i % 7 === 0 ? 'seven' : ''}` })));

describe('bm25RetrieverFactory', () => {
  it('registers under the name bm25', () => {
    const registry = new RetrieverRegistry([bm25RetrieverFactory]);
    expect(registry.get('bm25')).toBe(bm25RetrieverFactory);
    expect(bm25RetrieverFactory.description.length).toBeGreaterThan(0);
  });

  it('builds a Retriever and reports fit progress up to the total', async () => {
    const events: ProgressEvent[] = [];
    const retriever = await bm25RetrieverFactory.build(chunks, { settings: { k1: 1.5 }, onProgress: (e) => events.push(e) });
    expect(retriever).toBeInstanceOf(Bm25Retriever);
    expect(retriever.name).toBe('bm25');
    expect(events.every((e) => e.phase === 'fit' && e.total === chunks.length)).toBe(true);
    expect(events.at(-1)!.done).toBe(chunks.length);
    expect((retriever as Bm25Retriever).index.options.k1).toBe(1.5);
  });

  it('asks for one garbage collection between analysing and inverting, and builds the same index', async () => {
    let collections = 0;
    const collected = (await bm25RetrieverFactory.build(chunks, { collectGarbage: () => collections++ })) as Bm25Retriever;
    const plain = (await bm25RetrieverFactory.build(chunks)) as Bm25Retriever;
    expect(collections).toBe(1);
    expect(collected.index.data).toEqual(plain.index.data);
  });
});

describe('Bm25Retriever.search', () => {
  const retriever = createBm25Retriever(chunks);

  it('returns at most k hits, best first', async () => {
    const hits = await retriever.search('seven', { k: 5 });
    expect(hits).toHaveLength(5);
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
    for (const hit of hits) expect(hit.chunkId % 7).toBe(0);
  });

  it('returns fewer than k when fewer chunks match', async () => {
    expect(await retriever.search('number42', { k: 10 })).toEqual([{ chunkId: 42, score: expect.any(Number) }]);
  });

  it('returns [] for an empty or unindexable query', async () => {
    expect(await retriever.search('', { k: 3 })).toEqual([]);
    expect(await retriever.search('   ?? the of', { k: 3 })).toEqual([]);
  });

  it.each([0, -1, 2.5, Number.NaN])('refuses k = %s', async (k) => {
    const error = await rejection(() => retriever.search('seven', { k }));
    expect(error.code).toBe('INVALID_ARGUMENT');
  });

  it('works over no chunks at all', async () => {
    const empty = createBm25Retriever([]);
    expect(await empty.search('anything', { k: 3 })).toEqual([]);
  });

  it('refuses chunks whose ids are not their positions', async () => {
    const shuffled = makeChunks([{ text: 'a b' }, { text: 'c d' }]).reverse();
    const error = await rejection(() => createBm25Retriever(shuffled));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.hint).toContain('0, 1, 2');
  });

  it('leaves no state behind between queries', async () => {
    const first = await retriever.search('seven shared', { k: 3 });
    await retriever.search('number1 number2 chunk', { k: 50 });
    expect(await retriever.search('seven shared', { k: 3 })).toEqual(first);
  });
});
