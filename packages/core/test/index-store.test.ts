import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  GENERATIONS_DIR,
  INDEX_FORMAT_VERSION,
  INDEX_LOCK_FILE,
  INDEX_POINTER_FILE,
  openIndex,
  PUBLISH_STEPS,
  readIndex,
  readManifest,
  retrieverDir,
  verifyIndex,
  writeIndex,
  type Chunk,
  type FileRecord,
  type SaveContext,
  type WriteIndexInput,
} from '../src/index.js';
import { rejection } from './helpers.js';

let root: string;
let dir: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'rag-core-index-'));
  dir = join(root, '.rag');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const files: FileRecord[] = [
  { file_path: 'pkg/app.py', sha256: 'a'.repeat(64), bytes: 40, length: 38, language: 'python' },
  { file_path: 'docs/guide 🚀.md', sha256: 'b'.repeat(64), bytes: 30, length: 28, language: 'markdown' },
];

const chunks: Chunk[] = [
  { id: 0, file_path: 'pkg/app.py', first_character_index: 0, last_character_index: 20, start_line: 1, end_line: 2, kind: 'function', symbol: 'serve', language: 'python', text: 'def serve():\n    ...' },
  { id: 1, file_path: 'docs/guide 🚀.md', first_character_index: 0, last_character_index: 9, start_line: 1, end_line: 1, kind: 'section', symbol: 'Guide', language: 'markdown', text: '# Guide 🚀' },
  { id: 2, file_path: 'pkg/app.py', first_character_index: 21, last_character_index: 38, start_line: 3, end_line: 3, kind: 'module', symbol: '', language: 'python', text: 'serve()  # "quoted"' },
];

/** A retriever that saves one file, so the test can see its directory was made and kept. */
function input(state = 'state-1', save?: (dir: string, context?: SaveContext) => Promise<void>): WriteIndexInput {
  return {
    manifest: {
      toolVersion: '0.1.0',
      createdAt: '2026-12-02T00:00:00.000Z',
      corpusDir: '/abs/corpus',
      corpusDirAsGiven: 'corpus',
      chunking: { maxChars: 2000 },
      files,
    },
    chunks,
    retrievers: [
      {
        entry: { name: 'fake', settings: { k1: 1.2 }, builtAt: '2026-12-02T00:00:01.000Z' },
        save: save ?? ((target) => writeFile(join(target, 'state.txt'), state)),
      },
    ],
  };
}

/** Rewrites the pointer file (CURRENT) through `edit`. */
async function editPointer(edit: (pointer: Record<string, unknown>) => void): Promise<void> {
  const path = join(dir, INDEX_POINTER_FILE);
  const pointer = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
  edit(pointer);
  await writeFile(path, JSON.stringify(pointer));
}

async function generationDir(): Promise<string> {
  return (await openIndex(dir)).dir;
}

