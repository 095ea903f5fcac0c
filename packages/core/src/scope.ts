/**
 * A search scope as a mask over chunk ids (see `SearchOptions.scope`): which chunks a search
 * may return, decided per file — by a test of its path, or by globs as ripgrep's `--glob`
 * takes them.
 */
import ignore from 'ignore';
import { RagError } from './errors.js';

/** Most globs one scope may give. */
export const MAX_SCOPE_GLOBS = 64;
/** Longest glob, in characters. */
export const MAX_GLOB_LENGTH = 1_000;

/**
 * A test of paths inside the corpus (`Chunk.file_path`, `/`-separated, relative to the
 * indexed folder) against `globs`, read as ripgrep reads `--glob`: .gitignore syntax (`*.md`,
 * `docs/`, `/src/`, `vllm/entrypoints/*.py`; a glob without a slash matches a name at any depth,
 * one with a leading or inner slash is anchored at the corpus's root), and a glob that starts
 * with `!` leaves out what it matches. A path is in scope when some including glob matches
 * it (or every glob excludes) and no excluding glob does. `INVALID_ARGUMENT` for an empty
 * list, an empty or overlong glob, or more than {@link MAX_SCOPE_GLOBS}.
 */
export function compilePathGlobs(globs: readonly string[]): (filePath: string) => boolean {
  const hint = 'Pass globs as .gitignore writes them, relative to the indexed folder: e.g. "docs/", "*.py", "!tests/".';
  if (globs.length === 0) throw new RagError('INVALID_ARGUMENT', 'A scope needs at least one glob.', { hint });
  if (globs.length > MAX_SCOPE_GLOBS) throw new RagError('INVALID_ARGUMENT', `A scope takes at most ${MAX_SCOPE_GLOBS} globs, got ${globs.length}.`, { hint });
  const included: string[] = [];
  const excluded: string[] = [];
  for (const raw of globs) {
    const glob = raw.trim();
    if (glob.length > MAX_GLOB_LENGTH) throw new RagError('INVALID_ARGUMENT', `A glob is longer than ${MAX_GLOB_LENGTH} characters.`, { hint });
    const negated = glob.startsWith('!');
    const pattern = negated ? glob.slice(1).trim() : glob;
    // "#" starts a comment in a .gitignore line: written here it would silently match nothing.
    if (pattern === '' || pattern.startsWith('#')) throw new RagError('INVALID_ARGUMENT', `"${raw}" is not a glob.`, { hint });
    (negated ? excluded : included).push(pattern);
  }
  const includes = included.length > 0 ? ignore().add(included) : undefined;
  const excludes = excluded.length > 0 ? ignore().add(excluded) : undefined;
  return (filePath) => {
    // The matcher refuses paths it cannot relate to a root ("./a", "/a", ""): such a path is in no scope.
    if (!ignore.isPathValid(filePath)) return false;
    return (includes === undefined || includes.ignores(filePath)) && !(excludes?.ignores(filePath) ?? false);
  };
}

/**
 * The scope of the chunks whose file `includes` accepts: entry `id` is 1 when chunk `id`'s
 * `file_path` is accepted, else 0. `includes` is asked once per distinct path (a file's
 * chunks are stored together, and a path seen before is remembered), so a scope over a
 * large index costs one test per file, not per chunk.
 */
export function scopeOfFiles(chunks: ArrayLike<{ readonly file_path: string }>, includes: (filePath: string) => boolean): Uint8Array {
  const scope = new Uint8Array(chunks.length);
  const decided = new Map<string, number>();
  let lastPath: string | undefined;
  let lastValue = 0;
  for (let id = 0; id < chunks.length; id++) {
    const path = chunks[id]!.file_path;
    if (path !== lastPath) {
      let value = decided.get(path);
      if (value === undefined) {
        value = includes(path) ? 1 : 0;
        decided.set(path, value);
      }
      lastPath = path;
      lastValue = value;
    }
    scope[id] = lastValue;
  }
  return scope;
}

/** How many chunks `scope` lets a search return. */
export function scopeSize(scope: Uint8Array): number {
  let count = 0;
  for (let id = 0; id < scope.length; id++) count += scope[id]!;
  return count;
}
