import { describe, expect, test } from 'vitest';
import { CorpusEmbedder, DEFAULT_CORPUS_EMBEDDER_OPTIONS, fitCorpusEmbedder, type CorpusEmbedderOptions } from '../src/index.js';
import { dot, embeddingText, searchExact } from '../src/internals.js';
import { makeChunks } from './helpers/chunks.js';
import { FRUIT, GPU, TOPIC_CHUNKS, TOPIC_SETTINGS, VEHICLES } from './helpers/topics.js';

const options: CorpusEmbedderOptions = { ...DEFAULT_CORPUS_EMBEDDER_OPTIONS, ...TOPIC_SETTINGS };
const texts = TOPIC_CHUNKS.map((c) => c.text);

function termVector(embedder: CorpusEmbedder, term: string): Float32Array {
  const id = embedder.termId(term);
  expect(id).toBeGreaterThanOrEqual(0);
  return embedder.vectors.subarray(id * embedder.dimension, (id + 1) * embedder.dimension);
}

const ids = (hits: { chunkId: number }[]) => hits.map((h) => h.chunkId).sort((a, b) => a - b);

describe('fitCorpusEmbedder', () => {
  test('words that keep the same company get similar vectors even if they never co-occur', () => {
    const { embedder } = fitCorpusEmbedder(texts, options);
    // Tokens are stemmed by the BM25 tokenizer: automobile → automobil.
    const car = termVector(embedder, 'car');
    expect(dot(car, termVector(embedder, 'automobil'))).toBeGreaterThan(0.9);
    expect(dot(car, termVector(embedder, 'banana'))).toBeLessThan(0.3);
    expect(dot(termVector(embedder, 'banana'), termVector(embedder, 'appl'))).toBeGreaterThan(0.9);
  });

  test('a query finds chunks that share none of its words but its topic (what BM25 cannot)', () => {
    const { embedder, vectors } = fitCorpusEmbedder(texts, options);
    const hits = searchExact(vectors, embedder.dimension, embedder.embedQuerySync('automobile'), 5);
    // Only chunks 2 and 3 contain "automobile"; 0, 1 and 4 are found through car/engine/wheels.
    expect(ids(hits)).toEqual(VEHICLES);
    for (const hit of hits) expect(hit.score).toBeGreaterThan(0.5);
  });

  test('golden ranking by topic on the fixed corpus', () => {
    const { embedder, vectors } = fitCorpusEmbedder(texts, options);
    const rank = (query: string) => searchExact(vectors, embedder.dimension, embedder.embedQuerySync(query), texts.length);
    // Why: with one dimension per topic every chunk lies near its topic's axis, so a query
    // made of one topic's words ranks that topic's chunks first, all of them, and the
    // chunks of the two unrelated topics after every on-topic one.
    const fruit = rank('sweet yellow fruit');
    expect(ids(fruit.slice(0, 4))).toEqual(FRUIT);
    const gpu = rank('where does the kv cache live');
    expect(ids(gpu.slice(0, 3))).toEqual(GPU);
    expect(gpu[2]!.score).toBeGreaterThan(gpu[3]!.score + 0.3);
  });

  test('identifiers are split into sub-words, so a prose query meets a camelCase name', () => {
    const chunks = makeChunks([
      ...TOPIC_CHUNKS,
      { file: 'src/cache.py', text: 'class KVCacheManager:\n    def allocate(self): return GpuMemoryPool()' },
      { file: 'src/cache.py', text: 'def free_kv_cache_blocks(pool): pool.release()' },
    ]);
    const { embedder, vectors } = fitCorpusEmbedder(chunks.map((c) => embeddingText(c, false)), options);
    const top = searchExact(vectors, embedder.dimension, embedder.embedQuerySync('kv cache memory'), 5);
    // Both code chunks name the kv cache only inside identifiers.
    expect(top.map((h) => h.chunkId)).toEqual(expect.arrayContaining([12, 13]));
  });

  test('is deterministic and survives an encode/decode round trip', () => {
    const first = fitCorpusEmbedder(texts, options);
    const second = fitCorpusEmbedder(texts, options);
    expect(second.embedder.id).toBe(first.embedder.id);
    expect(Array.from(second.vectors)).toEqual(Array.from(first.vectors));
    const decoded = CorpusEmbedder.decode(first.embedder.encode(), 'test');
    expect(decoded.id).toBe(first.embedder.id);
    expect(decoded.terms).toEqual(first.embedder.terms);
    expect(Array.from(decoded.embedQuerySync('fuel for the car'))).toEqual(Array.from(first.embedder.embedQuerySync('fuel for the car')));
    expect(Array.from(decoded.embedDocumentsSync(texts))).toEqual(Array.from(first.vectors));
  });

  test('chunk and query vectors are unit length; a query with no known term is the zero vector', () => {
    const { embedder, vectors } = fitCorpusEmbedder(texts, options);
    for (let r = 0; r < texts.length; r++) expect(Math.hypot(...vectors.subarray(r * 3, r * 3 + 3))).toBeCloseTo(1, 5);
    expect(Math.hypot(...embedder.embedQuerySync('banana peel'))).toBeCloseTo(1, 5);
    expect(Array.from(embedder.embedQuerySync('zebra xylophone'))).toEqual([0, 0, 0]);
  });

  test('explain splits the score into per-term parts that add up to it, with and without centring', () => {
    for (const center of [false, true]) {
      const { embedder, vectors } = fitCorpusEmbedder(texts, { ...options, center });
      const query = 'yellow banana engine';
      const q = embedder.embedQuerySync(query);
      for (const chunk of [0, 5, 9]) {
        const explanation = embedder.explainQuery(query, vectors, chunk);
        const score = dot(q, vectors.subarray(chunk * 3, chunk * 3 + 3));
        expect(explanation.value).toBeCloseTo(score, 5);
        const parts = explanation.details!.reduce((s, d) => s + d.value, 0);
        expect(parts).toBeCloseTo(score, 5);
        expect(explanation.details!.length).toBe(center ? 4 : 3);
      }
    }
  });

  test('window co-occurrence works too', () => {
    const { embedder } = fitCorpusEmbedder(texts, { ...options, context: 'window', window: 3, minPairCount: 1 });
    expect(dot(termVector(embedder, 'banana'), termVector(embedder, 'fruit'))).toBeGreaterThan(dot(termVector(embedder, 'banana'), termVector(embedder, 'gpu')));
  });

  test('reports fit and embed progress', () => {
    const events: string[] = [];
    fitCorpusEmbedder(texts, options, (e) => events.push(`${e.phase}:${e.done}/${e.total}`));
    expect(events[0]).toBe('fit:0/4');
    expect(events.slice(-2)).toEqual(['fit:4/4', 'embed:12/12']);
  });
});
