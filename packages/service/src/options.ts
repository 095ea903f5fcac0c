import type { RetrieverSource } from '@rag/core';
import type { GeneratorRegistry, GeneratorSettings } from '@rag/generation';
import type { RetrieverRegistryOptions } from './retrievers.js';
import type { WatchEvent } from './watch-corpus.js';

/** Sources returned by a search when `k` is not given. */
export const DEFAULT_SEARCH_K = 10;
/** Sources handed to the generator for an answer when `k` is not given. */
export const DEFAULT_ANSWER_K = 5;
/** Largest `k` a request may ask for. */
export const MAX_K = 100;
/** Longest query, in characters; longer ones are refused rather than silently cut. */
export const MAX_QUERY_LENGTH = 4000;
/** Answers generated at the same time: one model, so one at a time. */
export const DEFAULT_MAX_CONCURRENT_ANSWERS = 1;
/** Answer requests that may wait for a free slot; one more is refused with `QUEUE_FULL`. */
export const DEFAULT_MAX_QUEUED_ANSWERS = 8;
/** How long a file's on-disk state is trusted before it is checked again, in milliseconds. */
export const DEFAULT_STALE_CHECK_INTERVAL_MS = 1000;
/**
 * How often a service checks for a newly published generation and moves to it, in
 * milliseconds: a `rag index` run beside a server (or on another machine, for a database
 * several servers share) is served within this long, and the generation a server opened is
 * removed two publishes later. A look costs one read of the index's pointer and manifest.
 */
export const DEFAULT_FOLLOW_INDEX_MS = 5000;

export interface ServiceOptions {
  /** Directory holding the index written by `rag index`. Required. */
  indexDir: string;
  /** Retriever used when a request names none. Default: the first one the index was built with. */
  retriever?: string;
  /**
   * Factories able to load the index's retrievers. Default: `createDefaultRetrieverRegistry(retrieverSettings)`
   * (every built-in retriever). A registry object cannot cross into worker threads: with
   * one, searches run on the calling thread unless `retrieverModule` names where workers
   * get theirs.
   */
  retrievers?: RetrieverSource;
  /** Settings of the default registry (the embedding model to embed queries with). Default `{}`. */
  retrieverSettings?: RetrieverRegistryOptions;
  /**
   * Worker threads that run searches, 0 … 64; 0 searches on the calling thread. Every
   * worker views one shared copy of the index's retriever files (read and verified once by
   * the calling thread); each holds its own chunk metadata and, for a model-based
   * retriever, its own model. Default: one per core ({@link defaultSearchWorkers}) with the
   * default registry or a `retrieverModule`, 0 with a `retrievers` object. Without a built
   * worker script (running from sources) searches stay on the calling thread.
   */
  workers?: number;
  /**
   * A module (absolute path or `file:` URL) exporting `createRetrieverRegistry()`, which
   * each search worker calls for its registry: how a custom registry reaches the workers.
   */
  retrieverModule?: string;
  /** Generator used when a request names none. Default: `chooseDefaultGenerator()` of @rag/generation. */
  generator?: string;
  /** Settings handed to every generator the service creates (model folder, budgets, …). Default `{}`. */
  generatorSettings?: GeneratorSettings;
  /** Where generators come from. Default: `createGeneratorRegistry()` of @rag/generation. */
  generators?: GeneratorRegistry;
  /**
   * Directory the `file_path` of every result is relative to, as in the CLI's outputs.
   * Default `process.cwd()`. Span reads accept these paths and paths inside the corpus.
   */
  pathBase?: string;
  /** Answers generated at once, 1 … 64. Default {@link DEFAULT_MAX_CONCURRENT_ANSWERS}. */
  maxConcurrentAnswers?: number;
  /** Answer requests allowed to wait, 0 … 10,000. Default {@link DEFAULT_MAX_QUEUED_ANSWERS}. */
  maxQueuedAnswers?: number;
  /** See {@link DEFAULT_STALE_CHECK_INTERVAL_MS}, 0 … 3,600,000; 0 checks on every request. */
  staleCheckIntervalMs?: number;
  /**
   * Check for a newer published generation at most this often (on a request, never delaying
   * it) and switch to it, 0 … 3,600,000 ms; 0 keeps the generation opened. Default
   * {@link DEFAULT_FOLLOW_INDEX_MS}.
   */
  followIndexMs?: number;
  /**
   * Keep the index up to date with its corpus while it is served (`watchCorpus`): look at
   * the corpus the index records when the file system reports a change in it (`events`,
   * default true; see `WatchCorpusOptions.events`) or every `intervalMs` (100 … 3,600,000;
   * default `DEFAULT_WATCH_INTERVAL_MS`) when it cannot, update the index in a child process
   * when a file was added, changed or removed, and serve the new generation at once. `toolVersion` is recorded in
   * what the updates write; `onEvent` hears of each update and failure. Needs the default
   * registry or a `retrieverModule` (a registry object cannot cross into the update
   * process). Default: not watched.
   */
  watch?: WatchSettings;
}

/** See {@link ServiceOptions.watch}. */
export interface WatchSettings {
  toolVersion: string;
  intervalMs?: number;
  events?: boolean;
  onEvent?: (event: WatchEvent) => void;
}
