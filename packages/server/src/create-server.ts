import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { RagError } from '@rag/core';
import { openRagService, type RagService } from '@rag/service';
import { buildApp } from './http/app.js';
import { resolveServerOptions, serviceOptionsOf, type ResolvedServerOptions, type ServerOptions } from './options.js';

export interface RagServer {
  /** The Fastify app, routes registered, not listening (use `app.inject` or `app.listen`). */
  app: FastifyInstance;
  service: RagService;
  options: ResolvedServerOptions;
  /** Stops listening, ends open streams, stops the search workers and frees the generators' models. */
  close(): Promise<void>;
}

export interface RunningServer extends RagServer {
  /** `http://127.0.0.1:8000`, with the port actually bound. */
  url: string;
  port: number;
}

/** Loads the index and builds the app without binding a port. */
export async function createServer(options: ServerOptions): Promise<RagServer> {
  const resolved = resolveServerOptions(options);
  const service = await openRagService(serviceOptionsOf(resolved));
  const app = await buildApp(service, { bodyLimit: resolved.bodyLimit, logRequests: resolved.logRequests, host: resolved.host, exposePaths: resolved.exposePaths });
  let closing: Promise<void> | undefined;
  return {
    app,
    service,
    options: resolved,
    close: () => (closing ??= app.close().then(() => service.close())),
  };
}

function describeListenError(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') {
    return new RagError('INVALID_ARGUMENT', `Port ${port} on ${host} is already in use.`, { hint: 'Pick another with --port, or --port 0 for a free one.', cause: error });
  }
  if (code === 'EACCES') {
    return new RagError('INVALID_ARGUMENT', `Not allowed to listen on ${host}:${port}.`, { hint: 'Ports below 1024 need privileges; use --port 8000.', cause: error });
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new RagError('INVALID_ARGUMENT', `${host} is not an address of this machine.`, { hint: 'Use --host 127.0.0.1 (the default), or an address this machine has.', cause: error });
  }
  return error;
}

function formatUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}

/** {@link createServer}, then listens on `host:port` (loopback and 8000 by default). */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const server = await createServer(options);
  const { host, port } = server.options;
  try {
    await server.app.listen({ host, port });
  } catch (error) {
    await server.close();
    throw describeListenError(error, host, port);
  }
  const bound = (server.app.server.address() as AddressInfo).port;
  return { ...server, url: formatUrl(host, bound), port: bound };
}
