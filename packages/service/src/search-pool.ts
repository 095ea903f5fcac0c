import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { RagError, type Hit } from '@rag/core';
import { deserializeError, type CloseWorkerMessage, type SearchWorkerData, type SearchWorkerMessage, type SearchWorkerRequest } from './search-protocol.js';

/** Search worker threads when none are asked for: one per core, at most {@link MAX_SEARCH_WORKERS}. */
export function defaultSearchWorkers(cores = availableParallelism()): number {
  return Math.max(1, Math.min(MAX_SEARCH_WORKERS, cores));
}

/** Most search workers a service starts (each holds its own chunk metadata and isolate). */
export const MAX_SEARCH_WORKERS = 64;

/**
 * How long a closing worker may take to free its retrievers and end by itself before it is
 * terminated (it has no search left by then; only a hung close needs the hard stop).
 */
export const WORKER_CLOSE_GRACE_MS = 5_000;

/**
 * The worker script beside this module (dist/search-worker.js, or search-worker.js beside a
 * bundle that includes it); undefined when running from sources, where searches stay on
 * the calling thread.
 */
export function searchWorkerScript(): URL | undefined {
  const url = new URL('./search-worker.js', import.meta.url);
  return url.protocol === 'file:' && existsSync(fileURLToPath(url)) ? url : undefined;
}

export interface SearchPoolOptions {
  script: URL;
  workers: number;
  data: SearchWorkerData;
  /** Told when a worker stops or cannot be replaced (the service keeps serving). */
  onWarning?: (message: string) => void;
}

export interface SearchPoolState {
  /** Workers able to take a search now. */
  workers: number;
  /** Workers being started (a replacement that has not opened the index yet). */
  starting: number;
  /** Workers that stopped and were started again since the pool started. */
  restarts: number;
  /** Searches sent to a worker and not yet answered. */
  in_flight: number;
}

interface Pending {
  /** Takes what the request's answer carries: hits, or words. */
  resolve: (value: never) => void;
  reject: (error: unknown) => void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
  ready: boolean;
  gone: boolean;
}

/**
 * Search worker threads over one shared copy of an index: each request goes to the worker
 * with the fewest searches in flight. A worker that dies fails only the searches it held
 * (`WORKER_FAILED`, a 503: retry) and is replaced; one that cannot start again is dropped,
 * and when none is left {@link search} says so by returning `undefined`, so the caller
 * searches on its own thread.
 */
export class SearchPool {
  readonly #options: SearchPoolOptions;
  readonly #slots: Slot[] = [];
  #nextId = 0;
  #restarts = 0;
  #closing = false;

  private constructor(options: SearchPoolOptions) {
    this.#options = options;
  }

