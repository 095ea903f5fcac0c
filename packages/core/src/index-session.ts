import { join, relative, sep } from 'node:path';
import { RagError } from './errors.js';
import { verifyChecksums } from './index-integrity.js';
import { chunkIdsOf, chunkOfHit, otherSymbolsOf } from './hit-chunks.js';
import { compilePathGlobs, scopeOfFiles } from './scope.js';
import { retrieverDir, verifyRetrieverFiles, type GenerationPin, type IndexManifest } from './index-store.js';
import type { IndexFileReader } from './shared-files.js';
import { createFileStore, type IndexStore } from './store.js';
import type { RetrieverRegistry, Retriever } from './retriever.js';
import type { Chunk, Hit } from './types.js';

/** Where retriever factories come from: a `RetrieverRegistry`, or anything that looks up a factory by name. */
export type RetrieverSource = Pick<RetrieverRegistry, 'get'>;

export interface IndexSessionOptions {
  /** Retriever used when a search names none. Default: the first one recorded in the index. */
  retriever?: string;
  /** Factories able to load the index's retrievers (the caller's registry). */
  retrievers: RetrieverSource;
  /** Directory output `file_path`s are relative to. Default `process.cwd()`. */
  pathBase?: string;
  /** Open this generation rather than the one the pointer names now (a worker joining its main thread). */
  pin?: GenerationPin;
  /** How retriever files are read (and hashed): see `LoadContext.readFile`. Default: the disk. */
  readFile?: IndexFileReader;
  /**
   * The files `readFile` returns were already checked against this generation's manifest
   * (by the thread that shared them): skip hashing them again. Default `false`.
   */
  filesVerified?: boolean;
  /** Load the default retriever when first searched rather than now. Default `false`. */
  deferLoad?: boolean;
  /**
   * Make each chunk object when first read (see `ReadIndexOptions.lazyChunks`): for a
   * session that answers one question. Default `false`.
   */
  lazyChunks?: boolean;
}

/** Scopes an index session keeps (see `IndexSession.scopeOf`): each is one byte per chunk. */
const KEPT_SCOPES = 16;

/** One retrieved chunk, ranked. */
export interface SessionHit {
  rank: number;
  score: number;
  /** What the hit cites, read as one chunk (`chunkOfHit`: a hit that joins neighbours spans them). */
  chunk: Chunk;
  /** The chunk's path as written in outputs (relative to the session's path base). */
  file_path: string;
  /** The other definitions a hit that joins neighbouring chunks holds (`otherSymbolsOf`); absent or empty for none. */
  alsoSymbols?: string[];
}

/** An opened index: its chunks, its retrievers (loaded once each), and path mapping. */
export interface IndexSession {
  /** Where the index is: its folder, or the store's location (a database URL without password). */
  indexDir: string;
  /** The store the session reads from. */
  store: IndexStore;
  manifest: IndexManifest;
  chunks: readonly Chunk[];
  /** Name of the retriever used when a search names none. */
  defaultRetriever: string;
  /** Retrievers this index was built with, the default first. */
  retrieverNames: readonly string[];
  /** The retriever `name` (default: {@link defaultRetriever}), loaded on first use. */
  retriever(name?: string): Promise<Retriever>;
  /** Maps a path inside the corpus to the `file_path` written in outputs. */
  outputPath(fileInCorpus: string): string;
  /** The best `k` hits for `query`; with `scope`, only chunks in it (see `SearchOptions.scope`, {@link scopeOf}). */
  search(query: string, k: number, retriever?: string, scope?: Uint8Array): Promise<SessionHit[]>;
  /**
   * Retriever hits (of this generation's chunks) as {@link search} gives them, ranked in the
   * order given, without fetching their texts: for hits found elsewhere (a search worker) or
   * for a caller that reads no text (a search's view). A hit's `chunk.text` is readable once
   * {@link prefetchTexts} has fetched the texts of its chunks (at once for a folder's index).
   */
  hitsOf(hits: readonly Hit[]): SessionHit[];
  /**
   * The scope of the chunks whose file matches `globs` (see `compilePathGlobs`: .gitignore
   * syntax, relative to the indexed folder, `!` to leave out), for {@link search}. The last
   * few scopes are kept, so a server asked the same globs again does not test the paths again
   * (a kept scope is shared: read it, never change it).
   */
  scopeOf(globs: readonly string[]): Uint8Array;
  /**
   * Makes the texts of chunks `ids` readable (see `TextStore.prefetch`): what a caller that
   * got chunk ids elsewhere (a search worker) does before reading their `text`.
   */
  prefetchTexts(ids: readonly number[]): Promise<void>;
  /** Seconds spent loading the index and the default retriever. */
  loadSeconds: number;
  /** The generation this session reads, whatever is published later. */
  pin: GenerationPin;
  /**
   * Reads and checks the files of retriever `name` (default: every retriever of the index)
   * through the session's reader without loading it: with a shared reader, what a server
   * does before handing the files to its workers. `INDEX_CORRUPT` names a damaged file.
   */
  verifyFiles(name?: string): Promise<void>;
  /**
   * Closes the chunk-text file the session keeps open (texts are read from it on demand);
   * a chunk's `text` then throws. Searches already answered keep their results.
   */
  close(): void;
}

