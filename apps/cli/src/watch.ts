import type { WatchSettings } from '@rag/service';
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

/**
 * The service's watch settings for `--watch`, or undefined without it. Each update is a line
 * on stderr (not with --quiet); a failure is a warning, said again only when it changes.
 */
export async function watchSettingsFrom(flags: ParsedFlags, quiet: boolean): Promise<WatchSettings | undefined> {
  if (flags.watch === undefined) return undefined;
  const { describeWatchEvent } = await import('@rag/service');
  let lastFailure = '';
  return {
    toolVersion: VERSION,
    intervalMs: (flags.watch as number) * 1000,
    onEvent: (event) => {
      const line = describeWatchEvent(event);
      if (event.type === 'updated') {
        lastFailure = '';
        writeErr(`watch: ${line}`, quiet);
      } else if (line !== lastFailure) {
        lastFailure = line;
        writeErr(`warning: watch: ${line}`);
      }
    },
  };
}
