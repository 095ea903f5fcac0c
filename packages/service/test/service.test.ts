import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chunkCorpus } from '@rag/chunking';
import { writeIndex } from '@rag/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDefaultRetrieverRegistry, createIndexedSpanReader, DEFAULT_RETRIEVER, embeddingSettingsFor, openRagService, openSearchSession, searchSources } from '../src/index.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const CORPUS = join(REPO_ROOT, 'datasets', 'mini', 'corpus');
let work: string;
let indexDir: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'rag-service-'));
  indexDir = join(work, 'index');
  const { files, chunks } = await chunkCorpus(CORPUS);
  const registry = createDefaultRetrieverRegistry();
  const built = await Promise.all(['bm25', 'hybrid'].map((name) => registry.get(name).build(chunks)));
  await writeIndex(indexDir, {
    manifest: { toolVersion: 'test', createdAt: new Date().toISOString(), corpusDir: CORPUS, corpusDirAsGiven: CORPUS, chunking: {}, files },
    chunks,
    retrievers: ['bm25', 'hybrid'].map((name, i) => ({ entry: { name, settings: {}, builtAt: new Date().toISOString() }, save: (dir: string) => built[i]!.save(dir) })),
  });
});

afterAll(() => rm(work, { recursive: true, force: true }));

describe('the default retriever registry', () => {
  it('offers every built-in retriever, bm25 first and the default', () => {
    expect(createDefaultRetrieverRegistry().names()).toEqual(['bm25', 'embedding', 'hybrid']);
    expect(DEFAULT_RETRIEVER).toBe('bm25');
  });

  it('builds hybrid with the measured lexical + dense fusion, not the generic RRF', async () => {
    // LEXICAL_DENSE_SETTINGS: min-max fusion with the dense list at a twentieth of bm25's weight.
    const { chunks } = await chunkCorpus(CORPUS);
    const hybrid = (await createDefaultRetrieverRegistry().get('hybrid').build(chunks)) as unknown as { options: { fusion: string; weights: Record<string, number> } };
    expect(hybrid.options.fusion).toBe('minmax');
    expect(hybrid.options.weights).toEqual({ bm25: 1, embedding: 0.05 });
  });

  it('reads an --embedding_model value as a folder when it looks like a path or exists, else as a hub id', () => {
    expect(embeddingSettingsFor(undefined, work)).toEqual({});
    expect(embeddingSettingsFor('Xenova/all-MiniLM-L6-v2', work)).toEqual({ model: 'Xenova/all-MiniLM-L6-v2' });
    expect(embeddingSettingsFor('./models/x', work)).toEqual({ modelDir: join(work, 'models', 'x') });
    expect(embeddingSettingsFor('index', work)).toEqual({ modelDir: indexDir }); // exists on disk
  });
});

describe('search sessions', () => {
  it('open the index with its first retriever, or the one asked for', async () => {
    const session = await openSearchSession(indexDir, { pathBase: CORPUS });
    expect(session.retriever.name).toBe('bm25');
    const hybrid = await openSearchSession(indexDir, { pathBase: CORPUS, retriever: 'hybrid' });
    expect(hybrid.retriever.name).toBe('hybrid');
    const [top] = await searchSources(hybrid, 'What TCP port does the development server listen on by default?', 1);
    // defaults.py assigns DEFAULT_PORT = 8421 with the comment that says so.
    expect(top).toMatchObject({ file_path: 'tinyserve/defaults.py', fileInCorpus: 'tinyserve/defaults.py', rank: 1 });
  });
});

describe('span reading stays inside the indexed corpus', () => {
  it('reads an indexed file by its output path and by its path inside the corpus', async () => {
    const read = await createIndexedSpanReader(indexDir, REPO_ROOT);
    const byOutput = await read({ file_path: 'datasets/mini/corpus/tinyserve/defaults.py', first_character_index: 0, last_character_index: 40 });
    const byCorpus = await read({ file_path: 'tinyserve/defaults.py', first_character_index: 0, last_character_index: 40 });
    expect(byOutput.text).toBe(byCorpus.text);
    expect(byOutput).toMatchObject({ file_path: 'datasets/mini/corpus/tinyserve/defaults.py', start_line: 1 });
  });

  it.each([
    ['/etc/passwd', 'INVALID_ARGUMENT'],
    ['../../../../etc/passwd', 'INVALID_ARGUMENT'],
    ['%2e%2e/%2e%2e/etc/passwd', 'INVALID_ARGUMENT'],
    ['tinyserve/not-indexed.py', 'NOT_FOUND'],
  ])('refuses %s (%s)', async (file_path, code) => {
    const read = await createIndexedSpanReader(indexDir, REPO_ROOT);
    await expect(read({ file_path, first_character_index: 0, last_character_index: 10 })).rejects.toMatchObject({ code, hint: expect.any(String) });
  });
});

