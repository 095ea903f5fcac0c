import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isRagError, type Retriever } from '@rag/core';
import { createHybridRetrieverFactory, HybridRetriever, resolveHybridOptions } from '../src/index.js';
import { chunksOf, countingFactory, countWords, fixedRetriever, shareLetters, type CountingRetriever } from './components.js';

const chunks = chunksOf([
  'the kv cache lives in gpu memory',
  'install the package with pip',
  'paged attention splits the kv cache into blocks',
  'docker images for the server',
  'quantization shrinks model weights',
]);

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'rag-hybrid-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

async function rejection(run: () => unknown): Promise<{ code: string; message: string; hint?: string }> {
  let error: unknown;
  try {
    await run();
  } catch (e) {
    error = e;
  }
  expect(isRagError(error)).toBe(true);
  return error as { code: string; message: string; hint?: string };
}

describe('HybridRetriever', () => {
  const lexical = fixedRetriever('bm25', {
    q: [
      { chunkId: 1, score: 7 },
      { chunkId: 2, score: 3 },
      { chunkId: 4, score: 0 },
    ],
  });
  const dense = fixedRetriever('embedding', {
    q: [
      { chunkId: 2, score: 0.9 },
      { chunkId: 3, score: 0.5 },
      { chunkId: 1, score: -0.1 },
    ],
  });

  test('lists the words every component that can tell lacks, and none when no component can', async () => {
    const telling = (name: string, lacks: string[]): Retriever => ({ ...fixedRetriever(name, {}), unindexedWords: async (query) => query.split(' ').filter((w) => lacks.includes(w)) });
    // Only the lexical component can tell: its list is the answer.
    expect(await new HybridRetriever([telling('bm25', ['kafka', 'topic']), dense]).unindexedWords('kafka topic cache')).toEqual(['kafka', 'topic']);
    // Two that can: a word either holds is held.
    expect(await new HybridRetriever([telling('bm25', ['kafka', 'topic']), telling('embedding', ['kafka'])]).unindexedWords('kafka topic cache')).toEqual(['kafka']);
    expect(await new HybridRetriever([lexical, dense]).unindexedWords('kafka')).toEqual([]);
  });

  test('lists the words every component that can tell calls rare, and none when no component can', async () => {
    const telling = (name: string, rare: string[]): Retriever => ({ ...fixedRetriever(name, {}), rareWords: async (query) => query.split(' ').filter((w) => rare.includes(w)) });
    expect(await new HybridRetriever([telling('bm25', ['backoff', 'stderr']), dense]).rareWords('backoff stderr cache')).toEqual(['backoff', 'stderr']);
    expect(await new HybridRetriever([telling('bm25', ['backoff', 'stderr']), telling('embedding', ['stderr'])]).rareWords('backoff stderr cache')).toEqual(['stderr']);
    expect(await new HybridRetriever([lexical, dense]).rareWords('backoff')).toEqual([]);
  });

  test('drops non-positive scores by default and fuses with RRF k = 60', async () => {
    const hybrid = new HybridRetriever([lexical, dense]);
    // bm25 keeps 1, 2 (4 scored 0: no term matched); embedding keeps 2, 3 (1 has a negative cosine).
    // 2: 1/62 + 1/61   1: 1/61   3: 1/62
    const hits = await hybrid.search('q', { k: 10 });
    expect(hits.map((h) => h.chunkId)).toEqual([2, 1, 3]);
    expect(hits[0]!.score).toBeCloseTo(1 / 62 + 1 / 61, 12);
    const keepAll = hybrid.withOptions({ dropNonPositive: false });
    // Now 1: 1/61 + 1/63, 2: 1/62 + 1/61, 3: 1/62, 4: 1/63.
    expect((await keepAll.search('q', { k: 10 })).map((h) => h.chunkId)).toEqual([2, 1, 3, 4]);
    const keepDense = hybrid.withOptions({ dropNonPositive: { embedding: false } });
    expect((await keepDense.search('q', { k: 10 })).map((h) => h.chunkId)).toEqual([2, 1, 3]);
    expect((await keepDense.fuse('q', 10)).find((h) => h.chunkId === 1)!.components[1]).toMatchObject({ rank: 3, score: -0.1 });
  });

  test('explain gives the fused score, each component’s rank, score and share, and its own explanation', async () => {
    const hybrid = new HybridRetriever([lexical, dense], { weights: { embedding: 0.5 } });
    const hits = await hybrid.search('q', { k: 3 });
    const explanation = hybrid.explain('q', 2);
    expect(explanation.value).toBeCloseTo(hits[0]!.score, 12);
    expect(explanation.value).toBeCloseTo(1 / 62 + 0.5 / 61, 12);
    expect(explanation.description).toBe('rrf fusion of bm25, embedding (rrf_k 60)');
    expect(explanation.details!.map((d) => d.description)).toEqual(['bm25: rank 2 (score 3.0000) → 1 / (60 + 2)', 'embedding: rank 1 (score 0.9000) → 0.5 / (60 + 1)']);
    expect(explanation.details![0]!.details![0]).toEqual({ value: 2, description: 'bm25 explains 2' });
    expect(explanation.details!.reduce((s, d) => s + d.value, 0)).toBeCloseTo(explanation.value, 12);
    expect(hybrid.explain('q', 3).details![0]!.description).toBe('bm25: not among its candidates');
    expect(hybrid.explain('never searched', 2).description).toMatch(/run search\(\) with this query first/);
  });

  test('asks each component for its pool, and for k when k is larger', async () => {
    const words = new (await import('./components.js')).CountingRetriever('words', chunks, {}, countWords);
    const letters = new (await import('./components.js')).CountingRetriever('letters', chunks, {}, shareLetters);
    const hybrid = new HybridRetriever([words, letters], { pool: { letters: 3 } });
    await hybrid.search('kv cache', { k: 2 });
    await hybrid.search('kv cache', { k: 80 });
    expect(words.requestedK).toEqual([50, 80]);
    expect(letters.requestedK).toEqual([3, 80]);
  });

  test('hands a scope to every component and fuses only chunks in it', async () => {
    const { CountingRetriever } = await import('./components.js');
    const words = new CountingRetriever('words', chunks, {}, countWords);
    const letters = new CountingRetriever('letters', chunks, {}, shareLetters);
    const hybrid = new HybridRetriever([words, letters]);
    // Chunks 2 and 4: the second kv cache chunk and one the letters component alone finds.
    const scope = Uint8Array.from([0, 0, 1, 0, 1]);
    const hits = await hybrid.search('kv cache', { k: 5, scope });
    expect(words.requestedScopes).toEqual([scope]);
    expect(letters.requestedScopes).toEqual([scope]);
    expect(hits.map((hit) => hit.chunkId).sort()).toEqual([2, 4]);
    expect(hits[0]!.chunkId).toBe(2);
  });

  test('score fusion is selectable by name; bad options are refused', async () => {
    const hybrid = new HybridRetriever([lexical, dense], { fusion: 'minmax', weights: { embedding: 0.5 } });
    // bm25 → 1: 1, 2: 0   embedding (× 0.5) → 2: 1, 3: 0 (1 dropped) → 2: 0.5, 1: 1, 3: 0
    expect((await hybrid.search('q', { k: 3 })).map((h) => [h.chunkId, h.score])).toEqual([
      [1, 1],
      [2, 0.5],
      [3, 0],
    ]);
    expect((await rejection(() => new HybridRetriever([lexical], { fusion: 'borda' }))).code).toBe('UNKNOWN_NAME');
    expect((await rejection(() => new HybridRetriever([lexical], { rrfK: 0 }))).message).toMatch(/rrfK must be a number > 0/);
    expect((await rejection(() => new HybridRetriever([lexical], { weights: { bm25: -1 } }))).code).toBe('INVALID_ARGUMENT');
    expect((await rejection(() => new HybridRetriever([lexical, lexical]))).message).toMatch(/Two hybrid components are named "bm25"/);
    expect((await rejection(() => resolveHybridOptions({ rrf: 3 }))).hint).toMatch(/Valid keys: fusion, rrfK, rrf_k/);
    expect(resolveHybridOptions({ rrf_k: 10 }).rrfK).toBe(10);
  });
});

