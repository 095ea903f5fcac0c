import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { sha256Hex, StalenessTracker, type FileRecord } from '../src/index.js';

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
