import { RagError } from './errors.js';
import type { IndexFileReader } from './shared-files.js';
import type { Chunk, Explanation, Hit, ProgressFn } from './types.js';

export interface SearchOptions {
  /** Number of hits to return, 1 or more. */
  k: number;
  /**
   * Whether a hit may join neighbouring chunks into one span (`Hit.joined`) where the
   * retriever does that. `false` for a caller that fuses or selects candidates itself and
   * needs every chunk as its own hit. Default `true`.
   */
  join?: boolean;
  /**
   * The chunks the search may return: chunk `id` is searched when `scope[id]` is 1 (ids
   * past its end are out of scope). A scope such as "the files under `docs/`" (see
   * `scopeOfFiles`). The index's statistics stay the whole corpus's, so a hit in scope
   * scores what it scores unscoped. Default: every chunk.
   */
  scope?: Uint8Array;
}

/** Whether chunk `id` may be returned under `scope` (see `SearchOptions.scope`). */
export function inScope(scope: Uint8Array | undefined, id: number): boolean {
  return scope === undefined || scope[id] === 1;
}

/**
 * What every retriever implements. Callers (CLI, server, hybrid fusion) only see this
 * interface; they pick an implementation by name from a `RetrieverRegistry`.
 */
export interface Retriever {
  /** Registry name, e.g. `bm25`. */
  readonly name: string;
  /** Best hits first; fewer than `k` when fewer chunks match. Never throws on an empty result. */
  search(query: string, options: SearchOptions): Promise<Hit[]>;
  /** Why `chunkId` scores what it does for `query` (optional per retriever). */
  explain?(query: string, chunkId: number): Explanation;
  /**
   * The words of `query`, as written, that no indexed chunk holds in any form this retriever
   * matches (optional per retriever; a word it would drop, such as "the", is never listed).
   * An answer generator reads them to tell a question about something the corpus never
   * mentions from one its retrieved sources merely miss.
   */
  unindexedWords?(query: string): Promise<string[]>;
  /**
   * The words of `query`, as written, that the corpus holds but barely: in so few chunks (one,
   * for bm25) that it mentions the thing in passing rather than being about it (optional per
   * retriever; unindexed words are not listed). An answer generator weighs them like
   * unindexed ones when no source holds the question's telling words.
   */
  rareWords?(query: string): Promise<string[]>;
  /**
   * Persist the retriever's own state into `dir` (which exists and is empty). A retriever
   * that searches vectors also offers them to `context.vectors` (a store that searches
   * vectors itself keeps them there); its files stay complete either way.
   */
  save(dir: string, context?: SaveContext): Promise<void>;
}

/**
 * Vectors searched by inner product, one row per chunk (row i is chunk i), each of unit
 * length so the inner product is the cosine.
 */
export interface VectorSet {
  /** Components per vector, 1 or more. */
  dimension: number;
  /** Row-major, `count × dimension`. */
  vectors: Float32Array;
}

/** What a store offers a retriever that is saving itself. */
export interface SaveContext {
  /**
   * Takes the vectors a retriever saved into `dir` (a store that searches them itself, such
   * as PostgreSQL with pgvector); undefined when the store keeps only files.
   */
  vectors?: (dir: string, set: VectorSet) => void;
  /**
   * Puts `source`, a file of the previous generation's build (inside `PreviousBuild.dir`), at
   * `target` without writing its bytes again (a hard link, or a copy where the file system
   * refuses one), its recorded checksums carried over once its CRC-32 is checked
   * (`INDEX_CORRUPT` if damaged). Resolves false, doing nothing, for a file the previous
   * generation does not record; undefined when the store keeps no files to link (a
   * database): then write the bytes.
   */
  linkFile?: (source: string, target: string) => Promise<boolean>;
}

/** Nearest-vector search run by a store (pgvector's HNSW index) instead of in memory. */
export interface VectorSearch {
  /** Where and how it searches, for `explain` and logs (e.g. `pgvector HNSW in …`). */
  readonly description: string;
  /**
   * The `k` rows of highest inner product with `query` (unit length), best first; score =
   * inner product. With `scope`, only rows of chunks in it (see `SearchOptions.scope`).
   */
  search(query: Float32Array, k: number, scope?: Uint8Array): Promise<Hit[]>;
}

