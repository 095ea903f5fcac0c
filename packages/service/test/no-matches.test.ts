import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex, describeNoMatches, openSearchSession, searchSources, type SearchSession } from '../src/index.js';

describe('describeNoMatches: why a search found nothing', () => {
  let work: string;
  let session: SearchSession;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rag-no-matches-'));
    const corpus = join(work, 'corpus');
    await mkdir(corpus, { recursive: true });
    await writeFile(join(corpus, 'pool.py'), 'def resize_pool(size):\n    """Grow or shrink the connection pool."""\n    return size\n');
    await writeFile(join(corpus, 'README.md'), '# Pool\n\nThe connection pool keeps sockets open between requests.\n');
    const indexDir = join(work, 'index');
    await buildIndex({ corpusDir: corpus, indexDir, retriever: 'bm25', toolVersion: 'test', threads: 1 });
    session = await openSearchSession(indexDir, { pathBase: work });
  }, 60_000);

  afterAll(() => rm(work, { recursive: true, force: true }));

  it('names the words no indexed chunk holds, the first three and a count of the rest', async () => {
    const query = 'kafka zookeeper brokers partitions offsets';
    expect(await searchSources(session, query, 5)).toEqual([]);
    expect(await describeNoMatches(session, query)).toBe('No indexed chunk holds "kafka", "zookeeper", "brokers" and 2 more: check the spelling, or use the words the code and its docs use.');
    expect(await describeNoMatches(session, 'kafka or zookeeper')).toMatch(/^No indexed chunk holds "kafka" or "zookeeper": /);
  });

  it('says when the query holds no word the index searches at all', async () => {
    for (const query of ['what is the', '???', 'x'.repeat(300), 'f']) {
      expect(await searchSources(session, query, 5), query).toEqual([]);
      expect(await describeNoMatches(session, query), query).toMatch(/^None of the query's words is one the index searches \(single letters, /);
    }
  });

  it('cuts a long unindexed word short', async () => {
    const word = `unheardof${'q'.repeat(50)}`;
    const why = await describeNoMatches(session, word);
    expect(why).toContain(`"${word.slice(0, 39)}…"`);
  });
});
