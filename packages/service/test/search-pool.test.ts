import { existsSync } from 'node:fs';
import { appendFile, cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chunkCorpus } from '@rag/chunking';
import { isRagError, writeIndex, type Chunk, type FileRecord } from '@rag/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as Service from '../src/index.js';

// Worker threads run the built script (dist/search-worker.js): `pnpm test` builds first,
// so this suite drives the built package, as the server does.
const dist = new URL('../dist/index.js', import.meta.url);
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const CORPUS = join(REPO_ROOT, 'datasets', 'mini', 'corpus');
const TEST_REGISTRY = fileURLToPath(new URL('./fixtures/test-registry.mjs', import.meta.url));

let service: typeof Service;
let work: string;
let indexDir: string;
let corpus: { files: FileRecord[]; chunks: Chunk[] };
let questions: string[];

async function publish(names: string[] = ['bm25', 'hybrid']): Promise<void> {
  const registry = service.createDefaultRetrieverRegistry();
  const built = await Promise.all(names.map((name) => registry.get(name).build(corpus.chunks)));
  await writeIndex(indexDir, {
    manifest: { toolVersion: 'test', createdAt: new Date().toISOString(), corpusDir: CORPUS, corpusDirAsGiven: CORPUS, chunking: {}, files: corpus.files },
    chunks: corpus.chunks,
    retrievers: names.map((name, i) => ({ entry: { name, settings: {}, builtAt: new Date().toISOString() }, save: (dir: string) => built[i]!.save(dir) })),
  });
}

async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 600 && !(await condition()); i++) await new Promise((r) => setTimeout(r, 100));
  expect(await condition()).toBe(true);
}

beforeAll(async () => {
  expect(existsSync(fileURLToPath(new URL('../dist/search-worker.js', import.meta.url))), 'build @rag/service first').toBe(true);
  service = (await import(dist.href)) as typeof Service;
  work = await mkdtemp(join(tmpdir(), 'rag-search-pool-'));
  indexDir = join(work, 'index');
  corpus = await chunkCorpus(CORPUS);
  questions = (JSON.parse(await readFile(join(REPO_ROOT, 'datasets', 'mini', 'questions.json'), 'utf8')) as { rag_questions: { question: string }[] }).rag_questions.map((q) => q.question);
  await publish();
});

afterAll(() => rm(work, { recursive: true, force: true }));

