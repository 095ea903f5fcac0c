import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chunkCorpus } from '@rag/chunking';
import { openIndexSession, writeIndex, type Chunk, type FileRecord, type SaveContext } from '@rag/core';
import { createPostgresStore } from '@rag/postgres';
import { findPostgresBin, startTestCluster, type TestCluster } from '@rag/postgres/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as Service from '../src/index.js';

// The pool's workers run the built script, so this suite drives the built package (as search-pool.test.ts).
const dist = new URL('../dist/index.js', import.meta.url);
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const CORPUS = join(REPO_ROOT, 'datasets', 'mini', 'corpus');

function postgresAvailable(): boolean {
  if (findPostgresBin()) return true;
  if (process.env.RAG_REQUIRE_POSTGRES === '1') throw new Error('RAG_REQUIRE_POSTGRES=1 but PostgreSQL is not installed (apt-get install postgresql).');
  console.warn('PostgreSQL is not installed: skipping its suites (apt-get install postgresql to run them).');
  return false;
}

/** What a result says to a user: which spans, in which order. */
function spans(hits: { file_path: string; chunk: Chunk }[]): string[] {
  return hits.map((h) => `${h.file_path}:${h.chunk.first_character_index}-${h.chunk.last_character_index}`);
}

describe.skipIf(!postgresAvailable())('an index in PostgreSQL, through the service', () => {
  let service: typeof Service;
  let cluster: TestCluster;
  let work: string;
  let fileIndex: string;
  let url: string;
  let questions: string[];
  let corpus: { files: FileRecord[]; chunks: Chunk[] };

  beforeAll(async () => {
    expect(existsSync(fileURLToPath(new URL('../dist/search-worker.js', import.meta.url))), 'build @rag/service first').toBe(true);
    service = (await import(dist.href)) as typeof Service;
    cluster = await startTestCluster();
    url = `${cluster.url}?schema=mini`;
    work = await mkdtemp(join(tmpdir(), 'rag-service-pg-'));
    fileIndex = join(work, 'index');
    corpus = await chunkCorpus(CORPUS);
    questions = (JSON.parse(await readFile(join(REPO_ROOT, 'datasets', 'mini', 'questions.json'), 'utf8')) as { rag_questions: { question: string }[] }).rag_questions.map((q) => q.question);
    // The same generation (both retrievers) into a folder and into the database.
    const registry = service.createDefaultRetrieverRegistry();
    const names = ['bm25', 'hybrid'];
    const built = await Promise.all(names.map((name) => registry.get(name).build(corpus.chunks)));
    const input = {
      manifest: { toolVersion: 'test', createdAt: new Date().toISOString(), corpusDir: CORPUS, corpusDirAsGiven: CORPUS, chunking: {}, files: corpus.files },
      chunks: corpus.chunks,
      retrievers: names.map((name, i) => ({ entry: { name, settings: {}, builtAt: new Date().toISOString() }, save: (dir: string) => built[i]!.save(dir) })),
    };
    await writeIndex(fileIndex, input);
    const store = createPostgresStore(url);
    await store.write(input);
    await store.close();
  });

  afterAll(async () => {
    await cluster?.stop();
    await rm(work, { recursive: true, force: true });
  });

  it('ranks every question exactly as the file index does, with both retrievers, texts included', async () => {
    const fromFile = await service.openRagService({ indexDir: fileIndex, pathBase: CORPUS, workers: 0 });
    const fromDatabase = await service.openRagService({ indexDir: url, pathBase: CORPUS, workers: 0 });
    try {
      for (const retriever of ['bm25', 'hybrid']) {
        for (const query of questions) {
          const a = await fromFile.searchWithText({ query, k: 10, retriever });
          const b = await fromDatabase.searchWithText({ query, k: 10, retriever });
          expect(b.view.hits.map((h) => [h.file_path, h.first_character_index, h.score])).toEqual(a.view.hits.map((h) => [h.file_path, h.first_character_index, h.score]));
          expect(b.texts).toEqual(a.texts);
        }
      }
      // Answers are written from the fetched texts.
      let text = '';
      for await (const event of fromDatabase.beginAnswer({ query: questions[0]!, generator: 'extractive' })) if (event.type === 'token') text += event.text;
      expect(text).toMatch(/8421/);
    } finally {
      await fromFile.close();
      await fromDatabase.close();
    }
  });

  it('searches in worker threads over one shared copy of the files it fetched, with the same hits', async () => {
    const pooled = await service.openRagService({ indexDir: url, pathBase: CORPUS, workers: 2 });
    const inThread = await service.openRagService({ indexDir: url, pathBase: CORPUS, workers: 0 });
    try {
      expect((await pooled.stats()).search_workers.workers).toBe(2);
      for (const query of questions) {
        const a = await inThread.searchWithText({ query, k: 5 });
        const b = await pooled.searchWithText({ query, k: 5 });
        expect(b.view.hits).toEqual(a.view.hits);
        expect(b.texts).toEqual(a.texts);
      }
    } finally {
      await pooled.close();
      await inThread.close();
    }
  });

  it('with `?paged_from=0` searches bm25 from pages it fetches, never reading bm25.bin whole: the same rankings in this thread and in workers', async () => {
    const pagedUrl = `${url}&paged_from=0`;
    const fromFile = await service.openRagService({ indexDir: fileIndex, pathBase: CORPUS, workers: 0 });
    const inThread = await service.openRagService({ indexDir: pagedUrl, pathBase: CORPUS, workers: 0 });
    const pooled = await service.openRagService({ indexDir: pagedUrl, pathBase: CORPUS, workers: 2 });
    try {
      for (const retriever of ['bm25', 'hybrid']) {
        for (const query of questions) {
          const a = await fromFile.searchWithText({ query, k: 10, retriever });
          for (const paged of [inThread, pooled]) {
            const b = await paged.searchWithText({ query, k: 10, retriever });
            expect(b.view.hits.map((h) => [h.file_path, h.first_character_index, h.score]), `${retriever}: ${query}`).toEqual(a.view.hits.map((h) => [h.file_path, h.first_character_index, h.score]));
            expect(b.texts).toEqual(a.texts);
          }
        }
      }
    } finally {
      await fromFile.close();
      await inThread.close();
      await pooled.close();
    }
    // What is read whole, through a store that records it: every retriever file but bm25's index.
    const store = createPostgresStore(pagedUrl);
    const readWhole: string[] = [];
    const recording = { ...store, readFile: (path: string) => (readWhole.push(path.split('/').slice(-3).join('/')), store.readFile(path)) };
    try {
      const session = await openIndexSession(recording, { retrievers: service.createDefaultRetrieverRegistry(), pathBase: CORPUS });
      const hybrid = await session.search(questions[0]!, 5, 'hybrid');
      expect(hybrid.length).toBe(5);
      expect((await session.search(questions[0]!, 5, 'bm25')).length).toBe(5);
      expect(readWhole.filter((path) => path.endsWith('bm25.bin'))).toEqual([]);
      // The dense half of hybrid cannot search from parts: its files are read whole, and hashed.
      expect(readWhole.some((path) => path.startsWith('hybrid/'))).toBe(true);
      session.close();
    } finally {
      await store.close();
    }
  });

  it('re-indexes one changed file in place: readers during the update see the old corpus or the new, never a mix; the result equals a full rebuild', async () => {
    const corpusDir = join(work, 'corpus');
    await cp(CORPUS, corpusDir, { recursive: true });
    const target = `${cluster.url}?schema=updated`;
    const full = `${cluster.url}?schema=rebuilt`;
    const build = (indexDir: string, extra: Partial<Service.BuildIndexOptions> = {}) =>
      service.buildIndex({ corpusDir, indexDir, retriever: 'bm25', toolVersion: 'test', threads: 1, ...extra });
    const query = 'What TCP port does the development server listen on by default?';
    const searchOnce = async (indexDir: string): Promise<string[]> => {
      const session = await service.openSearchSession(indexDir, { pathBase: corpusDir });
      return (await service.searchSources(session, query, 5)).map((s) => `${s.file_path}:${s.first_character_index}-${s.last_character_index}`);
    };
    expect((await build(target)).mode).toBe('full');
    const before = await searchOnce(target);
    const defaults = join(corpusDir, 'tinyserve', 'defaults.py');
    await writeFile(defaults, `# Moved.\n\n${await readFile(defaults, 'utf8')}`);
    const seen: string[][] = [];
    let done = false;
    const readers = (async () => {
      while (!done) seen.push(await searchOnce(target));
    })();
    const report = await build(target);
    done = true;
    await readers;
    expect(report.mode).toBe('incremental');
    expect(report.files).toMatchObject({ changed: 1, unchanged: report.files.total - 1 });
    const after = await searchOnce(target);
    expect(after).not.toEqual(before);
    expect(seen.length).toBeGreaterThan(0);
    for (const result of seen) expect([before, after]).toContainEqual(result);
    await build(full, { full: true });
    expect(await searchOnce(full)).toEqual(after);
  });

  it('an update that changes little writes bm25 as an overlay on the base it copies in the database; searches equal a full rebuild, whole or in pages', async () => {
    const corpusDir = join(work, 'overlay-corpus');
    await cp(CORPUS, corpusDir, { recursive: true });
    // Enough modules that one changed file is a small part of the index (bm25's OVERLAY_MAX_SHARE).
    for (let i = 0; i < 40; i++) await writeFile(join(corpusDir, 'tinyserve', `module_${i}.py`), `def helper_${i}(value, retries=${i % 5}):\n    """Retry helper ${i}."""\n    return value * ${i}\n`);
    const target = `${cluster.url}?schema=overlaid`;
    const full = `${cluster.url}?schema=overlaid_full`;
    const build = (indexDir: string, extra: Partial<Service.BuildIndexOptions> = {}) => service.buildIndex({ corpusDir, indexDir, retriever: 'bm25', toolVersion: 'test', threads: 1, ...extra });
    expect((await build(target)).mode).toBe('full');
    const store = createPostgresStore(target);
    const first = (await store.open()).manifest.checksums;
    await writeFile(join(corpusDir, 'tinyserve', 'module_3.py'), 'def overlay_helper(limit=21):\n    """The retry helper that replaced module three."""\n    return limit\n');
    expect((await build(target)).mode).toBe('incremental');
    await build(full, { full: true });
    const { checksums } = await store.open().then((opened) => opened.manifest);
    expect(Object.keys(checksums).filter((file) => file.startsWith('retrievers/bm25/')).sort()).toEqual(['retrievers/bm25/bm25-base.bin', 'retrievers/bm25/bm25-overlay.bin']);
    // The base's pages were copied inside the database, its checksums carried over; every byte still verifies.
    expect(checksums['retrievers/bm25/bm25-base.bin']).toEqual(first['retrievers/bm25/bm25.bin']);
    expect((await store.verify()).files).toBeGreaterThan(3);
    await store.close();
    const ranked = async (indexDir: string, query: string): Promise<string[]> => {
      const session = await service.openSearchSession(indexDir, { pathBase: corpusDir });
      return (await service.searchSources(session, query, 5)).map((s) => `${s.file_path}:${s.first_character_index}-${s.last_character_index}:${s.score}`);
    };
    for (const query of [...questions, 'retry helper that replaced module three', 'helper_5 retries']) {
      const expected = await ranked(full, query);
      expect(await ranked(target, query), query).toEqual(expected);
      expect(await ranked(`${target}&paged_from=0`, query), query).toEqual(expected);
    }
  });

  it('a server moves to a generation published after it started, and keeps answering meanwhile', async () => {
    const moving = `${cluster.url}?schema=followed`;
    const registry = service.createDefaultRetrieverRegistry();
    const publish = async (chunks: Chunk[]): Promise<string> => {
      const bm25 = await registry.get('bm25').build(chunks);
      const store = createPostgresStore(moving);
      const manifest = await store.write({
        manifest: { toolVersion: 'test', createdAt: new Date().toISOString(), corpusDir: CORPUS, corpusDirAsGiven: CORPUS, chunking: {}, files: corpus.files },
        chunks,
        retrievers: [{ entry: { name: 'bm25', settings: {}, builtAt: new Date().toISOString() }, save: (dir: string) => bm25.save(dir) }],
      });
      await store.close();
      return manifest.generation;
    };
    await publish(corpus.chunks);
    for (const workers of [0, 1]) {
      const served = await service.openRagService({ indexDir: moving, pathBase: CORPUS, workers, followIndexMs: 50 });
      try {
        const first = await served.search({ query: questions[0]!, k: 3 });
        // The next generation lacks the chunk the first one ranked top.
        const top = first.hits[0]!;
        const next = await publish(corpus.chunks.filter((c) => !(c.file_path === top.file_path && c.first_character_index === top.first_character_index)).map((c, id) => ({ ...c, id, text: c.text })));
        for (let i = 0; i < 400 && served.session.pin.generation !== next; i++) {
          await served.search({ query: questions[0]!, k: 3 });
          await new Promise((r) => setTimeout(r, 25));
        }
        expect(served.session.pin.generation).toBe(next);
        const after = await served.search({ query: questions[0]!, k: 3 });
        expect(after.hits[0]).not.toEqual(top);
      } finally {
        await served.close();
      }
    }
  });

  it('without pgvector on the server: `auto` keeps vectors in files and searches them in memory, `pgvector` refuses with a hint', async () => {
    const registry = service.createDefaultRetrieverRegistry();
    const embedding = await registry.get('embedding').build(corpus.chunks);
    const input = {
      manifest: { toolVersion: 'test', createdAt: new Date().toISOString(), corpusDir: CORPUS, corpusDirAsGiven: CORPUS, chunking: {}, files: corpus.files },
      chunks: corpus.chunks,
      retrievers: [{ entry: { name: 'embedding', settings: {}, builtAt: new Date().toISOString() }, save: (dir: string, context?: SaveContext) => embedding.save(dir, context) }],
    };
    const strict = createPostgresStore(`${cluster.url}?schema=strict&vectors=pgvector`);
    const error = (await strict.write(input).catch((e: unknown) => e)) as { code: string; message: string; hint: string };
    await strict.close();
    expect(error).toMatchObject({ code: 'STORE_UNAVAILABLE' });
    expect(error.message).toMatch(/no `vector` extension/);
    expect(error.hint).toMatch(/CREATE EXTENSION vector/);
    const auto = createPostgresStore(`${cluster.url}?schema=auto`);
    try {
      await auto.write(input);
      expect((await auto.pool.query('SELECT count(*)::int AS n FROM auto.vector_sets')).rows[0]).toEqual({ n: 0 });
      const session = await openIndexSession(auto, { retrievers: registry });
      const loaded = await session.retriever('embedding');
      expect((loaded as unknown as { store: unknown }).store).toBeNull();
      for (const query of questions) expect(await loaded.search(query, { k: 5 })).toEqual(await embedding.search(query, { k: 5 }));
      session.close();
    } finally {
      await auto.close();
    }
  });

  it('refuses a connection string that cannot work with a message that says why', async () => {
    const error = (await service.openSearchSession(`postgresql://rag:wrong@127.0.0.1:${cluster.port}/rag`).catch((e: unknown) => e)) as { code: string; message: string };
    expect(error).toMatchObject({ code: 'STORE_UNAVAILABLE' });
    expect(error.message).not.toMatch(/wrong/);
  });
});
