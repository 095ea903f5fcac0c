import { isAbsolute, join, relative, resolve, sep } from 'node:path';

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

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/**
 * The `file_path` written in outputs: the corpus file's location relative to the
 * invocation directory, with `/` separators. With `--corpus_dir data/raw` run from
 * `../shared` this gives `data/raw/vllm-0.10.1/…`, matching the benchmark datasets.
 */
export function createOutputPathMapper(corpusDir: string): (fileInCorpus: string) => string {
  const base = invocationDir();
  const cache = new Map<string, string>();
  return (fileInCorpus) => {
    let mapped = cache.get(fileInCorpus);
    if (mapped === undefined) {
      mapped = toPosix(relative(base, join(corpusDir, fileInCorpus)));
      cache.set(fileInCorpus, mapped);
    }
    return mapped;
  };
}

/** Default index location: `$RAG_INDEX_DIR`, else `.rag/index` under the invocation directory. */
export function defaultIndexDir(): string {
  const fromEnv = process.env.RAG_INDEX_DIR;
  return fromEnv ? resolveUserPath(fromEnv) : resolve(invocationDir(), '.rag', 'index');
}