describe('search workers', () => {
  it('give exactly the hits of a search on the calling thread, for every retriever of the index', async () => {
    const pooled = await service.openRagService({ indexDir, generator: 'extractive', workers: 2, pathBase: REPO_ROOT });
    const inThread = await service.openRagService({ indexDir, generator: 'extractive', workers: 0, pathBase: REPO_ROOT });
    try {
      expect((await pooled.stats()).search_workers).toEqual({ workers: 2, starting: 0, restarts: 0, in_flight: 0 });
      expect((await inThread.stats()).search_workers.workers).toBe(0);
      for (const retriever of ['bm25', 'hybrid']) {
        // All at once, so both workers take a share.
        const got = await Promise.all(questions.map((query) => pooled.search({ query, k: 10, retriever })));
        const expected = await Promise.all(questions.map((query) => inThread.search({ query, k: 10, retriever })));
        expect(got).toEqual(expected);
        expect(got.every((view) => view.hits.length > 0)).toBe(true);
      }
    } finally {
      await pooled.close();
      await inThread.close();
    }
  });

  it('serialize a view in the worker that searched: the JSON text the calling thread writes, byte for byte', async () => {
    const pooled = await service.openRagService({ indexDir, generator: 'extractive', workers: 2, pathBase: REPO_ROOT });
    const inThread = await service.openRagService({ indexDir, generator: 'extractive', workers: 0, pathBase: REPO_ROOT });
    try {
      const requests: Service.SearchRequest[] = [
        ...questions.map((query) => ({ query, k: 10 })),
        ...questions.map((query) => ({ query, k: 3, retriever: 'hybrid' })),
        ...questions.map((query) => ({ query, k: 10, globs: ['docs/', '!*.rst'] })),
        // Nothing matches: the worker hands back no view, and this thread says why.
        { query: 'zyxwvut qwertyuiop', k: 5 },
        { query: questions[0]!, k: 5, globs: ['no-such-folder/'] },
      ];
      const got = await Promise.all(requests.map((request) => pooled.searchJson(request)));
      const expected = await Promise.all(requests.map(async (request) => JSON.stringify(await inThread.search(request))));
      expect(got).toEqual(expected);
      expect(await inThread.searchJson(requests[0]!)).toBe(expected[0]);
      const empty = JSON.parse(got.at(-2)!) as Service.SearchView;
      expect(empty.hits).toEqual([]);
      expect(empty.no_matches).toMatch(/zyxwvut/);
      expect((JSON.parse(got.at(-1)!) as Service.SearchView).no_matches).toMatch(/no-such-folder/);
    } finally {
      await pooled.close();
      await inThread.close();
    }
  });

  it('mark the hits of a file changed since indexing stale in the views they build, as the calling thread does', async () => {
    const copy = join(work, 'corpus-copy');
    await cp(CORPUS, copy, { recursive: true });
    const copied = await chunkCorpus(copy);
    const staleIndex = join(work, 'index-stale');
    const built = await service.createDefaultRetrieverRegistry().get('bm25').build(copied.chunks);
    await writeIndex(staleIndex, {
      manifest: { toolVersion: 'test', createdAt: new Date().toISOString(), corpusDir: copy, corpusDirAsGiven: copy, chunking: {}, files: copied.files },
      chunks: copied.chunks,
      retrievers: [{ entry: { name: 'bm25', settings: {}, builtAt: new Date().toISOString() }, save: (dir: string) => built.save(dir) }],
    });
    const options = { indexDir: staleIndex, generator: 'extractive', pathBase: work, staleCheckIntervalMs: 0 };
    const pooled = await service.openRagService({ ...options, workers: 1 });
    const inThread = await service.openRagService({ ...options, workers: 0 });
    try {
      const request = { query: 'What is the default port of the development server?', k: 10 };
      const before = JSON.parse(await pooled.searchJson(request)) as Service.SearchView;
      expect(before.hits.length).toBeGreaterThan(0);
      expect(before.hits.some((hit) => hit.stale)).toBe(false);
      const changed = before.hits[0]!.file_path;
      await appendFile(join(work, changed), '\n# edited after indexing\n');
      const after = await pooled.searchJson(request);
      const view = JSON.parse(after) as Service.SearchView;
      expect(view.hits.filter((hit) => hit.stale).map((hit) => hit.file_path)).toEqual(view.hits.filter((hit) => hit.file_path === changed).map((hit) => hit.file_path));
      expect(view.hits[0]!.stale).toBe(true);
      expect(after).toBe(JSON.stringify(await inThread.search(request)));
    } finally {
      await pooled.close();
      await inThread.close();
    }
  });

  it('search within globs as the calling thread does: only the matched files, the same hits', async () => {
    const pooled = await service.openRagService({ indexDir, generator: 'extractive', workers: 2, pathBase: REPO_ROOT });
    const inThread = await service.openRagService({ indexDir, generator: 'extractive', workers: 0, pathBase: REPO_ROOT });
    try {
      for (const globs of [['*.py'], ['docs/', '!*.rst'], ['tinyserve/app.py']]) {
        const got = await Promise.all(questions.map((query) => pooled.search({ query, k: 10, globs })));
        const expected = await Promise.all(questions.map((query) => inThread.search({ query, k: 10, globs })));
        expect(got).toEqual(expected);
        const test = (await import('@rag/core')).compilePathGlobs(globs);
        const paths = got.flatMap((view) => view.hits.map((hit) => hit.file_path));
        expect(paths.length).toBeGreaterThan(0);
        // Output paths are relative to the repository here; globs match paths inside the corpus.
        for (const path of paths) expect(test(path.slice('datasets/mini/corpus/'.length)), path).toBe(true);
        expect(got.every((view) => JSON.stringify(view.globs) === JSON.stringify(globs))).toBe(true);
      }
    } finally {
      await pooled.close();
      await inThread.close();
    }
  });

  it('tell the answer the words the index never holds or barely holds, as the calling thread does', async () => {
    const pooled = await service.openRagService({ indexDir, generator: 'extractive', workers: 1, pathBase: REPO_ROOT });
    const inThread = await service.openRagService({ indexDir, generator: 'extractive', workers: 0, pathBase: REPO_ROOT });
    const answerOf = async (svc: Service.RagService, query: string): Promise<string> => {
      let text = '';
      for await (const event of svc.beginAnswer({ query, k: 3 })) if (event.type === 'done') text = event.answer.answer;
      return text;
    };
    try {
      // The mini corpus shares "default", "development" and "server" with it, never "Kafka" or "topic".
      const query = 'What is the default Kafka topic of the development server?';
      const pooledAnswer = await answerOf(pooled, query);
      expect(pooledAnswer).toContain('The indexed sources never mention “Kafka” or “topic”.');
      expect(await answerOf(inThread, query)).toBe(pooledAnswer);
      expect(await answerOf(pooled, 'What is the default port of the development server?')).toContain('8421');
      // "nginx" and "healthz" are in one chunk of the corpus each (`rareWords`), not in the
      // sources of this question: a near quote (the default port) is not given as the answer.
      const rare = 'What is the default nginx healthz path of the development server?';
      const pooledRare = await answerOf(pooled, rare);
      expect(pooledRare.startsWith('The retrieved sources do not appear to contain the answer')).toBe(true);
      expect(await answerOf(inThread, rare)).toBe(pooledRare);
    } finally {
      await pooled.close();
      await inThread.close();
    }
  });

  it('load the index from memory the calling thread shares, in threads of their own', async () => {
    const pooled = await service.openRagService({ indexDir, generator: 'extractive', workers: 2, retrieverModule: TEST_REGISTRY });
    try {
      const seen = await Promise.all(Array.from({ length: 8 }, () => pooled.search({ query: 'which thread and memory?', k: 1 })));
      // chunk 0 (not 1) = the bm25 file the worker loaded was a view of a SharedArrayBuffer.
      expect(seen.every((view) => view.hits[0]!.first_character_index === corpus.chunks[0]!.first_character_index && view.hits[0]!.file_path.endsWith(corpus.chunks[0]!.file_path))).toBe(true);
      const threads = new Set(seen.map((view) => view.hits[0]!.score));
      expect(threads.has(0)).toBe(false); // never the main thread (thread id 0)
    } finally {
      await pooled.close();
    }
  });

  it('fail only the searches a dying worker held (WORKER_FAILED, a 503) and replace it', async () => {
    const pooled = await service.openRagService({ indexDir, generator: 'extractive', workers: 2, retrieverModule: TEST_REGISTRY, pathBase: REPO_ROOT });
    try {
      const error = await pooled.search({ query: 'exit the worker', k: 3 }).catch((e: unknown) => e);
      expect(isRagError(error) && error.code).toBe('WORKER_FAILED');
      expect(isRagError(error) && error.hint).toMatch(/Retry/);
      await until(async () => (await pooled.stats()).search_workers.workers === 2);
      expect((await pooled.stats()).search_workers.restarts).toBe(1);
      const after = await Promise.all(questions.map((query) => pooled.search({ query, k: 5 })));
      expect(after.every((view) => view.hits.length > 0)).toBe(true);
    } finally {
      await pooled.close();
    }
  });

  it('finish the searches in flight before closing', async () => {
    const pooled = await service.openRagService({ indexDir, generator: 'extractive', workers: 1, retrieverModule: TEST_REGISTRY, pathBase: REPO_ROOT });
    const inFlight = pooled.search({ query: 'slowly where is the default port?', k: 3 });
    await until(async () => (await pooled.stats()).search_workers.in_flight === 1);
    const closed = pooled.close();
    const view = await inFlight;
    expect(view.hits.length).toBeGreaterThan(0);
    await closed;
    expect((await pooled.stats()).search_workers.workers).toBe(0);
  });

  it('end by themselves on close, freeing their retrievers, instead of being terminated', async () => {
    const marks = join(work, 'disposed.txt');
    process.env.RAG_TEST_DISPOSED = marks;
    try {
      const pooled = await service.openRagService({ indexDir, generator: 'extractive', workers: 2, retrieverModule: TEST_REGISTRY, pathBase: REPO_ROOT });
      // Both workers search (all at once, so each takes a share), then the pool closes.
      await Promise.all(questions.map((query) => pooled.search({ query, k: 3 })));
      await pooled.close();
      const threads = (await readFile(marks, 'utf8')).trim().split('\n');
      // Each worker freed its retriever once: a terminated thread would have written nothing.
      expect(new Set(threads).size).toBe(threads.length);
      expect(threads.length).toBe(2);
      expect((await pooled.stats()).search_workers.workers).toBe(0);
    } finally {
      delete process.env.RAG_TEST_DISPOSED;
    }
  });

  it('keep serving the generation they opened, and the calling thread takes over when no worker can start again', async () => {
    const pooled = await service.openRagService({ indexDir, generator: 'extractive', workers: 1, retrieverModule: TEST_REGISTRY, pathBase: REPO_ROOT });
    try {
      const before = await pooled.search({ query: questions[0]!, k: 5 });
      // Two publishes: the generation the service opened is removed from the disk.
      await publish(['bm25']);
      await publish(['bm25']);
      expect(await pooled.search({ query: questions[0]!, k: 5 })).toEqual(before);
      // Its replacement cannot open a generation that is gone, so the pool is empty…
      await pooled.search({ query: 'exit the worker', k: 1 }).catch(() => undefined);
      await until(async () => {
        const { workers, starting } = (await pooled.stats()).search_workers;
        return workers === 0 && starting === 0;
      });
      // …and the main thread answers from the bytes it read (and shared) at start.
      expect(await pooled.search({ query: questions[0]!, k: 5 })).toEqual(before);
    } finally {
      await pooled.close();
      await publish();
    }
  });

  it('refuse a registry object with workers asked for, and search in-thread with one by default', async () => {
    const retrievers = service.createDefaultRetrieverRegistry();
    const error = await service.openRagService({ indexDir, generator: 'extractive', retrievers, workers: 2 }).catch((e: unknown) => e);
    expect(isRagError(error) && error.code).toBe('INVALID_ARGUMENT');
    expect(isRagError(error) && error.hint).toMatch(/retrieverModule/);
    const inThread = await service.openRagService({ indexDir, generator: 'extractive', retrievers });
    expect((await inThread.stats()).search_workers.workers).toBe(0);
    await inThread.close();
  });

  it('default to one worker per core', () => {
    expect(service.defaultSearchWorkers(2)).toBe(2);
    expect(service.defaultSearchWorkers(1)).toBe(1);
    expect(service.defaultSearchWorkers(500)).toBe(service.MAX_SEARCH_WORKERS);
  });
});