describe('openRagService', () => {
  it('refuses bad options with the option named, before reading the index', async () => {
    await expect(openRagService({ indexDir, maxQueuedAnswers: -1 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('maxQueuedAnswers') });
    await expect(openRagService({ indexDir, bogus: 1 } as never)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', hint: expect.stringContaining('maxConcurrentAnswers') });
  });

  it('serves search, spans and answers from one opened index', async () => {
    const service = await openRagService({ indexDir, pathBase: CORPUS, generator: 'extractive' });
    try {
      const { hits, retriever } = await service.search({ query: 'default port', k: 2 });
      expect(retriever).toBe('bm25');
      const span = await service.readSpan({ file_path: hits[0]!.file_path, start: hits[0]!.first_character_index, end: hits[0]!.last_character_index });
      expect(span.stale).toBe(false);
      const events = [];
      for await (const event of service.beginAnswer({ query: 'What is the default port?', k: 2 })) events.push(event.type);
      expect(events[0]).toBe('sources');
      expect(events.at(-1)).toBe('done');
      expect((await service.stats()).retrievers).toEqual(['bm25', 'hybrid']);
    } finally {
      await service.close();
    }
  });

  it('searches and answers within globs, says when the globs are why nothing matched, and refuses a bad glob', async () => {
    const service = await openRagService({ indexDir, pathBase: CORPUS, generator: 'extractive' });
    try {
      const code = await service.search({ query: 'default port', k: 5, globs: ['*.py'] });
      expect(code.hits.length).toBeGreaterThan(0);
      expect(code.hits.every((hit) => hit.file_path.endsWith('.py'))).toBe(true);
      expect(code.globs).toEqual(['*.py']);
      const docs = await service.search({ query: 'default port', k: 5, globs: ['docs/', 'README.md'] });
      expect(docs.hits.length).toBeGreaterThan(0);
      expect(docs.hits.every((hit) => hit.file_path.startsWith('docs/') || hit.file_path === 'README.md')).toBe(true);
      // An empty list is no scope at all.
      expect(await service.search({ query: 'default port', k: 5, globs: [] })).toEqual(await service.search({ query: 'default port', k: 5 }));
      const nowhere = await service.search({ query: 'default port', k: 5, globs: ['nonexistent/'] });
      expect(nowhere.hits).toEqual([]);
      expect(nowhere.no_matches).toBe('No indexed file matches "nonexistent/": globs are .gitignore patterns relative to the indexed folder.');
      // "beendet" is a word of the code's German messages that no page of the docs holds.
      const elsewhere = await service.search({ query: 'beendet', k: 5, globs: ['docs/'] });
      expect(elsewhere.hits).toEqual([]);
      expect(elsewhere.no_matches).toBe('Nothing in the files matching "docs/" matches the query; other files do (search without the globs).');
      await expect(service.search({ query: 'default port', globs: ['!'] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', hint: expect.stringContaining('.gitignore') });
      const events = [];
      for await (const event of service.beginAnswer({ query: 'What is the default port?', k: 3, globs: ['*.py'] })) events.push(event);
      const sources = events.find((event) => event.type === 'sources');
      expect(sources?.type === 'sources' && sources.search.hits.every((hit) => hit.file_path.endsWith('.py'))).toBe(true);
      expect(events.at(-1)?.type).toBe('done');
      expect(() => service.beginAnswer({ query: 'What is the default port?', globs: ['#x'] })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    } finally {
      await service.close();
    }
  });

  it('says why a search matched nothing, and nothing when it matched', async () => {
    const service = await openRagService({ indexDir, pathBase: CORPUS, generator: 'extractive' });
    try {
      const none = await service.search({ query: 'kafka zookeeper', k: 2 });
      expect(none.hits).toEqual([]);
      expect(none.no_matches).toBe('No indexed chunk holds "kafka" or "zookeeper": check the spelling, or use the words the code and its docs use.');
      expect((await service.search({ query: 'what is the', k: 2 })).no_matches).toMatch(/^None of the query's words is one the index searches/);
      expect(await service.search({ query: 'default port', k: 2 })).not.toHaveProperty('no_matches');
    } finally {
      await service.close();
    }
  });
});
