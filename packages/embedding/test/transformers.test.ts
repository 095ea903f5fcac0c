import { createServer, type Server } from 'node:http';
import { cp, mkdir, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isRagError } from '@rag/core';
import { resolveEmbeddingOptions, TransformersEmbedder, type EmbeddingSettings } from '../src/index.js';
import { createModelFixture, type ModelFixture } from './helpers/models.js';

let fixture: ModelFixture;
const create = (settings: EmbeddingSettings) =>
  TransformersEmbedder.create(resolveEmbeddingOptions({ cacheDir: join(fixture.root, 'cache'), allowRemote: false, ...settings }));

beforeAll(async () => {
  fixture = await createModelFixture();
});
afterAll(async () => {
  await fixture.cleanup();
});

function maxDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
  return worst;
}

function norms(vectors: Float32Array, dimension: number): number[] {
  const out: number[] = [];
  for (let r = 0; r < vectors.length / dimension; r++) out.push(Math.hypot(...vectors.subarray(r * dimension, (r + 1) * dimension)));
  return out;
}

async function expectModelNotFound(promise: Promise<unknown>, pattern: RegExp): Promise<void> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(isRagError(error)).toBe(true);
  expect((error as { code: string }).code).toBe('MODEL_NOT_FOUND');
  expect((error as Error).message).toMatch(pattern);
  expect((error as { hint?: string }).hint).toMatch(/modelDir|folder/);
}

describe('TransformersEmbedder on a generated tiny BERT', () => {
  test('loads a local folder with remote loading off', async () => {
    const embedder = await create({ modelDir: fixture.modelDir });
    expect(embedder.dimension).toBe(16);
    expect(embedder.location).toBe(fixture.modelDir);
    expect(embedder.id).toMatch(/^transformers:folder:tiny-bert:fp32:[0-9a-f]{16}$/);
    expect(embedder.windowTokens).toBe(64);
    await embedder.dispose();
  });

  test('mean-pools over the attention mask and L2-normalises exactly like the feature-extraction pipeline', async () => {
    const embedder = await create({ modelDir: fixture.modelDir });
    const texts = ['the kv cache', 'how does paged attention schedule blocks of gpu memory', 'lora', ''];
    const ours = await embedder.embedDocuments(texts);
    // The pipeline pads the batch to its longest text, so this also checks that padding is masked out.
    const reference = await embedder.pipeline(texts, { pooling: 'mean', normalize: true });
    expect(reference.dims).toEqual([4, 16]);
    expect(maxDifference(ours, reference.data)).toBeLessThan(1e-5);
    for (const norm of norms(ours, 16)) expect(norm).toBeCloseTo(1, 5);
    await embedder.dispose();
  });

  test('embeds a text longer than the model window as windows and averages them instead of truncating', async () => {
    // 12 positions: [CLS] + 10 tokens + [SEP] per window.
    const embedder = await create({ modelDir: fixture.shortModelDir, windowOverlap: 0 });
    expect(embedder.windowTokens).toBe(12);
    const first = 'kv cache of paged attention is in gpu memory blocks';
    const second = 'the scheduler is to queue requests for the http server';
    expect(embedder.windowsOf(first)).toHaveLength(1);
    expect(embedder.windowsOf(first)[0]).toHaveLength(12);
    expect(embedder.windowsOf(second)[0]).toHaveLength(12);
    const long = `${first} ${second}`;
    const windows = embedder.windowsOf(long);
    expect(windows).toHaveLength(2);
    const [vector] = [await embedder.embedQuery(long)];
    // Two full windows of ten tokens each weigh the same: the result is the normalised sum
    // of the two halves' pipeline embeddings.
    const halves = await embedder.pipeline([first, second], { pooling: 'mean', normalize: true });
    const expected = new Float32Array(16);
    for (let i = 0; i < 16; i++) expected[i] = (halves.data[i] as number) + (halves.data[16 + i] as number);
    const length = Math.hypot(...expected);
    expect(maxDifference(vector!, expected.map((v) => v / length))).toBeLessThan(1e-5);
    // The pipeline alone silently truncates: words past its limit change nothing there,
    // while they do change the windowed vector.
    const longer = `${long} lora adapter`;
    const plain = await embedder.pipeline([long, longer], { pooling: 'mean', normalize: true });
    const both = Array.from(plain.data);
    expect(maxDifference(both.slice(0, 16), both.slice(16))).toBeLessThan(1e-6);
    expect(maxDifference(vector!, await embedder.embedQuery(longer))).toBeGreaterThan(1e-3);
    await embedder.dispose();
  });

  test('overlapping windows cover every token and fit the model', async () => {
    const embedder = await create({ modelDir: fixture.shortModelDir, windowOverlap: 4 });
    const text = Array.from({ length: 37 }, (_, i) => ['cache', 'gpu', 'memory', 'lora', 'adapter'][i % 5]).join(' ');
    const windows = embedder.windowsOf(text);
    expect(windows.length).toBe(6); // starts 0, 6, 12, 18, 24 and the last pulled back to 27 (37 tokens, windows of 10 sharing 4)
    for (const w of windows) {
      expect(w.length).toBeLessThanOrEqual(12);
      expect(w[0]).toBe(2); // [CLS]
      expect(w.at(-1)).toBe(3); // [SEP]
    }
    const vector = await embedder.embedQuery(text);
    expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
    await embedder.dispose();
  });

  test('small forward batches give the same vectors as one text at a time', async () => {
    const texts = [
      'cache',
      'the http server will load a lora adapter for the model',
      'gpu memory',
      'quantization of weights to fp8 and int8 for the model and the kv cache of the gpu',
      'install with pip or docker',
    ];
    const batched = await create({ modelDir: fixture.modelDir, batchTokens: 64 });
    const together = await batched.embedDocuments(texts);
    const single = await create({ modelDir: fixture.modelDir });
    for (const [i, text] of texts.entries()) {
      const alone = await single.embedQuery(text);
      expect(maxDifference(together.subarray(i * 16, (i + 1) * 16), alone)).toBeLessThan(1e-5);
    }
    await batched.dispose();
    await single.dispose();
  });

  test('a hub model present in the cache loads without the network', async () => {
    const cacheDir = join(fixture.root, 'hub-cache');
    await mkdir(join(cacheDir, 'models', 'test-org'), { recursive: true });
    await cp(fixture.modelDir, join(cacheDir, 'models', 'test-org', 'tiny-bert'), { recursive: true });
    const embedder = await TransformersEmbedder.create(resolveEmbeddingOptions({ model: 'test-org/tiny-bert', cacheDir, allowRemote: false }));
    expect(embedder.id).toBe('transformers:test-org/tiny-bert:fp32');
    expect(embedder.location).toBe(join(cacheDir, 'models', 'test-org', 'tiny-bert'));
    expect(embedder.dimension).toBe(16);
    await embedder.dispose();
  });
});