describe('writeIndex / readIndex', () => {
  it('round-trips chunks, files and retriever entries', async () => {
    const written = await writeIndex(dir, input());
    expect(written.counts).toEqual({ files: 2, chunks: 3 });
    expect(written.formatVersion).toBe(INDEX_FORMAT_VERSION);
    const loaded = await readIndex(dir);
    expect(loaded.chunks).toEqual(chunks);
    expect(loaded.manifest).toEqual(written);
    expect(loaded.manifest.retrievers).toEqual([{ name: 'fake', settings: { k1: 1.2 }, builtAt: '2026-12-02T00:00:01.000Z' }]);
    expect(await readFile(join(retrieverDir(loaded.dir, 'fake'), 'state.txt'), 'utf8')).toBe('state-1');
    // Every file but the manifest is checksummed in it; the pointer checksums the manifest.
    expect(Object.keys(written.checksums).sort()).toEqual(['chunks.bin', 'retrievers/fake/state.txt', 'text-offsets.bin', 'texts.bin']);
  });

  it('replaces an older index, keeps the generation before it for readers, and leaves no staging folders', async () => {
    await writeIndex(dir, input('state-1'));
    await writeIndex(dir, input('state-2'));
    await writeIndex(dir, input('state-3'));
    expect(await readFile(join(retrieverDir(await generationDir(), 'fake'), 'state.txt'), 'utf8')).toBe('state-3');
    expect(await readdir(root)).toEqual(['.rag']);
    expect((await readdir(dir)).sort()).toEqual([INDEX_POINTER_FILE, GENERATIONS_DIR]);
    const generations = await readdir(join(dir, GENERATIONS_DIR));
    expect(generations).toHaveLength(2);
    expect(generations.every((n) => n.startsWith('g-'))).toBe(true);
  });

  it('keeps the previous index when a retriever fails to save', async () => {
    await writeIndex(dir, input('state-1'));
    const failure = new Error('out of memory');
    await expect(writeIndex(dir, input('unused', () => Promise.reject(failure)))).rejects.toBe(failure);
    expect(await readFile(join(retrieverDir(await generationDir(), 'fake'), 'state.txt'), 'utf8')).toBe('state-1');
    expect((await readIndex(dir)).chunks).toHaveLength(3);
    expect(await readdir(join(dir, GENERATIONS_DIR))).toHaveLength(1);
  });

  it('rejects a chunk naming a file the manifest does not list', async () => {
    const stray = { ...chunks[0]!, file_path: 'nowhere.py' };
    const error = await rejection(() => writeIndex(dir, { ...input(), chunks: [stray] }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain('nowhere.py');
  });
});

describe('an update links the text segments of the generation before', () => {
  /** A second write whose chunks copy the first's where `sourceOf` says so, and have new texts elsewhere. */
  async function update(sourceOf: number[], texts: string[]): Promise<{ previous: Awaited<ReturnType<typeof readIndex>>; written: Awaited<ReturnType<typeof writeIndex>> }> {
    const previous = await readIndex(dir);
    const next = input('state-2');
    next.chunks = chunks.map((chunk, i) => ({ ...chunk, text: texts[i]! }));
    next.previousTexts = { texts: previous.texts, sourceOf: (i) => sourceOf[i]!, checksums: previous.manifest.checksums };
    try {
      return { previous, written: await writeIndex(dir, next) };
    } finally {
      previous.texts.close();
    }
  }

  it('keeps unchanged texts where they lie, with their recorded checksums, and writes the others into a segment of its own', async () => {
    await writeIndex(dir, input());
    const { previous, written } = await update([0, -1, 2], [chunks[0]!.text, '# Guide 🚀 v2', chunks[2]!.text]);
    const now = await generationDir();
    expect((await stat(join(now, 'texts.bin'))).ino).toBe((await stat(join(previous.dir, 'texts.bin'))).ino);
    expect(written.checksums['texts.bin']).toEqual(previous.manifest.checksums['texts.bin']);
    expect(await readFile(join(now, `texts-${written.generation}.bin`), 'utf8')).toBe('# Guide 🚀 v2');
    expect((await readIndex(dir)).chunks.map((c) => c.text)).toEqual([chunks[0]!.text, '# Guide 🚀 v2', chunks[2]!.text]);
    expect((await verifyIndex(dir)).files).toBe(6);
  });

  it('writes every text into one segment again once the linked bytes are mostly dead', async () => {
    await writeIndex(dir, input());
    // Only the shortest text is kept: most of texts.bin would be waste.
    const { previous, written } = await update([-1, 1, -1], ['def serve():\n    return 2', chunks[1]!.text, 'serve(2)']);
    const now = await generationDir();
    expect((await readdir(now)).filter((name) => name.startsWith('texts'))).toEqual(['texts.bin']);
    expect((await stat(join(now, 'texts.bin'))).ino).not.toBe((await stat(join(previous.dir, 'texts.bin'))).ino);
    expect(written.checksums['texts.bin']).not.toEqual(previous.manifest.checksums['texts.bin']);
    expect((await readIndex(dir)).chunks.map((c) => c.text)).toEqual(['def serve():\n    return 2', chunks[1]!.text, 'serve(2)']);
  });
});

describe('a retriever linking a file of the generation before (SaveContext.linkFile)', () => {
  it('gets the same file, its recorded checksums carried over; a file the generation before does not record is not linked', async () => {
    await writeIndex(dir, input('kept state'));
    const before = await openIndex(dir);
    const from = join(retrieverDir(before.dir, 'fake'), 'state.txt');
    const results: boolean[] = [];
    const written = await writeIndex(dir, {
      ...input('unused', async (target, context) => {
        results.push(await context!.linkFile!(from, join(target, 'state.txt')));
        results.push(await context!.linkFile!(join(before.dir, 'elsewhere.txt'), join(target, 'other.txt')));
        await writeFile(join(target, 'own.txt'), 'written anew');
      }),
      previousGeneration: { dir: before.dir, checksums: before.manifest.checksums },
    });
    expect(results).toEqual([true, false]);
    const now = await generationDir();
    expect((await stat(join(retrieverDir(now, 'fake'), 'state.txt'))).ino).toBe((await stat(from)).ino);
    expect(written.checksums['retrievers/fake/state.txt']).toEqual(before.manifest.checksums['retrievers/fake/state.txt']);
    expect(written.checksums['retrievers/fake/own.txt']?.size).toBe('written anew'.length);
    expect(await verifyIndex(dir)).toMatchObject({ generation: written.generation });
  });

  it('refuses a damaged file with INDEX_CORRUPT (the update then rebuilds) instead of carrying the damage on', async () => {
    await writeIndex(dir, input('kept state'));
    const before = await openIndex(dir);
    const from = join(retrieverDir(before.dir, 'fake'), 'state.txt');
    await writeFile(from, 'kept stätē');
    const error = await rejection(() =>
      writeIndex(dir, { ...input('unused', async (target, context) => void (await context!.linkFile!(from, join(target, 'state.txt')))), previousGeneration: { dir: before.dir, checksums: before.manifest.checksums } }),
    );
    expect(error.code).toBe('INDEX_CORRUPT');
    expect(error.message).toContain('state.txt');
    // The published generation is still the one before.
    expect((await openIndex(dir)).manifest.generation).toBe(before.manifest.generation);
  });
});

describe('readIndex errors', () => {
  it('reports a missing index as INDEX_NOT_FOUND with a hint to build one', async () => {
    const error = await rejection(() => readIndex(join(root, 'absent')));
    expect(error.code).toBe('INDEX_NOT_FOUND');
    expect(error.hint).toContain('rag index');
    await mkdir(dir);
    expect((await rejection(() => readManifest(dir))).code).toBe('INDEX_NOT_FOUND');
  });

  it('refuses another format version as INDEX_INCOMPATIBLE', async () => {
    await writeIndex(dir, input());
    await editPointer((p) => {
      p.formatVersion = INDEX_FORMAT_VERSION + 1;
    });
    const error = await rejection(() => readIndex(dir));
    expect(error.code).toBe('INDEX_INCOMPATIBLE');
    expect(error.message).toContain(`format version ${INDEX_FORMAT_VERSION + 1}`);
    expect(error.hint).toContain('Rebuild');
  });

  it('refuses an index of the first format (no generations) as INDEX_INCOMPATIBLE, and replaces it on the next write', async () => {
    await mkdir(join(dir, 'retrievers', 'fake'), { recursive: true });
    await writeFile(join(dir, 'manifest.json'), JSON.stringify({ format: 'rag-index', formatVersion: 1, toolVersion: '0.1.0' }));
    await writeFile(join(dir, 'texts.json'), '[]');
    const error = await rejection(() => readIndex(dir));
    expect(error.code).toBe('INDEX_INCOMPATIBLE');
    expect(error.message).toContain('format version 1');
    await writeIndex(dir, input());
    expect((await readdir(dir)).sort()).toEqual([INDEX_POINTER_FILE, GENERATIONS_DIR]);
    expect((await readIndex(dir)).chunks).toEqual(chunks);
  });

  it('reports chunk files that disagree with the manifest as INDEX_CORRUPT', async () => {
    await writeIndex(dir, input());
    const generation = await generationDir();
    await writeFile(join(generation, 'text-offsets.bin'), Buffer.alloc(16));
    const error = await rejection(() => readIndex(dir));
    expect(error.code).toBe('INDEX_CORRUPT');
    expect(error.message).toContain('text-offsets.bin');
  });
});

/** Every way a file of an index can be damaged. */
const DAMAGES: { name: string; apply: (path: string) => Promise<void> }[] = [
  {
    name: 'one byte flipped',
    apply: async (path) => {
      const bytes = await readFile(path);
      const at = Math.floor(bytes.length / 2);
      bytes[at] = bytes[at]! ^ 0x01;
      await writeFile(path, bytes);
    },
  },
  { name: 'truncated', apply: async (path) => writeFile(path, (await readFile(path)).subarray(0, Math.floor((await readFile(path)).length / 2))) },
  { name: 'zeroed', apply: async (path) => writeFile(path, Buffer.alloc((await readFile(path)).length)) },
  { name: 'deleted', apply: (path) => rm(path) },
];

describe('a damaged index is INDEX_CORRUPT naming the file, never read as good', () => {
  const targets = ['CURRENT', 'manifest.json', 'chunks.bin', 'texts.bin', 'text-offsets.bin', 'retrievers/fake/state.txt'];
  for (const target of targets) {
    for (const damage of DAMAGES) {
      it(`${target}, ${damage.name}`, async () => {
        await writeIndex(dir, input());
        const path = target === 'CURRENT' ? join(dir, INDEX_POINTER_FILE) : join(await generationDir(), target);
        await damage.apply(path);
        const name = target.split('/').at(-1)!;
        // `rag verify` checks every file; reading the index checks what it reads.
        const verified = await rejection(() => verifyIndex(dir));
        expect(verified.code).toBe('INDEX_CORRUPT');
        expect(verified.message).toContain(name);
        if (target !== 'retrievers/fake/state.txt') {
          // texts.bin is checked text by text as it is read (each against its CRC-32), so a
          // damage that keeps its size surfaces when the damaged text is read, not on open.
          const readAll = async (): Promise<void> => {
            const index = await readIndex(dir);
            for (const chunk of index.chunks) void chunk.text;
          };
          const read = await rejection(target === 'texts.bin' ? readAll : () => readIndex(dir));
          expect(read.code).toBe('INDEX_CORRUPT');
          expect(read.message).toContain(name);
        }
      });
    }
  }

  it('checks each text against its CRC-32 as it is read: a damaged text fails, the others still read', async () => {
    await writeIndex(dir, input());
    const path = join(await generationDir(), 'texts.bin');
    const bytes = await readFile(path);
    const at = Buffer.byteLength(chunks[0]!.text) + 2; // inside the text of chunk 1
    bytes[at] = bytes[at]! ^ 0x20;
    await writeFile(path, bytes);
    const index = await readIndex(dir);
    expect(index.chunks[0]!.text).toBe(chunks[0]!.text);
    expect(index.chunks[2]!.text).toBe(chunks[2]!.text);
    const error = await rejection(() => index.chunks[1]!.text);
    expect(error.code).toBe('INDEX_CORRUPT');
    expect(error.message).toMatch(/texts\.bin does not match its checksum \(the text of chunk 1\)/);
    index.texts.close();
  });

  it('checks the files it reads whole by their CRC-32, and an index that records only sha256s by those', async () => {
    const written = await writeIndex(dir, input());
    for (const sum of Object.values(written.checksums)) expect(sum.crc32).toEqual(expect.any(Number));
    const pointerPath = join(dir, INDEX_POINTER_FILE);
    expect(JSON.parse(await readFile(pointerPath, 'utf8')).manifestCrc32).toEqual(expect.any(Number));
    // An index from before the CRC-32s: no crc32 in the manifest or the pointer.
    const manifestPath = join(await generationDir(), 'manifest.json');
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { checksums: Record<string, { crc32?: number }> };
    for (const sum of Object.values(manifest.checksums)) delete sum.crc32;
    const text = JSON.stringify(manifest, null, 1);
    await writeFile(manifestPath, text);
    const { manifestCrc32: _dropped, ...older } = JSON.parse(await readFile(pointerPath, 'utf8')) as Record<string, unknown>;
    await writeFile(pointerPath, JSON.stringify({ ...older, manifestSha256: createHash('sha256').update(text).digest('hex') }));
    expect((await readIndex(dir)).chunks.map((c) => c.text)).toEqual(chunks.map((c) => c.text));
    expect((await verifyIndex(dir)).files).toBe(5);
    // Still checked: by the sha256.
    const chunkTable = join(await generationDir(), 'chunks.bin');
    const bytes = await readFile(chunkTable);
    bytes[bytes.length >> 1]! ^= 0x01;
    await writeFile(chunkTable, bytes);
    const error = await rejection(() => readIndex(dir));
    expect(error.code).toBe('INDEX_CORRUPT');
    expect(error.message).toContain('chunks.bin does not match its checksum');
  });

  it('opens and reads an index without loading node:crypto (a search hashes nothing with it)', async () => {
    await writeIndex(dir, input());
    // A fresh process: this one has loaded node:crypto long ago.
    const script = `
      const core = await import(${JSON.stringify(new URL('../dist/index.js', import.meta.url).href)});
      const index = await core.readIndex(${JSON.stringify(dir)});
      for (const chunk of index.chunks) void chunk.text;
      index.texts.close();
      console.log(JSON.stringify({ chunks: index.chunks.length, crypto: process.moduleLoadList.includes('NativeModule crypto') }));`;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ chunks: chunks.length, crypto: false });
  });

  it('verifyIndex quick compares the CRC-32s alone, thorough the sha256s too; either falls back to the sha256 where no CRC-32 is recorded', async () => {
    const written = await writeIndex(dir, input());
    expect(await verifyIndex(dir, { quick: true })).toEqual({ generation: written.generation, files: 5, bytes: expect.any(Number) });
    // A manifest whose sha256 of chunks.bin is wrong and CRC-32 right: only the thorough check can tell.
    const rewriteManifest = async (change: (checksums: Record<string, { sha256: string; crc32?: number }>) => void): Promise<void> => {
      const manifestPath = join(await generationDir(), 'manifest.json');
      const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { checksums: Record<string, { sha256: string; crc32?: number }> };
      change(manifest.checksums);
      const text = JSON.stringify(manifest, null, 1);
      await writeFile(manifestPath, text);
      const pointerPath = join(dir, INDEX_POINTER_FILE);
      const { manifestCrc32: _dropped, ...pointer } = JSON.parse(await readFile(pointerPath, 'utf8')) as Record<string, unknown>;
      await writeFile(pointerPath, JSON.stringify({ ...pointer, manifestSha256: createHash('sha256').update(text).digest('hex') }));
    };
    await rewriteManifest((checksums) => {
      checksums['chunks.bin']!.sha256 = '0'.repeat(64);
    });
    expect((await verifyIndex(dir, { quick: true })).files).toBe(5);
    const thorough = await rejection(() => verifyIndex(dir));
    expect(thorough.message).toContain('chunks.bin does not match its checksum');
    // With no CRC-32 recorded (an older index), quick compares the sha256: the same wrong one fails.
    await rewriteManifest((checksums) => {
      delete checksums['chunks.bin']!.crc32;
    });
    const quick = await rejection(() => verifyIndex(dir, { quick: true }));
    expect(quick.code).toBe('INDEX_CORRUPT');
    expect(quick.message).toContain('chunks.bin does not match its checksum');
    // And a flipped byte in a file with a CRC-32 fails the quick check.
    const texts = join(await generationDir(), 'texts.bin');
    const bytes = await readFile(texts);
    bytes[bytes.length >> 1]! ^= 0x01;
    await writeFile(texts, bytes);
    await rewriteManifest((checksums) => {
      checksums['chunks.bin']!.sha256 = createHash('sha256').update(readFileSync(join(dirname(texts), 'chunks.bin'))).digest('hex');
    });
    const flipped = await rejection(() => verifyIndex(dir, { quick: true }));
    expect(flipped.message).toContain('texts.bin does not match its checksum');
  });

  it('verifyIndex passes an intact index and counts what it checked', async () => {
    const written = await writeIndex(dir, input());
    expect(await verifyIndex(dir)).toEqual({ generation: written.generation, files: 5, bytes: expect.any(Number) });
  });
});

