import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createSharedFileReader,
  openIndexSession,
  readerOverSharedFiles,
  RetrieverRegistry,
  writeIndex,
  type Chunk,
  type IndexFileReader,
  type RetrieverFactory,
} from '../src/index.js';
import { rejection } from './helpers.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'rag-core-shared-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const chunks: Chunk[] = [
  { id: 0, file_path: 'a.py', first_character_index: 0, last_character_index: 5, start_line: 1, end_line: 1, kind: 'function', symbol: 'a', language: 'python', text: 'alpha' },
];

/** A retriever whose state is one file, read through the load context's reader. */
function readerFactory(loads: { count: number; shared: boolean[] }): RetrieverFactory {
  return {
    name: 'fake',
    description: 'test',
    build: async () => ({ name: 'fake', search: async () => [], save: (dir) => writeFile(join(dir, 'state.bin'), 'the state of fake') }),
    async load(dir, _chunks, context = {}) {
      loads.count++;
      const bytes = await (context.readFile ?? (() => Promise.reject(new Error('no reader'))))(join(dir, 'state.bin'));
      loads.shared.push(bytes.buffer instanceof SharedArrayBuffer);
      const text = Buffer.from(bytes).toString('utf8');
      return { name: 'fake', search: async () => [{ chunkId: 0, score: text.length }], save: async () => undefined };
    },
  };
}

async function publish(dir: string, tag = 'x'): Promise<void> {
  const retriever = await readerFactory({ count: 0, shared: [] }).build(chunks);
  await writeIndex(dir, {
    manifest: { toolVersion: tag, createdAt: 'now', corpusDir: root, corpusDirAsGiven: '.', chunking: {}, files: [{ file_path: 'a.py', sha256: 'x', bytes: 5, length: 5, language: 'python' }] },
    chunks,
    retrievers: [{ entry: { name: 'fake', settings: {}, builtAt: 'now' }, save: (d) => retriever.save(d) }],
  });
}

describe('createSharedFileReader', () => {
  it('reads each file once into shared memory and hands out that memory', async () => {
    const path = join(root, 'f.bin');
    await writeFile(path, 'shared bytes');
    const shared = createSharedFileReader();
    const first = await shared.read(path);
    expect(first.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(await shared.read(path)).toBe(first);
    expect(Object.keys(shared.files())).toEqual([path]);
    // A worker's reader views the same buffer: nothing is copied.
    const view = await readerOverSharedFiles(shared.files())(path);
    expect(view.buffer).toBe(first.buffer);
    expect(Buffer.from(view).toString()).toBe('shared bytes');
  });

  it('does not remember a failed read, and a worker reads unknown files from the disk', async () => {
    const path = join(root, 'late.bin');
    const shared = createSharedFileReader();
    await expect(shared.read(path)).rejects.toThrow();
    await writeFile(path, 'now here');
    expect(Buffer.from(await shared.read(path)).toString()).toBe('now here');
    const other = join(root, 'other.bin');
    await writeFile(other, 'private');
    const read = await readerOverSharedFiles(shared.files())(other);
    expect(read.buffer).not.toBeInstanceOf(SharedArrayBuffer);
  });
});

describe('index sessions over a file reader', () => {
  it('verify and load through the reader, so the bytes hashed are the bytes loaded', async () => {
    const dir = join(root, 'index');
    await publish(dir);
    const loads = { count: 0, shared: [] as boolean[] };
    const shared = createSharedFileReader();
    const session = await openIndexSession(dir, { retrievers: new RetrieverRegistry([readerFactory(loads)]), readFile: shared.read, deferLoad: true });
    expect(loads.count).toBe(0); // deferred: nothing built until asked
    await session.verifyFiles();
    expect(Object.keys(shared.files()).some((p) => p.endsWith('state.bin'))).toBe(true);
    expect((await session.search('q', 1))[0]!.score).toBe('the state of fake'.length);
    expect(loads).toEqual({ count: 1, shared: [true] });
  });

  it('refuse bytes from the reader that do not match the manifest, naming the file', async () => {
    const dir = join(root, 'index');
    await publish(dir);
    const tampered: IndexFileReader = async () => new TextEncoder().encode('the state of fakf');
    const error = await rejection(() => openIndexSession(dir, { retrievers: new RetrieverRegistry([readerFactory({ count: 0, shared: [] })]), readFile: tampered }));
    expect(error.code).toBe('INDEX_CORRUPT');
    expect(error.message).toContain('retrievers/fake/state.bin does not match its checksum');
  });

  it('open a pinned generation after newer ones are published, and say so once it is removed', async () => {
    const dir = join(root, 'index');
    await publish(dir, 'first');
    const registry = new RetrieverRegistry([readerFactory({ count: 0, shared: [] })]);
    const first = await openIndexSession(dir, { retrievers: registry });
    await publish(dir, 'second');
    const pinned = await openIndexSession(dir, { retrievers: registry, pin: first.pin });
    expect(pinned.manifest.toolVersion).toBe('first');
    expect((await openIndexSession(dir, { retrievers: registry })).manifest.toolVersion).toBe('second');
    await publish(dir, 'third'); // two generations are kept: the first is gone now
    const error = await rejection(() => openIndexSession(dir, { retrievers: registry, pin: first.pin }));
    expect(error.code).toBe('INDEX_NOT_FOUND');
    expect(error.message).toMatch(/has been removed/);
  });
});
