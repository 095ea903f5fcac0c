import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SETTLED_MS } from '@rag/chunking';
import { readIndex, type IndexStore } from '@rag/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildIndex } from '../src/index.js';

// Every folder store the update opens is counted: how often it loads a generation's chunks.
const loads = vi.hoisted(() => ({ read: 0 }));
vi.mock('@rag/core', async (importOriginal) => {
  const core = await importOriginal<typeof import('@rag/core')>();
  return {
    ...core,
    createFileStore: (...args: Parameters<typeof core.createFileStore>): IndexStore => {
      const store = core.createFileStore(...args);
      return {
        ...store,
        read: (...read: Parameters<IndexStore['read']>) => {
          loads.read++;
          return store.read(...read);
        },
      };
    },
  };
});

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const MINI = join(REPO_ROOT, 'datasets', 'mini', 'corpus');

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'rag-first-look-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe('an update looks at the manifest and the corpus before loading the old index', () => {
  it('finds an unchanged corpus without loading the old chunks, and loads them once something changed', async () => {
    const corpus = join(work, 'corpus');
    await cp(MINI, corpus, { recursive: true });
    await new Promise((done) => setTimeout(done, SETTLED_MS + 100));
    const indexDir = join(work, 'index');
    const options = { corpusDir: corpus, indexDir, retriever: 'bm25', toolVersion: 'test' };
    const first = await buildIndex(options);
    loads.read = 0;
    const again = await buildIndex(options);
    expect(again).toMatchObject({ mode: 'unchanged', chunks: first.chunks, reusedChunks: first.chunks, files: { unchanged: first.files.total, unread: first.files.total, total: first.files.total } });
    expect(again.manifest).toEqual(first.manifest);
    expect(loads.read).toBe(0);
    const edited = join(corpus, 'tinyserve', 'app.py');
    await writeFile(edited, `${await readFile(edited, 'utf8')}\nEDITED_LATER = 1\n`);
    const update = await buildIndex(options);
    expect(update).toMatchObject({ mode: 'incremental', files: { changed: 1, unchanged: first.files.total - 1 } });
    expect(loads.read).toBe(1);
    // --full never looks: it does not need the old index at all.
    loads.read = 0;
    expect((await buildIndex({ ...options, full: true })).mode).toBe('full');
    expect(loads.read).toBe(0);
  });

  it('walks the corpus once per update: a skipped file is reported once, whether or not something changed', async () => {
    const corpus = join(work, 'warned-corpus');
    await cp(MINI, corpus, { recursive: true });
    await writeFile(join(corpus, 'docs', 'blob.txt'), Buffer.from([0x41, 0x00, 0x42]));
    const indexDir = join(work, 'warned-index');
    const warnings: string[] = [];
    const options = { corpusDir: corpus, indexDir, retriever: 'bm25', toolVersion: 'test', onWarning: (message: string) => warnings.push(message) };
    await buildIndex(options);
    const skipped = (): string[] => warnings.splice(0).filter((message) => message.includes('blob.txt'));
    expect(skipped()).toHaveLength(1);
    expect((await buildIndex(options)).mode).toBe('unchanged');
    expect(skipped()).toHaveLength(1);
    await writeFile(join(corpus, 'docs', 'added.md'), '# Added\n\nA page added later.\n');
    expect((await buildIndex(options)).mode).toBe('incremental');
    expect(skipped()).toHaveLength(1);
    // A damaged index is found by the first look's check and rebuilt from a walk of its own:
    // still one warning. (The update wrote its bm25 index as an overlay on the first build's.)
    const { dir } = await readIndex(indexDir).then((index) => (index.texts.close(), index));
    const bm25 = join(dir, 'retrievers', 'bm25', 'bm25-overlay.bin');
    const bytes = await readFile(bm25);
    bytes[bytes.length - 5]! ^= 0x01;
    await writeFile(bm25, bytes);
    expect(await buildIndex(options)).toMatchObject({ mode: 'full', reason: expect.stringMatching(/old index is damaged/) });
    expect(skipped()).toHaveLength(1);
  });
});
