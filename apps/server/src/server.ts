// The bundled server entry (`node apps/server/dist/server.js`, bin `rag-server`): the same
// server as `rag serve`, and `rag-server mcp` for MCP over stdio, without the rest of the CLI.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { exitCodeOf, formatRagError, isRagError, RagError } from '@rag/core';
import { DEFAULT_HOST, DEFAULT_PORT, isLoopbackHost, SERVER_VERSION, serveMcpOverStdio, startServer, type ServerOptions } from '@rag/server';
import { describeWatchEvent, embeddingSettingsFor, DEFAULT_MAX_CONCURRENT_ANSWERS, DEFAULT_MAX_QUEUED_ANSWERS, isPostgresUrl, redactLocation, type WatchSettings } from '@rag/service';

const USAGE = `Usage:
  rag-server [serve] [--index_dir DIR | --store URL] [--port ${DEFAULT_PORT}] [--host ${DEFAULT_HOST}] [--retriever NAME]
             [--generator NAME] [--model_dir DIR] [--max_concurrent_answers ${DEFAULT_MAX_CONCURRENT_ANSWERS}]
             [--max_queued_answers ${DEFAULT_MAX_QUEUED_ANSWERS}] [--embedding_model NAME|DIR] [--workers N] [--watch SECONDS [--watch_poll]] [--log]
  rag-server mcp [--index_dir DIR | --store URL] [--retriever NAME] [--embedding_model NAME|DIR] [--watch SECONDS [--watch_poll]]

--index_dir defaults to $RAG_INDEX_DIR, else ./.rag/index; --store reads an index kept in
PostgreSQL (postgresql://user:password@host:port/db[?schema=name]). --workers: threads running
searches over one shared copy of the index (default one per core; 0 = the server thread).
--watch: re-index what is added, changed or removed in the indexed corpus (in a child process)
as soon as the file system reports it, and serve the new index at once; look at the whole corpus
every SECONDS (1 … 3600) when it cannot report changes, else once a minute for what it missed.
--watch_poll: look every SECONDS only (a network file system does not report remote changes).`;

const OPTIONS = {
  index_dir: { type: 'string' },
  store: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  retriever: { type: 'string' },
  embedding_model: { type: 'string' },
  generator: { type: 'string' },
  model_dir: { type: 'string' },
  max_concurrent_answers: { type: 'string' },
  max_queued_answers: { type: 'string' },
  workers: { type: 'string' },
  watch: { type: 'string' },
  watch_poll: { type: 'boolean' },
  log: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `--index-dir` and `--index_dir` name the same flag, as in the CLI. */
function normalize(argv: readonly string[]): string[] {
  return argv.map((token) => (token.startsWith('--') ? token.replace(/^--([^=]+)/, (_m, name: string) => `--${name.replaceAll('-', '_')}`) : token));
}

function integer(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) throw new RagError('INVALID_ARGUMENT', `--${name} must be a whole number, got "${raw}".`);
  return Number(raw);
}

/** `--watch SECONDS`: the service's watch settings, each update and each new failure a line on stderr. */
function watchSettings(raw: string | undefined, poll: boolean): WatchSettings | undefined {
  const seconds = integer('watch', raw);
  if (poll && seconds === undefined) throw new RagError('INVALID_ARGUMENT', '--watch_poll only changes how --watch looks at the corpus.', { hint: 'Add --watch SECONDS, or leave --watch_poll out.' });
  if (seconds === undefined) return undefined;
  if (seconds < 1 || seconds > 3600) throw new RagError('INVALID_ARGUMENT', `--watch must be from 1 to 3600 seconds, got ${seconds}.`);
  let lastFailure = '';
  return {
    // The server is a build of the same tool: its version is what its updates record.
    toolVersion: SERVER_VERSION,
    intervalMs: seconds * 1000,
    events: !poll,
    onEvent: (event) => {
      const line = describeWatchEvent(event);
      if (event.type === 'updated') lastFailure = '';
      else if (line === lastFailure) return;
      else lastFailure = line;
      process.stderr.write(`${event.type === 'updated' ? '' : 'warning: '}watch: ${line}\n`);
    },
  };
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: normalize(argv), options: OPTIONS, allowPositionals: true, strict: true });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const mode = positionals[0] ?? 'serve';
  if (positionals.length > 1 || (mode !== 'serve' && mode !== 'mcp')) {
    throw new RagError('INVALID_ARGUMENT', `Unexpected argument "${positionals.join(' ')}".`, { hint: USAGE });
  }
  if (values.store !== undefined && (!isPostgresUrl(values.store) || values.index_dir !== undefined)) {
    throw new RagError('INVALID_ARGUMENT', '--store takes a PostgreSQL connection string, and no --index_dir beside it.', {
      hint: 'Pass --store postgresql://user:password@host:port/database, or --index_dir DIR.',
    });
  }
  const indexDir = values.store ?? resolve(values.index_dir ?? process.env.RAG_INDEX_DIR ?? '.rag/index');
  const retrieverSettings = { embedding: embeddingSettingsFor(values.embedding_model, process.cwd()) };
  const watch = watchSettings(values.watch, values.watch_poll === true);
  if (mode === 'mcp') {
    const mcp = await serveMcpOverStdio({ indexDir, retrieverSettings, ...(values.retriever ? { retriever: values.retriever } : {}), ...(watch ? { watch } : {}) });
    process.stderr.write(`rag MCP server on stdio (index ${redactLocation(indexDir)})\n`);
    await mcp.closed;
    return;
  }
  const options: ServerOptions = { indexDir, retrieverSettings, logRequests: values.log === true, ...(watch ? { watch } : {}) };
  const workers = integer('workers', values.workers);
  if (workers !== undefined) options.workers = workers;
  const port = integer('port', values.port);
  if (port !== undefined) options.port = port;
  if (values.host) options.host = values.host;
  if (values.retriever) options.retriever = values.retriever;
  if (values.generator) options.generator = values.generator;
  if (values.model_dir) options.generatorSettings = { modelDir: resolve(values.model_dir) };
  const concurrent = integer('max_concurrent_answers', values.max_concurrent_answers);
  if (concurrent !== undefined) options.maxConcurrentAnswers = concurrent;
  const queued = integer('max_queued_answers', values.max_queued_answers);
  if (queued !== undefined) options.maxQueuedAnswers = queued;
  const server = await startServer(options);
  const stats = await server.service.stats();
  if (!isLoopbackHost(server.options.host)) {
    process.stderr.write(`warning: listening on ${server.options.host}: anyone who can reach this machine can read the indexed corpus.\n`);
  }
  process.stderr.write(
    `rag server listening on ${server.url} (${stats.files} files, ${stats.chunks} chunks, retriever ${stats.retriever}, generator ${stats.generator}, ${stats.search_workers.workers} search worker${stats.search_workers.workers === 1 ? '' : 's'})\n`,
  );
  const stop = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) {
    process.stderr.write(`error: ${(error as Error).message}\n\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  if (isRagError(error)) process.stderr.write(`error: ${formatRagError(error)}\n`);
  else process.stderr.write(`error: unexpected failure: ${error instanceof Error ? error.message : String(error)}\n  hint: please report it.\n`);
  process.exitCode = exitCodeOf(error);
});
