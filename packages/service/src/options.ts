import type { RetrieverSource } from '@rag/core';
import type { GeneratorRegistry, GeneratorSettings } from '@rag/generation';

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

export interface ServiceOptions {
  /** Directory holding the index written by `rag index`. Required. */
  indexDir: string;
  /** Retriever used when a request names none. Default: the first one the index was built with. */
  retriever?: string;
  /** Factories able to load the index's retrievers. Default: `createDefaultRetrieverRegistry()` (every built-in retriever). */
  retrievers?: RetrieverSource;
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
}
