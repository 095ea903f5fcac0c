import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isRagError, type Chunk } from '@rag/core';
import { createEmbeddingRetrieverFactory, embeddingRetrieverFactory, EmbeddingRetriever, resolveEmbeddingOptions, TransformersEmbedder, type Embedder, type EmbeddingSettings } from '../src/index.js';
import { embedTexts, readEmbeddingManifest } from '../src/internals.js';
import { makeChunks } from './helpers/chunks.js';
import { createModelFixture, type ModelFixture } from './helpers/models.js';
import { TOPIC_CHUNKS, TOPIC_SETTINGS, VEHICLES } from './helpers/topics.js';

let fixture: ModelFixture;
let work: string;
let counter = 0;
const freshDir = () => join(work, `index-${++counter}`);
const chunks = makeChunks(TOPIC_CHUNKS);
const corpusSettings: EmbeddingSettings = { corpus: TOPIC_SETTINGS };

beforeAll(async () => {
  fixture = await createModelFixture();
  work = await mkdtemp(join(tmpdir(), 'rag-embedding-index-'));
});
afterAll(async () => {
  await fixture.cleanup();
  await rm(work, { recursive: true, force: true });
});

async function saved(retriever: { save(dir: string): Promise<void> }): Promise<string> {
  const dir = freshDir();
  await (await import('node:fs/promises')).mkdir(dir, { recursive: true });
  await retriever.save(dir);
  return dir;
}

async function rejection(promise: Promise<unknown>): Promise<{ code: string; message: string; hint?: string }> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(isRagError(error)).toBe(true);
  return error as { code: string; message: string; hint?: string };
}

