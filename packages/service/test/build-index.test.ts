import { cp, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHUNKER_REVISION, SETTLED_MS } from '@rag/chunking';
import { readIndex, readManifest, RetrieverRegistry, TEXT_SEGMENT_LIMITS, verifyIndex, type RetrieverFactory } from '@rag/core';
import { bm25RetrieverFactory } from '@rag/bm25';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex, MAX_UNRECORDED_SIGNATURES_SHARE, openRagService, openSearchSession, searchSources } from '../src/index.js';
import { seededRandom } from './seeded-random.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const MINI = join(REPO_ROOT, 'datasets', 'mini', 'corpus');
const QUESTIONS = (JSON.parse(await readFile(join(REPO_ROOT, 'datasets', 'mini', 'questions.json'), 'utf8')) as { rag_questions: { question: string }[] }).rag_questions.map((q) => q.question);

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'rag-build-index-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** Edits, adds, deletes and renames a few indexed files of `corpus`, chosen by `next`. */
async function mutate(corpus: string, indexDir: string, next: () => number, round: number): Promise<void> {
  const files = (await readManifest(indexDir)).files.map((f) => f.file_path);
  const pick = (): string => files.splice(Math.floor(next() * files.length), 1)[0]!;
  const edited = pick();
  await writeFile(join(corpus, edited), `${await readFile(join(corpus, edited), 'utf8')}\n\ndef added_in_round_${round}(limit=${round}):\n    """Round ${round} helper."""\n    return limit\n`);
  await rm(join(corpus, pick()));
  const moved = pick();
  await rename(join(corpus, moved), join(corpus, moved.replace(/(\.\w+)$/, `_renamed_${round}$1`)));
  await writeFile(join(corpus, `tinyserve/added_${round}.py`), `# Added in round ${round}.\nRETRY_LIMIT_${round} = ${round * 3}\n`);
  await writeFile(join(corpus, `docs/added_${round}.md`), `# Notes ${round}\n\nThe retry limit of round ${round} is ${round * 3}.\n`);
}

/** The smallest file of `corpus` whose name ends with `ext` (path relative to it): an edit of it leaves most texts as they were. */
async function smallestFile(corpus: string, ext: string): Promise<string> {
  const names = (await readdir(corpus, { recursive: true })).filter((name) => name.endsWith(ext));
  const sizes = await Promise.all(names.map(async (name) => (await stat(join(corpus, name))).size));
  return names[sizes.indexOf(Math.min(...sizes))]!;
}

/** Builds `corpus` from scratch into a new folder named `name` and expects the same snapshot as `indexDir`'s. */
async function expectSameAsFullRebuild(corpus: string, indexDir: string, name: string): Promise<void> {
  const fresh = join(work, name);
  await buildIndex({ corpusDir: corpus, indexDir: fresh, retriever: 'bm25', toolVersion: 'test' });
  expect(await snapshot(indexDir)).toEqual(await snapshot(fresh));
}

async function snapshot(indexDir: string): Promise<{ chunks: unknown[]; results: unknown[] }> {
  const index = await readIndex(indexDir);
  const chunks = index.chunks.map((c) => ({ ...c }));
  index.texts.close();
  const session = await openSearchSession(indexDir, { pathBase: work });
  const results = [];
  for (const question of [...QUESTIONS, 'retry limit of round 2', 'added_in_round_1 helper']) {
    results.push((await searchSources(session, question, 10)).map((s) => [s.file_path, s.first_character_index, s.last_character_index, s.score]));
  }
  return { chunks, results };
}

async function bm25File(indexDir: string): Promise<Buffer> {
  const index = await readIndex(indexDir);
  index.texts.close();
  return readFile(join(index.dir, 'retrievers', 'bm25', 'bm25.bin'));
}