describe('drawing the fused list (dedupe, kind share)', () => {
  // One docs page (0: a section, 1: a piece inside it) and three code chunks of one file.
  const page = 'Caching\n\nThe prefix cache keeps blocks of earlier prompts so a new prompt reuses them.';
  const code = 'def lookup(block_hash):\n    return cached_blocks.get(block_hash)\n\ndef evict(block):\n    free_list.append(block)\n\ndef hash_block(tokens):\n    return hash(tuple(tokens))';
  const span = (id: number, file: string, text: string, from: number, to: number, language: 'markdown' | 'python') => ({
    id, file_path: file, first_character_index: from, last_character_index: to, start_line: 1, end_line: 1,
    kind: 'text' as const, symbol: '', language, text: text.slice(from, to),
  });
  const chunks = [
    span(0, 'docs/cache.md', page, 0, page.length, 'markdown'),
    span(1, 'docs/cache.md', page, 9, page.length, 'markdown'),
    span(2, 'docs/guide.md', page, 0, 8, 'markdown'),
    span(3, 'pkg/cache.py', code, 0, 60, 'python'),
    span(4, 'pkg/cache.py', code, 62, 115, 'python'),
  ];
  // Both components rank the page first, its piece second and the code last.
  const lexical = fixedRetriever('bm25', { q: [0, 1, 2, 3, 4].map((chunkId, i) => ({ chunkId, score: 10 - i })) });
  const dense = fixedRetriever('embedding', { q: [0, 1, 2, 3, 4].map((chunkId, i) => ({ chunkId, score: 0.9 - i / 10 })) });

  test('a piece that overlaps a better hit of the same file is dropped, so the list names distinct places', async () => {
    const hybrid = new HybridRetriever([lexical, dense], { fusion: 'minmax' }, chunks);
    // Fused order 0, 1, 2, 3, 4; 1 lies inside 0.
    expect((await hybrid.search('q', { k: 4 })).map((h) => h.chunkId)).toEqual([0, 2, 3, 4]);
    // Without the chunks (or with dedupe off) the fused order is returned as is.
    expect((await new HybridRetriever([lexical, dense], { fusion: 'minmax' }).search('q', { k: 4 })).map((h) => h.chunkId)).toEqual([0, 1, 2, 3]);
    expect((await hybrid.withOptions({ dedupe: false }).search('q', { k: 4 })).map((h) => h.chunkId)).toEqual([0, 1, 2, 3]);
  });

  test('the kind share keeps code in view when fusion ranks prose first, and only reorders', async () => {
    const hybrid = new HybridRetriever([lexical, dense], { fusion: 'minmax', kindShare: 0.5 }, chunks);
    // At most half of any prefix (rounded up) may be prose: 0 (prose), then code 3 before prose 2.
    const hits = await hybrid.search('q', { k: 4 });
    expect(hits.map((h) => h.chunkId)).toEqual([0, 3, 2, 4]);
    // Every score is still the fused score of that chunk.
    const fused = new Map((await hybrid.fuse('q', 4)).map((h) => [h.chunkId, h.score]));
    for (const hit of hits) expect(hit.score).toBe(fused.get(hit.chunkId));
    expect(() => hybrid.withOptions({ kindShare: 0 })).toThrow(/kindShare/);
  });

  test('code chunks that meet join after fusion; the components are asked for single chunks', async () => {
    // The two functions of pkg/cache.py cut so that they meet (as the chunker cuts code).
    const meeting = [...chunks.slice(0, 3), span(3, 'pkg/cache.py', code, 0, 62, 'python'), span(4, 'pkg/cache.py', code, 62, 115, 'python')];
    const asked: (boolean | undefined)[] = [];
    const recording = (name: string, inner: Retriever): Retriever => ({ ...inner, name, search: (query, options) => (asked.push(options.join), inner.search(query, options)) });
    const hybrid = new HybridRetriever([recording('bm25', lexical), recording('embedding', dense)], { fusion: 'minmax' }, meeting);
    const hits = await hybrid.search('q', { k: 4 });
    expect(asked).toEqual([false, false]);
    // Fused 0, (1 inside 0), 2, 3, 4: the lookup function joins evict, its neighbour, in one place.
    expect(hits).toEqual([expect.objectContaining({ chunkId: 0 }), expect.objectContaining({ chunkId: 2 }), expect.objectContaining({ chunkId: 3, joined: { first: 3, last: 4 } })]);
    expect((await hybrid.withOptions({ joinSpan: 0 }).search('q', { k: 4 })).map((h) => h.chunkId)).toEqual([0, 2, 3, 4]);
    expect((await hybrid.search('q', { k: 4, join: false })).map((h) => h.joined)).toEqual([undefined, undefined, undefined, undefined]);
  });
});

