/**
 * Keeping an index up to date with its corpus while it is served: the corpus the index
 * records is looked at every so often, and when a file was added, changed (its bytes, not
 * its timestamps) or removed, the index is updated by `buildIndex` in a child process, with
 * the settings the index records. A server or an MCP session then sees an agent's edits
 * without anyone running `rag index`.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { unchangedByRecords, walkCorpus, type WalkedFile } from '@rag/chunking';
import { formatRagError, isRagError, RagError, type FileRecord, type IndexManifest, type IndexStore } from '@rag/core';
import type { BuildIndexReport } from './build-index.js';
import type { IndexJobMessage, IndexJobRequest } from './index-job-protocol.js';
import type { RetrieverRegistryOptions } from './retrievers.js';
import { FolderWatches } from './folder-watches.js';
import { deserializeError } from './search-protocol.js';
import { openStore } from './stores.js';

/** How often a watcher looks at the corpus when not told: a walk that stats every file (~40 ms for vLLM's 1,965 files). */
export const DEFAULT_WATCH_INTERVAL_MS = 2_000;
/**
 * While the file system reports changes in the corpus's folders (see `WatchCorpusOptions.events`),
 * the clock starts a look only this often (or every `intervalMs`, if longer): for a change the
 * reports missed. A walk of a large tree every 2 s would otherwise cost a core's worth of stats.
 */
export const WATCH_SAFETY_LOOK_MS = 60_000;
/**
 * How long after a reported change its look starts: an editor's save, a checkout or a
 * formatter run writes several files in a burst, which one look then takes whole. Reports
 * during the wait do not push the look back, so a file written without pause cannot starve it.
 */
export const WATCH_SETTLE_MS = 200;
/**
 * Reported changes start updates at least this far apart (or `intervalMs`, if shorter): a
 * file the walk indexes that is written without pause (an editor's autosave, a growing
 * `.txt`) then costs what looking by the clock every 2 s did, not an update running all the time.
 */
export const WATCH_UPDATE_GAP_MS = 2_000;
/** Bytes of an update process's stderr kept for the message when it dies without answering. */
const STDERR_TAIL_BYTES = 2_000;

export interface WatchCorpusOptions {
  /** The index to keep up to date: a folder or a `postgresql://` connection string (see `openStore`). */
  indexDir: string;
  /** Version of the tool writing the updates (see `BuildIndexOptions.toolVersion`). */
  toolVersion: string;
  /**
   * Milliseconds between the end of one look and the start of the next, 100 … 3,600,000,
   * when the file system does not report changes (`events` false, or watching failed);
   * after a failed look or update, the wait before trying again (at most
   * {@link WATCH_UPDATE_GAP_MS} while changes are reported). Default {@link DEFAULT_WATCH_INTERVAL_MS}.
   */
  intervalMs?: number;
  /**
   * Look when the file system reports a change in a folder the walk lists (`fs.watch`:
   * inotify on Linux, FSEvents on macOS), {@link WATCH_SETTLE_MS} after it (or later, so that
   * updates keep {@link WATCH_UPDATE_GAP_MS} apart: a file written without pause does not keep
   * an update running), and by the clock only every `max(intervalMs, WATCH_SAFETY_LOOK_MS)`: changes
   * are taken sooner and an idle corpus costs no walks. When the folders cannot be watched (the inotify watch limit), the
   * watcher looks every `intervalMs` instead. Set `false` on a network file system, whose
   * changes made on another machine are not reported. Default `true`.
   */
  events?: boolean;
  /** Settings of the default retriever registry the update builds with (plain data: it crosses into the update process). */
  retrieverSettings?: RetrieverRegistryOptions;
  /** A module whose `createRetrieverRegistry()` replaces the default registry (see `ServiceOptions.retrieverModule`). */
  retrieverModule?: string;
  /** Told of every update and every failed look or update (a failure is retried at the next look). */
  onEvent?: (event: WatchEvent) => void;
}