describe('the embedding retriever with the corpus embedder', () => {
  test('builds, searches, saves and loads back identical results', async () => {
    const built = (await embeddingRetrieverFactory.build(chunks, { settings: corpusSettings })) as EmbeddingRetriever;
    expect(embeddingRetrieverFactory.name).toBe('embedding');
    const hits = await built.search('automobile', { k: 5 });
    expect(hits.map((h) => h.chunkId).sort((a, b) => a - b)).toEqual(VEHICLES);
    const dir = await saved(built);
    expect((await readdir(dir)).sort()).toEqual(['corpus-model.bin', 'embedding.json', 'vectors.bin']);
    const manifest = await readEmbeddingManifest(dir);
    expect(manifest).toMatchObject({ format: 'rag-embedding', version: 1, count: 12, index: 'exact', encoding: 'float32' });
    expect(manifest.embedder.dimension).toBe(3);
    expect(manifest.embedder.id).toBe(built.embedder.id);
    const loaded = await embeddingRetrieverFactory.load(dir, chunks);
    expect(await loaded.search('automobile', { k: 5 })).toEqual(hits);
    expect(loaded.explain!('automobile', hits[0]!.chunkId).value).toBeCloseTo(hits[0]!.score, 5);
  });

  test('searches within a scope: only its chunks, in the order of the unscoped search, exact or through HNSW', async () => {
    const exact = (await embeddingRetrieverFactory.build(chunks, { settings: corpusSettings })) as EmbeddingRetriever;
    const graph = (await embeddingRetrieverFactory.build(chunks, { settings: { ...corpusSettings, index: 'hnsw' } })) as EmbeddingRetriever;
    // Every other chunk: some of each topic.
    const scope = Uint8Array.from(chunks, (_, i) => (i % 2 === 0 ? 1 : 0));
    const expected = (await exact.search('automobile', { k: chunks.length })).filter((hit) => scope[hit.chunkId] === 1).slice(0, 3);
    expect(await exact.search('automobile', { k: 3, scope })).toEqual(expected);
    expect(exact.searchSync('automobile', { k: 3, scope })).toEqual(expected);
    const throughGraph = await graph.search('automobile', { k: 3, scope });
    expect(throughGraph.map((hit) => hit.chunkId)).toEqual(expected.map((hit) => hit.chunkId));
    // A scope of one chunk: that chunk alone, whatever the graph walk reaches.
    const one = new Uint8Array(chunks.length);
    one[5] = 1;
    expect((await graph.search('banana', { k: 5, scope: one })).map((hit) => hit.chunkId)).toEqual([5]);
    expect(await exact.search('banana', { k: 5, scope: new Uint8Array(chunks.length) })).toEqual([]);
  });

  test('int8 vectors are smaller on disk, close to the float32 ones, and keep the ranking', async () => {
    const settings = { ...corpusSettings, corpus: { ...TOPIC_SETTINGS, dimension: 3 } };
    const plain = await embeddingRetrieverFactory.build(chunks, { settings });
    const quantized = await embeddingRetrieverFactory.build(chunks, { settings: { ...settings, encoding: 'int8' } });
    const plainDir = await saved(plain);
    const quantizedDir = await saved(quantized);
    const plainSize = (await readFile(join(plainDir, 'vectors.bin'))).length;
    const quantizedSize = (await readFile(join(quantizedDir, 'vectors.bin'))).length;
    expect(quantizedSize).toBeLessThan(plainSize);
    const loaded = (await embeddingRetrieverFactory.load(quantizedDir, chunks)) as EmbeddingRetriever;
    const original = (plain as EmbeddingRetriever).vectors;
    for (let i = 0; i < original.length; i++) expect(Math.abs(loaded.vectors[i]! - original[i]!)).toBeLessThanOrEqual(1 / 127 / 2 + 1e-6);
    // Whole topics (4 fruit, 3 GPU, 5 vehicle chunks): inside a topic the 3-d vectors
    // nearly tie, so only the topic sets are stable under quantisation.
    for (const [query, k] of [['banana', 4], ['gpu memory', 3], ['car wheels', 5]] as const) {
      const a = await plain.search(query, { k });
      const b = await loaded.search(query, { k });
      expect(new Set(b.map((h) => h.chunkId))).toEqual(new Set(a.map((h) => h.chunkId)));
      b.forEach((hit, i) => expect(Math.abs(hit.score - a[i]!.score)).toBeLessThan(0.02));
    }
  });

  test('an HNSW index gives the exact results on a small corpus and persists', async () => {
    const exact = await embeddingRetrieverFactory.build(chunks, { settings: corpusSettings });
    const hnsw = await embeddingRetrieverFactory.build(chunks, { settings: { ...corpusSettings, index: 'hnsw' } });
    const dir = await saved(hnsw);
    expect((await readEmbeddingManifest(dir)).index).toBe('hnsw');
    expect(await readdir(dir)).toContain('hnsw.bin');
    const loaded = await embeddingRetrieverFactory.load(dir, chunks);
    for (const query of ['banana', 'kv cache', 'fuel']) {
      const expected = await exact.search(query, { k: 4 });
      for (const result of [await hnsw.search(query, { k: 4 }), await loaded.search(query, { k: 4 })]) {
        expect(result.map((h) => h.chunkId)).toEqual(expected.map((h) => h.chunkId));
      }
    }
  });

  test('refuses to load over other chunks', async () => {
    const dir = await saved(await embeddingRetrieverFactory.build(chunks, { settings: corpusSettings }));
    const edited = chunks.map((c, i) => (i === 3 ? { ...c, text: `${c.text} (edited)` } : c));
    const error = await rejection(embeddingRetrieverFactory.load(dir, edited));
    expect(error.code).toBe('INDEX_INCOMPATIBLE');
    expect(error.hint).toMatch(/rag index/);
  });

  test('reports a damaged vector file as INDEX_CORRUPT', async () => {
    const dir = await saved(await embeddingRetrieverFactory.build(chunks, { settings: corpusSettings }));
    const bytes = await readFile(join(dir, 'vectors.bin'));
    bytes[bytes.length - 1]! ^= 0xff;
    await writeFile(join(dir, 'vectors.bin'), bytes);
    expect((await rejection(embeddingRetrieverFactory.load(dir, chunks))).code).toBe('INDEX_CORRUPT');
  });

  test('searching an empty corpus returns nothing', async () => {
    const empty = await embeddingRetrieverFactory.build([], { settings: corpusSettings });
    expect(await empty.search('anything', { k: 5 })).toEqual([]);
    const loaded = await embeddingRetrieverFactory.load(await saved(empty), []);
    expect(await loaded.search('anything', { k: 5 })).toEqual([]);
  });

  test('settings are validated: unknown keys and bad values are refused with the valid choices', async () => {
    const unknown = await rejection(embeddingRetrieverFactory.build(chunks, { settings: { modle: 'x' } }));
    expect(unknown.code).toBe('INVALID_ARGUMENT');
    expect(unknown.hint).toMatch(/modelDir/);
    const nested = await rejection(embeddingRetrieverFactory.build(chunks, { settings: { corpus: { dimensions: 3 } } }));
    expect(nested.message).toMatch(/corpus\.dimensions/);
    const bad = await rejection(embeddingRetrieverFactory.build(chunks, { settings: { index: 'faiss' } }));
    expect(bad.message).toMatch(/index must be "auto", "exact" or "hnsw"/);
    expect(resolveEmbeddingOptions({ modelDir: fixture.modelDir }).embedder).toBe('transformers');
    expect(resolveEmbeddingOptions({}).embedder).toBe('corpus');
  });
});

