import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkModelFolder,
  downloadsAllowedByEnvironment,
  fetchWithTimeout,
  isHubModelId,
  isModelOnDisk,
  locateModel,
  withTransformersEnvironment,
  type TransformersEnvironmentPatch,
} from '../src/index.js';

let root: string;

/** A model folder with the files the locator looks for (their contents do not matter to it). */
async function writeFolder(dir: string, onnx: string[]): Promise<void> {
  await mkdir(join(dir, 'onnx'), { recursive: true });
  for (const file of ['config.json', 'tokenizer.json', 'tokenizer_config.json']) await writeFile(join(dir, file), '{}');
  for (const file of onnx) await writeFile(join(dir, 'onnx', file), '');
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'rag-models-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('checkModelFolder', () => {
  it('picks the first present dtype for auto, and names what an explicit dtype lacks', async () => {
    const dir = join(root, 'q8-only');
    await writeFolder(dir, ['model_quantized.onnx']);
    expect(checkModelFolder(dir, 'auto')).toEqual({ missing: [], dtype: 'q8', presentDtypes: ['q8'] });
    expect(checkModelFolder(dir, 'fp32')).toEqual({ missing: ['onnx/model.onnx'], presentDtypes: ['q8'] });
  });

  it('asks for the external-data file the config declares', async () => {
    const dir = join(root, 'external');
    await writeFolder(dir, ['model.onnx']);
    await writeFile(join(dir, 'config.json'), JSON.stringify({ 'transformers.js_config': { use_external_data_format: true } }));
    expect(checkModelFolder(dir, 'fp32').missing).toEqual(['onnx/model.onnx_data']);
  });
});

describe('locateModel', () => {
  it('locates a complete folder without touching the network', async () => {
    const dir = join(root, 'complete');
    await writeFolder(dir, ['model.onnx']);
    await expect(locateModel({ modelDir: dir })).resolves.toMatchObject({ kind: 'folder', pathOrId: dir, dtype: 'fp32' });
    expect(isModelOnDisk({ modelDir: dir })).toBe(true);
  });

  it('uses a complete cached download, and the caller’s dtype for hub downloads', async () => {
    const cacheDir = join(root, 'cache');
    await writeFolder(join(cacheDir, 'owner', 'cached-model'), ['model_q4.onnx']);
    await expect(locateModel({ model: 'owner/cached-model', cacheDir, hubDtype: 'q4', allowDownload: false })).resolves.toMatchObject({
      kind: 'folder',
      modelId: 'owner/cached-model',
      dtype: 'q4',
    });
  });

  it('ends every hint with the caller’s advice', async () => {
    const advice = 'pass --my_flag with a folder.';
    await expect(locateModel({ model: 'owner/absent', cacheDir: join(root, 'empty'), allowDownload: false, advice })).rejects.toMatchObject({
      code: 'MODEL_NOT_FOUND',
      message: expect.stringMatching(/owner\/absent is not in the cache .* and downloads are off/),
      hint: 'Pass --my_flag with a folder.',
    });
    await expect(locateModel({ modelDir: join(root, 'nowhere'), advice })).rejects.toMatchObject({ code: 'MODEL_NOT_FOUND', message: expect.stringContaining('does not exist') });
  });

  it('refuses a call that names no model, a name that is neither folder nor hub id, and unknown dtypes', async () => {
    await expect(locateModel({})).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(locateModel({ model: 'not a model' })).rejects.toMatchObject({ code: 'MODEL_NOT_FOUND' });
    await expect(locateModel({ modelDir: root, dtype: 'q3' as never })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(isHubModelId('owner/name')).toBe(true);
    expect(isHubModelId('../escape/x')).toBe(false);
  });

  it('reads the offline switches from the environment', () => {
    expect(downloadsAllowedByEnvironment({})).toBe(true);
    expect(downloadsAllowedByEnvironment({ HF_HUB_OFFLINE: 'yes' })).toBe(false);
    expect(downloadsAllowedByEnvironment({ RAG_OFFLINE: '0' })).toBe(true);
  });
});

describe('the transformers.js environment', () => {
  let silent: Server;
  let silentUrl: string;
  beforeAll(async () => {
    silent = createServer(() => undefined); // accepts, never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('fetchWithTimeout gives up on a server that never answers, saying after how long', async () => {
    await expect(fetchWithTimeout(fetch, 200)(silentUrl)).rejects.toThrow(/no answer within 200 ms/);
  });

  it('applies a patch for one load at a time and restores the settings after', async () => {
    const env = { remoteHost: 'https://hub.example/', allowRemoteModels: true } as unknown as Parameters<typeof withTransformersEnvironment>[0];
    const seen: string[] = [];
    const load = (host: string) =>
      withTransformersEnvironment(env, { remoteHost: host } as TransformersEnvironmentPatch, async () => {
        seen.push(`start ${env.remoteHost}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
        seen.push(`end ${env.remoteHost}`);
      });
    await Promise.all([load('http://a/'), load('http://b/')]);
    // The second load waits for the first: their settings never mix.
    expect(seen).toEqual(['start http://a/', 'end http://a/', 'start http://b/', 'end http://b/']);
    expect(env.remoteHost).toBe('https://hub.example/');
  });
});
