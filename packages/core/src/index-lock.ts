import { readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { RagError } from './errors.js';

/** The lock file a writer holds inside the index directory while it writes. */
export const INDEX_LOCK_FILE = '.lock';

interface LockOwner {
  pid: number;
  host: string;
  startedAt: string;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readOwner(path: string): Promise<LockOwner | undefined> {
  try {
    const owner = JSON.parse(await readFile(path, 'utf8')) as Partial<LockOwner>;
    return typeof owner.pid === 'number' && typeof owner.host === 'string' ? (owner as LockOwner) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the writer lock of `indexDir` (a file created exclusively, holding the owner's PID,
 * host and start time). A live owner makes it `INDEX_BUSY`; the lock of a dead process on
 * this host, or an unreadable one, is taken over. Returns the release function.
 */
export async function acquireIndexLock(indexDir: string): Promise<() => Promise<void>> {
  const path = join(indexDir, INDEX_LOCK_FILE);
  const me: LockOwner = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await writeFile(path, JSON.stringify(me), { flag: 'wx' });
      return () => rm(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new RagError('IO_ERROR', `Cannot create the lock file ${path}: ${(error as Error).message}`, {
          hint: 'Check that the index directory is writable.',
          cause: error,
        });
      }
    }
    const owner = await readOwner(path);
    if (owner && (owner.host !== me.host || isAlive(owner.pid))) {
      throw new RagError('INDEX_BUSY', `Another \`rag index\` (pid ${owner.pid} on ${owner.host}, started ${owner.startedAt}) is writing the index in ${indexDir}.`, {
        hint: `Wait for it to finish; if that process is gone (on another machine), delete ${path}.`,
      });
    }
    // The owner died without releasing it: take it over.
    await rm(path, { force: true });
  }
  throw new RagError('INDEX_BUSY', `Could not take the lock of the index in ${indexDir}: other writers keep taking it.`, { hint: 'Run one `rag index` at a time.' });
}
