import { watch } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FolderWatches, mattersToIndex } from '../src/folder-watches.js';

let work: string;

beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'rag-folder-watches-'));
});

afterEach(() => rm(work, { recursive: true, force: true }));

/** Waits for `condition`, bounded by the test's timeout. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 20));
}

describe('mattersToIndex', () => {
  it('counts indexed files, ignore files and names that may be folders, not logs or editor leftovers', () => {
    for (const name of ['app.py', 'stubs.pyi', 'README.md', 'guide.RST', 'notes.txt', '.gitignore', '.ignore', 'docs', 'Makefile', null]) expect(mattersToIndex(name), String(name)).toBe(true);
    for (const name of ['server.log', '.app.py.swp', 'app.py~', 'cache.sqlite', 'image.png', 'app.cpython-311.pyc']) expect(mattersToIndex(name), name).toBe(false);
  });
});

describe('FolderWatches', () => {
  it('reports changes that matter in the folders it watches, lets go of those no longer listed, and skips folders already gone', async () => {
    const a = join(work, 'a');
    const b = join(work, 'b');
    await mkdir(a);
    await mkdir(b);
    let changes = 0;
    const watches = new FolderWatches(() => changes++);
    // A report that should not come would come within milliseconds; waiting this long for
    // none can only pass wrongly on a very slow machine, never fail wrongly.
    const quietWhile = async (write: () => Promise<void>): Promise<void> => {
      const before = changes;
      await write();
      await new Promise((r) => setTimeout(r, 300));
      expect(changes).toBe(before);
    };
    try {
      watches.set(new Set([a, b, join(work, 'gone')]));
      expect(watches.active).toBe(true);
      await quietWhile(() => writeFile(join(a, 'server.log'), 'written all the time\n'));
      await writeFile(join(a, 'module.py'), 'x = 1\n');
      await until(() => changes > 0);
      // Only b from now on.
      watches.set(new Set([b]));
      await quietWhile(() => writeFile(join(a, 'other.py'), 'y = 2\n'));
      const before = changes;
      await writeFile(join(b, 'third.py'), 'z = 3\n');
      await until(() => changes > before);
      watches.set(new Set());
      expect(watches.active).toBe(false);
    } finally {
      watches.close();
    }
  }, 30_000);

  it('lets go of every folder and says why once the file system refuses to watch one more (the inotify limit)', async () => {
    const folders = ['a', 'b', 'c'].map((name) => join(work, name));
    for (const folder of folders) await mkdir(folder);
    const reasons: string[] = [];
    const opened: ReturnType<typeof watch>[] = [];
    const refuseThird = ((folder: string, options: object, listener: () => void) => {
      if (opened.length === 2) throw Object.assign(new Error(`ENOSPC: System limit for number of file watchers reached, watch '${folder}'`), { code: 'ENOSPC' });
      const watcher = watch(folder, options, listener);
      opened.push(watcher);
      return watcher;
    }) as unknown as typeof watch;
    let changes = 0;
    const watches = new FolderWatches(() => changes++, (reason) => reasons.push(reason), refuseThird);
    watches.set(new Set(folders));
    expect(watches.active).toBe(false);
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(/ENOSPC.*max_user_watches/);
    // The two it had opened are closed: a change there is no longer reported, and nothing is watched again.
    await writeFile(join(folders[0]!, 'module.py'), 'x = 1\n');
    await new Promise((r) => setTimeout(r, 300));
    expect(changes).toBe(0);
    watches.set(new Set(folders));
    expect(opened).toHaveLength(2);
    expect(reasons).toHaveLength(1);
  });

  it('watches a folder removed and made again under the same path anew (its old watch saw the old folder)', async () => {
    const folder = join(work, 'regenerated');
    await mkdir(folder);
    let changes = 0;
    const watches = new FolderWatches(() => changes++);
    try {
      watches.set(new Set([folder]));
      await rm(folder, { recursive: true });
      await mkdir(folder);
      // The walk after the report lists the same path: set() sees another folder there.
      await until(() => changes > 0);
      watches.set(new Set([folder]));
      const before = changes;
      await writeFile(join(folder, 'generated.py'), 'x = 1\n');
      await until(() => changes > before);
    } finally {
      watches.close();
    }
  }, 30_000);
});
