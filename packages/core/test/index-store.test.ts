import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  INDEX_FORMAT_VERSION,
  readIndex,
  readManifest,
  retrieverDir,
  writeIndex,
  type Chunk,
  type FileRecord,
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
function input(state = 'state-1', save?: (dir: string) => Promise<void>): WriteIndexInput {
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

async function editManifest(edit: (manifest: Record<string, unknown>) => void): Promise<void> {
  const path = join(dir, 'manifest.json');
  const manifest = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
  edit(manifest);
  await writeFile(path, JSON.stringify(manifest));
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
    expect(await readFile(join(retrieverDir(dir, 'fake'), 'state.txt'), 'utf8')).toBe('state-1');
  });

  it('replaces an older index and leaves no temporary directories', async () => {
    await writeIndex(dir, input('state-1'));
    await writeIndex(dir, input('state-2'));
    expect(await readFile(join(retrieverDir(dir, 'fake'), 'state.txt'), 'utf8')).toBe('state-2');
    expect(await readdir(root)).toEqual(['.rag']);
  });

  it('keeps the previous index when a retriever fails to save', async () => {
    await writeIndex(dir, input('state-1'));
    const failure = new Error('out of memory');
    await expect(writeIndex(dir, input('unused', () => Promise.reject(failure)))).rejects.toBe(failure);
    expect(await readFile(join(retrieverDir(dir, 'fake'), 'state.txt'), 'utf8')).toBe('state-1');
    expect((await readIndex(dir)).chunks).toHaveLength(3);
    expect(await readdir(root)).toEqual(['.rag']);
  });

  it('rejects a chunk naming a file the manifest does not list', async () => {
    const stray = { ...chunks[0]!, file_path: 'nowhere.py' };
    const error = await rejection(() => writeIndex(dir, { ...input(), chunks: [stray] }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain('nowhere.py');
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
    await editManifest((m) => {
      m.formatVersion = INDEX_FORMAT_VERSION + 1;
      m.toolVersion = '9.9.9';
    });
    const error = await rejection(() => readIndex(dir));
    expect(error.code).toBe('INDEX_INCOMPATIBLE');
    expect(error.message).toContain(`format version ${INDEX_FORMAT_VERSION + 1}`);
    expect(error.message).toContain('9.9.9');
    expect(error.hint).toContain('Rebuild');
  });

  it('refuses a directory whose manifest is not a rag index', async () => {
    await writeIndex(dir, input());
    await editManifest((m) => {
      delete m.format;
    });
    expect((await rejection(() => readIndex(dir))).code).toBe('INDEX_INCOMPATIBLE');
  });

  it('reports a manifest that is not JSON as INDEX_CORRUPT', async () => {
    await writeIndex(dir, input());
    await writeFile(join(dir, 'manifest.json'), '{"format": "rag-ind');
    expect((await rejection(() => readIndex(dir))).code).toBe('INDEX_CORRUPT');
  });

  it('reports a corrupt chunks.json as INDEX_CORRUPT', async () => {
    await writeIndex(dir, input());
    await writeFile(join(dir, 'chunks.json'), '{"file": [0, 1');
    const error = await rejection(() => readIndex(dir));
    expect(error.code).toBe('INDEX_CORRUPT');
    expect(error.message).toContain('chunks.json is not valid JSON');
  });

  it('reports a missing texts.json as INDEX_CORRUPT', async () => {
    await writeIndex(dir, input());
    await rm(join(dir, 'texts.json'));
    const error = await rejection(() => readIndex(dir));
    expect(error.code).toBe('INDEX_CORRUPT');
    expect(error.message).toContain('texts.json is missing');
  });

  it('reports chunk files that disagree with the manifest as INDEX_CORRUPT', async () => {
    await writeIndex(dir, input());
    await writeFile(join(dir, 'texts.json'), JSON.stringify(['only one']));
    expect((await rejection(() => readIndex(dir))).code).toBe('INDEX_CORRUPT');
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
    expect(await readFile(join(retrieverDir(dir, 'fake'), 'state.txt'), 'utf8')).toBe('second');
  });
});
