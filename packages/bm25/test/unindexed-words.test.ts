import fc from 'fast-check';
import type { Chunk } from '@rag/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBm25Retriever, type Bm25Retriever } from '../src/index.js';
import { pagedCopy } from './helpers.js';
import { miniChunks } from './mini-corpus.js';

describe('Bm25Retriever.unindexedWords (the mini corpus: a small web server and its docs)', () => {
  let chunks: Chunk[];
  let retriever: Bm25Retriever;

  beforeAll(async () => {
    chunks = await miniChunks();
    retriever = createBm25Retriever(chunks);
  }, 60_000);

  it('lists the words no chunk holds, as written, in order, once each', async () => {
    // The corpus never speaks of Kafka, topics, consumers or subscribing; it does say "group"
    // (and "which", "does", "the", "to" are words a query drops, so they are never listed).
    expect(await retriever.unindexedWords('Which Kafka topic does the consumer group subscribe to? Kafka!')).toEqual(['Kafka', 'topic', 'consumer', 'subscribe']);
  });

  it('counts a word as held when any of its terms is: a sub-word, an alias, a version', async () => {
    // `default` and `port` are indexed, though `default_port_number` is not; "constructor" is
    // searched as `init`, which `__init__` gives; "HTTP/2" is also `http`.
    expect(await retriever.unindexedWords('Where is DEFAULT_PORT_NUMBER set?')).toEqual([]);
    expect(await retriever.unindexedWords('What does the constructor of Route take?')).toEqual([]);
    expect(await retriever.unindexedWords('Is HTTP/2 supported?')).toEqual([]);
  });

  it('lists nothing for text without searchable words', async () => {
    expect(await retriever.unindexedWords('')).toEqual([]);
    expect(await retriever.unindexedWords('what is the of and ?!')).toEqual([]);
  });

  it('never lists a word that a search for it alone would find', async () => {
    const vocabulary = ['route', 'port', 'kafka', 'middleware', 'zebra', 'DEFAULT_PORT', 'lambda_x', 'ünïcode', 'HTTP/2', 'the', 'timeout', 'mqtt', 'Retry-After'];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...vocabulary), { maxLength: 6 }), async (words) => {
        const listed = await retriever.unindexedWords(words.join(' '));
        for (const word of listed) {
          expect(words).toContain(word);
          expect(await retriever.search(word, { k: 1 })).toEqual([]);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('gives the same lists when the index is read in pages (dictionary blocks fetched on demand)', async () => {
    const paged = await pagedCopy(retriever, chunks);
    expect(paged.index.postings.prefetchVocabulary).toBeDefined();
    for (const question of ['Which Kafka topic does the consumer group subscribe to?', 'Where is the port set?', 'zzqx middleware']) {
      expect(await paged.unindexedWords(question)).toEqual(await retriever.unindexedWords(question));
    }
  });
});
