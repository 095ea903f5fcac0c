import { chunkIdsOf, chunkOfHit, openIndexSession, otherSymbolsOf, scopeSize, StalenessTracker, type Chunk, type IndexManifest, type Retriever, type RetrieverSource, type Source } from '@rag/core';
import { createDefaultRetrieverRegistry } from './retrievers.js';
import { openStore } from './stores.js';

/** An opened index with its retriever, ready to answer queries. */
export interface SearchSession {
  manifest: IndexManifest;
  chunks: readonly Chunk[];
  retriever: Retriever;
  /** Maps a path inside the corpus to the `file_path` written in outputs. */
  outputPath: (fileInCorpus: string) => string;
  /** Makes the texts of chunks `ids` readable (an index in a database fetches them); `searchSources` does it for its hits. */
  prefetchTexts: (ids: readonly number[]) => Promise<void>;
  /** The scope of the files `globs` match (`IndexSession.scopeOf`); `INVALID_ARGUMENT` for a bad glob. */
  scopeOf: (globs: readonly string[]) => Uint8Array;
  loadSeconds: number;
}

// `@rag/service/search` is this file: what opening an index and searching it takes, without
// the indexer, the answer generators or the server, so a one-shot search loads only that.
export { createDefaultRetrieverRegistry, DEFAULT_RETRIEVER, embeddingSettingsFor, type RetrieverRegistryOptions } from './retrievers.js';
export { isPostgresUrl, openStore, redactLocation, type OpenStoreOptions } from './stores.js';

export interface SearchSessionOptions {
  /** Retriever to search with. Default: the first one the index was built with. */
  retriever?: string | undefined;
  /** Factories able to load the index's retrievers. Default: `createDefaultRetrieverRegistry()`. */
  retrievers?: RetrieverSource | undefined;
  /** Directory output `file_path`s are relative to. Default `process.cwd()`. */
  pathBase?: string | undefined;
  /**
   * Read retriever files at least this large in parts where the store and retriever can
   * (see `OpenStoreOptions`): right for a session that asks one question, which reads a
   * small part of its bm25 index; a session that asks many loads it whole. Default: whole.
   */
  pagedFromBytes?: number | undefined;
  /**
   * Make each chunk object when first read (`ReadIndexOptions.lazyChunks`): right for a
   * session that asks one question, which reads a few dozen chunks; indexing the list then
   * costs a proxy trap, so a session that asks many leaves it off. Default `false`.
   */
  lazyChunks?: boolean | undefined;
}

/** Loads the index at `indexDir` (a folder or a `postgresql://` URL) and one retriever, for one-shot and batch searches. */
export async function openSearchSession(indexDir: string, options: SearchSessionOptions = {}): Promise<SearchSession> {
  const session = await openIndexSession(openStore(indexDir, options.pagedFromBytes === undefined ? {} : { pagedFromBytes: options.pagedFromBytes }), {
    retrievers: options.retrievers ?? createDefaultRetrieverRegistry(),
    pathBase: options.pathBase ?? process.cwd(),
    lazyChunks: options.lazyChunks === true,
    ...(options.retriever === undefined ? {} : { retriever: options.retriever }),
  });
  return {
    manifest: session.manifest,
    chunks: session.chunks,
    retriever: await session.retriever(),
    outputPath: (file) => session.outputPath(file),
    prefetchTexts: (ids) => session.prefetchTexts(ids),
    scopeOf: (globs) => session.scopeOf(globs),
    loadSeconds: session.loadSeconds,
  };
}

export interface RankedSource extends Source {
  /** The file's path inside the corpus (as the manifest records it). */
  fileInCorpus: string;
  /** The id of the chunk that matched (`session.chunks[chunkId]`). */
  chunkId: number;
  /**
   * What the hit cites, read as one chunk (`chunkOfHit`): the matched chunk, or the
   * neighbours it joins, offsets, lines and text spanning them all.
   */
  chunk: Chunk;
  rank: number;
  score: number;
  start_line: number;
  end_line: number;
  symbol: string;
  kind: string;
  /**
   * The other definitions a hit that joins its file's next chunks covers, in file order
   * (`NotFound` beside the matched `HTTPError.handle`): the span holds them too. Empty for a
   * hit of one chunk, or one whose chunks are pieces of one definition.
   */
  alsoSymbols: string[];
}

/**
 * Runs one query and maps hits to cited sources in output paths; with `globs` (see
 * `compilePathGlobs` of @rag/core; none or an empty list for every file), only hits in the
 * files they match.
 */
