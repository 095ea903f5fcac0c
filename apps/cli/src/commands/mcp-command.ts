import { INDEX_DIR_FLAG, STORE_FLAG, VERBOSE_FLAG, type Command } from '../command.js';
import { indexDirFrom, invocationDir } from '../paths.js';
import { EMBEDDING_MODEL_FLAG, retrieverSettingsFor } from '../retrievers.js';
import { WATCH_FLAG, WATCH_POLL_FLAG, watchSettingsFrom } from '../watch.js';
import { RETRIEVER_FLAG } from './search-command.js';

export const mcpCommand: Command = {
  name: 'mcp',
  flags: [
    INDEX_DIR_FLAG,
    STORE_FLAG,
    RETRIEVER_FLAG,
    EMBEDDING_MODEL_FLAG,
    WATCH_FLAG,
    WATCH_POLL_FLAG,
    { name: 'show_paths', type: 'boolean', description: "Show this machine's absolute paths in tool errors and index_stats (hidden by default)" },
    VERBOSE_FLAG,
  ],
  examples: ['rag mcp --index_dir /path/to/.rag/index', 'rag mcp --watch 2'],
  async run(flags) {
    // stdout carries the protocol: this command prints nothing there itself.
    const { serveMcpOverStdio } = await import('@rag/server');
    const options: Parameters<typeof serveMcpOverStdio>[0] = {
      indexDir: indexDirFrom(flags),
      // Plain settings, not a registry object: an update started by --watch builds with them in its own process.
      retrieverSettings: retrieverSettingsFor(flags.embedding_model as string | undefined),
      pathBase: invocationDir(),
      exposePaths: flags.show_paths === true,
    };
    if (flags.retriever !== undefined) options.retriever = flags.retriever as string;
    const watch = await watchSettingsFrom(flags, false);
    if (watch) options.watch = watch;
    const server = await serveMcpOverStdio(options);
    await server.closed;
  },
};