describe('publishing survives a writer killed at any step', () => {
  const FIXTURE = join(import.meta.dirname, 'fixtures', 'write-index.mjs');
  const writeInChild = (label: string, dieAfter = ''): number | null =>
    spawnSync(process.execPath, [FIXTURE, dir, label, dieAfter], { encoding: 'utf8' }).status;

  for (const step of PUBLISH_STEPS) {
    it(`killed after "${step}": readers get the old or the new index, whole, and the next writer succeeds`, async () => {
      expect(writeInChild('old')).toBe(0);
      expect(writeInChild('new', step)).toBe(137);
      const texts = (await readIndex(dir)).chunks.map((c) => c.text);
      const published = PUBLISH_STEPS.indexOf(step) >= PUBLISH_STEPS.indexOf('published');
      expect(texts).toEqual(['0', '1', '2'].map((id) => `${published ? 'new' : 'old'} ${id}`));
      await verifyIndex(dir);
      // The dead writer's lock is taken over and its staging folder removed.
      expect(writeInChild('next')).toBe(0);
      expect((await readIndex(dir)).chunks[0]!.text).toBe('next 0');
      expect((await readdir(join(dir, GENERATIONS_DIR))).filter((n) => !n.startsWith('g-'))).toEqual([]);
      expect(await readdir(dir)).not.toContain(INDEX_LOCK_FILE);
    });
  }

  it('a first write killed before publishing leaves a directory the next write may use', async () => {
    expect(writeInChild('first', 'synced')).toBe(137);
    expect((await rejection(() => readIndex(dir))).code).toBe('INDEX_NOT_FOUND');
    expect(writeInChild('second')).toBe(0);
    expect((await readIndex(dir)).chunks[0]!.text).toBe('second 0');
  });
});

