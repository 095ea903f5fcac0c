import { RagError, type GenerationPin, type Hit, type SharedIndexFiles } from '@rag/core';
import type { RetrieverRegistryOptions } from './retrievers.js';

/** What a search worker is started with: enough to open the main thread's very generation. */
export interface SearchWorkerData {
  indexDir: string;
  pin: GenerationPin;
  /** The retriever files the main thread read and verified, shared (not copied). */
  files: SharedIndexFiles;
  /** The index's default retriever. */
  retriever: string;
  /** Settings of the default registry (plain data: a registry object cannot cross threads). */
  retrieverSettings: RetrieverRegistryOptions;
  /** A module whose `createRetrieverRegistry()` replaces the default registry. */
  retrieverModule?: string;
  /** What output paths are relative to (the service's `pathBase`): a worker's views name files as the service does. */
  pathBase: string;
  /** How long a worker trusts a file's stat when it marks hits stale (the service's `staleCheckIntervalMs`). */
  staleCheckIntervalMs: number;
}

export interface SearchRequestMessage {
  id: number;
  query: string;
  k: number;
  retriever: string;
  /** Only chunks of the files these globs match (see `IndexSession.scopeOf`); absent for every chunk. */
  globs?: string[];
  /**
   * Answer with the search's view serialized (`serializeSearchView`) instead of the hits;
   * a search that found nothing is still answered with its (empty) hits.
   */
  view?: true;
}

/** Asks for the query's words the index never holds (`Retriever.unindexedWords`). */
export interface UnindexedRequestMessage {
  type: 'unindexed';
  id: number;
  query: string;
  retriever: string;
  /** Ask for the words the index holds in very few chunks (`Retriever.rareWords`) instead. */
  rare?: boolean;
}

/**
 * Asks a worker to end by itself: it frees what its retrievers hold (an embedding model's
 * session), closes the index and its store's connections, and lets its thread finish.
 */
export interface CloseWorkerMessage {
  type: 'close';
}

export type SearchWorkerRequest = SearchRequestMessage | UnindexedRequestMessage | CloseWorkerMessage;

/** A failure crossing the thread boundary: a RagError keeps its code and hint. */
export interface SerializedError {
  code?: string;
  message: string;
  hint?: string;
}

export type SearchWorkerMessage =
  | { type: 'ready' }
  | { type: 'failed'; error: SerializedError }
  | { type: 'hits'; id: number; hits: Hit[] }
  /** A search's view as JSON text (asked with `view`). */
  | { type: 'view'; id: number; json: string }
  /** `words` left out: the retriever cannot tell (it has no `unindexedWords`, or `rareWords`). */
  | { type: 'words'; id: number; words?: string[] }
  | { type: 'error'; id: number; error: SerializedError };

export function serializeError(error: unknown): SerializedError {
  const out: SerializedError = { message: error instanceof Error ? error.message : String(error) };
  const { code, hint } = (error ?? {}) as { code?: unknown; hint?: unknown };
  if (typeof code === 'string') out.code = code;
  if (typeof hint === 'string') out.hint = hint;
  return out;
}

/** A failure that crossed a thread or process boundary, as an error again (a RagError when it was one). */
export function deserializeError(error: SerializedError): Error {
  if (error.code !== undefined) {
    return new RagError(error.code as ConstructorParameters<typeof RagError>[0], error.message, error.hint === undefined ? {} : { hint: error.hint });
  }
  return new Error(error.message);
}
