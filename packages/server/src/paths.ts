import { redactPaths } from './errors.js';

/**
 * Stats without the machine's absolute folders (`index_dir`, `corpus_dir`): what a client of
 * a shared server gets unless the operator exposes paths (`ServerOptions.exposePaths`).
 */
export function withoutPaths<T extends { index_dir?: string; corpus_dir?: string; watch?: { last_failure: string | null } | null }>(stats: T): Omit<T, 'index_dir' | 'corpus_dir'> {
  const { index_dir: _index, corpus_dir: _corpus, ...rest } = stats;
  // A failed update's message may name the corpus folder.
  if (rest.watch?.last_failure) return { ...rest, watch: { ...rest.watch, last_failure: redactPaths(rest.watch.last_failure) } };
  return rest;
}
