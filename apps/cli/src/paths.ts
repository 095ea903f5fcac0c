import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { RagError } from '@rag/core';
import { isPostgresUrl, redactLocation } from '@rag/service/search';

/** An index location as shown to the user: a connection string's password is masked. */
export const showLocation = redactLocation;

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

/** What `.rag/.gitignore` says: everything in the folder is rag's own, never a source. */
export const RAG_FOLDER_GITIGNORE = '# Written by `rag index`: the index and the answer cache are not sources.\n*\n';

/**
 * When `indexDir` is the default `.rag/index`, gives `.rag` a `.gitignore` that ignores the
 * whole folder (unless it has one): the index of a repository, built inside it, then neither
 * shows in `git status` nor gets indexed as part of the corpus by tools that honour ignore
 * files (rag's own walker among them). An index put elsewhere is the user's to place.
 */
export function ignoreDefaultIndexFolder(indexDir: string): void {
  const defaultDir = resolve(invocationDir(), '.rag', 'index');
  if (indexDir !== defaultDir) return;
  const folder = dirname(defaultDir);
  const gitignore = join(folder, '.gitignore');
  if (existsSync(gitignore)) return;
  mkdirSync(folder, { recursive: true });
  writeFileSync(gitignore, RAG_FOLDER_GITIGNORE);
}

/**
 * Where the index is: `--store` (a PostgreSQL connection string), else `--index_dir`
 * resolved against the invocation directory, else {@link defaultIndexDir}.
 */
export function indexDirFrom(flags: { index_dir?: unknown; store?: unknown }): string {
  if (typeof flags.store === 'string' && flags.store.length > 0) {
    if (!isPostgresUrl(flags.store)) {
      throw new RagError('INVALID_ARGUMENT', `--store must be a PostgreSQL connection string (got ${JSON.stringify(flags.store.replace(/:[^:@/]*@/, ':***@'))}).`, {
        hint: 'Pass postgresql://user:password@host:port/database, or use --index_dir for an index in a folder.',
      });
    }
    if (typeof flags.index_dir === 'string' && flags.index_dir.length > 0) {
      throw new RagError('INVALID_ARGUMENT', '--store and --index_dir name two places for one index.', { hint: 'Pass one of them.' });
    }
    return flags.store;
  }
  return typeof flags.index_dir === 'string' && flags.index_dir.length > 0 ? resolveUserPath(flags.index_dir) : defaultIndexDir();
}

