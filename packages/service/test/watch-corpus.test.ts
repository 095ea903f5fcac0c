import { existsSync } from 'node:fs';
import { appendFile, cp, mkdir, mkdtemp, rm, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { acquireIndexLock, isRagError, openIndexSession, readIndex } from '@rag/core';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type * as Service from '../src/index.js';

// Updates run in a child process (dist/index-job.js): `pnpm test` builds first, so this
// suite drives the built package, as `rag serve --watch` does.
const dist = new URL('../dist/index.js', import.meta.url);
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const MINI = join(REPO_ROOT, 'datasets', 'mini', 'corpus');
/** Long enough that a watcher under test never looks by the clock: the test calls `check()` (with `events: false`). */
const NEVER = 3_600_000;

let service: typeof Service;
let work: string;
let corpusDir: string;
let indexDir: string;

/** Waits for `condition`, bounded by the test's timeout rather than by a clock of its own. */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((r) => setTimeout(r, 50));
}

/** The first hit's file for `query` in the index as published now. */
async function topFile(query: string): Promise<string | undefined> {
  const store = service.openStore(indexDir);
  const session = await openIndexSession(store, { retrievers: service.createDefaultRetrieverRegistry(), pathBase: corpusDir });
  try {
    const [hit] = await session.search(query, 1);
    return hit?.chunk.file_path;
  } finally {
    session.close();
    await store.close();
  }
}

beforeAll(async () => {
  expect(existsSync(fileURLToPath(new URL('../dist/index-job.js', import.meta.url))), 'build @rag/service first').toBe(true);
  service = (await import(dist.href)) as typeof Service;
});

beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'rag-watch-'));
  corpusDir = join(work, 'corpus');
  indexDir = join(work, 'index');
  await cp(MINI, corpusDir, { recursive: true });
  await service.buildIndex({ corpusDir, indexDir, retriever: 'bm25', toolVersion: 'test', maxChunkSize: 600 });
});

afterEach(() => rm(work, { recursive: true, force: true }));