describe('one writer at a time', () => {
  it('a second concurrent writer is refused with INDEX_BUSY, and the first finishes', async () => {
    let resume!: () => void;
    const paused = new Promise<void>((resolve) => (resume = resolve));
    let reachedStaged!: () => void;
    const staged = new Promise<void>((resolve) => (reachedStaged = resolve));
    const first = writeIndex(dir, input('first'), {
      onStep: async (step) => {
        if (step === 'staged') {
          reachedStaged();
          await paused;
        }
      },
    });
    await staged;
    const error = await rejection(() => writeIndex(dir, input('second')));
    expect(error.code).toBe('INDEX_BUSY');
    expect(error.message).toContain(`pid ${process.pid}`);
    resume();
    await first;
    expect(await readFile(join(retrieverDir(await generationDir(), 'fake'), 'state.txt'), 'utf8')).toBe('first');
  });

  it('takes over the lock of a writer that died', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, INDEX_LOCK_FILE), JSON.stringify({ pid: Number(dead.stdout.trim()), host: hostname(), startedAt: '2026-01-01T00:00:00.000Z' }));
    await writeIndex(dir, input('after'));
    expect((await readIndex(dir)).manifest.counts.chunks).toBe(3);
  });

  it('readers never fail while the index is re-published again and again', async () => {
    await writeIndex(dir, input('state-0'));
    let writing = true;
    const failures: unknown[] = [];
    let reads = 0;
    const reader = (async () => {
      while (writing) {
        try {
          const loaded = await readIndex(dir);
          await verifyIndex(dir).catch((error: unknown) => {
            // A generation two publishes old may be removed mid-check; the next read sees the new one.
            if (!(error instanceof Error && /is missing/.test(error.message))) throw error;
          });
          expect(loaded.chunks).toHaveLength(3);
          reads++;
        } catch (error) {
          failures.push(error);
        }
      }
    })();
    for (let i = 1; i <= 100; i++) await writeIndex(dir, input(`state-${i}`));
    writing = false;
    await reader;
    expect(failures).toEqual([]);
    expect(reads).toBeGreaterThan(0);
  });
});

describe('writeIndex refuses to replace a directory that is not an index', () => {
  it('leaves a non-empty foreign directory untouched', async () => {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'notes.txt'), 'precious');
    const error = await rejection(() => writeIndex(dir, input()));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain('holds no rag index');
    expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('precious');
    expect(await readdir(dir)).toEqual(['notes.txt']);
  });

  it('writes into an empty directory and over a previous index', async () => {
    await mkdir(dir, { recursive: true });
    await writeIndex(dir, input('first'));
    await writeIndex(dir, input('second'));
    expect(await readFile(join(retrieverDir(await generationDir(), 'fake'), 'state.txt'), 'utf8')).toBe('second');
  });
});