/** The files the manifest records in retriever `name`'s folder, by their names there. */
function recordedFiles(manifest: IndexManifest, name: string): string[] {
  const prefix = `retrievers/${name}/`;
  return Object.keys(manifest.checksums ?? {})
    .filter((file) => file.startsWith(prefix))
    .map((file) => file.slice(prefix.length));
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/**
 * The `file_path` written in outputs: the corpus file's location relative to `base` (the
 * directory the user started from), with `/` separators. With `--corpus_dir data/raw` run
 * from `../shared` this gives `data/raw/vllm-0.10.1/…`, matching the benchmark datasets.
 */
export function createOutputPathMapper(corpusDir: string, base: string): (fileInCorpus: string) => string {
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

/**
 * Loads the index in `source` (a folder, or any `IndexStore`) and its default retriever;
 * other retrievers load when first asked for.
 */
export async function openIndexSession(source: string | IndexStore, options: IndexSessionOptions): Promise<IndexSession> {
  const started = performance.now();
  const registry = options.retrievers;
  if (options.retriever !== undefined) registry.get(options.retriever); // unknown names fail before any IO
  const store = typeof source === 'string' ? createFileStore(source) : source;
  const indexDir = store.location;
  const index = await store.read(options.pin, { lazyChunks: options.lazyChunks === true });
  const readIndexFile = store.readFile;
  // Without a reader of the caller's, the bytes hashed are handed to the loader and then
  // dropped: each file is read once, and never held twice.
  const handedOver = new Map<string, Uint8Array>();
  const read: IndexFileReader =
    options.readFile ??
    (async (path) => {
      const bytes = await readIndexFile(path);
      handedOver.set(path, bytes);
      return bytes;
    });
  // Files the store serves in checked pages (see `IndexStore.fileRanges`) are not hashed
  // up front: a retriever that searches from parts never reads them whole. One that does
  // read such a file whole has it hashed then, before it gets the bytes.
  const fileRanges = store.fileRanges?.bind(store);
  const paged = (file: string): boolean => fileRanges?.(join(index.dir, file)) !== undefined;
  const hashedLate = new Set<string>();
  const loadWhole: IndexFileReader =
    options.readFile ??
    (async (path) => {
      const bytes = handedOver.get(path);
      handedOver.delete(path);
      return bytes ?? readIndexFile(path);
    });
  const load: IndexFileReader = async (path) => {
    const file = toPosix(relative(index.dir, path));
    if (fileRanges?.(path) !== undefined && !hashedLate.has(file)) {
      const sum = index.manifest.checksums[file];
      if (sum) await verifyChecksums(indexDir, index.dir, { [file]: sum }, '', read);
      hashedLate.add(file);
    }
    return loadWhole(path);
  };
  const verified = new Map<string, Promise<void>>();
  const verifyFiles = (name: string): Promise<void> => {
    let pending = verified.get(name);
    if (!pending) {
      pending = options.filesVerified ? Promise.resolve() : verifyRetrieverFiles(index, name, read, fileRanges ? paged : undefined);
      pending.catch(() => verified.delete(name));
      verified.set(name, pending);
    }
    return pending;
  };
  const recorded = index.manifest.retrievers.map((r) => r.name);
  const chosen = options.retriever ?? recorded[0];
  if (chosen === undefined) {
    throw new RagError('INDEX_CORRUPT', `The index in ${indexDir} records no retriever.`, { hint: 'Rebuild it with `rag index --corpus_dir <dir>`.' });
  }
  const names = [chosen, ...recorded.filter((n) => n !== chosen)];
  const loading = new Map<string, Promise<Retriever>>();
  const prefetchTexts = index.texts.prefetch?.bind(index.texts);
  const vectorSearch = store.vectorSearch?.bind(store);

  const retriever = (name: string = chosen): Promise<Retriever> => {
    let pending = loading.get(name);
    if (pending) return pending;
    if (!recorded.includes(name)) {
      return Promise.reject(
        new RagError('UNKNOWN_NAME', `The index in ${indexDir} was not built with the "${name}" retriever (it has: ${recorded.join(', ')}).`, {
          hint: `Use one of: ${recorded.join(', ')}; or rebuild the index with \`rag index --corpus_dir <dir> --retriever ${name}\`.`,
        }),
      );
    }
    // Its files are checked against the manifest first: a damaged file is INDEX_CORRUPT naming it.
    pending = verifyFiles(name)
      .then(() =>
        registry.get(name).load(retrieverDir(index.dir, name), index.chunks, {
          verified: true,
          files: recordedFiles(index.manifest, name),
          readFile: load,
          ...(prefetchTexts ? { prefetchTexts } : {}),
          ...(vectorSearch ? { vectorSearch } : {}),
          ...(fileRanges ? { openRanges: fileRanges } : {}),
        }),
      )
      .finally(() => handedOver.clear());
    // A failed load is not cached: the next request retries and reports the error again.
    pending.catch(() => loading.delete(name));
    loading.set(name, pending);
    return pending;
  };

  if (options.deferLoad) {
    if (!recorded.includes(chosen)) await retriever(chosen); // the same error as a load, now
  } else {
    await retriever(chosen); // fails here, with the list, when the index lacks it
  }
  const outputPath = createOutputPathMapper(index.manifest.corpusDir, options.pathBase ?? process.cwd());
  // The scopes of the latest globs asked (see `scopeOf`), least recently used first.
  const scopes = new Map<string, Uint8Array>();
  const hitsOf = (hits: readonly Hit[]): SessionHit[] =>
    hits.map((hit, i) => {
      const chunk = chunkOfHit(hit, index.chunks);
      return { rank: i + 1, score: hit.score, chunk, file_path: outputPath(chunk.file_path), alsoSymbols: otherSymbolsOf(hit, index.chunks) };
    });
  return {
    indexDir,
    store,
    manifest: index.manifest,
    chunks: index.chunks,
    defaultRetriever: chosen,
    retrieverNames: names,
    retriever,
    outputPath,
    async search(query, k, name, scope) {
      const hits = await (await retriever(name)).search(query, scope === undefined ? { k } : { k, scope });
      // Callers read the hits' texts: a store that fetches texts over the network does it now, at once.
      await prefetchTexts?.(hits.flatMap(chunkIdsOf));
      return hitsOf(hits);
    },
    hitsOf,
    async prefetchTexts(ids) {
      await prefetchTexts?.(ids);
    },
    scopeOf(globs) {
      const key = JSON.stringify(globs);
      let scope = scopes.get(key);
      if (scope === undefined) {
        scope = scopeOfFiles(index.chunks, compilePathGlobs(globs));
        if (scopes.size >= KEPT_SCOPES) scopes.delete(scopes.keys().next().value!);
      } else {
        scopes.delete(key);
      }
      scopes.set(key, scope);
      return scope;
    },
    loadSeconds: (performance.now() - started) / 1000,
    pin: index.pin,
    close() {
      index.texts.close();
    },
    async verifyFiles(name) {
      try {
        for (const each of name === undefined ? recorded : [name]) await verifyFiles(each);
      } finally {
        handedOver.clear();
      }
    },
  };
}
