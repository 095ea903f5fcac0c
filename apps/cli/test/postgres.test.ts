import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findPostgresBin, startTestCluster, type TestCluster } from '@rag/postgres/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, listeningUrl, MINI_CORPUS, rag, REPO_ROOT } from './helpers.js';

function postgresAvailable(): boolean {
  if (findPostgresBin()) return true;
  if (process.env.RAG_REQUIRE_POSTGRES === '1') throw new Error('RAG_REQUIRE_POSTGRES=1 but PostgreSQL is not installed (apt-get install postgresql).');
  console.warn('PostgreSQL is not installed: skipping its suites (apt-get install postgresql to run them).');
  return false;
}

describe.skipIf(!postgresAvailable())('rag with --store postgresql://… (real servers on loopback)', () => {
  let primary: TestCluster;
  let replica: TestCluster | undefined;
  let work: string;
  let corpus: string;

  beforeAll(async () => {
    primary = await startTestCluster();
    work = mkdtempSync(join(tmpdir(), 'rag-cli-pg-'));
    corpus = join(work, 'corpus');
    cpSync(join(REPO_ROOT, MINI_CORPUS), corpus, { recursive: true });
  });

  afterAll(async () => {
    await replica?.stop();
    await primary?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('index, search, answer and verify against the database give what the folder index gives', () => {
    const folder = join(work, 'index');
    expect(rag(['index', '--corpus_dir', corpus, '--index_dir', folder, '--quiet']).status).toBe(0);
    const indexed = rag(['index', '--corpus_dir', corpus, '--store', primary.url, '--quiet']);
    expect(indexed.status, indexed.stderr).toBe(0);
    // The password never reaches an output.
    expect(indexed.stdout).toMatch(/postgresql:\/\/rag:\*\*\*@127\.0\.0\.1/);
    expect(indexed.stdout).not.toContain(primary.password);
    const query = ['--query', 'What TCP port does the development server listen on by default?'];
    const fromFolder = rag(['search', ...query, '--k', '5', '--json', '--index_dir', folder]);
    const fromDatabase = rag(['search', ...query, '--k', '5', '--json', '--store', primary.url]);
    expect(fromDatabase.status, fromDatabase.stderr).toBe(0);
    expect(fromDatabase.stdout).toBe(fromFolder.stdout);
    const answer = rag(['answer', ...query, '--store', primary.url, '--no-cache']);
    expect(answer.status, answer.stderr).toBe(0);
    expect(answer.stdout).toMatch(/8421/);
    const verified = rag(['verify', '--store', primary.url]);
    expect(verified.status, verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(/^ok: /);
  });

  it('refuses --store with something other than a connection string, or with --index_dir, and says why a server cannot be used', () => {
    const notUrl = rag(['search', '--query', 'port', '--store', '/tmp/somewhere']);
    expect(notUrl.status).toBe(2);
    expect(notUrl.stderr).toMatch(/--store must be a PostgreSQL connection string/);
    const both = rag(['search', '--query', 'port', '--store', primary.url, '--index_dir', join(work, 'index')]);
    expect(both.status).toBe(2);
    const wrong = rag(['search', '--query', 'port', '--store', primary.url.replace(primary.password, 'nope')]);
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toMatch(/credentials/);
    expect(wrong.stderr).not.toMatch(/nope/);
  });

  it('`rag serve` on a streaming replica answers every request while `rag index` updates the primary, then serves the new corpus', async () => {
    replica = await startTestCluster({ replicaOf: primary });
    const child = spawn(process.execPath, [CLI, 'serve', '--store', replica.url, '--port', '0', '--workers', '1', '--generator', 'extractive'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await listeningUrl(child);
      const search = async (): Promise<{ status: number; sources: string }> => {
        const response = await fetch(`${url}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'default port of the development server', k: 3 }) });
        const body = (await response.json()) as { retrieved_sources?: unknown };
        return { status: response.status, sources: JSON.stringify(body.retrieved_sources) };
      };
      const before = (await search()).sources;
      const statuses: number[] = [];
      let done = false;
      const load = (async () => {
        while (!done) statuses.push((await search()).status);
      })();
      const defaults = join(corpus, 'tinyserve', 'defaults.py');
      writeFileSync(defaults, `# Edited while a replica serves.\n${readFileSync(defaults, 'utf8')}`);
      const updated = rag(['index', '--corpus_dir', corpus, '--store', primary.url, '--quiet', '--json']);
      expect(updated.status, updated.stderr).toBe(0);
      expect(JSON.parse(updated.stdout)).toMatchObject({ mode: 'incremental', changes: { changed: 1 } });
      // The server checks for a new generation every few seconds (on requests) and moves to
      // it once the replica has replayed the publish: the edited file's spans move down a line.
      let after = before;
      for (let i = 0; i < 600 && after === before; i++) {
        await new Promise((r) => setTimeout(r, 100));
        after = (await search()).sources;
      }
      done = true;
      await load;
      expect(after).not.toBe(before);
      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.every((s) => s === 200)).toBe(true);
    } finally {
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });
});