describe('watchCorpus', () => {
  it('updates the index when a file’s bytes change, not when it is only touched', async () => {
    const watcher = service.watchCorpus({ indexDir, toolVersion: 'test', intervalMs: NEVER, events: false });
    try {
      expect(await watcher.check()).toBeUndefined();
      const readme = join(corpusDir, 'README.md');
      const later = new Date(Date.now() + 5_000);
      await utimes(readme, later, later);
      // Same bytes, new timestamps: nothing to re-index.
      expect(await watcher.check()).toBeUndefined();
      await appendFile(readme, '\n\nThe axolotl juggling mode is switched on by a flag.\n');
      const report = await watcher.check();
      expect(report?.mode).toBe('incremental');
      expect(report?.files).toMatchObject({ added: 0, changed: 1, removed: 0 });
      expect(await topFile('axolotl juggling')).toBe('README.md');
      // The update is what the next look compares with: no second update for the same edit.
      expect(await watcher.check()).toBeUndefined();
    } finally {
      await watcher.close();
    }
  });

  it('takes added and removed files, with the walk and chunking settings the index records', async () => {
    const watcher = service.watchCorpus({ indexDir, toolVersion: 'test', intervalMs: NEVER, events: false });
    try {
      const page = join(corpusDir, 'docs', 'quokka.md');
      await writeFile(page, '# Quokka herding\n\nQuokka herding needs a permit from the island council.\n');
      const added = await watcher.check();
      // Recorded settings (maxChunkSize 600), so an update, not a rebuild for changed settings.
      expect(added?.mode).toBe('incremental');
      expect(added?.files).toMatchObject({ added: 1, changed: 0, removed: 0 });
      expect(added?.manifest.chunking).toMatchObject({ maxChunkSize: 600 });
      expect(await topFile('quokka herding permit')).toBe('docs/quokka.md');
      await unlink(page);
      expect((await watcher.check())?.files).toMatchObject({ added: 0, changed: 0, removed: 1 });
      expect(await topFile('quokka herding permit')).not.toBe('docs/quokka.md');
    } finally {
      await watcher.close();
    }
  });

  it('leaves the index as a full build of the same corpus would be', async () => {
    const watcher = service.watchCorpus({ indexDir, toolVersion: 'test', intervalMs: NEVER, events: false });
    try {
      await appendFile(join(corpusDir, 'README.md'), '\n\nA sentence about retries and back-off added by an editor.\n');
      await writeFile(join(corpusDir, 'docs', 'extra.md'), '# Extra\n\nRetries back off exponentially up to a minute.\n');
      await watcher.check();
    } finally {
      await watcher.close();
    }
    const fullDir = join(work, 'full');
    await service.buildIndex({ corpusDir, indexDir: fullDir, retriever: 'bm25', toolVersion: 'test', maxChunkSize: 600, full: true });
    const [updated, full] = await Promise.all([readIndex(indexDir), readIndex(fullDir)]);
    const shape = (chunks: typeof updated.chunks) => chunks.map((c) => [c.file_path, c.first_character_index, c.last_character_index, c.symbol, c.text]);
    expect(shape(updated.chunks)).toEqual(shape(full.chunks));
  });

  it('tells a busy index to onEvent and tries again at the next look', async () => {
    const events: Service.WatchEvent[] = [];
    const watcher = service.watchCorpus({ indexDir, toolVersion: 'test', intervalMs: NEVER, events: false, onEvent: (event) => events.push(event) });
    const release = await acquireIndexLock(indexDir);
    try {
      await appendFile(join(corpusDir, 'README.md'), '\n\nWritten while another writer holds the lock.\n');
      const busy = await watcher.check().catch((error: unknown) => error);
      expect(isRagError(busy) && busy.code).toBe('INDEX_BUSY');
      await release();
      const report = await watcher.check();
      expect(report?.files.changed).toBe(1);
      expect(events.map((event) => event.type)).toEqual(['updated']);
    } finally {
      await release().catch(() => undefined);
      await watcher.close();
    }
  });

  it('looks by itself every intervalMs and stops when closed', async () => {
    const events: Service.WatchEvent[] = [];
    const watcher = service.watchCorpus({ indexDir, toolVersion: 'test', intervalMs: 100, events: false, onEvent: (event) => events.push(event) });
    try {
      await appendFile(join(corpusDir, 'README.md'), '\n\nNoticed without being asked.\n');
      await until(() => events.some((event) => event.type === 'updated'));
      expect(watcher.reportsChanges()).toBe(false);
      expect(service.describeWatchEvent(events.find((event) => event.type === 'updated')!)).toMatch(/^index updated: 0 added, 1 changed, 0 removed; \d+ files, \d+ chunks in [\d.]+s$/);
    } finally {
      await watcher.close();
    }
    const closed = await watcher.check().catch((error: unknown) => error);
    expect(isRagError(closed) && closed.code).toBe('CANCELLED');
  });

  it('looks when the file system reports a change, in folders that appear after it started too, with no look by the clock', async () => {
    const events: Service.WatchEvent[] = [];
    // The clock would look once an hour: every update below comes from a change report.
    const watcher = service.watchCorpus({ indexDir, toolVersion: 'test', intervalMs: NEVER, onEvent: (event) => events.push(event) });
    const updates = (): Service.WatchEvent[] => events.filter((event) => event.type === 'updated');
    try {
      // The first look (right away) lists the folders to watch; nothing has changed yet.
      await new Promise((r) => setTimeout(r, 500));
      await appendFile(join(corpusDir, 'tinyserve', 'app.py'), '\n# Reported by the file system.\n');
      await until(() => updates().length === 1);
      expect(watcher.reportsChanges()).toBe(true);
      expect(updates()[0]).toMatchObject({ report: { files: { added: 0, changed: 1, removed: 0 } } });
      // A folder made now: its parent's watch reports it, and the look that takes its file watches it.
      await mkdir(join(corpusDir, 'notes'));
      await writeFile(join(corpusDir, 'notes', 'first.md'), '# First\n\nA note in a new folder.\n');
      await until(() => updates().length === 2);
      expect(updates()[1]).toMatchObject({ report: { files: { added: 1 } } });
      await writeFile(join(corpusDir, 'notes', 'second.md'), '# Second\n\nAnother note there.\n');
      await until(() => updates().length === 3);
      expect(updates()[2]).toMatchObject({ report: { files: { added: 1 } } });
      expect(events.filter((event) => event.type === 'failed')).toEqual([]);
    } finally {
      await watcher.close();
    }
  }, 60_000);

  it('says in one line when it falls back to looking by the clock', () => {
    expect(service.describeWatchEvent({ type: 'polling', reason: 'ENOSPC: the limit is reached', intervalMs: 2000 })).toBe("the corpus's folders cannot be watched (ENOSPC: the limit is reached); looking every 2s instead");
  });

  it('refuses an interval outside 100 ms … 1 hour', () => {
    for (const intervalMs of [0, 99, 3_600_001, 1.5]) {
      expect(() => service.watchCorpus({ indexDir, toolVersion: 'test', intervalMs })).toThrow(/watch interval/);
    }
  });
});

