import { RagError } from '@rag/core';
import type { GeneratorRegistry, GeneratorSettings } from '@rag/generation';
import type { RetrieverSource } from './index-session.js';

/** Port `rag serve` listens on when none is given. */
export const DEFAULT_PORT = 8000;
/** Loopback: the server is reachable from other machines only when a host is asked for. */
export const DEFAULT_HOST = '127.0.0.1';
/** Sources returned by `/search` and `search_code` when `k` is not given. */
export const DEFAULT_SEARCH_K = 10;
/** Sources handed to the generator by `/answer` when `k` is not given. */
export const DEFAULT_ANSWER_K = 5;
/** Largest `k` a request may ask for. */
export const MAX_K = 100;
/** Longest query, in characters; longer ones are refused rather than silently cut. */
export const MAX_QUERY_LENGTH = 4000;
/** Largest request body, in bytes. */
export const DEFAULT_BODY_LIMIT = 64 * 1024;
/** Answers generated at the same time: one model, so one at a time. */
export const DEFAULT_MAX_CONCURRENT_ANSWERS = 1;
/** Answer requests that may wait for a free slot; one more gets a 503. */
export const DEFAULT_MAX_QUEUED_ANSWERS = 8;
/** How long a file's on-disk state is trusted before it is checked again, in milliseconds. */
export const DEFAULT_STALE_CHECK_INTERVAL_MS = 1000;

export interface ServerOptions {
  /** Directory holding the index written by `rag index`. Required. */
  indexDir: string;
  /** TCP port, 0 … 65535; 0 picks a free one. Default {@link DEFAULT_PORT}. */
  port?: number;
  /**
   * Interface to bind. Default {@link DEFAULT_HOST}; anything not loopback (`0.0.0.0`,
   * a LAN address) exposes the corpus to the network and is logged as such.
   */
  host?: string;
  /** Retriever used when a request names none. Default: the first one the index was built with. */
  retriever?: string;
  /** Factories able to load the index's retrievers. Default: bm25 only. */
  retrievers?: RetrieverSource;
  /** Generator used when a request names none. Default: `chooseDefaultGenerator()` of @rag/generation. */
  generator?: string;
  /** Settings handed to every generator the server creates (model folder, budgets, …). Default `{}`. */
  generatorSettings?: GeneratorSettings;
  /** Where generators come from. Default: `createGeneratorRegistry()` of @rag/generation. */
  generators?: GeneratorRegistry;
  /**
   * Directory the `file_path` of every result is relative to, as in the CLI's outputs.
   * Default `process.cwd()`. `/sources` accepts these paths and paths inside the corpus.
   */
  pathBase?: string;
  /** Answers generated at once, 1 … 64. Default {@link DEFAULT_MAX_CONCURRENT_ANSWERS}. */
  maxConcurrentAnswers?: number;
  /** Answer requests allowed to wait, 0 … 10,000. Default {@link DEFAULT_MAX_QUEUED_ANSWERS}. */
  maxQueuedAnswers?: number;
  /** Largest request body in bytes, 1 KiB … 16 MiB. Default {@link DEFAULT_BODY_LIMIT}. */
  bodyLimit?: number;
  /** See {@link DEFAULT_STALE_CHECK_INTERVAL_MS}; 0 checks on every request. */
  staleCheckIntervalMs?: number;
  /** Log each request to stderr (Fastify's logger). Default `false`. */
  logRequests?: boolean;
}

export interface ResolvedServerOptions
  extends Required<Omit<ServerOptions, 'retriever' | 'retrievers' | 'generator' | 'generators' | 'generatorSettings'>> {
  retriever: string | undefined;
  retrievers: RetrieverSource | undefined;
  generator: string | undefined;
  generators: GeneratorRegistry | undefined;
  generatorSettings: GeneratorSettings;
}

function checkInteger(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RagError('INVALID_ARGUMENT', `${name} must be a whole number in [${min}, ${max}]; got ${String(value)}.`, {
      hint: `Pass a valid ${name} or leave it out for the default.`,
    });
  }
  return value;
}

/** The options with defaults applied; throws `INVALID_ARGUMENT` naming the bad option. */
export function resolveServerOptions(options: ServerOptions): ResolvedServerOptions {
  if (typeof options.indexDir !== 'string' || options.indexDir.length === 0) {
    throw new RagError('INVALID_ARGUMENT', 'indexDir is required.', { hint: 'Pass the directory written by `rag index` (--index_dir).' });
  }
  return {
    indexDir: options.indexDir,
    port: checkInteger('port', options.port ?? DEFAULT_PORT, 0, 65535),
    host: options.host ?? DEFAULT_HOST,
    retriever: options.retriever,
    retrievers: options.retrievers,
    generator: options.generator,
    generators: options.generators,
    generatorSettings: options.generatorSettings ?? {},
    pathBase: options.pathBase ?? process.cwd(),
    maxConcurrentAnswers: checkInteger('maxConcurrentAnswers', options.maxConcurrentAnswers ?? DEFAULT_MAX_CONCURRENT_ANSWERS, 1, 64),
    maxQueuedAnswers: checkInteger('maxQueuedAnswers', options.maxQueuedAnswers ?? DEFAULT_MAX_QUEUED_ANSWERS, 0, 10_000),
    bodyLimit: checkInteger('bodyLimit', options.bodyLimit ?? DEFAULT_BODY_LIMIT, 1024, 16 * 1024 * 1024),
    staleCheckIntervalMs: checkInteger('staleCheckIntervalMs', options.staleCheckIntervalMs ?? DEFAULT_STALE_CHECK_INTERVAL_MS, 0, 3_600_000),
    logRequests: options.logRequests ?? false,
  };
}

/** True for addresses only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare) || bare === '::ffff:127.0.0.1';
}
