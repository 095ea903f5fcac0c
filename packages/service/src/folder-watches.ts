import { statSync, watch, type FSWatcher } from 'node:fs';
import { extname } from 'node:path';
import { DEFAULT_EXTENSIONS } from '@rag/chunking';

/** Names of the files whose rules change what a walk indexes (see `WalkOptions.ignoreFiles`). */
const IGNORE_FILE_NAMES: ReadonlySet<string> = new Set(['.gitignore', '.ignore']);
const INDEXED_EXTENSIONS: ReadonlySet<string> = new Set(Object.keys(DEFAULT_EXTENSIONS).map((extension) => extension.toLowerCase()));

/**
 * Whether a change the file system reports for `name` (in a watched folder) can change what
 * the index holds: a file it indexes, an ignore file, or a name without an extension (a
 * folder, which may hold such files). A log or an editor's swap file written every moment
 * would otherwise start a look every moment. An unknown name (`null`) counts.
 */
export function mattersToIndex(name: string | null): boolean {
  if (name === null) return true;
  const base = name.slice(name.lastIndexOf('/') + 1);
  if (IGNORE_FILE_NAMES.has(base)) return true;
  const extension = extname(base).toLowerCase();
  return extension === '' || INDEXED_EXTENSIONS.has(extension);
}

/** Errors of `fs.watch` that mean the file system cannot watch (more) folders: a limit, or no support. */
const CANNOT_WATCH = new Set(['ENOSPC', 'EMFILE', 'ENFILE', 'ENOSYS', 'ENOTSUP', 'EPERM', 'EACCES']);

/**
 * Watches a set of folders, each on its own (not recursively: only the folders a walk lists,
 * never the ones it skips, such as `.git` or `node_modules`), and calls `onChange` when the
 * file system reports a change in one of them that {@link mattersToIndex}. When the file
 * system cannot watch them all (the inotify watch limit, an unsupported file system), every
 * watch is closed and {@link active} turns false: the caller then looks by the clock.
 */
export class FolderWatches {
  readonly #onChange: () => void;
  readonly #onFailure: (reason: string) => void;
  /** Each watched folder's watch and the folder it watches (`identityOf`: a folder removed and made again is another). */
  readonly #watchers = new Map<string, { watcher: FSWatcher; identity: string }>();
  readonly #watchFolder: typeof watch;
  #failed = false;

  /**
   * `onFailure` hears, once, why the folders cannot be watched (then none are);
   * `watchFolder` is `fs.watch` but where a test makes the file system refuse.
   */
  constructor(onChange: () => void, onFailure: (reason: string) => void = () => undefined, watchFolder: typeof watch = watch) {
    this.#onChange = onChange;
    this.#onFailure = onFailure;
    this.#watchFolder = watchFolder;
  }

  /** Whether changes in the folders are being reported (false after a failure, or with none watched). */
  get active(): boolean {
    return !this.#failed && this.#watchers.size > 0;
  }

  /**
   * Watches exactly `folders` (absolute paths) from now on: new ones are watched, ones no
   * longer listed are let go, and one removed and made again since it was watched (a watch
   * follows the folder it was opened on, which is gone) is watched anew. A folder gone before
   * it could be watched is left out (its parent's watch reports it). Does nothing once
   * watching has failed.
   */
  set(folders: ReadonlySet<string>): void {
    if (this.#failed) return;
    for (const [folder, { watcher, identity }] of this.#watchers) {
      if (!folders.has(folder) || identityOf(folder) !== identity) {
        watcher.close();
        this.#watchers.delete(folder);
      }
    }
    for (const folder of folders) {
      if (this.#watchers.has(folder)) continue;
      const identity = identityOf(folder);
      if (identity === undefined) continue;
      let watcher: FSWatcher;
      try {
        // Not persistent: the watches keep no process alive; the server or session does.
        watcher = this.#watchFolder(folder, { persistent: false }, (_event, name) => {
          if (mattersToIndex(name === null ? null : String(name))) this.#onChange();
        });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? '';
        if (CANNOT_WATCH.has(code)) {
          this.#fail(code === 'ENOSPC' ? `${code}: the system's limit of watched folders is reached (fs.inotify.max_user_watches on Linux)` : `${code}: ${(error as Error).message}`);
          return;
        }
        continue;
      }
      // A watched folder removed or renamed: its parent's watch tells of it; the next set() lets it go.
      watcher.on('error', () => {
        watcher.close();
        if (this.#watchers.get(folder)?.watcher === watcher) this.#watchers.delete(folder);
        this.#onChange();
      });
      this.#watchers.set(folder, { watcher, identity });
    }
  }

  /** Stops every watch. */
  close(): void {
    for (const { watcher } of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
  }

  #fail(reason: string): void {
    this.#failed = true;
    this.close();
    this.#onFailure(reason);
  }
}

/**
 * Which folder is at `folder` now: its inode and birth time (a file system reuses a freed
 * inode number at once, so a folder removed and made again often has the old one), or
 * undefined when none is there.
 */
function identityOf(folder: string): string | undefined {
  try {
    const stats = statSync(folder, { bigint: true, throwIfNoEntry: false });
    return stats === undefined ? undefined : `${stats.ino}:${stats.birthtimeNs}`;
  } catch {
    return undefined;
  }
}
