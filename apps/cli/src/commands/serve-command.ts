import type { ServerOptions } from '@rag/server';
import { INDEX_DIR_FLAG, STORE_FLAG, QUIET_FLAG, VERBOSE_FLAG, writeErr, type Command } from '../command.js';
import { indexDirFrom, invocationDir, resolveUserPath } from '../paths.js';
import { EMBEDDING_MODEL_FLAG, retrieverSettingsFor } from '../retrievers.js';
import { RETRIEVER_FLAG } from './search-command.js';
import { untilStopped, WATCH_FLAG, WATCH_POLL_FLAG, watchSettingsFrom } from '../watch.js';

function describeWorkers(workers: number): string {
  return workers === 0 ? 'searches on the server thread' : `${workers} search worker${workers === 1 ? '' : 's'}`;
}

export const serveCommand: Command = {
  name: 'serve',
  flags: [
    INDEX_DIR_FLAG,
    STORE_FLAG,
    { name: 'port', type: 'integer', metavar: 'N', min: 0, max: 65535, description: 'TCP port (0 picks a free one)', defaultLabel: '8000' },
    { name: 'host', type: 'string', metavar: 'HOST', description: 'Interface to bind; anything but loopback exposes the corpus to the network', defaultLabel: '127.0.0.1' },
    RETRIEVER_FLAG,
    EMBEDDING_MODEL_FLAG,
    { name: 'generator', type: 'string', metavar: 'NAME', description: 'Generator for /answer (extractive, qwen3)', defaultLabel: 'qwen3 if its model is on disk, else extractive' },
    { name: 'model_dir', type: 'string', metavar: 'DIR', description: 'Local model folder for the qwen3 generator' },
    { name: 'max_concurrent_answers', type: 'integer', metavar: 'N', min: 1, max: 64, description: 'Answers generated at once', defaultLabel: '1' },
    { name: 'max_queued_answers', type: 'integer', metavar: 'N', min: 0, max: 10_000, description: 'Answer requests that may wait; more get 503', defaultLabel: '8' },
    { name: 'workers', type: 'integer', metavar: 'N', min: 0, max: 64, description: 'Worker threads running searches over one shared copy of the index; 0 searches on the server thread', defaultLabel: 'one per core' },
    WATCH_FLAG,
    WATCH_POLL_FLAG,
    { name: 'log', type: 'boolean', description: 'Log every request to stderr' },
    { name: 'show_paths', type: 'boolean', description: "Show this machine's absolute paths in error messages and /stats (hidden from clients by default)" },
    QUIET_FLAG,
    VERBOSE_FLAG,
  ],
  examples: ['rag serve --index_dir .rag/index', 'rag serve --watch 2', 'rag serve --port 0 --generator extractive', 'rag serve --host 0.0.0.0 --port 8080', 'rag serve --workers 4', 'rag serve --store postgresql://rag:secret@replica.internal/rag'],
  async run(flags) {
    const quiet = flags.quiet === true;
    // Loaded on demand: the other commands never pay for Fastify and the MCP SDK.
    const { isLoopbackHost, startServer } = await import('@rag/server');
    const options: ServerOptions = {
      indexDir: indexDirFrom(flags),
      retrieverSettings: retrieverSettingsFor(flags.embedding_model as string | undefined),
      pathBase: invocationDir(),
      logRequests: flags.log === true,
      exposePaths: flags.show_paths === true,
    };
    if (flags.port !== undefined) options.port = flags.port as number;
    if (flags.host !== undefined) options.host = flags.host as string;
    if (flags.retriever !== undefined) options.retriever = flags.retriever as string;
    if (flags.generator !== undefined) options.generator = flags.generator as string;
    if (flags.model_dir !== undefined) options.generatorSettings = { modelDir: resolveUserPath(flags.model_dir as string) };
    if (flags.max_concurrent_answers !== undefined) options.maxConcurrentAnswers = flags.max_concurrent_answers as number;
    if (flags.max_queued_answers !== undefined) options.maxQueuedAnswers = flags.max_queued_answers as number;
    if (flags.workers !== undefined) options.workers = flags.workers as number;
    const watch = await watchSettingsFrom(flags, quiet);
    if (watch) options.watch = watch;
    const server = await startServer(options);
    const stats = await server.service.stats();
    if (!isLoopbackHost(server.options.host)) {
      writeErr(`warning: listening on ${server.options.host}: anyone who can reach this machine can read the indexed corpus.`);
    }
    writeErr(`rag server listening on ${server.url} (${stats.files} files, ${stats.chunks} chunks, retriever ${stats.retriever}, generator ${stats.generator}, ${describeWorkers(stats.search_workers.workers)}); Ctrl-C stops it.`, quiet);
    if (stats.stale && !watch) writeErr(`warning: ${stats.changed_count + stats.missing_count} indexed file(s) changed since indexing; re-run \`rag index\` to refresh (or serve with --watch).`, quiet);
    await untilStopped();
    await server.close();
  },
};
