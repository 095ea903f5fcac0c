import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadsAllowedByEnvironment, isHubModelId } from '@rag/models';
import { chooseDefaultGenerator, createGeneratorRegistry, isModelOnDisk, locateModel, QWEN3_MODEL_ID } from '../src/index.js';
import { writeTinyModel } from './helpers/tiny-models.js';
import { tempDir } from './helpers/tmp.js';

const root = await tempDir();
const emptyCache = join(root, 'empty-cache');

/** A local "hub": 404 for everything, or a server that accepts and never answers. */
let notFoundHost = '';
let silentHost = '';
const servers: Server[] = [];
async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

beforeAll(async () => {
  notFoundHost = await listen((_req, res) => {
    res.statusCode = 404;
    res.end();
  });
  silentHost = await listen(() => undefined);
});
afterAll(() => {
  for (const server of servers) server.closeAllConnections();
  return Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

describe('locateModel', () => {
  it('uses a complete folder as it is, choosing the dtype from the files present', async () => {
    const dir = join(root, 'tiny');
    await writeTinyModel(dir);
    expect(await locateModel({ modelDir: dir })).toMatchObject({ kind: 'folder', pathOrId: dir, modelId: dir, dtype: 'fp32' });
    expect(isModelOnDisk({ modelDir: dir })).toBe(true);
  });

  it('asks for the external-data file the config declares', async () => {
    const dir = join(root, 'external');
    await writeTinyModel(dir);
    await writeFile(join(dir, 'config.json'), JSON.stringify({ model_type: 'qwen3', 'transformers.js_config': { use_external_data_format: { 'model.onnx': true } } }));
    await expect(locateModel({ modelDir: dir })).rejects.toMatchObject({ code: 'MODEL_NOT_FOUND', message: expect.stringContaining('onnx/model.onnx_data') });
    await writeFile(join(dir, 'onnx', 'model.onnx_data'), '');
    await expect(locateModel({ modelDir: dir })).resolves.toMatchObject({ dtype: 'fp32' });
  });

  it('says a hub model is missing without touching the network when downloads are off', async () => {
    await expect(locateModel({ cacheDir: emptyCache, allowDownload: false })).rejects.toMatchObject({
      code: 'MODEL_NOT_FOUND',
      message: expect.stringContaining(QWEN3_MODEL_ID),
      hint: expect.stringContaining('--model_dir'),
    });
    expect(isModelOnDisk({ cacheDir: emptyCache })).toBe(false);
  });

  it('turns downloads off when an offline variable is set', () => {
    expect(downloadsAllowedByEnvironment({})).toBe(true);
    expect(downloadsAllowedByEnvironment({ HF_HUB_OFFLINE: '1' })).toBe(false);
    expect(downloadsAllowedByEnvironment({ RAG_OFFLINE: '1' })).toBe(false);
    expect(downloadsAllowedByEnvironment({ TRANSFORMERS_OFFLINE: '0' })).toBe(true);
  });

  it('fails fast with a hint when the hub cannot be reached', async () => {
    await expect(locateModel({ cacheDir: emptyCache, remoteHost: 'http://127.0.0.1:9/', allowDownload: true })).rejects.toMatchObject({
      code: 'MODEL_NOT_FOUND',
      message: expect.stringContaining('cannot be reached'),
      hint: expect.stringContaining('--model_dir'),
    });
  });

  it('gives up on a hub that never answers after the check timeout', async () => {
    await expect(locateModel({ cacheDir: emptyCache, remoteHost: silentHost, downloadCheckTimeoutMs: 300, allowDownload: true })).rejects.toMatchObject({
      code: 'MODEL_NOT_FOUND',
      message: expect.stringContaining('cannot be reached'),
    });
  });

  it('reports a model the hub does not have', async () => {
    await expect(locateModel({ model: 'nobody/no-such-model', cacheDir: emptyCache, remoteHost: notFoundHost, allowDownload: true })).rejects.toMatchObject({
      code: 'MODEL_NOT_FOUND',
      message: expect.stringContaining('HTTP 404'),
    });
  });

  it('refuses names that are neither folders nor hub ids, and unknown dtypes', async () => {
    await expect(locateModel({ model: 'not a model' })).rejects.toMatchObject({ code: 'MODEL_NOT_FOUND' });
    await expect(locateModel({ modelDir: root, dtype: 'q3' as never })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(isHubModelId(QWEN3_MODEL_ID)).toBe(true);
    expect(isHubModelId('../escape/x')).toBe(false);
    expect(isHubModelId('qwen3')).toBe(false);
  });
});

describe('the generator registry', () => {
  const registry = createGeneratorRegistry();

  it('lists the named generators', () => {
    expect(registry.names()).toEqual(['extractive', 'qwen3']);
    expect(registry.describe().map((d) => d.description).join(' ')).toContain(QWEN3_MODEL_ID);
  });

  it('creates the extractive generator without any model', async () => {
    const generator = await registry.create('extractive', { maxQuotes: 2, maxNewTokens: 10 });
    expect(generator.name).toBe('extractive');
    expect(generator.identity.settings).toMatchObject({ maxQuotes: 2 });
  });

  it('rejects an unknown name with the valid ones in the hint', async () => {
    await expect(registry.create('gpt-9')).rejects.toMatchObject({ code: 'UNKNOWN_NAME', hint: expect.stringContaining('extractive or qwen3') });
  });

  it('gives MODEL_NOT_FOUND for qwen3 on a machine that has neither the model nor a network', async () => {
    await expect(registry.create('qwen3', { cacheDir: emptyCache, remoteHost: 'http://127.0.0.1:9/' })).rejects.toMatchObject({ code: 'MODEL_NOT_FOUND' });
  });

  it('defaults to extractive unless the Qwen3 model is on disk', async () => {
    expect(chooseDefaultGenerator({ cacheDir: emptyCache })).toBe('extractive');
    const dir = join(root, 'default-model');
    await writeTinyModel(dir);
    expect(chooseDefaultGenerator({ modelDir: dir })).toBe('qwen3');
    const cacheDir = join(root, 'default-cache');
    await writeTinyModel(join(cacheDir, QWEN3_MODEL_ID));
    expect(chooseDefaultGenerator({ cacheDir })).toBe('qwen3');
  });

  it('loads qwen3 from --model_dir, and a folder given as the name', async () => {
    const dir = join(root, 'as-name');
    await writeTinyModel(dir);
    const byDir = await registry.create('qwen3', { modelDir: dir });
    expect(byDir.name).toBe('qwen3');
    expect(byDir.modelId).toBe(dir);
    await byDir.dispose();
    const byName = await registry.create(dir);
    expect(byName.modelId).toBe(dir);
    await byName.dispose();
    await mkdir(join(root, 'empty'), { recursive: true });
    await expect(registry.create(join(root, 'empty'))).rejects.toMatchObject({ code: 'MODEL_NOT_FOUND' });
  });
});
