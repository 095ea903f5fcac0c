import { showText } from './command.js';

/** The stderr warning for stale cited files, or undefined when there are none. */
export function describeStale(stale: readonly string[]): string | undefined {
  if (stale.length === 0) return undefined;
  const list = stale.slice(0, 3).map((path) => showText(path)).join(', ') + (stale.length > 3 ? ` and ${stale.length - 3} more` : '');
  return `warning: ${stale.length} cited file${stale.length === 1 ? '' : 's'} changed since indexing (${list}); offsets may be off. Re-run \`rag index\` to refresh.`;
}