export interface BuildContext {
  /** Retriever-specific settings, e.g. `{ k1: 1.2 }`; recorded in the index manifest. */
  settings?: Record<string, unknown>;
  onProgress?: ProgressFn;
  /**
   * A full garbage collection, for a factory to call between the phases of a build once it
   * has dropped a large working set and before it allocates its largest arrays, so that the
   * two are never resident at once. About peak memory only, never results. Default: none.
   */
  collectGarbage?: () => void;
  /**
   * The same retriever's previous build, when an index is updated: a factory may reuse
   * what it computed for unchanged chunks (their analysed terms, their vectors) instead of
   * computing it again. Purely an optimisation: the result must equal a build without it,
   * and a previous build that cannot be used (other settings, other format, damaged) is
   * ignored, never an error.
   */
  previous?: PreviousBuild;
  /**
   * Told, in one sentence, why `previous` could not be reused (another format, other
   * settings, damaged), so the user learns why an update took as long as a full build.
   * Default: nothing is said.
   */
  onNotice?: (message: string) => void;
}

/** A retriever's previous build and how the new chunks relate to the chunks it was built over. */
export interface PreviousBuild {
  /** The folder the previous `Retriever.save` wrote. */
  dir: string;
  /** The chunks it was built over (ids equal to positions). */
  chunks: readonly Chunk[];
  /**
   * For each new chunk, the id of the previous chunk it is a copy of (same file content,
   * same offsets, same text, same neighbours in its file), or -1 for a new chunk.
   */
  sourceOf: Int32Array;
  /** How to read the files in `dir` (the index store hands its reader, which returns the bytes it verified). Default: from the disk. */
  readFile?: IndexFileReader;
  /**
   * Parts of a file of `dir` as the store serves them, each page checked as it is read (see
   * `LoadContext.openRanges`), or undefined for a file to be read whole with `readFile`: the
   * store does not verify such a file up front, so an update reads of it only what it needs.
   */
  openRanges?: (path: string) => FileRanges | undefined;
  /**
   * The index store checked the files in `dir` against its manifest (the bytes `readFile`
   * returns, when given) and `chunks` are the ones that generation was written with: a
   * factory may skip its own whole-file checksum and chunk fingerprint, as a load with
   * `LoadContext.verified` does. Default `false`.
   */
  verified?: boolean;
}

/** What `RetrieverFactory.isCurrent` is asked about: a previous build kept whole. */
export interface CurrentBuildCheck {
  /** The folder the previous `Retriever.save` wrote. */
  dir: string;
  /** How many chunks it was built over (the manifest's count). */
  chunkCount: number;
}

/** Builds a retriever over chunks, or loads one saved by `Retriever.save`. */
export interface RetrieverFactory {
  readonly name: string;
  /** One line for `--help` and error messages. */
  readonly description: string;
  build(chunks: readonly Chunk[], context?: BuildContext): Promise<Retriever>;
  load(dir: string, chunks: readonly Chunk[], context?: LoadContext): Promise<Retriever>;
  /**
   * Whether the build in `previous.dir` is exactly what `build` would write, with `context`'s
   * settings, over the `previous.chunkCount` chunks it was made from, all kept as they were:
   * same settings, same file format. When it is and nothing in the corpus changed, an update
   * keeps the index as it is instead of writing it again. Reads as little as it can (the
   * store verifies the files) and is handed no chunks: an update that finds nothing changed
   * never loads them. Any doubt is `false`. Absent: never assumed.
   */
  isCurrent?(previous: CurrentBuildCheck, context?: Pick<BuildContext, 'settings'>): Promise<boolean>;
}

/** A span of bytes inside a file. */
export interface ByteRange {
  offset: number;
  length: number;
}

/**
 * Reads parts of one stored file. The store keeps the file in pages, each with its own
 * checksum, and checks every page it reads (`INDEX_CORRUPT` names the file); the file as a
 * whole is never hashed on this path.
 */
export interface FileRanges {
  /** Bytes in the whole file. */
  readonly size: number;
  /** The bytes of each range, in order (ranges lie inside the file; `INVALID_ARGUMENT` otherwise). */
  read(ranges: readonly ByteRange[]): Promise<Uint8Array[]>;
}