describe('createHybridRetrieverFactory', () => {
  test('builds every component, saves each in its own directory, and loads them back', async () => {
    const words = countingFactory('words', countWords);
    const letters = countingFactory('letters', shareLetters);
    const factory = createHybridRetrieverFactory([words, letters], { rrfK: 10, weights: { letters: 0.25 } });
    expect(factory.name).toBe('hybrid');
    expect(factory.description).toBe('fusion of words + letters (rrf, rrf_k 10)');
    const phases: string[] = [];
    const built = await factory.build(chunks, {
      settings: { weights: { letters: 0.5 }, components: { words: { minimum: 1 } } },
      onProgress: (e) => phases.push(e.phase),
    });
    expect(phases).toEqual(['words', 'letters']);
    expect(words.built[0]!.settings).toEqual({ minimum: 1 });
    const query = 'kv cache blocks';
    const hits = await built.search(query, { k: 3 });
    // The build settings replaced the factory's letters weight; rrfK 10 came from the factory.
    expect((built as HybridRetriever).options).toMatchObject({ rrfK: 10, weights: { letters: 0.5 } });
    const dir = join(work, 'index');
    await mkdir(dir);
    await built.save(dir);
    expect((await readdir(dir)).sort()).toEqual(['hybrid.json', 'letters', 'words']);
    expect(JSON.parse(await readFile(join(dir, 'hybrid.json'), 'utf8'))).toMatchObject({ format: 'rag-hybrid', version: 1, components: ['words', 'letters'] });
    const loaded = await factory.load(dir, chunks);
    expect(await loaded.search(query, { k: 3 })).toEqual(hits);
    expect((words.built[1] as CountingRetriever).settings).toEqual({ minimum: 1 });
    expect(loaded.explain!(query, hits[0]!.chunkId).value).toBeCloseTo(hits[0]!.score, 12);
  });

  test('refuses to load an index fusing a component it lacks, and settings for unknown components', async () => {
    const words = countingFactory('words', countWords);
    const letters = countingFactory('letters', shareLetters);
    const dir = join(work, 'index-2');
    await mkdir(dir);
    await (await createHybridRetrieverFactory([words, letters]).build(chunks)).save(dir);
    const missing = await rejection(() => createHybridRetrieverFactory([words]).load(dir, chunks));
    expect(missing.code).toBe('INDEX_INCOMPATIBLE');
    expect(missing.message).toMatch(/fuses "letters"/);
    const unknown = await rejection(() => createHybridRetrieverFactory([words]).build(chunks, { settings: { components: { dense: {} } } }));
    expect(unknown.code).toBe('INVALID_ARGUMENT');
    expect(unknown.hint).toBe('Components: words.');
    expect((await rejection(() => createHybridRetrieverFactory([words]).load(join(work, 'nothing'), chunks))).code).toBe('INDEX_CORRUPT');
  });
});
