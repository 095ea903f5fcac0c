import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { bm25RetrieverFactory } from '@rag/bm25';
import { chunkCorpus } from '@rag/chunking';
import { writeIndex } from '@rag/core';
import { createExtractiveGenerator, type GenerateOptions, type GenerateRequest, type GenerationEvent, type Generator, type GeneratorRegistry } from '@rag/generation';
import { startServer, type RunningServer, type ServerOptions } from '../src/index.js';

export const SERVER_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_ROOT = resolve(SERVER_DIR, '..', '..');
export const MINI_CORPUS = join(REPO_ROOT, 'datasets', 'mini', 'corpus');
/** Serves MCP over stdio from this package's build (needs `pnpm build`). */
export const MCP_STDIO_FIXTURE = join(SERVER_DIR, 'test', 'fixtures', 'mcp-stdio.mjs');
export const SERVER_BUILD = join(SERVER_DIR, 'dist', 'index.js');
export const PORT_QUESTION = 'What TCP port does the tinyserve development server listen on by default?';

/** A fresh temporary folder, removed by the returned function. */
export async function makeTempDir(prefix: string): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Indexes `corpusDir` with the real chunker and BM25, as `rag index` does. */
export async function buildIndex(corpusDir: string, indexDir: string): Promise<void> {
  const { files, chunks } = await chunkCorpus(corpusDir);
  const retriever = await bm25RetrieverFactory.build(chunks);
  await writeIndex(indexDir, {
    manifest: { toolVersion: 'test', createdAt: new Date().toISOString(), corpusDir, corpusDirAsGiven: corpusDir, chunking: {}, files },
    chunks,
    retrievers: [{ entry: { name: 'bm25', settings: {}, builtAt: new Date().toISOString() }, save: (dir) => retriever.save(dir) }],
  });
}

/** A copy of the mini corpus that a test may change, with its own index. */
export async function copyMiniCorpus(into: string): Promise<{ corpusDir: string; indexDir: string }> {
  const corpusDir = join(into, 'corpus');
  const indexDir = join(into, 'index');
  await cp(MINI_CORPUS, corpusDir, { recursive: true });
  await buildIndex(corpusDir, indexDir);
  return { corpusDir, indexDir };
}

export function startTestServer(options: ServerOptions): Promise<RunningServer> {
  return startServer({ port: 0, generator: 'extractive', pathBase: REPO_ROOT, ...options });
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

export async function getJson(url: string): Promise<{ status: number; body: any }> {
  const response = await fetch(url);
  return { status: response.status, body: await response.json() };
}

export interface SseEvent {
  event: string;
  data: any;
}

/** Reads a whole event stream into its events. */
export async function readEventStream(response: Response): Promise<SseEvent[]> {
  const text = await response.text();
  return parseEvents(text);
}

export function parseEvents(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim().length > 0)
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7) ?? 'message';
      const data = lines
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join('\n');
      return { event, data: JSON.parse(data) };
    });
}

/** What a {@link controlledGenerator} saw. */
export interface GeneratorLog {
  started: number;
  tokens: number;
  aborted: number;
  finished: number;
}

export interface ControlledGeneratorOptions {
  /** Each of the extractive answer's tokens is sent this many times. */
  repeat?: number;
  /** Pause before each token, in milliseconds. */
  delayMs?: number;
  /** Generation starts only once this resolves (holds the model "busy"). */
  gate?: Promise<void>;
}

/**
 * The real extractive generator, slowed down or held at a gate so a test can observe
 * what happens during a generation: queueing, cancellation, search meanwhile.
 */
export function controlledGenerator(options: ControlledGeneratorOptions = {}): { registry: GeneratorRegistry; log: GeneratorLog } {
  const inner = createExtractiveGenerator();
  const log: GeneratorLog = { started: 0, tokens: 0, aborted: 0, finished: 0 };
  async function* generate(request: GenerateRequest, generateOptions: GenerateOptions = {}): AsyncGenerator<GenerationEvent> {
    const signal = generateOptions.signal;
    log.started++;
    signal?.addEventListener('abort', () => log.aborted++, { once: true });
    if (options.gate) await options.gate;
    for await (const event of inner.generate(request, generateOptions)) {
      if (event.type === 'token') {
        for (let i = 0; i < (options.repeat ?? 1); i++) {
          if (options.delayMs) await sleep(options.delayMs, undefined, signal ? { signal } : {});
          log.tokens++;
          yield event;
        }
      } else {
        log.finished++;
        yield event;
      }
    }
  }
  const generator: Generator = { name: 'extractive', identity: inner.identity, generate, dispose: async () => undefined };
  const registry: GeneratorRegistry = {
    names: () => ['extractive'],
    describe: () => [{ name: 'extractive', description: 'extractive, under test control' }],
    create: async () => generator,
  };
  return { registry, log };
}

/** Polls `check` until it holds or `timeoutMs` passes. */
export async function waitFor(check: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await sleep(10);
  }
}
