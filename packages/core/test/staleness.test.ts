import { statSync } from 'node:fs';
import { mkdtemp, rm, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { sha256Hex, StalenessTracker, statSignature, type FileRecord } from '../src/index.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'rag-core-stale-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function record(file_path: string, content: string): FileRecord {
  const bytes = Buffer.from(content);
  return { file_path, sha256: sha256Hex(bytes), bytes: bytes.length, length: content.length, language: 'python' };
}

it('tells fresh, changed (even at the same size) and missing files apart', async () => {
  await writeFile(join(root, 'a.py'), 'x = 1\n');
  await writeFile(join(root, 'b.py'), 'y = 2\n');
  await writeFile(join(root, 'c.py'), 'z = 3\n');
  const files = [record('a.py', 'x = 1\n'), record('b.py', 'y = 2\n'), record('c.py', 'z = 3\n')];
  await writeFile(join(root, 'b.py'), 'y = 9\n'); // same size, other bytes: only the hash tells
  await unlink(join(root, 'c.py'));
  const tracker = new StalenessTracker(root, files, Number.POSITIVE_INFINITY);
  expect(await tracker.state('a.py')).toBe('fresh');
  expect(await tracker.state('b.py')).toBe('changed');
  expect(await tracker.state('c.py')).toBe('missing');
  expect(await tracker.state('not-indexed.py')).toBe('fresh');
  expect(await tracker.report()).toEqual({ stale: true, changed: ['b.py'], missing: ['c.py'] });
});

it('answers from a stat alone while size and mtime hold, and reads the bytes again when they move', async () => {
  const path = join(root, 'a.py');
  await writeFile(path, 'x = 1\n');
  const tracker = new StalenessTracker(root, [record('a.py', 'x = 1\n')], 0);
  const first = tracker.state('a.py');
  // First sight: the bytes are read and hashed, so the answer comes later; a second caller meanwhile shares that read.
  expect(first).toBeInstanceOf(Promise);
  expect(tracker.state('a.py')).toBe(first);
  expect(await first).toBe('fresh');
  // Size and mtime unchanged: known at once, no read (interval 0 checks on every call).
  expect(tracker.state('a.py')).toBe('fresh');
  await writeFile(path, 'x = 10\n');
  expect(tracker.state('a.py')).toBe('changed'); // another size: no read needed either
  await writeFile(path, 'x = 2\n');
  await utimes(path, new Date(), new Date(Date.now() + 5_000)); // same size as indexed, new mtime: hashed again
  const again = tracker.state('a.py');
  expect(again).toBeInstanceOf(Promise);
  expect(await again).toBe('changed');
  await unlink(path);
  expect(tracker.state('a.py')).toBe('missing');
});

it('takes a file whose stat signature is the one recorded at indexing as fresh without reading it, and hashes any other', async () => {
  const path = join(root, 'a.py');
  await writeFile(path, 'x = 1\n');
  const signed = { ...record('a.py', 'x = 1\n'), stat: statSignature(statSync(path, { bigint: true })) };
  // Known at once: no read, no promise.
  expect(new StalenessTracker(root, [signed], 0).state('a.py')).toBe('fresh');
  // The signature vouches for the bytes the index recorded: a record whose hash differs is
  // still fresh by it (what a re-index trusts too), so the check does not read the file.
  expect(new StalenessTracker(root, [{ ...signed, sha256: sha256Hex(Buffer.from('x = 2\n')) }], 0).state('a.py')).toBe('fresh');
  // Rewritten with the same size and bytes: the change time moved, so the signature no longer
  // matches and the bytes are hashed (and found unchanged).
  await writeFile(path, 'x = 1\n');
  await utimes(path, new Date(), new Date(Date.now() + 5_000));
  const hashed = new StalenessTracker(root, [signed], 0).state('a.py');
  expect(hashed).toBeInstanceOf(Promise);
  expect(await hashed).toBe('fresh');
  await writeFile(path, 'x = 3\n');
  await utimes(path, new Date(), new Date(Date.now() + 10_000));
  expect(await new StalenessTracker(root, [signed], 0).state('a.py')).toBe('changed');
});

it('reports over many files in batches, with every changed and missing file', async () => {
  const files: FileRecord[] = [];
  for (let i = 0; i < 600; i++) {
    const name = `m${String(i).padStart(3, '0')}.py`;
    await writeFile(join(root, name), `x = ${i}\n`);
    files.push(record(name, `x = ${i}\n`));
  }
  await writeFile(join(root, 'm300.py'), 'x = 300000\n');
  await unlink(join(root, 'm599.py'));
  const tracker = new StalenessTracker(root, files, Number.POSITIVE_INFINITY);
  expect(await tracker.report()).toEqual({ stale: true, changed: ['m300.py'], missing: ['m599.py'] });
  // Trusted forever (the CLI's setting): a second report answers from what the first one saw.
  await writeFile(join(root, 'm001.py'), 'x = 100000\n');
  expect(await tracker.report()).toEqual({ stale: true, changed: ['m300.py'], missing: ['m599.py'] });
});
