import { isAbsolute, resolve } from 'node:path';

/**
 * The directory the user started the command from. `pnpm rag …` runs the script from the
 * workspace root but records the user's directory in INIT_CWD; relative paths in flags and
 * in outputs are relative to that directory, so `pnpm rag` and `node dist/cli.js` agree.
 */
export function invocationDir(): string {
  const initCwd = process.env.INIT_CWD;
  if (initCwd && process.env.npm_lifecycle_event === 'rag' && isAbsolute(initCwd)) return initCwd;
  return process.cwd();
}

/** A path from a flag, resolved against the invocation directory. */
export function resolveUserPath(path: string): string {
  return resolve(invocationDir(), path);
}

/** Default index location: `$RAG_INDEX_DIR`, else `.rag/index` under the invocation directory. */
export function defaultIndexDir(): string {
  const fromEnv = process.env.RAG_INDEX_DIR;
  return fromEnv ? resolveUserPath(fromEnv) : resolve(invocationDir(), '.rag', 'index');
}

/** `--index_dir` resolved against the invocation directory, else {@link defaultIndexDir}. */
export function indexDirFrom(flags: { index_dir?: unknown }): string {
  return typeof flags.index_dir === 'string' && flags.index_dir.length > 0 ? resolveUserPath(flags.index_dir) : defaultIndexDir();
}
