import { RagError } from '@rag/core';
import type { RetrieverRegistryOptions, WatchEvent, WatchSettings } from '@rag/service';
import type { FlagSpec, ParsedFlags } from './args.js';
import { writeErr } from './command.js';
import { VERSION } from './version.js';

/** `--watch SECONDS` of `rag serve` and `rag mcp`. */
export const WATCH_FLAG = {
  name: 'watch',
  type: 'integer',
  metavar: 'SECONDS',
  min: 1,
  max: 3600,
  description:
    'Keep the index up to date: re-index what is added, changed or removed (in a child process) as soon as the file system reports it; look at the whole corpus every SECONDS when it cannot, else once a minute for what it missed',
} as const satisfies FlagSpec;

/** `--watch_poll`: look by the clock only, for corpora on network file systems. */
export const WATCH_POLL_FLAG = {
  name: 'watch_poll',
  type: 'boolean',
  description: "With --watch: look every SECONDS instead of waiting for the file system's change reports (a network file system does not report changes made on another machine)",
} as const satisfies FlagSpec;

/** Whether `--watch` looks only by the clock; refuses `--watch_poll` without `--watch`. */
export function pollsOnly(flags: ParsedFlags): boolean {
  if (flags.watch_poll === true && flags.watch === undefined) {
    throw new RagError('INVALID_ARGUMENT', '--watch_poll only changes how --watch looks at the corpus.', { hint: 'Add --watch SECONDS, or leave --watch_poll out.' });
  }
  return flags.watch_poll === true;
}

/** Logs each watch event on stderr: an update as a line (not with --quiet), a failure as a warning said again only when it changes. */
async function watchLogger(quiet: boolean): Promise<(event: WatchEvent) => void> {
  const { describeWatchEvent } = await import('@rag/service');
  let lastFailure = '';
  return (event) => {
    const line = describeWatchEvent(event);
    if (event.type === 'updated') {
      lastFailure = '';
      writeErr(`watch: ${line}`, quiet);
    } else if (line !== lastFailure) {
      lastFailure = line;
      writeErr(`warning: watch: ${line}`);
    }
  };
}

/** The service's watch settings for `--watch` (`rag serve`, `rag mcp`), or undefined without it. */
export async function watchSettingsFrom(flags: ParsedFlags, quiet: boolean): Promise<WatchSettings | undefined> {
  const poll = pollsOnly(flags);
  if (flags.watch === undefined) return undefined;
  return { toolVersion: VERSION, intervalMs: (flags.watch as number) * 1000, events: !poll, onEvent: await watchLogger(quiet) };
}

/**
 * `rag index --watch`: keeps the index just built up to date with its corpus until SIGINT or
 * SIGTERM, for a user or an agent who searches with one-shot `rag search` while editing.
 */
export async function watchUntilStopped(indexDir: string, flags: ParsedFlags, retrieverSettings: RetrieverRegistryOptions, quiet: boolean): Promise<void> {
  const { watchCorpus } = await import('@rag/service');
  const poll = pollsOnly(flags);
  const watcher = watchCorpus({ indexDir, toolVersion: VERSION, intervalMs: (flags.watch as number) * 1000, events: !poll, retrieverSettings, onEvent: await watchLogger(quiet) });
  writeErr(poll ? `watching the corpus every ${flags.watch as number}s; Ctrl-C stops.` : 'watching the corpus for changes; Ctrl-C stops.', quiet);
  // The watcher's own timer keeps no process alive: this one does, until a signal.
  const alive = setInterval(() => undefined, 1 << 30);
  await untilStopped();
  clearInterval(alive);
  await watcher.close();
}

/** Resolves once SIGINT or SIGTERM arrives. */
export function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}
