import SwaggerParser from '@apidevtools/swagger-parser';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/index.js';
import { defaultSearchWorkers, MAX_K } from '@rag/service';
import { SHARED_SCHEMAS } from '../src/http/schemas.js';
import { buildIndex, getJson, makeTempDir, MINI_CORPUS, PORT_QUESTION, postJson, REPO_ROOT, startTestServer } from './helpers.js';

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let server: RunningServer;

beforeAll(async () => {
  temp = await makeTempDir('rag-server-http-');
  await buildIndex(MINI_CORPUS, join(temp.dir, 'index'));
  server = await startTestServer({ indexDir: join(temp.dir, 'index') });
});

afterAll(async () => {
  await server?.close();
  await temp?.remove();
});

/** A raw request, for headers that fetch will not let a caller set (Host). */
function rawGet(path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('server start', () => {
  it('binds to loopback on the port it was given (0: a free one)', () => {
    expect(server.options.host).toBe('127.0.0.1');
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
  });
});

describe('GET /health and /stats', () => {
  it('reports liveness', async () => {
    const { status, body } = await getJson(`${server.url}/health`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'ok', version: expect.any(String) });
  });

  it('reports the index: counts, age, retriever, generator, freshness', async () => {
    const { status, body } = await getJson(`${server.url}/stats`);
    expect(status).toBe(200);
    // The mini corpus has 11 indexable files (its Latin-1 .txt, the PNG and __pycache__ are not indexed).
    expect(body.files).toBe(11);
    expect(body.chunks).toBeGreaterThanOrEqual(body.files);
    expect(body.index_age_seconds).toBeGreaterThanOrEqual(0);
    expect(body.retriever).toBe('bm25');
    expect(body.retrievers).toEqual(['bm25']);
    expect(body.generator).toBe('extractive');
    expect(body.stale).toBe(false);
    expect(body.changed_count + body.missing_count).toBe(0);
    expect(body.answers).toEqual({ active: 0, queued: 0, maxConcurrent: 1, maxQueued: 8 });
  });
});