describe('the embedding retriever with a transformers.js model', () => {
  const settings = (): EmbeddingSettings => ({ modelDir: fixture.modelDir, cacheDir: join(work, 'cache'), allowRemote: false });
  const texts: Chunk[] = makeChunks(
    Array.from({ length: 14 }, (_, i) => ({
      file: `docs/page${i % 3}.md`,
      text: ['the kv cache of paged attention', 'install with pip or docker', 'load a lora adapter with the http endpoint'][i % 3]!.repeat(1 + (i % 4)),
    })),
  );

  test('persists vectors, model id and dimension, and loads back the same results', async () => {
    const built = (await embeddingRetrieverFactory.build(texts, { settings: settings() })) as EmbeddingRetriever;
    expect(built.embedder.dimension).toBe(16);
    const hits = await built.search('lora adapter', { k: 3 });
    expect(built.explain('lora adapter', hits[0]!.chunkId).value).toBeCloseTo(hits[0]!.score, 6);
    const dir = await saved(built);
    const manifest = await readEmbeddingManifest(dir);
    expect(manifest.embedder.id).toMatch(/^transformers:folder:tiny-bert:fp32:/);
    expect(manifest.embedder.settings).toMatchObject({ embedder: 'transformers', modelDir: fixture.modelDir, dtype: 'fp32' });
    const loaded = (await createEmbeddingRetrieverFactory({ cacheDir: join(work, 'cache'), allowRemote: false }).load(dir, texts)) as EmbeddingRetriever;
    expect(Array.from(loaded.vectors)).toEqual(Array.from(built.vectors));
    expect(await loaded.search('lora adapter', { k: 3 })).toEqual(hits);
    await built.dispose();
    await loaded.dispose();
  });

  test('an update reuses the vectors of unchanged chunks, embeds only the rest, and searches like a full build', async () => {
    const before = texts.slice(0, 10);
    const first = (await embeddingRetrieverFactory.build(before, { settings: settings() })) as EmbeddingRetriever;
    const dir = await saved(first);
    // New chunk list: chunks 0..5 unchanged, chunk 6 edited, 7..9 dropped, two added.
    const after = makeChunks([
      ...before.slice(0, 6).map((c) => ({ file: c.file_path, text: c.text })),
      { file: before[6]!.file_path, text: 'an edited page about speculative decoding' },
      { file: 'docs/new.md', text: 'prefix caching reuses the kv cache' },
      { file: 'docs/new2.md', text: 'install with pip' },
    ]);
    const sourceOf = Int32Array.from(after, (_, i) => (i < 6 ? i : -1));
    const updated = (await embeddingRetrieverFactory.build(after, { settings: settings(), previous: { dir, chunks: before, sourceOf } })) as EmbeddingRetriever;
    expect(updated.buildStats).toMatchObject({ reusedVectors: 6 });
    const dimension = updated.embedder.dimension;
    expect(Array.from(updated.vectors.subarray(0, 6 * dimension))).toEqual(Array.from(first.vectors.subarray(0, 6 * dimension)));
    const full = (await embeddingRetrieverFactory.build(after, { settings: settings() })) as EmbeddingRetriever;
    expect(full.buildStats).toMatchObject({ reusedVectors: 0 });
    for (let i = 0; i < updated.vectors.length; i++) expect(updated.vectors[i]).toBeCloseTo(full.vectors[i]!, 5);
    expect((await updated.search('kv cache', { k: 5 })).map((h) => h.chunkId)).toEqual((await full.search('kv cache', { k: 5 })).map((h) => h.chunkId));
    // A previous build over other chunks (its fingerprint does not match) is ignored, not an error.
    const ignored = (await embeddingRetrieverFactory.build(after, { settings: settings(), previous: { dir, chunks: after, sourceOf } })) as EmbeddingRetriever;
    expect(ignored.buildStats).toMatchObject({ reusedVectors: 0 });
    // So is a corpus-embedder build: its model is fitted on the whole corpus, so nothing carries over.
    const corpusDir = await saved(await embeddingRetrieverFactory.build(chunks, { settings: corpusSettings }));
    const corpusUpdate = (await embeddingRetrieverFactory.build(chunks, { settings: corpusSettings, previous: { dir: corpusDir, chunks, sourceOf: Int32Array.from(chunks, (c) => c.id) } })) as EmbeddingRetriever;
    expect(corpusUpdate.buildStats?.reusedVectors).toBeUndefined();
    for (const retriever of [first, updated, full, ignored]) await retriever.dispose();
  });

  test('refuses queries embedded by another model than the one that built the index', async () => {
    const built = await embeddingRetrieverFactory.build(texts, { settings: settings() });
    const dir = await saved(built);
    // Same folder name, same shape, other weights.
    const other = createEmbeddingRetrieverFactory({ modelDir: fixture.otherModelDir, allowRemote: false });
    const error = await rejection(other.load(dir, texts));
    expect(error.code).toBe('INDEX_INCOMPATIBLE');
    expect(error.message).toMatch(/built with transformers:folder:tiny-bert.*queries would be embedded with transformers:folder:tiny-bert/);
    expect(error.hint).toMatch(/--model_dir|rebuild/);
    // A corpus-embedder index refuses a model too.
    const corpusDir = await saved(await embeddingRetrieverFactory.build(chunks, { settings: corpusSettings }));
    expect((await rejection(createEmbeddingRetrieverFactory({ modelDir: fixture.modelDir }).load(corpusDir, chunks))).code).toBe('INDEX_INCOMPATIBLE');
  });

  test('an interrupted embedding run resumes without recomputing finished batches', async () => {
    const real = await TransformersEmbedder.create(resolveEmbeddingOptions(settings()));
    const all = texts.map((c) => c.text);
    const checkpointRoot = join(work, 'checkpoints');
    let embedded = 0;
    let failAfter = 2;
    const flaky: Embedder = {
      id: real.id,
      dimension: real.dimension,
      settings: real.settings,
      embedQuery: (t) => real.embedQuery(t),
      embedDocuments: async (batch) => {
        if (failAfter-- <= 0) throw new Error('interrupted');
        embedded += batch.length;
        return real.embedDocuments(batch);
      },
    };
    await expect(embedTexts(flaky, all, { batchSize: 4, checkpointRoot })).rejects.toThrow('interrupted');
    expect(embedded).toBe(8);
    embedded = 0;
    failAfter = Infinity;
    const resumed = await embedTexts(flaky, all, { batchSize: 4, checkpointRoot });
    expect(resumed.resumedBatches).toBe(2);
    expect(resumed.computedBatches).toBe(2);
    expect(embedded).toBe(all.length - 8);
    const fresh = await embedTexts(real, all, { batchSize: 4, checkpointRoot: null });
    expect(Array.from(resumed.vectors)).toEqual(Array.from(fresh.vectors));
    await resumed.checkpoint!.discard();
    await real.dispose();
  });

  test('through the factory: progress in phase embed, checkpoint kept on failure and removed once saved', async () => {
    const cacheDir = join(work, 'resume-cache');
    const build = (onProgress?: (e: { phase: string; done: number; total: number }) => void) =>
      embeddingRetrieverFactory.build(texts, { settings: { ...settings(), cacheDir, batchSize: 5 }, ...(onProgress ? { onProgress } : {}) });
    await expect(
      build((e) => {
        if (e.phase === 'embed' && e.done >= 10) throw new Error('stopped by the user');
      }),
    ).rejects.toThrow('stopped by the user');
    const [key] = await readdir(join(cacheDir, 'checkpoints'));
    expect((await readdir(join(cacheDir, 'checkpoints', key!))).sort()).toEqual(['batch-0.bin', 'batch-1.bin']);
    const events: string[] = [];
    const retriever = await build((e) => events.push(`${e.phase}:${e.done}/${e.total}`));
    expect(events).toEqual(['embed:5/14', 'embed:10/14', 'embed:14/14']);
    await saved(retriever);
    expect(await readdir(join(cacheDir, 'checkpoints'))).toEqual([]);
  });
});