export async function searchSources(session: SearchSession, query: string, k: number, globs?: readonly string[]): Promise<RankedSource[]> {
  const hits = await session.retriever.search(query, globs === undefined || globs.length === 0 ? { k } : { k, scope: session.scopeOf(globs) });
  await session.prefetchTexts(hits.flatMap(chunkIdsOf));
  return hits.map((hit, i) => {
    const chunk = chunkOfHit(hit, session.chunks);
    return {
      file_path: session.outputPath(chunk.file_path),
      fileInCorpus: chunk.file_path,
      chunkId: hit.chunkId,
      chunk,
      first_character_index: chunk.first_character_index,
      last_character_index: chunk.last_character_index,
      rank: i + 1,
      score: hit.score,
      start_line: chunk.start_line,
      end_line: chunk.end_line,
      symbol: chunk.symbol,
      kind: chunk.kind,
      alsoSymbols: otherSymbolsOf(hit, session.chunks),
    };
  });
}

/** Only the three benchmark fields, in their fixed order. */
export function toMinimalSource(source: Source): Source {
  return {
    file_path: source.file_path,
    first_character_index: source.first_character_index,
    last_character_index: source.last_character_index,
  };
}

/**
 * Indexed files among `filesInCorpus` whose content changed (or vanished) since indexing,
 * so their cited offsets may be off. Hashes only files whose size moved or that are read
 * anyway; costs a stat per distinct file.
 */
export async function findStaleFiles(session: SearchSession, filesInCorpus: Iterable<string>): Promise<string[]> {
  const tracker = new StalenessTracker(session.manifest.corpusDir, session.manifest.files, Number.POSITIVE_INFINITY);
  const unique = [...new Set(filesInCorpus)];
  const states = await Promise.all(unique.map((file) => tracker.state(file)));
  return unique.filter((_, i) => states[i] !== 'fresh').map((file) => session.outputPath(file));
}

/** Most of the words no indexed chunk holds named in {@link describeNoMatches}, each cut to this many characters. */
const NO_MATCH_WORDS_SHOWN = 3;
const NO_MATCH_WORD_CHARS = 40;

/**
 * Why a search found nothing, in a sentence for whoever asked, from the query's words that
 * no indexed chunk holds (`Retriever.unindexedWords`): those words (a misspelling, another
 * project's name, a word the sources never use), or, when there are none, that the query
 * holds no word the index searches at all (only punctuation, single letters, words as common
 * as "what" and "the", or words too long to be a term). Undefined when the retriever cannot tell.
 */
export function noMatchesReason(unindexed: readonly string[] | undefined): string | undefined {
  if (unindexed === undefined) return undefined;
  if (unindexed.length === 0) {
    return 'None of the query\'s words is one the index searches (single letters, words as common as "what" or "the", and words longer than a term may be are not indexed): add the words that name what you are looking for.';
  }
  const shown = unindexed.slice(0, NO_MATCH_WORDS_SHOWN).map((word) => `"${[...word].length > NO_MATCH_WORD_CHARS ? `${[...word].slice(0, NO_MATCH_WORD_CHARS - 1).join('')}…` : word}"`);
  const more = unindexed.length > NO_MATCH_WORDS_SHOWN ? ` and ${unindexed.length - NO_MATCH_WORDS_SHOWN} more` : '';
  const words = more ? `${shown.join(', ')}${more}` : shown.length > 1 ? `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}` : shown[0]!;
  return `No indexed chunk holds ${words}: check the spelling, or use the words the code and its docs use.`;
}

/** `"docs/" or "*.md"`: a search's globs in a sentence. */
export function describeGlobs(globs: readonly string[]): string {
  const quoted = globs.map((glob) => `"${glob}"`);
  return quoted.length === 1 ? quoted[0]! : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

/**
 * Why a search limited to `globs` found nothing, when the globs are why: they match no
 * indexed file (`chunksInScope` 0), or the files they match hold no match while others do
 * (`elsewhere`). Undefined when neither: then the query itself is why (`noMatchesReason`).
 */
export function noMatchesInScope(globs: readonly string[], chunksInScope: number, elsewhere: boolean): string | undefined {
  if (chunksInScope === 0) return `No indexed file matches ${describeGlobs(globs)}: globs are .gitignore patterns relative to the indexed folder.`;
  if (elsewhere) return `Nothing in the files matching ${describeGlobs(globs)} matches the query; other files do (search without the globs).`;
  return undefined;
}

/** {@link noMatchesReason} for a search of `session` that found nothing (limited to `globs`, when given: see {@link noMatchesInScope}). */
export async function describeNoMatches(session: SearchSession, query: string, globs?: readonly string[]): Promise<string | undefined> {
  if (globs !== undefined && globs.length > 0) {
    const chunksInScope = scopeSize(session.scopeOf(globs));
    const why = noMatchesInScope(globs, chunksInScope, chunksInScope > 0 && (await session.retriever.search(query, { k: 1 })).length > 0);
    if (why !== undefined) return why;
  }
  return noMatchesReason(await session.retriever.unindexedWords?.(query));
}
