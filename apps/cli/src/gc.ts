import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * V8's full garbage collection, for `rag index` to run between its phases (see
 * `BuildIndexOptions.collectGarbage`): `--expose-gc` set at run time puts `gc` in contexts
 * created afterwards, so the command needs no flag on its command line. Undefined where the
 * runtime does not allow it; the index is the same either way, only its peak memory differs.
 */
export function garbageCollector(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}