describe('missing models fail fast with MODEL_NOT_FOUND and a fix-it hint', () => {
  let silent: Server;
  let silentUrl: string;
  let refusedUrl: string;

  beforeAll(async () => {
    // Accepts connections and never answers: a hub behind a firewall that drops packets.
    silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`;
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    refusedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/`;
    await new Promise((resolve) => closed.close(resolve));
  });
  afterAll(async () => {
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  });

  test('a model folder that does not exist', async () => {
    await expectModelNotFound(create({ modelDir: join(fixture.root, 'nowhere') }), /does not exist/);
  });

  test('a model folder without its ONNX file names the missing file', async () => {
    const broken = join(fixture.root, 'broken');
    await cp(fixture.modelDir, broken, { recursive: true });
    await rm(join(broken, 'onnx', 'model.onnx'));
    await expectModelNotFound(create({ modelDir: broken }), /onnx\/model\.onnx/);
    await expectModelNotFound(create({ modelDir: fixture.modelDir, dtype: 'q8' }), /onnx\/model_quantized\.onnx/);
  });

  test('a hub model that is not cached while downloads are off', async () => {
    await expectModelNotFound(create({ model: 'Xenova/all-MiniLM-L6-v2', allowRemote: false }), /not in the cache.*downloads are off/);
  });

  test('a hub that refuses connections', async () => {
    await expectModelNotFound(create({ model: 'Xenova/all-MiniLM-L6-v2', allowRemote: true, remoteHost: refusedUrl }), /Could not load model/);
  });

  test('a hub that never answers times out instead of hanging', async () => {
    await expectModelNotFound(
      create({ model: 'Xenova/all-MiniLM-L6-v2', allowRemote: true, remoteHost: silentUrl, connectTimeoutMs: 300 }),
      /no answer within 300 ms|aborted/i,
    );
  });
});
