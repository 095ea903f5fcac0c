import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isRagError, PAGED_FILE_MIN_BYTES, readManifest } from '@rag/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex, openSearchSession, searchSources } from '../src/index.js';
import { seededRandom } from './seeded-random.js';

// Syllables make many distinct words, so the bm25 file passes the size that gets page checksums.
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'su', 'ta', 'ri', 'vo', 'ze', 'pu', 'da', 'fi', 'go', 'he', 'ju', 'bo'];

describe('a session that asks one question reads a large bm25 index in checked parts', () => {
  let work: string;
  let indexDir: string;
  let questions: string[];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'rag-one-question-'));
    const corpus = join(work, 'corpus');
    await mkdir(join(corpus, 'pkg'), { recursive: true });
    const next = seededRandom(7);
    const word = (): string => Array.from({ length: 2 + Math.floor(next() * 3) }, () => SYLLABLES[Math.floor(next() * SYLLABLES.length)]).join('');
    questions = [];
    for (let f = 0; f < 80; f++) {
      const parts: string[] = [];
      for (let g = 0; g < 12; g++) {
        const name = `${word()}_${word()}`;
        const doc = Array.from({ length: 40 }, word).join(' ');
        parts.push(`def ${name}(${word()}, ${word()}=${g}):\n    """${doc}"""\n    return ${word()}(${word()}) + ${word()}\n`);
        if (g === 0 && f % 8 === 0) questions.push(`What does ${name} return for ${doc.split(' ').slice(3, 6).join(' ')}?`);
      }
      await writeFile(join(corpus, 'pkg', `mod_${f}.py`), parts.join('\n\n'));
    }
    indexDir = join(work, 'index');
    await buildIndex({ corpusDir: corpus, indexDir, retriever: 'bm25', toolVersion: 'test', threads: 1 });
  }, 120_000);

  afterAll(() => rm(work, { recursive: true, force: true }));

  it('ranks exactly as a session that loads it whole, without reading the file whole', async () => {
    const manifest = await readManifest(indexDir);
    const bm25 = manifest.checksums['retrievers/bm25/bm25.bin']!;
    expect(bm25.size).toBeGreaterThanOrEqual(PAGED_FILE_MIN_BYTES);
    expect(bm25.pages).toBeDefined();
    const whole = await openSearchSession(indexDir, { pathBase: work });
    const paged = await openSearchSession(indexDir, { pathBase: work, pagedFromBytes: 0 });
    const index = (paged.retriever as unknown as { index: { postings: { prefetch?: unknown; stats(): { fetchedBytes: number } } } }).index;
    expect(index.postings.prefetch).toBeDefined();
    for (const question of [...questions, 'return', 'nothing matches zzzq']) {
      expect(await searchSources(paged, question, 10), question).toEqual(await searchSources(whole, question, 10));
    }
    // Every question together fetched a fraction of the file.
    expect(index.postings.stats().fetchedBytes).toBeLessThan(bm25.size / 2);
  });

  it('refuses a damaged page when a question reads it (INDEX_CORRUPT naming the file), and answers from intact ones', async () => {
    const generation = join(indexDir, 'generations', (await readdir(join(indexDir, 'generations'))).find((n) => n.startsWith('g-'))!);
    const path = join(generation, 'retrievers', 'bm25', 'bm25.bin');
    const bytes = await readFile(path);
    const original = Buffer.from(bytes);
    try {
      // Every page past the first 64 KB (header and dictionary) altered: the question's lists are among them.
      for (let at = 65_536; at < bytes.length; at += 4096) bytes[at]! ^= 0xff;
      await writeFile(path, bytes);
      const paged = await openSearchSession(indexDir, { pathBase: work, pagedFromBytes: 0 }).catch((error: unknown) => error);
      const error = isRagError(paged) ? paged : await searchSources(paged as Awaited<ReturnType<typeof openSearchSession>>, questions[0]!, 5).catch((e: unknown) => e);
      expect(isRagError(error) && [error.code, error.message]).toEqual(['INDEX_CORRUPT', expect.stringMatching(/bm25\.bin \(page \d+\) does not match its checksum/)]);
      // Loaded whole, the same damage is found when the file is opened.
      const whole = await openSearchSession(indexDir, { pathBase: work }).catch((e: unknown) => e);
      expect(isRagError(whole) && whole.code).toBe('INDEX_CORRUPT');
    } finally {
      await writeFile(path, original);
    }
  });
});
