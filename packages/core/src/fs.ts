import { closeSync, constants, openSync, writeSync } from 'node:fs';
import { access, copyFile, link, mkdir, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { randomHex } from './crypto.js';
import { RagError } from './errors.js';

function temporarySibling(path: string): string {
  return join(dirname(path), `.${basename(path)}.tmp-${process.pid}-${randomHex(4)}`);
}

/** Pseudo file systems where creating folders makes no sense (and recursive mkdir can loop forever). */
const VIRTUAL_ROOTS = ['/proc', '/sys', '/dev'];

/**
 * Creates folder `dir` (and its parents) or says clearly why it cannot: a file in the way,
 * a parent that is not writable, a virtual file system. Errors are `INVALID_ARGUMENT` (the
 * path given is wrong) or `IO_ERROR`, always with a hint.
 */
export async function ensureDirectory(dir: string): Promise<void> {
  const absolute = resolve(dir);
  const virtual = VIRTUAL_ROOTS.find((root) => absolute === root || absolute.startsWith(`${root}/`));
  if (virtual) {
    throw new RagError('INVALID_ARGUMENT', `Cannot create ${absolute}: ${virtual} is a virtual file system.`, {
      hint: 'Choose a folder on a real disk, such as ./out or /tmp/out.',
    });
  }
  // The nearest part of the path that exists decides what can be done.
  let existing = absolute;
  for (;;) {
    const info = await stat(existing).catch(() => undefined);
    if (info) {
      if (!info.isDirectory()) {
        throw new RagError('INVALID_ARGUMENT', `Cannot create ${absolute}: ${existing} is a file, not a folder.`, { hint: 'Choose a folder path that does not run through a file.' });
      }
      break;
    }
    const parent = dirname(existing);
    if (parent === existing) break;
    existing = parent;
  }
  if (existing === absolute) return;
  try {
    await access(existing, constants.W_OK);
    await mkdir(absolute, { recursive: true });
  } catch (error) {
    throw new RagError('IO_ERROR', `Cannot create ${absolute}: ${(error as Error).message}`, {
      hint: `Check that ${existing} is writable, or choose another folder.`,
      cause: error,
    });
  }
}

/**
 * Writes `parts` one after another into a new file at `path`: a large file is never
 * assembled in memory. Synchronously: an index is written while nothing else can proceed,
 * and each asynchronous write would be a thread-pool round trip.
 */
async function writeParts(path: string, parts: readonly Uint8Array[]): Promise<void> {
  const fd = openSync(path, 'w');
  try {
    for (const part of parts) {
      for (let at = 0; at < part.byteLength; ) at += writeSync(fd, part, at, part.byteLength - at);
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes a file so that readers see either the old or the new content, never a partial
 * one: write to a temporary sibling, then rename over the target. `data` given as parts is
 * written part by part (a large index file is never one buffer).
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array | readonly Uint8Array[]): Promise<void> {
  await ensureDirectory(dirname(path));
  const temporary = temporarySibling(path);
  try {
    if (typeof data === 'string' || data instanceof Uint8Array) await writeFile(temporary, data);
    else await writeParts(temporary, data);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new RagError('IO_ERROR', `Could not write ${path}: ${(error as Error).message}`, {
      hint: 'Check that the directory is writable and the disk is not full.',
      cause: error,
    });
  }
}

/**
 * Replaces directory `target` with one filled by `fill`: `fill` writes into a fresh
 * temporary sibling, which is renamed into place only when it succeeds. On failure the
 * previous directory is untouched.
 */
export async function replaceDirectoryAtomic(target: string, fill: (dir: string) => Promise<void>): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  const staging = temporarySibling(target);
  const retired = temporarySibling(target);
  await mkdir(staging, { recursive: true });
  try {
    await fill(staging);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  let hadPrevious = true;
  try {
    await rename(target, retired);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      await rm(staging, { recursive: true, force: true });
      throw new RagError('IO_ERROR', `Could not replace ${target}: ${(error as Error).message}`, { cause: error });
    }
    hadPrevious = false;
  }
  try {
    await rename(staging, target);
  } catch (error) {
    if (hadPrevious) await rename(retired, target).catch(() => undefined);
    await rm(staging, { recursive: true, force: true });
    throw new RagError('IO_ERROR', `Could not move the new index into ${target}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (hadPrevious) await rm(retired, { recursive: true, force: true });
}

/** Flushes a file or directory to disk, so a rename that publishes it cannot outlive its contents after a crash. */
export async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * {@link fsyncPath} on every file and directory below `dir`, and `dir` itself last. The
 * entries of a folder are synced at once: the file system can commit them together instead
 * of one journal commit after another.
 */
export async function fsyncTree(dir: string): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  await Promise.all(entries.map((entry) => (entry.isDirectory() ? fsyncTree(join(dir, entry.name)) : fsyncPath(join(dir, entry.name)))));
  await fsyncPath(dir);
}

/** Writes `path` durably and atomically: a synced temporary sibling renamed over it, then the directory synced. */
export async function writeFileDurable(path: string, data: string | Uint8Array): Promise<void> {
  const temporary = temporarySibling(path);
  try {
    await writeFile(temporary, data);
    await fsyncPath(temporary);
    await rename(temporary, path);
    await fsyncPath(dirname(path));
  } catch (error) {
    await rm(temporary, { force: true });
    throw new RagError('IO_ERROR', `Could not write ${path}: ${(error as Error).message}`, {
      hint: 'Check that the directory is writable and the disk is not full.',
      cause: error,
    });
  }
}

/**
 * Every file below `from` at the same place below `to` (made if missing): hard links, which
 * cost no copy and are safe for files never written again (an index generation's), or copies
 * where the file system refuses a link (another device, no link support).
 */
export async function linkOrCopyTree(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) await linkOrCopyTree(source, target);
    else await link(source, target).catch(() => copyFile(source, target));
  }
}
