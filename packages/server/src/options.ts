import { integerIn, parseOptions, v } from '@rag/core';
import { SERVICE_OPTIONS_SCHEMA, withServiceDefaults, type ResolvedServiceOptions, type ServiceOptions } from '@rag/service';

/** Port `rag serve` listens on when none is given. */
export const DEFAULT_PORT = 8000;
/** Loopback: the server is reachable from other machines only when a host is asked for. */
export const DEFAULT_HOST = '127.0.0.1';
/** Largest request body, in bytes. */
export const DEFAULT_BODY_LIMIT = 64 * 1024;

/** The service's options (index, retrievers, generators, queue) plus the transport's. */
export interface ServerOptions extends ServiceOptions {
  /** TCP port, 0 … 65535; 0 picks a free one. Default {@link DEFAULT_PORT}. */
  port?: number;
  /**
   * Interface to bind. Default {@link DEFAULT_HOST}; anything not loopback (`0.0.0.0`,
   * a LAN address) exposes the corpus to the network and is logged as such.
   */
  host?: string;
  /** Largest request body in bytes, 1 KiB … 16 MiB. Default {@link DEFAULT_BODY_LIMIT}. */
  bodyLimit?: number;
  /** Log each request to stderr (Fastify's logger). Default `false`. */
  logRequests?: boolean;
  /**
   * Show the machine's absolute paths (index and corpus folders, model caches) in error
   * messages, hints and stats. Clients are told `<path>` instead by default: a shared
   * server should not tell every client where it keeps things. Default `false`.
   */
  exposePaths?: boolean;
}

export interface ResolvedServerOptions extends ResolvedServiceOptions {
  port: number;
  host: string;
  bodyLimit: number;
  logRequests: boolean;
  exposePaths: boolean;
}

const SERVER_OPTIONS_SCHEMA = v.extend(SERVICE_OPTIONS_SCHEMA, {
  port: v.optional(integerIn(0, 65535)),
  host: v.optional(v.string().check(v.minLength(1))),
  bodyLimit: v.optional(integerIn(1024, 16 * 1024 * 1024)),
  logRequests: v.optional(v.boolean()),
  exposePaths: v.optional(v.boolean()),
});

/** The options with defaults applied; throws `INVALID_ARGUMENT` naming the bad option. */
export function resolveServerOptions(options: ServerOptions): ResolvedServerOptions {
  const parsed = parseOptions(SERVER_OPTIONS_SCHEMA, options, { subject: 'server' });
  return {
    ...withServiceDefaults(parsed),
    port: parsed.port ?? DEFAULT_PORT,
    host: parsed.host ?? DEFAULT_HOST,
    bodyLimit: parsed.bodyLimit ?? DEFAULT_BODY_LIMIT,
    logRequests: parsed.logRequests ?? false,
    exposePaths: parsed.exposePaths ?? false,
  };
}

/** The part of resolved server options the service takes. */
export function serviceOptionsOf(options: ResolvedServerOptions): ServiceOptions {
  const service = options;
  const picked: ServiceOptions = { indexDir: service.indexDir, pathBase: service.pathBase, generatorSettings: service.generatorSettings };
  if (service.retriever !== undefined) picked.retriever = service.retriever;
  if (service.retrievers !== undefined) picked.retrievers = service.retrievers;
  picked.retrieverSettings = service.retrieverSettings;
  picked.workers = service.workers;
  if (service.retrieverModule !== undefined) picked.retrieverModule = service.retrieverModule;
  if (service.generator !== undefined) picked.generator = service.generator;
  if (service.generators !== undefined) picked.generators = service.generators;
  picked.maxConcurrentAnswers = service.maxConcurrentAnswers;
  picked.maxQueuedAnswers = service.maxQueuedAnswers;
  picked.staleCheckIntervalMs = service.staleCheckIntervalMs;
  if (service.followIndexMs !== undefined) picked.followIndexMs = service.followIndexMs;
  if (service.watch !== undefined) picked.watch = service.watch;
  return picked;
}

/** True for addresses only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare) || bare === '::ffff:127.0.0.1';
}
