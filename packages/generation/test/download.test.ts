import { createReadStream, existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answer, createTransformersGenerator, isModelOnDisk } from '../src/index.js';
import { source } from './helpers/sources.js';
import { writeTinyModel } from './helpers/tiny-models.js';
import { tempDir } from './helpers/tmp.js';

const root = await tempDir();
const served = join(root, 'served');
const cacheDir = join(root, 'cache');
const MODEL = 'tiny-org/served-chat';
let host = '';
let server: Server;
const requested: string[] = [];

// A stand-in for the hub: serves `served/` under /<model>/resolve/main/<file>, as
// huggingface.co lays out its downloads.
beforeAll(async () => {
  await writeTinyModel(served);
  server = createServer(async (req, res) => {
    const prefix = `/${MODEL}/resolve/main/`;
    const path = decodeURIComponent(req.url ?? '');
    requested.push(`${req.method} ${path}`);
    const file = path.startsWith(prefix) ? join(served, path.slice(prefix.length)) : '';
    if (!file || !existsSync(file)) {
      res.statusCode = 404;
      res.end();
      return;
    }
    res.setHeader('content-length', String((await stat(file)).size));
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const request = { question: 'port?', sources: [source('DEFAULT_PORT = 8421')] };

describe('a hub model on first use', () => {
  it('is downloaded into the cache, then loads from there with no network', async () => {
    expect(isModelOnDisk({ model: MODEL, cacheDir, dtype: 'fp32' })).toBe(false);
    const downloaded = await createTransformersGenerator({ model: MODEL, cacheDir, remoteHost: host, dtype: 'fp32', allowDownload: true });
    expect((await answer(downloaded, request)).answer).toBe('Port 8421 [1], see');
    await downloaded.dispose();
    expect(requested).toContain(`GET /${MODEL}/resolve/main/onnx/model.onnx`);
    expect(existsSync(join(cacheDir, MODEL, 'onnx', 'model.onnx'))).toBe(true);
    expect(isModelOnDisk({ model: MODEL, cacheDir, dtype: 'fp32' })).toBe(true);

    const count = requested.length;
    const offline = await createTransformersGenerator({ model: MODEL, cacheDir, remoteHost: 'http://127.0.0.1:9/', dtype: 'fp32' });
    expect((await answer(offline, request)).answer).toBe('Port 8421 [1], see');
    expect(requested.length).toBe(count);
    await offline.dispose();
  });
});
