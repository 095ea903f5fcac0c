import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { linkOrCopyTree, replaceDirectoryAtomic, writeFileAtomic } from '../src/index.js';
import { rejection } from './helpers.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'rag-core-fs-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('creates missing parent directories and writes the content', async () => {
    const path = join(root, 'a', 'b', 'file.json');
    await writeFileAtomic(path, '{"x":1}');
    expect(await readFile(path, 'utf8')).toBe('{"x":1}');
  });

  it('replaces an existing file and leaves no temporary file behind', async () => {
    const path = join(root, 'file.bin');
    await writeFileAtomic(path, 'old');
    await writeFileAtomic(path, new Uint8Array([1, 2, 3]));
    expect([...(await readFile(path))]).toEqual([1, 2, 3]);
    expect(await readdir(root)).toEqual(['file.bin']);
  });

  it('writes parts one after another, empty parts included', async () => {
    const path = join(root, 'parts.bin');
    await writeFileAtomic(path, [new Uint8Array([1, 2]), new Uint8Array(0), new Uint8Array([3]), new Uint8Array(new ArrayBuffer(8), 4, 2)]);
    expect([...(await readFile(path))]).toEqual([1, 2, 3, 0, 0]);
    expect(await readdir(root)).toEqual(['parts.bin']);
  });

  it('reports a failed rename as IO_ERROR and cleans up', async () => {
    // Renaming a file over a non-empty directory fails.
    const path = join(root, 'occupied');
    await mkdir(join(path, 'inside'), { recursive: true });
    const error = await rejection(() => writeFileAtomic(path, 'data'));
    expect(error.code).toBe('IO_ERROR');
    expect(error.message).toContain(path);
    expect(await readdir(root)).toEqual(['occupied']);
  });
});

describe('replaceDirectoryAtomic', () => {
  const target = () => join(root, 'index');

  it('creates the directory when there was none', async () => {
    await replaceDirectoryAtomic(target(), (dir) => writeFile(join(dir, 'a.txt'), 'A'));
    expect(await readFile(join(target(), 'a.txt'), 'utf8')).toBe('A');
    expect(await readdir(root)).toEqual(['index']);
  });

  it('replaces the previous directory as a whole', async () => {
    await replaceDirectoryAtomic(target(), (dir) => writeFile(join(dir, 'old.txt'), 'old'));
    await replaceDirectoryAtomic(target(), (dir) => writeFile(join(dir, 'new.txt'), 'new'));
    expect(await readdir(target())).toEqual(['new.txt']);
    expect(await readdir(root)).toEqual(['index']);
  });

  it('leaves the previous directory intact when fill fails, and no temporary directories', async () => {
    await replaceDirectoryAtomic(target(), (dir) => writeFile(join(dir, 'old.txt'), 'old'));
    const failure = new Error('disk on fire');
    await expect(
      replaceDirectoryAtomic(target(), async (dir) => {
        await writeFile(join(dir, 'half.txt'), 'half');
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await readdir(target())).toEqual(['old.txt']);
    expect(await readFile(join(target(), 'old.txt'), 'utf8')).toBe('old');
    expect(await readdir(root)).toEqual(['index']);
  });
});

describe('ensureDirectory says why a folder cannot be made', () => {
  it('refuses a path through a file, a virtual file system, and an unwritable parent, with hints', async () => {
    const { ensureDirectory } = await import('../src/index.js');
    const base = await mkdtemp(join(tmpdir(), 'rag-ensure-'));
    try {
      await writeFile(join(base, 'file'), 'x');
      await expect(ensureDirectory(join(base, 'file'))).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('is a file, not a folder'), hint: expect.any(String) });
      await expect(ensureDirectory(join(base, 'file', 'sub'))).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      await expect(ensureDirectory('/proc/rag-test/out')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('/proc is a virtual file system') });
      await ensureDirectory(join(base, 'a', 'b', 'c'));
      expect((await stat(join(base, 'a', 'b', 'c'))).isDirectory()).toBe(true);
      await ensureDirectory(join(base, 'a')); // already there
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});

describe('linkOrCopyTree', () => {
  it('puts every file of a tree at the same place in another, as hard links, folders included', async () => {
    const from = join(root, 'from');
    await mkdir(join(from, 'nested', 'deeper'), { recursive: true });
    await writeFile(join(from, 'top.bin'), 'top');
    await writeFile(join(from, 'nested', 'deeper', 'leaf.txt'), 'leaf 🌿');
    const to = join(root, 'to');
    await linkOrCopyTree(from, to);
    expect(await readFile(join(to, 'top.bin'), 'utf8')).toBe('top');
    expect(await readFile(join(to, 'nested', 'deeper', 'leaf.txt'), 'utf8')).toBe('leaf 🌿');
    // The same file, not a copy: one inode, two names.
    expect((await stat(join(to, 'top.bin'))).ino).toBe((await stat(join(from, 'top.bin'))).ino);
    expect((await stat(join(from, 'top.bin'))).nlink).toBe(2);
  });
});