export type WatchEvent =
  /** The corpus changed and the index was updated (`report.mode` is `incremental` or `full`). */
  | { type: 'updated'; report: BuildIndexReport; warnings: string[] }
  /** A look or an update failed (a busy index, a removed corpus, …); the next look tries again. */
  | { type: 'failed'; error: Error }
  /** The file system cannot report changes in the corpus's folders (`reason`): from now on the watcher looks every `intervalMs`. */
  | { type: 'polling'; reason: string; intervalMs: number };

export interface CorpusWatcher {
  /**
   * Looks at the corpus now (after the look or update in progress, if any) and updates the
   * index when a file was added, changed or removed: the update's report, or undefined when
   * nothing changed. Rejects when the look or the update fails.
   */
  check(): Promise<BuildIndexReport | undefined>;
  /** Whether the file system reports changes in the corpus's folders now (looks start on them); false when looking by the clock only. */
  reportsChanges(): boolean;
  /** Stops looking; an update in progress is stopped too (the index keeps its published generation). */
  close(): Promise<void>;
}

/** The update process's script beside this module (dist/index-job.js, or index-job.js beside a bundle that includes it); undefined when running from sources. */
export function indexJobScript(): URL | undefined {
  const url = new URL('./index-job.js', import.meta.url);
  return url.protocol === 'file:' && existsSync(fileURLToPath(url)) ? url : undefined;
}

/** {@link indexJobScript}, or `INVALID_ARGUMENT` saying how to get it. */
export function requireIndexJobScript(): URL {
  const script = indexJobScript();
  if (script) return script;
  throw new RagError('INVALID_ARGUMENT', 'Watching the corpus needs the built update script (index-job.js beside the running code).', { hint: 'Run the built `rag` command (`pnpm build` first when working on its sources).' });
}

/** What the index records of how its corpus was walked and chunked (absent keys: the defaults). */
type RecordedChunking = Pick<NonNullable<IndexJobRequest['build']>, 'maxChunkSize' | 'maxFileBytes' | 'maxLineLength' | 'ignoredDirs' | 'ignoreFiles'>;

/** The walk and chunking settings `manifest` records, only those it has. */
function recordedChunking(manifest: IndexManifest): RecordedChunking {
  const recorded = manifest.chunking as RecordedChunking;
  const out: RecordedChunking = {};
  if (recorded.maxChunkSize !== undefined) out.maxChunkSize = recorded.maxChunkSize;
  if (recorded.maxFileBytes !== undefined) out.maxFileBytes = recorded.maxFileBytes;
  if (recorded.maxLineLength !== undefined) out.maxLineLength = recorded.maxLineLength;
  if (recorded.ignoredDirs !== undefined) out.ignoredDirs = recorded.ignoredDirs;
  if (recorded.ignoreFiles !== undefined) out.ignoreFiles = recorded.ignoreFiles;
  return out;
}

/** What a file was when last looked at: its record without its text. */
function recordOf(file: WalkedFile | FileRecord): FileRecord {
  const record: FileRecord = { file_path: file.file_path, sha256: file.sha256, bytes: file.bytes, length: file.length, language: file.language };
  if (file.stat !== undefined) record.stat = file.stat;
  return record;
}

/** Whether the walked files differ from `known` by a file added, removed, or read with other bytes. */
function differs(walked: readonly WalkedFile[], known: ReadonlyMap<string, FileRecord>): boolean {
  if (walked.length !== known.size) return true;
  for (const file of walked) {
    const before = known.get(file.file_path);
    if (!before || (file.text !== undefined && file.sha256 !== before.sha256)) return true;
  }
  return false;
}

/** The update `manifest`'s index asks for: its corpus, chunking and retriever, as recorded. */
function updateOf(manifest: IndexManifest, indexDir: string, toolVersion: string): IndexJobRequest['build'] {
  return { corpusDir: manifest.corpusDir, corpusDirAsGiven: manifest.corpusDirAsGiven, indexDir, retriever: manifest.retrievers[0]!.name, toolVersion, ...recordedChunking(manifest) };
}