/** How a retriever is being loaded. */
export interface LoadContext {
  /**
   * Every file under the folder was just checked against the sha256 the index manifest
   * records, and the chunks are the ones that generation was written with (as the index
   * store guarantees before loading), so a factory may skip its own whole-file checksum and
   * its check that it was built over these chunks; never its structural checks. Default `false`.
   */
  verified?: boolean;
  /**
   * How to read the retriever's files (each whole). Default: from the disk into private
   * memory. A server with worker threads passes a reader over buffers it shares between
   * them, so every thread searches one copy of the index; a retriever that reads through
   * this (and keeps views rather than copies) gets that for free.
   */
  readFile?: IndexFileReader;
  /**
   * Fetches the texts of chunks `ids` so that their `text` can be read synchronously. A
   * retriever that reads candidates' texts while it searches calls this first; undefined
   * when every text is always readable (the file store).
   */
  prefetchTexts?: (ids: readonly number[]) => Promise<void>;
  /**
   * The store's own search over the vectors the retriever saved into `dir` (see
   * `SaveContext.vectors`), or undefined when it has none for `dir`: a retriever that gets
   * one searches through it and need not read its vectors into memory.
   */
  vectorSearch?: (dir: string) => VectorSearch | undefined;
  /**
   * Parts of the file at `path` as its store serves them (see `FileRanges`), or undefined
   * when the file is to be read whole. A store returns one for files too large to hold (see
   * `IndexStore.fileRanges`); a retriever that can search from parts reads through it and
   * never loads the file, and one that cannot reads the file whole with `readFile` (it is
   * then hashed whole, as any other file is).
   */
  openRanges?: (path: string) => FileRanges | undefined;
  /**
   * The files of `dir` the index records (names inside it), when the store knows them: a
   * retriever whose layout varies (bm25: one file, or a base and an overlay) learns from this
   * which it wrote, rather than from what happens to be there. Default: look in `dir`.
   */
  files?: readonly string[];
}

/** Retriever factories by name. An unknown name is an error that lists the valid ones. */
export class RetrieverRegistry {
  readonly #factories = new Map<string, RetrieverFactory>();

  constructor(factories: Iterable<RetrieverFactory> = []) {
    for (const factory of factories) this.register(factory);
  }

  register(factory: RetrieverFactory): this {
    if (this.#factories.has(factory.name)) {
      throw new RagError('INVALID_ARGUMENT', `A retriever named "${factory.name}" is already registered.`);
    }
    this.#factories.set(factory.name, factory);
    return this;
  }

  names(): string[] {
    return [...this.#factories.keys()];
  }

  has(name: string): boolean {
    return this.#factories.has(name);
  }

  get(name: string): RetrieverFactory {
    const factory = this.#factories.get(name);
    if (!factory) {
      throw new RagError('UNKNOWN_NAME', `Unknown retriever "${name}".`, {
        hint: `Valid retrievers: ${this.names().join(', ') || '(none registered)'}.`,
      });
    }
    return factory;
  }
}

/**
 * A factory registered under `name` whose implementation is imported the first time it
 * builds, loads or checks an index (`load` runs once; a failed import is tried again next
 * time). A registry of every retriever then costs a program that opens one of them only
 * that one's code: a one-shot search over a bm25 index never compiles the embedder.
 * `name` must be the loaded factory's name (`INVALID_ARGUMENT` otherwise).
 */
export function deferRetrieverFactory(name: string, description: string, load: () => Promise<RetrieverFactory>): RetrieverFactory {
  let loading: Promise<RetrieverFactory> | undefined;
  const factory = (): Promise<RetrieverFactory> => {
    loading ??= load().then(
      (loaded) => {
        if (loaded.name !== name) throw new RagError('INVALID_ARGUMENT', `The retriever registered as "${name}" loaded a factory named "${loaded.name}".`);
        return loaded;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  return {
    name,
    description,
    build: async (chunks, context) => (await factory()).build(chunks, context),
    load: async (dir, chunks, context) => (await factory()).load(dir, chunks, context),
    isCurrent: async (previous, context) => {
      const loaded = await factory();
      return loaded.isCurrent ? loaded.isCurrent(previous, context) : false;
    },
  };
}
