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
  description: 'Keep the index up to date: look at its corpus every SECONDS and re-index what was added, changed or removed (in a child process)',
} as const satisfies FlagSpec;

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
  if (flags.watch === undefined) return undefined;
  return { toolVersion: VERSION, intervalMs: (flags.watch as number) * 1000, onEvent: await watchLogger(quiet) };
}

/**
 * `rag index --watch`: keeps the index just built up to date with its corpus until SIGINT or
 * SIGTERM, for a user or an agent who searches with one-shot `rag search` while editing.
 */
export async function watchUntilStopped(indexDir: string, flags: ParsedFlags, retrieverSettings: RetrieverRegistryOptions, quiet: boolean): Promise<void> {
  const { watchCorpus } = await import('@rag/service');
  const watcher = watchCorpus({ indexDir, toolVersion: VERSION, intervalMs: (flags.watch as number) * 1000, retrieverSettings, onEvent: await watchLogger(quiet) });
  writeErr(`watching the corpus every ${flags.watch as number}s; Ctrl-C stops.`, quiet);
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
