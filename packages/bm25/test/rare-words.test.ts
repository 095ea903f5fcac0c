import { describe, expect, it } from 'vitest';
import { createBm25Retriever, RARE_WORD_MAX_CHUNKS } from '../src/index.js';
import { makeChunks, pagedCopy } from './helpers.js';

// A server's code and two docs pages: "port" and "server" are in two chunks each, "backoff",
// "stderr" and "log" (of "Logging") in one, "kafka" in none.
const chunks = makeChunks([
  { text: 'def start_server(port):\n    """Start the server on a port; a failed bind retries with backoff."""', file_path: 'app/server.py', language: 'python', kind: 'function', symbol: 'start_server' },
  { text: 'The server listens on a port. Pass another port with --port.', file_path: 'docs/serving.md' },
  { text: 'Logging goes to stderr unless a file is configured.', file_path: 'docs/logging.md' },
]);

describe('Bm25Retriever.rareWords', () => {
  const retriever = createBm25Retriever(chunks);

  it('lists the words that at most one chunk holds, as written, in order, once each', async () => {
    expect(RARE_WORD_MAX_CHUNKS).toBe(1);
    // "server" is in two chunks; "Kafka" is in none, so it is unindexed, not rare.
    expect(await retriever.rareWords('Does the server log to stderr with backoff, like Kafka? backoff!')).toEqual(['log', 'stderr', 'backoff']);
    expect(await retriever.unindexedWords('Does the server log to stderr with backoff, like Kafka?')).toEqual(['like', 'Kafka']);
  });

  it('lists no word a question drops, and nothing for text without searchable words', async () => {
    expect(await retriever.rareWords('Which port does the server use?')).toEqual([]);
    expect(await retriever.rareWords('what is the of and ?!')).toEqual([]);
    expect(await retriever.rareWords('')).toEqual([]);
  });

  it('gives the same lists when the index is read in pages (document frequencies fetched on demand)', async () => {
    const paged = await pagedCopy(retriever, chunks);
    expect(paged.index.postings.prefetch).toBeDefined();
    for (const question of ['Does the server log to stderr with backoff?', 'Where is the port set?', 'zzqx logging']) {
      expect(await paged.rareWords(question)).toEqual(await retriever.rareWords(question));
    }
  });
});