describe('POST /search', () => {
  it('returns ranked hits with exact citations, lines and symbols', async () => {
    const { status, body } = await postJson(`${server.url}/search`, { query: PORT_QUESTION, k: 3 });
    expect(status).toBe(200);
    expect(body.question).toBe(PORT_QUESTION);
    expect(body.retriever).toBe('bm25');
    expect(body.hits).toHaveLength(3);
    // The only file that defines the default port ranks first, its settings block joined with
    // the `from_env` helper right after it: the hit names the helper it also holds.
    expect(body.hits[0].file_path).toBe('datasets/mini/corpus/tinyserve/defaults.py');
    expect(body.hits[0].also_symbols).toEqual(['from_env']);
    expect(body.hits.map((h: { rank: number }) => h.rank)).toEqual([1, 2, 3]);
    for (const hit of body.hits) {
      expect(hit.last_character_index).toBeGreaterThan(hit.first_character_index);
      expect(hit.lines.end).toBeGreaterThanOrEqual(hit.lines.start);
      expect(typeof hit.symbol).toBe('string');
      expect(hit.stale).toBe(false);
    }
    // Scores descend.
    expect(body.hits[0].score).toBeGreaterThanOrEqual(body.hits[1].score);
    expect(body.retrieved_sources).toEqual(
      body.hits.map((h: Record<string, unknown>) => ({ file_path: h.file_path, first_character_index: h.first_character_index, last_character_index: h.last_character_index })),
    );
  });

  it('writes its body with the keys in the order of the documented SearchResult schema, as JSON', async () => {
    interface Schema {
      properties?: Record<string, Schema>;
      items?: Schema;
      $ref?: string;
    }
    const byId = new Map<string, Schema>(SHARED_SCHEMAS.map((schema) => [schema.$id, schema as unknown as Schema]));
    const resolveRef = (schema: Schema): Schema => (schema.$ref ? byId.get(schema.$ref.replace(/#$/, ''))! : schema);
    // The keys present, in the schema's order; recursively for objects and arrays of objects.
    const checkOrder = (value: unknown, schema: Schema, at: string): void => {
      if (Array.isArray(value)) return;
      const properties = schema.properties ?? {};
      const keys = Object.keys(value as object);
      expect(keys, at).toEqual(Object.keys(properties).filter((key) => keys.includes(key)));
      for (const key of keys) {
        const property = resolveRef(properties[key]!);
        const field = (value as Record<string, unknown>)[key];
        if (Array.isArray(field) && property.items) for (const [i, item] of field.entries()) if (typeof item === 'object') checkOrder(item, resolveRef(property.items), `${at}.${key}[${i}]`);
        if (field !== null && typeof field === 'object' && !Array.isArray(field)) checkOrder(field, property, `${at}.${key}`);
      }
    };
    const bodies = [
      { query: PORT_QUESTION, k: 5 },
      { query: PORT_QUESTION, k: 5, globs: ['docs/', '*.py'] },
      { query: PORT_QUESTION, globs: ['nowhere/'] },
    ];
    for (const request of bodies) {
      const response = await fetch(`${server.url}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) });
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      const body = JSON.parse(await response.text()) as { hits: { also_symbols?: string[] }[] };
      checkOrder(body, byId.get('SearchResult')!, 'SearchResult');
    }
    // What the order check saw: a hit with also_symbols (the last key of a hit), globs and no_matches.
    const first = await postJson(`${server.url}/search`, { query: PORT_QUESTION, k: 1 });
    expect(Object.keys(first.body.hits[0]).at(-1)).toBe('also_symbols');
  });

  it('defaults k to 10 (fewer when fewer chunks match)', async () => {
    const { body } = await postJson(`${server.url}/search`, { query: 'tinyserve server request route' });
    expect(body.hits.length).toBe(10);
  });

  it('names the retriever it used and refuses one the index lacks', async () => {
    const ok = await postJson(`${server.url}/search`, { query: 'router', retriever: 'bm25' });
    expect(ok.status).toBe(200);
    const bad = await postJson(`${server.url}/search`, { query: 'router', retriever: 'dense' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('UNKNOWN_NAME');
    expect(bad.body.hint).toContain('bm25');
  });
});

describe('POST /search with globs', () => {
  it('returns only spans of the matched files, echoes the globs, and says when no file matches', async () => {
    const docs = await postJson(`${server.url}/search`, { query: PORT_QUESTION, k: 5, globs: ['docs/', '*.md'] });
    expect(docs.status).toBe(200);
    expect(docs.body.globs).toEqual(['docs/', '*.md']);
    expect(docs.body.hits.length).toBeGreaterThan(0);
    for (const hit of docs.body.hits) expect(hit.file_path).toMatch(/^datasets\/mini\/corpus\/(docs\/|.*\.md$)/);
    // Leaving out the file that ranks first everywhere else.
    const rest = await postJson(`${server.url}/search`, { query: PORT_QUESTION, k: 3, globs: ['!tinyserve/defaults.py'] });
    expect(rest.body.hits.map((hit: { file_path: string }) => hit.file_path)).not.toContain('datasets/mini/corpus/tinyserve/defaults.py');
    const none = await postJson(`${server.url}/search`, { query: PORT_QUESTION, globs: ['nowhere/'] });
    expect(none.body).toMatchObject({ hits: [], no_matches: expect.stringMatching(/^No indexed file matches "nowhere\/"/) });
  });

  it('answers 400 for globs that are not a list of non-empty strings, or not globs', async () => {
    for (const globs of ['docs/', [''], [42], ['!']]) {
      const response = await postJson(`${server.url}/search`, { query: 'x', globs });
      expect(response.status, JSON.stringify(globs)).toBe(400);
      expect(response.body.code).toBe('INVALID_ARGUMENT');
    }
  });
});

describe('search workers', () => {
  // The service package's test registry: bm25 whose worker exits on the query "exit the worker".
  const testRegistry = join(REPO_ROOT, 'packages', 'service', 'test', 'fixtures', 'test-registry.mjs');

  it('run the searches by default, one per core', async () => {
    const { body } = await getJson(`${server.url}/stats`);
    expect(body.search_workers).toEqual({ workers: defaultSearchWorkers(), starting: 0, restarts: 0, in_flight: 0 });
  });

  it('answer 503 WORKER_FAILED for the search a dying worker held, then serve on with its replacement', async () => {
    const crashing = await startTestServer({ indexDir: join(temp.dir, 'index'), workers: 2, retrieverModule: testRegistry });
    try {
      const failed = await postJson(`${crashing.url}/search`, { query: 'exit the worker' });
      expect(failed.status).toBe(503);
      expect(failed.body.code).toBe('WORKER_FAILED');
      expect(failed.body.hint).toMatch(/Retry/);
      const ok = await Promise.all(Array.from({ length: 6 }, () => postJson(`${crashing.url}/search`, { query: PORT_QUESTION, k: 3 })));
      expect(ok.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(ok[0]!.body.hits[0].file_path).toMatch(/defaults\.py$/);
      for (let i = 0; i < 600 && (await getJson(`${crashing.url}/stats`)).body.search_workers.workers !== 2; i++) await new Promise((r) => setTimeout(r, 100));
      expect((await getJson(`${crashing.url}/stats`)).body.search_workers).toMatchObject({ workers: 2, restarts: 1 });
    } finally {
      await crashing.close();
    }
  });
});

describe('request validation', () => {
  const cases: [string, unknown, string, RegExp][] = [
    ['a missing query', { k: 3 }, 'query', /query is required/],
    ['k above the maximum', { query: 'x', k: MAX_K + 1 }, 'k', new RegExp(`k must be <= ${MAX_K}`)],
    ['k below 1', { query: 'x', k: 0 }, 'k', /k must be >= 1/],
    ['a fractional k', { query: 'x', k: 2.5 }, 'k', /k must be integer/],
    ['a query of the wrong type', { query: 42 }, 'query', /query must be string/],
    ['an unknown field', { query: 'x', kk: 3 }, 'kk', /kk is not a known field/],
  ];
  for (const [what, body, field, message] of cases) {
    it(`answers 400 naming the field for ${what}`, async () => {
      const response = await postJson(`${server.url}/search`, body);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('INVALID_ARGUMENT');
      expect(response.body.field).toBe(field);
      expect(response.body.message).toMatch(message);
    });
  }

  it('refuses a blank query', async () => {
    const response = await postJson(`${server.url}/search`, { query: '   ' });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/query is empty/);
  });

  it('validates /answer and /sources the same way', async () => {
    const answer = await postJson(`${server.url}/answer`, { query: 'x', stream: 'yes please' });
    expect(answer.status).toBe(400);
    expect(answer.body.field).toBe('stream');
    const sources = await getJson(`${server.url}/sources?file_path=README.md&start=-1`);
    expect(sources.status).toBe(400);
    expect(sources.body.field).toBe('start');
    expect(sources.body.message).toMatch(/start must be >= 0 \(in the query string\)/);
    const missing = await getJson(`${server.url}/sources`);
    expect(missing.status).toBe(400);
    expect(missing.body.field).toBe('file_path');
  });

  it('refuses bodies over the size limit and malformed JSON', async () => {
    const big = await postJson(`${server.url}/search`, { query: 'x'.repeat(100 * 1024) });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/larger than \d+ bytes/), hint: expect.stringContaining('shorter') });
    const response = await fetch(`${server.url}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": ' });
    expect(response.status).toBe(400);
    // Fastify's own refusals speak the one error shape: our code and a hint, not `FST_…`.
    expect(await response.json()).toMatchObject({ code: 'INVALID_ARGUMENT', message: 'The request body is not valid JSON.', hint: expect.stringContaining('application/json') });
    // Sent to a path that does not exist, or with a method its path does not take, the body is not what is wrong.
    const unrouted = await fetch(`${server.url}/api/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": ' });
    expect(unrouted.status).toBe(404);
    expect(await unrouted.json()).toMatchObject({ code: 'NOT_FOUND', message: 'No route POST /api/search.' });
    const wrongMethod = await fetch(`${server.url}/stats`, { method: 'POST', headers: { 'content-type': 'application/xml' }, body: '<a/>' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toContain('GET');
    const xml = await fetch(`${server.url}/search`, { method: 'POST', headers: { 'content-type': 'application/xml' }, body: '<query>how?</query>' });
    expect(xml.status).toBe(415);
    expect(await xml.json()).toMatchObject({ code: 'INVALID_ARGUMENT', hint: expect.stringContaining('application/json') });
    // What fetch sends for a string body with no content type: told which type to send, not that the body "must be object".
    const plain = await fetch(`${server.url}/search`, { method: 'POST', body: JSON.stringify({ query: 'How is the port chosen?' }) });
    expect(plain.headers.get('content-type')).toMatch(/application\/json/);
    expect(plain.status).toBe(415);
    expect(await plain.json()).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('content type'), hint: expect.stringContaining('application/json') });
  });

  it('names a reserved key instead of calling valid JSON invalid', async () => {
    for (const body of ['{"query": "port", "__proto__": {"k": 1}}', '{"query": "port", "constructor": {"prototype": {"k": 1}}}']) {
      const response = await fetch(`${server.url}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('reserved key'), hint: expect.stringContaining('Leave that key out') });
    }
  });

  it('refuses queries longer than the limit with a message', async () => {
    const response = await postJson(`${server.url}/search`, { query: 'y'.repeat(5000) });
    expect(response.status).toBe(400);
    expect(response.body.field).toBe('query');
    expect(response.body.message).toMatch(/query must NOT have more than 4000 characters/);
  });
});

describe('GET /openapi.json', () => {
  it('documents every route with its request schema', async () => {
    const { status, body } = await getJson(`${server.url}/openapi.json`);
    expect(status).toBe(200);
    expect(body.openapi).toMatch(/^3\./);
    expect(Object.keys(body.paths).sort()).toEqual(['/answer', '/health', '/mcp', '/search', '/sources', '/stats']);
    const search = body.paths['/search'].post;
    expect(search.requestBody.content['application/json'].schema.required).toEqual(['query']);
    expect(search.requestBody.content['application/json'].schema.properties.k.maximum).toBe(MAX_K);
    expect(body.paths['/sources'].get.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['end', 'file_path', 'start']);
    expect(body.paths['/answer'].post.description).toMatch(/text\/event-stream/);
  });

  it('is a valid OpenAPI document, with named operations and shared schemas in components', async () => {
    const { body } = await getJson(`${server.url}/openapi.json`);
    // A real validator (schema of OpenAPI 3.0 plus reference resolution), on a copy: it resolves in place.
    await expect(SwaggerParser.validate(structuredClone(body))).resolves.toBeDefined();
    const operations = Object.values(body.paths as Record<string, Record<string, { operationId?: string }>>).flatMap((methods) => Object.values(methods));
    expect(operations.map((operation) => operation.operationId).sort()).toEqual(['answer', 'health', 'indexStats', 'mcp', 'readSpan', 'search']);
    // Client generators name types after these instead of inventing Body1, InlineResponse200…
    expect(Object.keys(body.components.schemas).sort()).toEqual(['CitedSource', 'Error', 'Hit', 'LineRange', 'SearchResult', 'Source']);
    expect(JSON.stringify(body.paths)).toContain('#/components/schemas/Hit');
    expect(JSON.stringify(body.paths)).not.toMatch(/def-\d/);
  });
});

describe('GET / (the page)', () => {
  it('serves the page, its script and styles from this origin with a strict CSP', async () => {
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    const html = await page.text();
    expect(html).toContain('<script src="/app.js" defer></script>');
    expect(html).toContain('id="answer-button"');
    const script = await fetch(`${server.url}/app.js`);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    const source = await script.text();
    expect(source).toContain("fetch('/answer'");
    // The script must parse as JavaScript (it is kept in a raw string).
    expect(() => new Function(source)).not.toThrow();
    const style = await fetch(`${server.url}/app.css`);
    expect(style.headers.get('content-type')).toMatch(/text\/css/);
  });
});

describe('errors and hosts', () => {
  it('answers unknown routes with a 404 that points at the OpenAPI document', async () => {
    const { status, body } = await getJson(`${server.url}/nope`);
    expect(status).toBe(404);
    expect(body.hint).toMatch(/openapi/);
  });

  it('answers a known route asked with another method with a 405 that says which methods it takes', async () => {
    const response = await fetch(`${server.url}/search`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    const body = (await response.json()) as { code: string; hint: string };
    expect(body.code).toBe('METHOD_NOT_ALLOWED');
    expect(body.hint).toMatch(/POST.*openapi/);
    // GET routes answer HEAD too, so they are listed with it.
    const stats = await fetch(`${server.url}/stats`, { method: 'POST' });
    expect(stats.status).toBe(405);
    expect(stats.headers.get('allow')).toBe('GET, HEAD');
  });

  it('refuses a Host header that is not loopback (DNS rebinding)', async () => {
    const evil = await rawGet('/stats', { host: 'evil.example:80' });
    expect(evil.status).toBe(403);
    const ok = await rawGet('/health', { host: `localhost:${server.port}` });
    expect(ok.status).toBe(200);
  });
});

describe('error bodies keep the machine’s paths private', () => {
  it('names no absolute path of the index in an error response, while the message still says what is wrong', async () => {
    const response = await fetch(`${server.url}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'port', retriever: 'hybrid' }) });
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(text).toMatch(/not built with the \\"hybrid\\" retriever/);
    expect(text).toContain('<path>');
    expect(text).not.toContain(temp.dir);
  });

  it('leaves the index and corpus folders out of /stats', async () => {
    const { status, body } = await getJson(`${server.url}/stats`);
    expect(status).toBe(200);
    expect(body.files).toBeGreaterThan(0);
    expect(body).not.toHaveProperty('index_dir');
    expect(body).not.toHaveProperty('corpus_dir');
    expect(JSON.stringify(body)).not.toContain(temp.dir);
  });

  it('shows them when the operator asks (exposePaths, `rag serve --show_paths`)', async () => {
    const open = await startTestServer({ indexDir: join(temp.dir, 'index'), exposePaths: true });
    try {
      const stats = await getJson(`${open.url}/stats`);
      expect(stats.body.index_dir).toBe(join(temp.dir, 'index'));
      const response = await fetch(`${open.url}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'port', retriever: 'hybrid' }) });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain(temp.dir);
    } finally {
      await open.close();
    }
  });
});