describe('a watching service', () => {
  it('serves the updated index as soon as it tells of the update', async () => {
    const events: Service.WatchEvent[] = [];
    const rag = await service.openRagService(
      { indexDir, workers: 0, pathBase: corpusDir, watch: { toolVersion: 'test', intervalMs: 100, onEvent: (event) => events.push(event) } },
      { loadGenerator: false },
    );
    try {
      expect((await rag.search({ query: 'wombat choreography', k: 1 })).hits).toEqual([]);
      await appendFile(join(corpusDir, 'README.md'), '\n\nWombat choreography is documented here.\n');
      await until(() => events.some((event) => event.type === 'updated'));
      expect((await rag.search({ query: 'wombat choreography', k: 1 })).hits[0]?.file_path).toBe('README.md');
      expect(events.filter((event) => event.type === 'failed')).toEqual([]);
      const { watch } = await rag.stats();
      // Looks start on the file system's change reports (the default), the clock's only once a minute.
      expect(watch).toMatchObject({ interval_ms: 100, change_reports: true, updates: 1, last_failure: null });
      expect(Number.isNaN(Date.parse(watch!.last_update_at!))).toBe(false);
    } finally {
      await rag.close();
    }
  });

  it('reports a failed update in its stats until one succeeds', async () => {
    const rag = await service.openRagService({ indexDir, workers: 0, pathBase: corpusDir, watch: { toolVersion: 'test', intervalMs: 100 } }, { loadGenerator: false });
    const release = await acquireIndexLock(indexDir);
    try {
      await appendFile(join(corpusDir, 'README.md'), '\n\nEdited while the index is locked.\n');
      await until(async () => (await rag.stats()).watch?.last_failure !== null);
      expect((await rag.stats()).watch).toMatchObject({ updates: 0, last_update_at: null });
      expect((await rag.stats()).watch!.last_failure).toMatch(/Another `rag index`/);
      await release();
      await until(async () => (await rag.stats()).watch!.updates === 1);
      expect((await rag.stats()).watch!.last_failure).toBeNull();
    } finally {
      await release().catch(() => undefined);
      await rag.close();
    }
  });

  it('has no watch state when not watching', async () => {
    const rag = await service.openRagService({ indexDir, workers: 0 }, { loadGenerator: false });
    try {
      expect((await rag.stats()).watch).toBeNull();
    } finally {
      await rag.close();
    }
  });

  it('refuses a retriever registry object, which cannot reach the update process', async () => {
    const error = await service
      .openRagService({ indexDir, workers: 0, retrievers: service.createDefaultRetrieverRegistry(), watch: { toolVersion: 'test' } }, { loadGenerator: false })
      .catch((e: unknown) => e);
    expect(isRagError(error) && error.code).toBe('INVALID_ARGUMENT');
  });
});

describe('a service over a folder index', () => {
  it('serves what a `rag index` beside it publishes, without watching or restarting', async () => {
    const rag = await service.openRagService({ indexDir, workers: 0, pathBase: corpusDir }, { loadGenerator: false });
    try {
      expect((await rag.search({ query: 'pangolin tessellation', k: 1 })).hits).toEqual([]);
      await appendFile(join(corpusDir, 'README.md'), '\n\nPangolin tessellation is configured here.\n');
      await service.buildIndex({ corpusDir, indexDir, retriever: 'bm25', toolVersion: 'test', maxChunkSize: 600 });
      // A request looks at most every DEFAULT_FOLLOW_INDEX_MS and never waits for the move: poll (bounded by the test's timeout).
      await until(async () => (await rag.search({ query: 'pangolin tessellation', k: 1 })).hits[0]?.file_path === 'README.md');
      expect((await rag.stats()).chunks).toBeGreaterThan(0);
    } finally {
      await rag.close();
    }
  });
});