describe('incremental indexing', () => {
  it('after random edits, adds, deletes and renames gives exactly what a full rebuild gives', async () => {
    const corpus = join(work, 'corpus');
    await cp(MINI, corpus, { recursive: true });
    // Let the copies settle, so that the first build records their stat signatures and the
    // updates leave the unchanged ones unread (a file read right after a write is read again).
    await new Promise((done) => setTimeout(done, SETTLED_MS + 100));
    const incremental = join(work, 'incremental');
    const first = await buildIndex({ corpusDir: corpus, indexDir: incremental, retriever: 'bm25', toolVersion: 'test' });
    expect(first.mode).toBe('full');
    expect(first.reason).toBeUndefined();
    expect(first.manifest.files.every((file) => file.stat !== undefined)).toBe(true);
    const next = seededRandom(20261202);
    for (let round = 1; round <= 3; round++) {
      await mutate(corpus, incremental, next, round);
      const updated = await buildIndex({ corpusDir: corpus, indexDir: incremental, retriever: 'bm25', toolVersion: 'test' });
      expect(updated.mode).toBe('incremental');
      // One edited, one renamed (a new path), two new files; one deleted, one renamed away.
      expect(updated.files).toMatchObject({ added: 3, changed: 1, removed: 2 });
      expect(updated.files.unchanged).toBe(updated.files.total - 4);
      expect(updated.reusedChunks).toBeGreaterThan(0);
      // Files untouched since the first build are not read; the files each round wrote are.
      expect(updated.files.unread).toBeGreaterThan(0);
      expect(updated.files.unread).toBeLessThanOrEqual(updated.files.unchanged);
      const fresh = join(work, `full-${round}`);
      const full = await buildIndex({ corpusDir: corpus, indexDir: fresh, retriever: 'bm25', toolVersion: 'test' });
      expect(full.mode).toBe('full');
      expect(await snapshot(incremental)).toEqual(await snapshot(fresh));
      // bm25 took over the analysed terms of unchanged files: its file is the same, byte for byte.
      expect((await bm25File(incremental)).equals(await bm25File(fresh))).toBe(true);
    }
  });

  it('indexes a type stub once its module is gone, and drops it when the module comes back, as a full rebuild does', async () => {
    const corpus = join(work, 'stub-corpus');
    await cp(MINI, corpus, { recursive: true });
    // tinyserve/app.pyi repeats app.py's signatures: skipped while app.py sits beside it.
    await writeFile(join(corpus, 'tinyserve', 'app.pyi'), 'class App:\n    def route(self, path: str) -> None: ...\n    def run_forever_with_stub(self) -> None: ...\n');
    const incremental = join(work, 'stub-incremental');
    const first = await buildIndex({ corpusDir: corpus, indexDir: incremental, retriever: 'bm25', toolVersion: 'test' });
    expect(first.manifest.files.map((f) => f.file_path)).not.toContain('tinyserve/app.pyi');
    const app = await readFile(join(corpus, 'tinyserve', 'app.py'), 'utf8');
    const steps: [string, () => Promise<void>, boolean][] = [
      ['module removed', () => rm(join(corpus, 'tinyserve', 'app.py')), true],
      ['module back', () => writeFile(join(corpus, 'tinyserve', 'app.py'), app), false],
    ];
    for (const [step, change, stubIndexed] of steps) {
      await change();
      const updated = await buildIndex({ corpusDir: corpus, indexDir: incremental, retriever: 'bm25', toolVersion: 'test' });
      expect(updated.mode, step).toBe('incremental');
      expect(updated.manifest.files.map((f) => f.file_path).includes('tinyserve/app.pyi'), step).toBe(stubIndexed);
      const fresh = join(work, `stub-full-${stubIndexed}`);
      await buildIndex({ corpusDir: corpus, indexDir: fresh, retriever: 'bm25', toolVersion: 'test' });
      expect(await snapshot(incremental), step).toEqual(await snapshot(fresh));
      expect((await bm25File(incremental)).equals(await bm25File(fresh)), step).toBe(true);
    }
  });

  it('collects garbage between chunking and fitting, and lets the retriever ask for more, when given a collector', async () => {
    let collections = 0;
    const indexDir = join(work, 'collected');
    const report = await buildIndex({ corpusDir: MINI, indexDir, retriever: 'bm25', toolVersion: 'test', collectGarbage: () => collections++ });
    expect(report.mode).toBe('full');
    // One between the phases, one inside bm25's build (between analysing and inverting).
    expect(collections).toBe(2);
    // An update that chunked one file has no garbage worth a full collection.
    const corpus = join(work, 'collected-corpus');
    await cp(MINI, corpus, { recursive: true });
    const updatedDir = join(work, 'collected-update');
    await buildIndex({ corpusDir: corpus, indexDir: updatedDir, retriever: 'bm25', toolVersion: 'test' });
    const edited = await smallestFile(corpus, '.md');
    await writeFile(join(corpus, edited), `${await readFile(join(corpus, edited), 'utf8')}\nOne more line.\n`);
    collections = 0;
    expect((await buildIndex({ corpusDir: corpus, indexDir: updatedDir, retriever: 'bm25', toolVersion: 'test', collectGarbage: () => collections++ })).mode).toBe('incremental');
    expect(collections).toBe(0);
  });

  it('leaves an index whose corpus did not change as it is (verified whole), and rebuilds it when that finds damage', async () => {
    const corpus = join(work, 'steady-corpus');
    await cp(MINI, corpus, { recursive: true });
    await new Promise((done) => setTimeout(done, SETTLED_MS + 100));
    const indexDir = join(work, 'steady');
    const first = await buildIndex({ corpusDir: corpus, indexDir, retriever: 'bm25', toolVersion: 'test' });
    const again = await buildIndex({ corpusDir: corpus, indexDir, retriever: 'bm25', toolVersion: 'test' });
    expect(again).toMatchObject({ mode: 'unchanged', reason: undefined, files: { added: 0, changed: 0, removed: 0, unread: first.manifest.files.length } });
    expect(again.manifest.generation).toBe(first.manifest.generation);
    expect((await readManifest(indexDir)).generation).toBe(first.manifest.generation);
    // Damage is found by the whole-index check and the index is rebuilt.
    const old = await readIndex(indexDir);
    old.texts.close();
    const bm25 = join(old.dir, 'retrievers', 'bm25', 'bm25.bin');
    const bytes = await readFile(bm25);
    bytes[bytes.length - 5]! ^= 0x01;
    await writeFile(bm25, bytes);
    const repaired = await buildIndex({ corpusDir: corpus, indexDir, retriever: 'bm25', toolVersion: 'test' });
    expect(repaired.mode).toBe('full');
    expect(repaired.reason).toMatch(/old index is damaged/);
    // A new file is an update again.
    await writeFile(join(corpus, 'docs', 'new.md'), '# New\n\nA page added later.\n');
    expect((await buildIndex({ corpusDir: corpus, indexDir, retriever: 'bm25', toolVersion: 'test' })).mode).toBe('incremental');
  });

  it('leaves an index as it is when only a few files were touched without changing, and records their signatures when many were', async () => {
    const corpus = join(work, 'touched-corpus');
    await cp(MINI, corpus, { recursive: true });
    for (let i = 0; i < 25; i++) await writeFile(join(corpus, 'docs', `note-${i}.md`), `# Note ${i}\n\nA short page, number ${i}.\n`);
    await new Promise((done) => setTimeout(done, SETTLED_MS + 100));
    const indexDir = join(work, 'touched');
    const first = await buildIndex({ corpusDir: corpus, indexDir, retriever: 'bm25', toolVersion: 'test' });
    const total = first.manifest.files.length;
    const allowed = Math.floor(MAX_UNRECORDED_SIGNATURES_SHARE * total);
    expect(allowed).toBeGreaterThanOrEqual(1);
    // Rewritten with the same bytes under a new inode, as a branch switch does: content as recorded, signature not.
    const touch = async (count: number): Promise<void> => {
      for (let i = 0; i < count; i++) {
        const path = join(corpus, 'docs', `note-${i}.md`);
        const bytes = await readFile(path);
        await writeFile(`${path}.tmp`, bytes);
        await rename(`${path}.tmp`, path);
      }
    };
    await touch(allowed);
    const few = await buildIndex({ corpusDir: corpus, indexDir, retriever: 'bm25', toolVersion: 'test' });
    expect(few).toMatchObject({ mode: 'unchanged', files: { changed: 0, unread: total - allowed } });
    expect(few.manifest.generation).toBe(first.manifest.generation);
    // The touched files keep being read (their recorded signatures are stale) until the index is written again.
    expect((await buildIndex({ corpusDir: corpus, indexDir, retriever: 'bm25', toolVersion: 'test' })).files.unread).toBe(total - allowed);
    await touch(allowed + 1);
    await new Promise((done) => setTimeout(done, SETTLED_MS + 100));
    const many = await buildIndex({ corpusDir: corpus, indexDir, retriever: 'bm25', toolVersion: 'test' });
    expect(many).toMatchObject({ mode: 'incremental', files: { changed: 0, unread: total - allowed - 1 } });
    expect(many.manifest.generation).not.toBe(first.manifest.generation);
    // Only signatures were new: the bm25 build was taken over (its entry and bytes), not fitted
    // again, and it is what a full rebuild writes.
    expect(many.manifest.retrievers).toEqual(first.manifest.retrievers);
    const bm25Of = (dir: string, generation: string): Promise<Buffer> => readFile(join(dir, 'generations', generation, 'retrievers', 'bm25', 'bm25.bin'));
    const rebuilt = await buildIndex({ corpusDir: corpus, indexDir: join(work, 'touched-full'), retriever: 'bm25', toolVersion: 'test', full: true });
    expect(await bm25Of(indexDir, many.manifest.generation)).toEqual(await bm25Of(join(work, 'touched-full'), rebuilt.manifest.generation));
    // Their new signatures were recorded: the next update reads nothing.
    expect(await buildIndex({ corpusDir: corpus, indexDir, retriever: 'bm25', toolVersion: 'test' })).toMatchObject({ mode: 'unchanged', files: { unread: total } });
  });

  it('rebuilds from scratch when the old generation turns out damaged while it is updated', async () => {
    const corpus = join(work, 'damaged-corpus');
    await cp(MINI, corpus, { recursive: true });
    await new Promise((done) => setTimeout(done, SETTLED_MS + 100));
    const indexDir = join(work, 'damaged');
    await buildIndex({ corpusDir: corpus, indexDir, retriever: 'bm25', toolVersion: 'test' });
    // A flipped byte in texts.bin, found by the update's check of the generation it would keep.
    const old = await readIndex(indexDir);
    old.texts.close();
    const texts = join(old.dir, 'texts.bin');
    const bytes = await readFile(texts);
    bytes[Math.floor(bytes.length / 2)]! ^= 0x01;
    await writeFile(texts, bytes);
    const report = await buildIndex({ corpusDir: corpus, indexDir, retriever: 'bm25', toolVersion: 'test' });
    expect(report.mode).toBe('full');
    expect(report.reason).toMatch(/old index is damaged.*texts\.bin/);
    await expectSameAsFullRebuild(corpus, indexDir, 'damaged-fresh');

    // Again with a file changed: the update would link texts.bin into its generation, so it
    // checks it first and rebuilds, rather than carry the damage on.
    const again = await readIndex(indexDir);
    again.texts.close();
    const linked = join(again.dir, 'texts.bin');
    const damaged = await readFile(linked);
    damaged[Math.floor(damaged.length / 3)]! ^= 0x01;
    await writeFile(linked, damaged);
    const edited = await smallestFile(corpus, '.py');
    await writeFile(join(corpus, edited), `${await readFile(join(corpus, edited), 'utf8')}\n# edited\n`);
    const rebuilt = await buildIndex({ corpusDir: corpus, indexDir, retriever: 'bm25', toolVersion: 'test' });
    expect(rebuilt).toMatchObject({ mode: 'full', reason: expect.stringMatching(/old index is damaged.*texts\.bin/) });
    await expectSameAsFullRebuild(corpus, indexDir, 'damaged-fresh-again');
  });

  it('over many updates keeps at most TEXT_SEGMENT_LIMITS.maxSegments text segments and never more than 4/3 of the live texts on disk', async () => {
    const corpus = join(work, 'segments-corpus');
    await cp(MINI, corpus, { recursive: true });
    const indexDir = join(work, 'segments');
    await buildIndex({ corpusDir: corpus, indexDir, retriever: 'bm25', toolVersion: 'test' });
    const names = (await readManifest(indexDir)).files.map((file) => file.file_path);
    const sizes = await Promise.all(names.map(async (name) => (await stat(join(corpus, name))).size));
    const smallest = names.map((name, i) => ({ name, size: sizes[i]! })).sort((a, b) => a.size - b.size).slice(0, 8).map((f) => f.name);
    const seen = new Set<number>();
    for (let round = 0; round < 14; round++) {
      const name = smallest[round % smallest.length]!;
      await writeFile(join(corpus, name), `${await readFile(join(corpus, name), 'utf8')}\nround ${round}\n`);
      expect((await buildIndex({ corpusDir: corpus, indexDir, retriever: 'bm25', toolVersion: 'test' })).mode).toBe('incremental');
      const index = await readIndex(indexDir);
      const live = index.chunks.reduce((sum, chunk) => sum + Buffer.byteLength(chunk.text), 0);
      index.texts.close();
      const segments = (await readdir(index.dir)).filter((file) => /^texts(-.+)?\.bin$/.test(file));
      seen.add(segments.length);
      expect(segments.length).toBeLessThanOrEqual(TEXT_SEGMENT_LIMITS.maxSegments);
      const onDisk = (await Promise.all(segments.map(async (file) => (await stat(join(index.dir, file))).size))).reduce((a, b) => a + b, 0);
      expect(onDisk).toBeLessThanOrEqual(live / (1 - TEXT_SEGMENT_LIMITS.maxDeadShare));
    }
    // Both ways were taken: segments linked (more than one) and texts written into one again.
    expect(seen.has(1) && [...seen].some((n) => n > 1)).toBe(true);
    await expectSameAsFullRebuild(corpus, indexDir, 'segments-full');
  });

  it('links the unchanged texts of the generation before and writes only the changed files\' texts', async () => {
    const corpus = join(work, 'linked-corpus');
    await cp(MINI, corpus, { recursive: true });
    const indexDir = join(work, 'linked');
    await buildIndex({ corpusDir: corpus, indexDir, retriever: 'bm25', toolVersion: 'test' });
    const before = await readIndex(indexDir);
    before.texts.close();
    const edited = await smallestFile(corpus, '.md');
    await writeFile(join(corpus, edited), `${await readFile(join(corpus, edited), 'utf8')}\nA new closing paragraph.\n`);
    const report = await buildIndex({ corpusDir: corpus, indexDir, retriever: 'bm25', toolVersion: 'test' });
    expect(report.mode).toBe('incremental');
    const after = await readIndex(indexDir);
    // Only the edited file's chunks are in its own segment.
    const editedTexts = after.chunks.filter((c) => c.file_path === edited.split(sep).join('/')).map((c) => c.text);
    after.texts.close();
    expect((await stat(join(after.dir, 'texts.bin'))).ino).toBe((await stat(join(before.dir, 'texts.bin'))).ino);
    const own = await readFile(join(after.dir, `texts-${after.manifest.generation}.bin`), 'utf8');
    expect(own).toContain('A new closing paragraph.');
    expect(own.length).toBe(editedTexts.join('').length);
    await expectSameAsFullRebuild(corpus, indexDir, 'linked-full');
  });

  it('writes a small change to bm25 as an overlay on the first build\'s file (linked, not copied), and searches exactly as a full rebuild does', async () => {
    const corpus = join(work, 'overlay-corpus');
    await cp(MINI, corpus, { recursive: true });
    // Enough modules that one changed file is a small part of the index (see OVERLAY_MAX_SHARE).
    for (let i = 0; i < 40; i++) {
      await writeFile(join(corpus, `tinyserve/module_${i}.py`), `"""Module ${i} of the helpers."""\n\nLIMIT_${i} = ${i * 7}\n\n\ndef helper_${i}(value, retries=${i % 5}):\n    """Retry helper ${i}: tries ${i % 5} times."""\n    return value * ${i}\n`);
    }
    const indexDir = join(work, 'overlay');
    await buildIndex({ corpusDir: corpus, indexDir, retriever: 'bm25', toolVersion: 'test' });
    const first = await readIndex(indexDir);
    first.texts.close();
    const baseInode = (await stat(join(first.dir, 'retrievers', 'bm25', 'bm25.bin'))).ino;
    const rounds: [string, () => Promise<void>][] = [
      ['an edit', () => writeFile(join(corpus, 'tinyserve/module_3.py'), `"""Module 3, rewritten."""\n\ndef overlay_helper(limit=21):\n    """The overlay round's helper."""\n    return limit\n`)],
      ['a new page naming a function', () => writeFile(join(corpus, 'docs/overlay.md'), '# Overlay\n\nCall `helper_5` to retry a value five times.\n')],
      ['a deleted module', () => rm(join(corpus, 'tinyserve/module_7.py'))],
    ];
    for (const [name, change] of rounds) {
      await change();
      const report = await buildIndex({ corpusDir: corpus, indexDir, retriever: 'bm25', toolVersion: 'test' });
      expect(report.mode, name).toBe('incremental');
      const after = await readIndex(indexDir);
      after.texts.close();
      const files = Object.keys(after.manifest.checksums).filter((file) => file.startsWith('retrievers/bm25/'));
      expect(files.sort(), name).toEqual(['retrievers/bm25/bm25-base.bin', 'retrievers/bm25/bm25-overlay.bin']);
      // The first build's file, the same inode; its checksums carried over, not computed again.
      expect((await stat(join(after.dir, 'retrievers', 'bm25', 'bm25-base.bin'))).ino, name).toBe(baseInode);
      expect(after.manifest.checksums['retrievers/bm25/bm25-base.bin']).toEqual(first.manifest.checksums['retrievers/bm25/bm25.bin']);
      await expectSameAsFullRebuild(corpus, indexDir, `overlay-full-${rounds.findIndex(([n]) => n === name)}`);
    }
    expect((await verifyIndex(indexDir)).files).toBeGreaterThan(4);
    // Search workers share the two files and search them as the calling thread does.
    const pooled = await openRagService({ indexDir, workers: 2, pathBase: work });
    const inThread = await openRagService({ indexDir, workers: 0, pathBase: work });
    try {
      for (const query of [...QUESTIONS, 'retry helper', 'overlay_helper limit']) expect((await pooled.searchWithText({ query, k: 5 })).view.hits).toEqual((await inThread.searchWithText({ query, k: 5 })).view.hits);
    } finally {
      await pooled.close();
      await inThread.close();
    }

    // Damage to either file is INDEX_CORRUPT naming it, for `rag verify` and for a search, never a wrong hit.
    const damages: [string, (path: string) => Promise<void>][] = [
      ['flipped', async (path) => {
        const bytes = await readFile(path);
        bytes[Math.floor(bytes.length / 2)]! ^= 0x01;
        await writeFile(path, bytes);
      }],
      ['truncated', async (path) => writeFile(path, (await readFile(path)).subarray(0, 100))],
      ['deleted', (path) => rm(path)],
    ];
    for (const file of ['bm25-base.bin', 'bm25-overlay.bin']) {
      for (const [how, damage] of damages) {
        const copy = join(work, `overlay-${file}-${how}`);
        await cp(indexDir, copy, { recursive: true });
        const { dir } = await readIndex(copy).then((index) => (index.texts.close(), index));
        await damage(join(dir, 'retrievers', 'bm25', file));
        await expect(verifyIndex(copy), `${file} ${how}`).rejects.toMatchObject({ code: 'INDEX_CORRUPT', message: expect.stringContaining(file) });
        const search = async (): Promise<unknown> => searchSources(await openSearchSession(copy, { pathBase: work }), 'retry helper', 5);
        await expect(search(), `${file} ${how}`).rejects.toMatchObject({ code: 'INDEX_CORRUPT', message: expect.stringContaining(file) });
      }
    }
  });

  it('never carries a damaged bm25 file into the next generation: the update analyses every chunk again', async () => {
    const corpus = join(work, 'overlay-damaged-corpus');
    await cp(MINI, corpus, { recursive: true });
    for (let i = 0; i < 40; i++) await writeFile(join(corpus, `tinyserve/module_${i}.py`), `def helper_${i}(value):\n    """Helper ${i}."""\n    return value * ${i}\n`);
    const indexDir = join(work, 'overlay-damaged');
    await buildIndex({ corpusDir: corpus, indexDir, retriever: 'bm25', toolVersion: 'test' });
    const { dir } = await readIndex(indexDir).then((index) => (index.texts.close(), index));
    // A byte in the last page: the update reads the base's statistics, not its last lists.
    const base = join(dir, 'retrievers', 'bm25', 'bm25.bin');
    const bytes = await readFile(base);
    bytes[bytes.length - 9]! ^= 0x01;
    await writeFile(base, bytes);
    await writeFile(join(corpus, 'tinyserve/module_1.py'), 'def helper_1(value):\n    """Helper one, edited."""\n    return value\n');
    const report = await buildIndex({ corpusDir: corpus, indexDir, retriever: 'bm25', toolVersion: 'test' });
    // A file read whole is verified before the update uses it (one served in pages, page by
    // page, and whole before it is linked: see the index store's tests of linkFile).
    expect(report.mode).not.toBe('unchanged');
    const after = await readIndex(indexDir);
    after.texts.close();
    expect(Object.keys(after.manifest.checksums).filter((file) => file.startsWith('retrievers/bm25/'))).toEqual(['retrievers/bm25/bm25.bin']);
    await verifyIndex(indexDir);
    await expectSameAsFullRebuild(corpus, indexDir, 'overlay-damaged-full');
  });

  it('says when the retriever could not reuse its previous build, and why (its file was of another format)', async () => {
    const indexDir = join(work, 'notes');
    const first = await buildIndex({ corpusDir: MINI, indexDir, retriever: 'bm25', toolVersion: 'test' });
    expect(first.notes).toEqual([]);
    // A retriever whose previous build is never of use, as an index written before a format change.
    const refusing: RetrieverFactory = {
      ...bm25RetrieverFactory,
      isCurrent: async () => false,
      build: (chunks, context = {}) => {
        if (context.previous) context.onNotice?.('the previous bm25 index was not reused, so every chunk was analysed again: it is format 1.');
        const { previous: _unused, ...rest } = context;
        return bm25RetrieverFactory.build(chunks, rest);
      },
    };
    const report = await buildIndex({ corpusDir: MINI, indexDir, retriever: 'bm25', toolVersion: 'test', retrievers: new RetrieverRegistry([refusing]) });
    expect(report.mode).toBe('incremental');
    expect(report.notes).toEqual(['the previous bm25 index was not reused, so every chunk was analysed again: it is format 1.']);
    // The real factory reuses its own build and has nothing to say.
    const again = await buildIndex({ corpusDir: MINI, indexDir, retriever: 'bm25', toolVersion: 'test', full: false });
    expect(again.notes).toEqual([]);
  });

  it('rebuilds from scratch, saying why, when the settings, the tool version or the retriever changed, or when asked', async () => {
    const indexDir = join(work, 'reasons');
    await buildIndex({ corpusDir: MINI, indexDir, retriever: 'bm25', toolVersion: 'test' });
    // The way files were cut is part of the chunking settings: an index cut by another
    // revision of the chunker is rebuilt rather than mixed with chunks cut this way.
    expect((await readManifest(indexDir)).chunking).toMatchObject({ revision: CHUNKER_REVISION });
    expect((await buildIndex({ corpusDir: MINI, indexDir, retriever: 'bm25', toolVersion: 'test', maxChunkSize: 1500 })).reason).toBe('the chunking settings changed');
    expect((await buildIndex({ corpusDir: MINI, indexDir, retriever: 'bm25', toolVersion: 'test-2', maxChunkSize: 1500 })).reason).toMatch(/written by rag test/);
    expect((await buildIndex({ corpusDir: MINI, indexDir, retriever: 'hybrid', toolVersion: 'test-2', maxChunkSize: 1500 })).reason).toMatch(/built with bm25/);
    expect((await buildIndex({ corpusDir: MINI, indexDir, retriever: 'hybrid', toolVersion: 'test-2', maxChunkSize: 1500, full: true })).reason).toBe('--full was given');
    const unchanged = await buildIndex({ corpusDir: MINI, indexDir, retriever: 'hybrid', toolVersion: 'test-2', maxChunkSize: 1500 });
    expect(unchanged).toMatchObject({ mode: 'incremental', reason: undefined, files: { added: 0, changed: 0, removed: 0 } });
  });
});
