import { spawn, spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chunkCorpus } from '@rag/chunking';
import { writeIndex } from '@rag/core';
import { createDefaultRetrieverRegistry } from '@rag/service';

export const APP_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_ROOT = resolve(APP_DIR, '..', '..');
export const SERVER_ENTRY = join(APP_DIR, 'dist', 'server.js');
export const MINI_CORPUS = join(REPO_ROOT, 'datasets', 'mini', 'corpus');

/** Indexes the mini corpus with one of the built-in retrievers, as `rag index --retriever` does. */
export async function buildIndex(indexDir: string, retriever: string): Promise<void> {
  const { files, chunks } = await chunkCorpus(MINI_CORPUS);
  const built = await createDefaultRetrieverRegistry().get(retriever).build(chunks);
  await writeIndex(indexDir, {
    manifest: { toolVersion: 'test', createdAt: new Date().toISOString(), corpusDir: MINI_CORPUS, corpusDirAsGiven: MINI_CORPUS, chunking: {}, files },
    chunks,
    retrievers: [{ entry: { name: retriever, settings: {}, builtAt: new Date().toISOString() }, save: (dir) => built.save(dir) }],
  });
}

export interface EntryResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the bundled entry to completion (for commands that fail at start-up). */
export function runEntry(args: string[]): EntryResult {
  const result = spawnSync(process.execPath, [SERVER_ENTRY, ...args], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

export interface StartedEntry {
  url: string;
  stop(): Promise<number | null>;
}

/** Starts the bundled entry and waits for its "listening on" line. */
export function startEntry(args: string[]): Promise<StartedEntry> {
  const child = spawn(process.execPath, [SERVER_ENTRY, ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return new Promise((resolveStart, reject) => {
    let stderr = '';
    child.stderr.on('data', (data: Buffer) => {
      stderr += data.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      if (match) {
        resolveStart({
          url: match[1]!,
          stop: () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    void exited.then((code) => reject(new Error(`rag-server exited with ${code}: ${stderr}`)));
  });
}
