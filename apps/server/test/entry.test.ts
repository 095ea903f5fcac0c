import { createServer as createNetServer, type Server } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex, runEntry, startEntry } from './helpers.js';

const RETRIEVERS = ['bm25', 'embedding', 'hybrid'] as const;
let work: string;
const indexes: Record<string, string> = {};

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'rag-server-entry-'));
  for (const name of RETRIEVERS) {
    indexes[name] = join(work, name);
    await buildIndex(indexes[name], name);
  }
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('rag-server opens every built-in retriever’s index', () => {
  for (const name of RETRIEVERS) {
    it(`serves a ${name} index over loopback and stops cleanly on SIGTERM`, async () => {
      const server = await startEntry(['--index_dir', indexes[name]!, '--port', '0', '--generator', 'extractive']);
      try {
        const response = await fetch(`${server.url}/search`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: 'What TCP port does the development server listen on by default?', k: 3 }),
        });
        expect(response.status).toBe(200);
        const body = (await response.json()) as { retriever: string; retrieved_sources: { file_path: string }[] };
        expect(body.retriever).toBe(name);
        expect(body.retrieved_sources.length).toBe(3);
      } finally {
        expect(await server.stop()).toBe(0);
      }
    });
  }
});

describe('start-up errors print their own message and hint with the proper exit code', () => {
  let busy: Server;
  let busyPort: number;
  beforeAll(async () => {
    busy = createNetServer();
    await new Promise<void>((done) => busy.listen(0, '127.0.0.1', done));
    busyPort = (busy.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((done) => busy.close(() => done())));

  const cases: { name: string; args: () => string[]; status: number; message: RegExp }[] = [
    { name: 'a missing index', args: () => ['--index_dir', join(work, 'nope')], status: 1, message: /No index found|no index/i },
    { name: 'a busy port', args: () => ['--index_dir', indexes.bm25!, '--port', String(busyPort), '--generator', 'extractive'], status: 2, message: /already in use/ },
    { name: 'an unknown generator', args: () => ['--index_dir', indexes.bm25!, '--port', '0', '--generator', 'bogus'], status: 2, message: /Unknown generator "bogus"/ },
    { name: 'an unknown retriever', args: () => ['--index_dir', indexes.bm25!, '--port', '0', '--retriever', 'bogus'], status: 2, message: /bogus/ },
    { name: 'a retriever the index lacks', args: () => ['--index_dir', indexes.bm25!, '--port', '0', '--retriever', 'hybrid'], status: 2, message: /not built with the "hybrid" retriever/ },
    { name: 'a host this machine does not have', args: () => ['--index_dir', indexes.bm25!, '--port', '0', '--host', '203.0.113.7', '--generator', 'extractive'], status: 2, message: /not an address of this machine/ },
    { name: 'MCP with a missing index', args: () => ['mcp', '--index_dir', join(work, 'nope')], status: 1, message: /No index found|no index/i },
    { name: 'MCP with an unknown retriever', args: () => ['mcp', '--index_dir', indexes.bm25!, '--retriever', 'bogus'], status: 2, message: /bogus/ },
  ];
  for (const c of cases) {
    it(`${c.name}`, () => {
      const result = runEntry(c.args());
      expect(result.stderr).toMatch(c.message);
      expect(result.stderr).toMatch(/^error: /);
      expect(result.stderr).toMatch(/\n {2}hint: \S/);
      expect(result.stderr).not.toMatch(/unexpected failure/);
      expect(result.status).toBe(c.status);
    });
  }
});
