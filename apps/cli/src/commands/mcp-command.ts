import { INDEX_DIR_FLAG, STORE_FLAG, VERBOSE_FLAG, type Command } from '../command.js';
import { indexDirFrom, invocationDir } from '../paths.js';
import { createRetrieverRegistry, EMBEDDING_MODEL_FLAG } from '../retrievers.js';
import { RETRIEVER_FLAG } from './search-command.js';

export const mcpCommand: Command = {
  name: 'mcp',
  flags: [
    INDEX_DIR_FLAG,
    STORE_FLAG,
    RETRIEVER_FLAG,
    EMBEDDING_MODEL_FLAG,
    { name: 'show_paths', type: 'boolean', description: "Show this machine's absolute paths in tool errors and index_stats (hidden by default)" },
    VERBOSE_FLAG,
  ],
  examples: ['rag mcp --index_dir /path/to/.rag/index'],
  async run(flags) {
    // stdout carries the protocol: this command prints nothing there itself.
    const { serveMcpOverStdio } = await import('@rag/server');
    const options: Parameters<typeof serveMcpOverStdio>[0] = {
      indexDir: indexDirFrom(flags),
      retrievers: createRetrieverRegistry(flags.embedding_model as string | undefined),
      pathBase: invocationDir(),
      exposePaths: flags.show_paths === true,
    };
    if (flags.retriever !== undefined) options.retriever = flags.retriever as string;
    const server = await serveMcpOverStdio(options);
    await server.closed;
  },
};
