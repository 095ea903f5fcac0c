import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, listeningUrl, MINI_CORPUS, rag, REPO_ROOT } from './helpers.js';

let work: string;
let indexDir: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'rag-cli-serve-'));
  indexDir = join(work, 'index');
  expect(rag(['index', '--corpus_dir', MINI_CORPUS, '--index_dir', indexDir, '--quiet']).status).toBe(0);
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

it('`rag serve` listens on loopback, answers /search, and stops on SIGTERM', async () => {
  const child = spawn(process.execPath, [CLI, 'serve', '--index_dir', indexDir, '--port', '0'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const url = await listeningUrl(child);
    const response = await fetch(`${url}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'default port', k: 2 }) });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { retrieved_sources: { file_path: string }[] };
    expect(body.retrieved_sources.length).toBe(2);
    expect(body.retrieved_sources[0]!.file_path.startsWith(`${MINI_CORPUS}/`)).toBe(true);
  } finally {
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }
});

it('`rag serve --workers N` runs searches in N worker threads (0: on the server thread), with the same hits', async () => {
  const bodies: unknown[] = [];
  for (const workers of ['3', '0']) {
    const child = spawn(process.execPath, [CLI, 'serve', '--index_dir', indexDir, '--port', '0', '--workers', workers, '--generator', 'extractive'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await listeningUrl(child);
      const stats = (await (await fetch(`${url}/stats`)).json()) as { search_workers: { workers: number } };
      expect(stats.search_workers.workers).toBe(Number(workers));
      const response = await fetch(`${url}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'default port', k: 5 }) });
      expect(response.status).toBe(200);
      bodies.push(await response.json());
    } finally {
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  }
  expect(bodies[0]).toEqual(bodies[1]);
});

it('`rag serve --log` writes one JSON log line per request to stderr, nothing to stdout', async () => {
  const child = spawn(process.execPath, [CLI, 'serve', '--index_dir', indexDir, '--port', '0', '--log', '--generator', 'extractive'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (data: Buffer) => (stdout += data.toString()));
  child.stderr!.on('data', (data: Buffer) => (stderr += data.toString()));
  try {
    const url = await listeningUrl(child);
    const response = await fetch(`${url}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'default port', k: 1 }) });
    expect(response.status).toBe(200);
    await response.text();
    const parse = () =>
      stderr
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { req?: { url?: string }; res?: { statusCode?: number } });
    // The completion line is written when the response finishes; wait for it (bounded by the test timeout).
    while (!parse().some((entry) => entry.res?.statusCode === 200)) await new Promise((resolve) => setTimeout(resolve, 20));
    const logged = parse();
    expect(logged.some((entry) => entry.req?.url === '/search')).toBe(true);
    expect(logged.some((entry) => entry.res?.statusCode === 200)).toBe(true);
    expect(stdout).toBe('');
  } finally {
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }
});

it('`rag serve --watch 1` re-indexes an edited corpus and serves the edit without a restart', async () => {
  // A copy: the test edits it.
  const corpus = join(work, 'watched-corpus');
  const watchedIndex = join(work, 'watched-index');
  cpSync(join(REPO_ROOT, MINI_CORPUS), corpus, { recursive: true });
  expect(rag(['index', '--corpus_dir', corpus, '--index_dir', watchedIndex, '--quiet']).status).toBe(0);
  const child = spawn(process.execPath, [CLI, 'serve', '--index_dir', watchedIndex, '--port', '0', '--watch', '1', '--generator', 'extractive'], { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (data: Buffer) => (stderr += data.toString()));
  try {
    const url = await listeningUrl(child);
    const search = async (): Promise<{ file_path: string }[]> => {
      const response = await fetch(`${url}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'axolotl juggling', k: 1 }) });
      return ((await response.json()) as { hits: { file_path: string }[] }).hits;
    };
    expect(await search()).toEqual([]);
    appendFileSync(join(corpus, 'README.md'), '\n\nAxolotl juggling is a supported mode.\n');
    // Bounded by the test's timeout: the watcher looks every second, the update takes a fraction of one.
    while ((await search()).length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await search())[0]!.file_path).toBe('watched-corpus/README.md');
    // stderr arrives through a pipe of its own, maybe after the response that shows the update.
    while (!stderr.includes('watch: index updated')) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stderr).toMatch(/watch: index updated: 0 added, 1 changed, 0 removed/);
  } finally {
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }
});

it('`rag serve --watch` takes 1 to 3600 seconds', () => {
  for (const seconds of ['0', '3601', '1.5']) {
    const result = rag(['serve', '--index_dir', indexDir, '--watch', seconds]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--watch/);
  }
  const pollOnly = rag(['serve', '--index_dir', indexDir, '--watch_poll']);
  expect(pollOnly.status).toBe(2);
  expect(pollOnly.stderr).toMatch(/--watch_poll only changes how --watch looks/);
});

describe('`rag serve` opens every built-in retriever’s index', () => {
  for (const retriever of ['embedding', 'hybrid']) {
    it(`serves a ${retriever} index and searches it with that retriever`, async () => {
      const dir = join(work, `index-${retriever}`);
      expect(rag(['index', '--corpus_dir', MINI_CORPUS, '--index_dir', dir, '--retriever', retriever, '--quiet']).status).toBe(0);
      const child = spawn(process.execPath, [CLI, 'serve', '--index_dir', dir, '--port', '0', '--generator', 'extractive'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      try {
        const url = await listeningUrl(child);
        const response = await fetch(`${url}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'default port', k: 2 }) });
        expect(response.status).toBe(200);
        const body = (await response.json()) as { retriever: string; retrieved_sources: unknown[] };
        expect(body.retriever).toBe(retriever);
        expect(body.retrieved_sources.length).toBe(2);
      } finally {
        const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
        child.kill('SIGTERM');
        expect(await exited).toBe(0);
      }
    });
  }
});
