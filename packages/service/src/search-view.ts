import type { SessionHit, Source, StalenessTracker } from '@rag/core';

/** One search result with its exact citation. */
export interface HitView extends Source {
  rank: number;
  /** 1-based, inclusive. */
  lines: { start: number; end: number };
  symbol: string;
  kind: string;
  score: number;
  /** True when the file changed on disk since indexing: the span may no longer hold this text. */
  stale: boolean;
  /** The other definitions the span holds when it joins neighbouring chunks (`NotFound` beside `HTTPError.handle`); absent for none. */
  also_symbols?: string[];
}

export interface SearchView {
  question: string;
  retriever: string;
  /** The hits in the benchmark's three-field form. */
  retrieved_sources: Source[];
  hits: HitView[];
  /** When nothing matched: why, in a sentence (see `noMatchesReason`); absent otherwise or when the retriever cannot tell. */
  no_matches?: string;
  /** The globs the search was limited to, as asked; absent for a search of every file. */
  globs?: string[];
}

/**
 * The views of `hits`, each marked stale when its file changed since indexing (by
 * `tracker`, which stats a file at most once per its interval).
 */
export async function viewHits(hits: readonly SessionHit[], tracker: StalenessTracker): Promise<HitView[]> {
  const views: HitView[] = [];
  for (const hit of hits) {
    // Most hits' files were checked a moment ago: no await (and no microtask) for those.
    const known = tracker.state(hit.chunk.file_path);
    const state = typeof known === 'string' ? known : await known;
    views.push({
      rank: hit.rank,
      file_path: hit.file_path,
      first_character_index: hit.chunk.first_character_index,
      last_character_index: hit.chunk.last_character_index,
      lines: { start: hit.chunk.start_line, end: hit.chunk.end_line },
      symbol: hit.chunk.symbol,
      kind: hit.chunk.kind,
      score: hit.score,
      stale: state !== 'fresh',
      ...(hit.alsoSymbols && hit.alsoSymbols.length > 0 ? { also_symbols: hit.alsoSymbols } : {}),
    });
  }
  return views;
}

/** A search's view: its hits, why nothing matched (`why`, when nothing did) and the globs it was limited to. */
export function searchViewOf(question: string, retriever: string, hits: HitView[], why: string | undefined, globs: readonly string[] | undefined): SearchView {
  return {
    question,
    retriever,
    retrieved_sources: hits.map((v) => ({ file_path: v.file_path, first_character_index: v.first_character_index, last_character_index: v.last_character_index })),
    hits,
    ...(why === undefined ? {} : { no_matches: why }),
    ...(globs === undefined ? {} : { globs: [...globs] }),
  };
}

/**
 * `view` as JSON text. The views above are built with their keys in the order the HTTP
 * API's `SearchResult` schema lists them, so this is the body a schema-driven serializer
 * writes; a search worker serializes its view itself, and the serving thread only forwards it.
 */
export function serializeSearchView(view: SearchView): string {
  return JSON.stringify(view);
}