  /** Starts `workers` threads and waits until every one has opened the index. */
  static async start(options: SearchPoolOptions): Promise<SearchPool> {
    const pool = new SearchPool(options);
    try {
      await Promise.all(Array.from({ length: options.workers }, () => pool.#spawn()));
    } catch (error) {
      await pool.close();
      throw error;
    }
    return pool;
  }

  state(): SearchPoolState {
    let workers = 0;
    let starting = 0;
    let inFlight = 0;
    for (const slot of this.#slots) {
      if (slot.gone) continue;
      if (slot.ready) workers++;
      else starting++;
      inFlight += slot.pending.size;
    }
    return { workers, starting, restarts: this.#restarts, in_flight: inFlight };
  }

  /**
   * The hits from a worker, or `undefined` when no worker is running (search elsewhere). With
   * `globs`, only chunks of the files they match (the worker makes the scope from its copy of
   * the chunk table, see `IndexSession.scopeOf`).
   */
  search(query: string, k: number, retriever: string, globs?: readonly string[]): Promise<Hit[]> | undefined {
    return this.#ask<Hit[]>((id) => (globs === undefined ? { id, query, k, retriever } : { id, query, k, retriever, globs: [...globs] }));
  }

  /**
   * {@link search}, answered with the search's view as JSON text (`serializeSearchView`: the
   * worker builds the view, marking stale hits by its own staleness tracker) or, when it
   * found nothing, with the empty hits (the caller says why); `undefined` when no worker is running.
   */
  searchView(query: string, k: number, retriever: string, globs?: readonly string[]): Promise<string | Hit[]> | undefined {
    return this.#ask<string | Hit[]>((id) => (globs === undefined ? { id, query, k, retriever, view: true } : { id, query, k, retriever, globs: [...globs], view: true }));
  }

  /**
   * `Retriever.unindexedWords` from a worker (resolving to `undefined` when the retriever
   * cannot tell), or `undefined` when no worker is running.
   */
  unindexedWords(query: string, retriever: string): Promise<string[] | undefined> | undefined {
    return this.#ask<string[] | undefined>((id) => ({ type: 'unindexed', id, query, retriever }));
  }

  /** `Retriever.rareWords` from a worker, as {@link unindexedWords}. */
  rareWords(query: string, retriever: string): Promise<string[] | undefined> | undefined {
    return this.#ask<string[] | undefined>((id) => ({ type: 'unindexed', id, query, retriever, rare: true }));
  }

  /** Sends a request to the worker with the fewest in flight; `undefined` when none is running. */
  #ask<T>(request: (id: number) => SearchWorkerRequest): Promise<T> | undefined {
    let best: Slot | undefined;
    for (const slot of this.#slots) {
      if (!slot.ready || slot.gone) continue;
      if (!best || slot.pending.size < best.pending.size) best = slot;
    }
    if (!best || this.#closing) return undefined;
    const id = this.#nextId++;
    const chosen = best;
    return new Promise<T>((resolve, reject) => {
      chosen.pending.set(id, { resolve: resolve as (value: never) => void, reject });
      chosen.worker.postMessage(request(id));
    });
  }

  /** Waits for the searches in flight, then asks every worker to end (see {@link WORKER_CLOSE_GRACE_MS}). */
  async close(): Promise<void> {
    this.#closing = true;
    const waits: Promise<unknown>[] = [];
    for (const slot of this.#slots) {
      for (const pending of slot.pending.values()) waits.push(new Promise((settled) => wrap(pending, settled)));
    }
    await Promise.all(waits);
    await Promise.all(this.#slots.map((slot) => ((slot.gone = true), endWorker(slot.worker))));
    this.#slots.length = 0;
  }

  #spawn(): Promise<void> {
    const worker = new Worker(this.#options.script, { workerData: this.#options.data });
    const slot: Slot = { worker, pending: new Map(), ready: false, gone: false };
    this.#slots.push(slot);
    return new Promise<void>((resolve, reject) => {
      worker.on('message', (message: SearchWorkerMessage) => {
        if (message.type === 'ready') {
          slot.ready = true;
          resolve();
        } else if (message.type === 'failed') {
          this.#drop(slot);
          void worker.terminate();
          reject(deserializeError(message.error));
        } else {
          const pending = slot.pending.get(message.id);
          if (!pending) return;
          slot.pending.delete(message.id);
          if (message.type === 'hits') pending.resolve(message.hits as never);
          else if (message.type === 'view') pending.resolve(message.json as never);
          else if (message.type === 'words') pending.resolve(message.words as never);
          else pending.reject(deserializeError(message.error));
        }
      });
      const stopped = (why: string): void => {
        if (slot.gone) return;
        this.#drop(slot);
        const failure = new RagError('WORKER_FAILED', `The search worker answering this request stopped (${why}).`, {
          hint: 'Retry the request; the worker has been replaced.',
        });
        for (const pending of slot.pending.values()) pending.reject(failure);
        slot.pending.clear();
        if (!slot.ready) {
          reject(new RagError('WORKER_FAILED', `A search worker stopped while opening the index (${why}).`));
          return;
        }
        if (this.#closing) return;
        this.#options.onWarning?.(`a search worker stopped (${why}); starting another`);
        this.#restarts++;
        this.#spawn().catch((error: unknown) => this.#options.onWarning?.(`a search worker could not be restarted: ${(error as Error).message}`));
      };
      worker.on('error', (error) => stopped(error.message));
      worker.on('exit', (code) => stopped(`exit code ${code}`));
    });
  }

  #drop(slot: Slot): void {
    slot.gone = true;
    const at = this.#slots.indexOf(slot);
    if (at >= 0) this.#slots.splice(at, 1);
  }
}

/** Asks `worker` to close and waits for its thread to end; terminates it if that takes too long. */
function endWorker(worker: Worker): Promise<void> {
  return new Promise<void>((done) => {
    const timer = setTimeout(() => void worker.terminate(), WORKER_CLOSE_GRACE_MS);
    worker.once('exit', () => {
      clearTimeout(timer);
      done();
    });
    const close: CloseWorkerMessage = { type: 'close' };
    worker.postMessage(close);
  });
}

/** Calls `settled` once `pending` is resolved or rejected, keeping its own callbacks. */
function wrap(pending: Pending, settled: (value: unknown) => void): void {
  const { resolve, reject } = pending;
  pending.resolve = (value) => {
    resolve(value);
    settled(undefined);
  };
  pending.reject = (error) => {
    reject(error);
    settled(undefined);
  };
}
