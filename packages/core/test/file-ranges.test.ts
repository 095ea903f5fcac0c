import { crc32 } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createFileStore,
  FILE_PAGE_BYTES,
  INDEX_POINTER_FILE,
  MANIFEST_FILE,
  PAGED_FILE_MIN_BYTES,
  retrieverDir,
  sha256Of,
  verifyIndex,
  writeIndex,
  type Chunk,
  type IndexManifest,
  type WriteIndexInput,
} from '../src/index.js';
import { rejection } from './helpers.js';

let root: string;
let dir: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'rag-core-ranges-'));
  dir = join(root, '.rag');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const chunks: Chunk[] = [{ id: 0, file_path: 'a.py', first_character_index: 0, last_character_index: 5, start_line: 1, end_line: 1, kind: 'module', symbol: '', language: 'python', text: 'x = 1' }];

/** A generation whose retriever saves a large file (page checksums) and a small one (none). */
function input(large: Uint8Array): WriteIndexInput {
  return {
    manifest: { toolVersion: '0.1.0', createdAt: '2026-12-02T00:00:00.000Z', corpusDir: '/abs/corpus', corpusDirAsGiven: 'corpus', chunking: {}, files: [{ file_path: 'a.py', sha256: 'a'.repeat(64), bytes: 5, length: 5, language: 'python' }] },
    chunks,
    retrievers: [
      {
        entry: { name: 'fake', settings: {}, builtAt: '2026-12-02T00:00:01.000Z' },
        save: async (target) => {
          await writeFile(join(target, 'large.bin'), large);
          await writeFile(join(target, 'small.bin'), 'small');
        },
      },
    ],
  };
}

describe('large retriever files in checked pages (a folder index)', () => {
  // Not a whole number of pages, so the last page is short.
  const large = randomBytes(PAGED_FILE_MIN_BYTES + 3 * FILE_PAGE_BYTES + 123);

  it('records a CRC-32 per page for large retriever files only, and serves any ranges of them', async () => {
    const manifest = await writeIndex(dir, input(large));
    const pages = Math.ceil(large.length / FILE_PAGE_BYTES);
    expect(manifest.checksums['retrievers/fake/large.bin']?.pages).toMatchObject({ bytes: FILE_PAGE_BYTES });
    expect(Buffer.from(manifest.checksums['retrievers/fake/large.bin']!.pages!.crc32, 'base64').length).toBe(pages * 4);
    expect(manifest.checksums['retrievers/fake/small.bin']?.pages).toBeUndefined();
    expect(manifest.checksums['chunks.bin']?.pages).toBeUndefined();

    const store = createFileStore(dir, { pagedFromBytes: 0 });
    const index = await store.read();
    const path = join(retrieverDir(index.dir, 'fake'), 'large.bin');
    const ranges = store.fileRanges!(path)!;
    expect(ranges.size).toBe(large.length);
    // Files without page checksums, and every file of a store left at its default, are read whole.
    expect(store.fileRanges!(join(retrieverDir(index.dir, 'fake'), 'small.bin'))).toBeUndefined();
    expect(store.fileRanges!(join(root, 'elsewhere.bin'))).toBeUndefined();
    const plain = createFileStore(dir);
    await plain.read();
    expect(plain.fileRanges!(path)).toBeUndefined();

    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.nat(large.length).chain((offset) => fc.record({ offset: fc.constant(offset), length: fc.nat(Math.min(large.length - offset, 3 * FILE_PAGE_BYTES)) })),
          { minLength: 1, maxLength: 6 },
        ),
        async (wanted) => {
          const parts = await ranges.read(wanted);
          wanted.forEach(({ offset, length }, i) => expect(Buffer.from(parts[i]!).equals(large.subarray(offset, offset + length))).toBe(true));
        },
      ),
      { numRuns: 60 },
    );
    const whole = await ranges.read([{ offset: 0, length: large.length }]);
    expect(Buffer.from(whole[0]!).equals(large)).toBe(true);
    expect((await rejection(() => ranges.read([{ offset: large.length - 1, length: 2 }]))).code).toBe('INVALID_ARGUMENT');
  });

  it('refuses a damaged page as INDEX_CORRUPT naming the file and page, reads the others, and `rag verify` finds it', async () => {
    await writeIndex(dir, input(large));
    const store = createFileStore(dir, { pagedFromBytes: 0 });
    const index = await store.read();
    const path = join(retrieverDir(index.dir, 'fake'), 'large.bin');
    const bytes = await readFile(path);
    bytes[5 * FILE_PAGE_BYTES + 7]! ^= 0x10;
    await writeFile(path, bytes);
    const ranges = store.fileRanges!(path)!;
    const error = await rejection(() => ranges.read([{ offset: 5 * FILE_PAGE_BYTES, length: 16 }]));
    expect([error.code, error.message]).toEqual(['INDEX_CORRUPT', expect.stringMatching(/large\.bin \(page 5\) does not match its checksum/)]);
    expect(Buffer.from((await ranges.read([{ offset: 0, length: 64 }]))[0]!).equals(large.subarray(0, 64))).toBe(true);
    expect((await rejection(() => verifyIndex(dir))).message).toMatch(/large\.bin/);
    // Cut short: refused on the next read, whatever it asks for.
    await truncate(path, large.length - 10);
    expect((await rejection(() => ranges.read([{ offset: 0, length: 1 }]))).message).toMatch(/large\.bin has \d+ bytes where \d+ were written/);
  });

  it('`rag verify` refuses page checksums that disagree with an intact file', async () => {
    await writeIndex(dir, input(large));
    // A manifest (and pointer) consistent with each other whose page checksums are wrong:
    // what a writer with a bug would leave. The file's sha256 still matches.
    const index = await createFileStore(dir).read();
    const manifestPath = join(index.dir, MANIFEST_FILE);
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as IndexManifest;
    const pages = manifest.checksums['retrievers/fake/large.bin']!.pages!;
    const sums = Buffer.from(pages.crc32, 'base64');
    sums[0]! ^= 0xff;
    pages.crc32 = sums.toString('base64');
    const text = JSON.stringify(manifest, null, 1);
    await writeFile(manifestPath, text);
    const pointerPath = join(dir, INDEX_POINTER_FILE);
    const pointer = JSON.parse(await readFile(pointerPath, 'utf8')) as { manifestSha256: string };
    await writeFile(pointerPath, JSON.stringify({ ...pointer, manifestSha256: sha256Of(text), manifestCrc32: crc32(text) }));
    expect((await rejection(() => verifyIndex(dir))).message).toMatch(/large\.bin does not match its page checksums/);
    // And a search reading page 0 in parts refuses it as well.
    const store = createFileStore(dir, { pagedFromBytes: 0 });
    const reopened = await store.read();
    const ranges = store.fileRanges!(join(retrieverDir(reopened.dir, 'fake'), 'large.bin'))!;
    expect((await rejection(() => ranges.read([{ offset: 0, length: 1 }]))).message).toMatch(/page 0/);
  });
});
