import { statSync, type BigIntStats } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256Hex } from './crypto.js';
import type { FileRecord } from './types.js';

export type FileState = 'fresh' | 'changed' | 'missing';

export interface StalenessReport {
  /** True when any indexed file changed or disappeared since indexing. */
  stale: boolean;
  /** Indexed files whose bytes differ from the index (corpus paths, sorted). */
  changed: string[];
  /** Indexed files no longer on disk (corpus paths, sorted). */
  missing: string[];
}

interface Observation {
  checkedAt: number;
  mtimeMs: number;
  size: number;
  state: FileState;
}

/** Files `report` checks between two yields to the event loop. */
const REPORT_BATCH = 256;

/**
 * A file's identity and version as the file system reports it: inode, size, modification
 * and change times (ns). The indexer records it (`FileRecord.stat`) only for a file that had
 * settled before it was read, so an equal signature later means the bytes are the ones indexed.
 */
export function statSignature(stats: BigIntStats): string {
  return `${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
}

export { sha256Hex };

/**
 * Tells whether indexed files still hold what was indexed. The manifest's sha256 is the
 * truth; a file is re-hashed only when its size or mtime moved, and its stat is trusted
 * for `intervalMs`, so asking on every search costs a map lookup.
 */
export class StalenessTracker {
  readonly #root: string;
  readonly #records: ReadonlyMap<string, FileRecord>;
  readonly #intervalMs: number;
  readonly #seen = new Map<string, Observation>();
  readonly #pending = new Map<string, Promise<FileState>>();

  constructor(corpusDir: string, files: readonly FileRecord[], intervalMs: number) {
    this.#root = corpusDir;
    this.#records = new Map(files.map((f) => [f.file_path, f]));
    this.#intervalMs = intervalMs;
  }

  /**
   * State of the indexed file `fileInCorpus`; `fresh` for a file the index does not know.
   * Synchronous unless the file's bytes must be read and hashed (first seen, or its size
   * or mtime moved): a stat of a file the kernel has cached costs a few microseconds, far
   * less than a round trip through the thread pool, which a busy server would pay for most
   * hits of most searches.
   */
  state(fileInCorpus: string): Promise<FileState> | FileState {
    const seen = this.#seen.get(fileInCorpus);
    if (seen && performance.now() - seen.checkedAt < this.#intervalMs) return seen.state;
    const pending = this.#pending.get(fileInCorpus);
    if (pending) return pending;
    const observed = this.#observe(fileInCorpus, seen);
    if (typeof observed === 'string') return observed;
    const settled = observed.finally(() => this.#pending.delete(fileInCorpus));
    this.#pending.set(fileInCorpus, settled);
    return settled;
  }

  /** Records what a reader found when it read the file's bytes itself (saves a second read). */
  noteContent(fileInCorpus: string, bytes: Uint8Array, mtimeMs: number): FileState {
    const record = this.#records.get(fileInCorpus);
    const state: FileState = !record || (record.bytes === bytes.length && record.sha256 === sha256Hex(bytes)) ? 'fresh' : 'changed';
    this.#seen.set(fileInCorpus, { checkedAt: performance.now(), mtimeMs, size: bytes.length, state });
    return state;
  }

  /** Checks every indexed file. */
  async report(): Promise<StalenessReport> {
    const paths = [...this.#records.keys()];
    const states: (Promise<FileState> | FileState)[] = [];
    for (let i = 0; i < paths.length; i++) {
      // Each `state` may stat synchronously: a server yields between batches so that a check
      // of a large corpus never holds its searches up for long.
      if (i > 0 && i % REPORT_BATCH === 0) await new Promise((resume) => setImmediate(resume));
      states.push(this.state(paths[i]!));
    }
    const settled = await Promise.all(states);
    const changed: string[] = [];
    const missing: string[] = [];
    settled.forEach((state, i) => {
      if (state === 'changed') changed.push(paths[i]!);
      else if (state === 'missing') missing.push(paths[i]!);
    });
    return { stale: changed.length + missing.length > 0, changed: changed.sort(), missing: missing.sort() };
  }

  #observe(fileInCorpus: string, previous: Observation | undefined): Promise<FileState> | FileState {
    const record = this.#records.get(fileInCorpus);
    if (!record) return 'fresh';
    const path = join(this.#root, fileInCorpus);
    let info: BigIntStats | undefined;
    try {
      info = statSync(path, { bigint: true, throwIfNoEntry: false });
    } catch {
      info = undefined;
    }
    const checkedAt = performance.now();
    const mtimeMs = Number(info?.mtimeMs ?? 0n);
    const size = Number(info?.size ?? 0n);
    const note = (state: FileState): FileState => {
      this.#seen.set(fileInCorpus, { checkedAt, mtimeMs, size, state });
      return state;
    };
    if (!info?.isFile()) return note('missing');
    if (previous && previous.state !== 'missing' && previous.mtimeMs === mtimeMs && previous.size === size) return note(previous.state);
    if (size !== record.bytes) return note('changed');
    // The signature the indexer recorded for a settled file: unchanged, so are the bytes
    // (what a re-index trusts too), and a one-shot search need not read and hash its hits' files.
    if (record.stat !== undefined && statSignature(info) === record.stat) return note('fresh');
    return readFile(path).then(
      (bytes) => note(sha256Hex(bytes) === record.sha256 ? 'fresh' : 'changed'),
      () => note('missing'),
    );
  }
}