/**
 * Starts watching the corpus of the index in `options.indexDir`: the first look is one
 * interval from now ({@link WATCH_SETTLE_MS} with `events`, to start watching the folders
 * it lists). Each look walks the corpus the published manifest records (with its
 * walk settings), reading only files whose stat signature differs from the last look's,
 * and compares them with the last look (at first, the manifest's records): a touched file
 * with the same bytes is no change. A change starts one update (`buildIndex`, incremental,
 * in a child process running `index-job.js`); a busy index (`INDEX_BUSY`: someone runs
 * `rag index`) or any other failure is told to `onEvent` and tried again at the next look.
 */
export function watchCorpus(options: WatchCorpusOptions): CorpusWatcher {
  const intervalMs = options.intervalMs ?? DEFAULT_WATCH_INTERVAL_MS;
  if (!Number.isInteger(intervalMs) || intervalMs < 100 || intervalMs > 3_600_000) {
    throw new RagError('INVALID_ARGUMENT', `The watch interval must be a whole number of milliseconds from 100 to 3,600,000, got ${intervalMs}.`, { hint: 'Pass a number of seconds from 1 to 3600 to --watch.' });
  }
  const script = requireIndexJobScript();
  const store: IndexStore = openStore(options.indexDir);
  let known: Map<string, FileRecord> | undefined;
  // Looks run one after another: each waits for the one before it.
  let chain: Promise<unknown> = Promise.resolve();
  let job: ChildProcess | undefined;
  let timer: NodeJS.Timeout | undefined;
  /** When the timer fires (performance.now()), while it is set. */
  let timerAt = Number.POSITIVE_INFINITY;
  let closed = false;
  /** A look runs (started by the clock or by a change report). */
  let looking = false;
  /** A change was reported while a look ran: another look follows it. */
  let changedMeanwhile = false;
  const watches = options.events === false ? undefined : new FolderWatches(changeReported, (reason) => options.onEvent?.({ type: 'polling', reason, intervalMs }));
  /** When the latest update ended (performance.now()). */
  let updatedAt = Number.NEGATIVE_INFINITY;
  /** The wait before a look at a reported change: the settle time, or longer so that updates keep {@link WATCH_UPDATE_GAP_MS} (or `intervalMs`, if shorter) apart. */
  const reportedChangeDelay = (): number => Math.max(WATCH_SETTLE_MS, updatedAt + Math.min(intervalMs, WATCH_UPDATE_GAP_MS) - performance.now());

  async function look(): Promise<BuildIndexReport | undefined> {
    const { manifest } = await store.open();
    const before = (known ??= new Map(manifest.files.map((file) => [file.file_path, recordOf(file)])));
    const { maxChunkSize: _chunkSize, ...walkSettings } = recordedChunking(manifest);
    const listed = new Set<string>();
    const walked = await walkCorpus(manifest.corpusDir, {
      ...walkSettings,
      onFolder: (folder) => listed.add(folder),
      // A file whose signature is the one last seen is taken as it was, unread.
      unchanged: unchangedByRecords(before),
      // Skipped files are the update's to report.
      onWarning: () => undefined,
    });
    // Watched before any update: a file written in a new folder while the update runs is reported.
    watches?.set(listed);
    const now = new Map(walked.map((file) => [file.file_path, recordOf(file)]));
    if (!differs(walked, before)) {
      // Same bytes everywhere; newly settled signatures spare the next look a read.
      known = now;
      return undefined;
    }
    const { report, warnings } = await update({ build: updateOf(manifest, options.indexDir, options.toolVersion), retrieverSettings: options.retrieverSettings ?? {}, ...(options.retrieverModule ? { retrieverModule: options.retrieverModule } : {}) });
    // The walk before the update: a file written during it differs from this and is taken next time.
    known = now;
    options.onEvent?.({ type: 'updated', report, warnings });
    return report;
  }

  function update(request: IndexJobRequest): Promise<{ report: BuildIndexReport; warnings: string[] }> {
    return new Promise((resolve, reject) => {
      const child = fork(fileURLToPath(script), [], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], execArgv: [], serialization: 'advanced' });
      job = child;
      let stderr = '';
      let answered = false;
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (text: string) => {
        stderr = (stderr + text).slice(-STDERR_TAIL_BYTES);
      });
      child.once('message', (message: IndexJobMessage) => {
        answered = true;
        if (message.type === 'done') resolve({ report: message.report, warnings: message.warnings });
        else reject(deserializeError(message.error));
      });
      child.once('error', (error) => {
        if (!answered) reject(new RagError('IO_ERROR', `Could not start the index update process: ${error.message}.`, { cause: error }));
      });
      child.once('exit', (code, signal) => {
        job = undefined;
        if (answered) return;
        const why = signal ? `signal ${signal}` : `code ${code}`;
        reject(new RagError(closed ? 'CANCELLED' : 'IO_ERROR', `The index update process ended (${why}) before it finished${stderr ? `: ${stderr.trim()}` : ''}.`, { hint: 'The index keeps its published generation; the next look tries again.' }));
      });
      child.send(request);
    });
  }

  function check(): Promise<BuildIndexReport | undefined> {
    if (closed) return Promise.reject(new RagError('CANCELLED', 'The corpus watcher is closed.'));
    const next = chain.then(() => (closed ? undefined : look()));
    chain = next.catch(() => undefined);
    return next;
  }

  /** Sets the timer to start a look in `delayMs` (an earlier one already set stays). */
  function lookIn(delayMs: number, replace = false): void {
    if (closed) return;
    const at = performance.now() + delayMs;
    if (timer && !replace && timerAt <= at) return;
    if (timer) clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(() => {
      timer = undefined;
      timerAt = Number.POSITIVE_INFINITY;
      looking = true;
      changedMeanwhile = false;
      check().then(
        (report) => {
          looking = false;
          if (report) updatedAt = performance.now();
          lookIn(changedMeanwhile ? reportedChangeDelay() : watches?.active ? Math.max(intervalMs, WATCH_SAFETY_LOOK_MS) : intervalMs, true);
        },
        (error: unknown) => {
          looking = false;
          if (!closed) options.onEvent?.({ type: 'failed', error: isRagError(error) || error instanceof Error ? error : new Error(String(error)) });
          // Tried again by the clock (a busy index frees itself): while changes are reported, as
          // soon as another update may start, since the change that failed may be reported no more.
          lookIn(watches?.active ? Math.min(intervalMs, WATCH_UPDATE_GAP_MS) : intervalMs, true);
        },
      );
    }, delayMs);
    // A watcher alone does not keep a process alive: its server or session does.
    timer.unref();
  }

  /** A change the file system reported in a watched folder: look soon (after the look in progress, if one runs). */
  function changeReported(): void {
    if (closed) return;
    if (looking) changedMeanwhile = true;
    else lookIn(reportedChangeDelay());
  }

  lookIn(watches ? Math.min(intervalMs, WATCH_SETTLE_MS) : intervalMs);

  return {
    check,
    reportsChanges: () => !closed && watches?.active === true,
    async close() {
      if (closed) return;
      closed = true;
      if (timer) clearTimeout(timer);
      watches?.close();
      job?.kill('SIGTERM');
      await chain;
      await store.close();
    },
  };
}

/** A log line for `event`: what an update did, or why a look or an update failed. */
export function describeWatchEvent(event: WatchEvent): string {
  if (event.type === 'failed') return `the index was not updated: ${isRagError(event.error) ? formatRagError(event.error) : event.error.message}`;
  if (event.type === 'polling') return `the corpus's folders cannot be watched (${event.reason}); looking every ${event.intervalMs / 1000}s instead`;
  const { files, chunks, seconds, mode, reason } = event.report;
  const what = mode === 'full' ? `rebuilt${reason ? ` (${reason})` : ''}` : `${files.added} added, ${files.changed} changed, ${files.removed} removed`;
  return `index updated: ${what}; ${files.total} files, ${chunks} chunks in ${seconds.total}s`;
}
