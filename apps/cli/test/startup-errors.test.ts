import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createNetServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINI_CORPUS, rag } from './helpers.js';

let work: string;
let indexDir: string;
let busy: Server;
let busyPort: number;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'rag-cli-startup-'));
  indexDir = join(work, 'index');
  expect(rag(['index', '--corpus_dir', MINI_CORPUS, '--index_dir', indexDir, '--quiet']).status).toBe(0);
  busy = createNetServer();
  await new Promise<void>((done) => busy.listen(0, '127.0.0.1', done));
  busyPort = (busy.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise<void>((done) => busy.close(() => done()));
  rmSync(work, { recursive: true, force: true });
});

// Each failure comes from the server or service packages; the CLI must still recognise it
// as a RagError (message + hint, exit 2 for a wrong command line, 1 when the work failed),
// never as an "unexpected failure".
describe('`rag serve` and `rag mcp` start-up errors', () => {
  const cases: { name: string; args: () => string[]; status: number; message: RegExp }[] = [
    { name: 'serve: a missing index', args: () => ['serve', '--index_dir', join(work, 'nope')], status: 1, message: /No index found|no index/i },
    { name: 'serve: a busy port', args: () => ['serve', '--index_dir', indexDir, '--port', String(busyPort), '--generator', 'extractive'], status: 2, message: /already in use/ },
    { name: 'serve: an unknown generator', args: () => ['serve', '--index_dir', indexDir, '--port', '0', '--generator', 'bogus'], status: 2, message: /Unknown generator "bogus"/ },
    { name: 'serve: an unknown retriever', args: () => ['serve', '--index_dir', indexDir, '--port', '0', '--retriever', 'bogus'], status: 2, message: /bogus/ },
    { name: 'serve: a host this machine does not have', args: () => ['serve', '--index_dir', indexDir, '--port', '0', '--host', '203.0.113.7', '--generator', 'extractive'], status: 2, message: /not an address of this machine/ },
    { name: 'mcp: a missing index', args: () => ['mcp', '--index_dir', join(work, 'nope')], status: 1, message: /No index found|no index/i },
    { name: 'mcp: an unknown retriever', args: () => ['mcp', '--index_dir', indexDir, '--retriever', 'bogus'], status: 2, message: /bogus/ },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const result = rag(c.args());
      expect(result.stderr).toMatch(c.message);
      expect(result.stderr).toMatch(/^error: /);
      expect(result.stderr).toMatch(/\n {2}hint: \S/);
      expect(result.stderr).not.toMatch(/unexpected failure/);
      expect(result.status).toBe(c.status);
    });
  }
});
