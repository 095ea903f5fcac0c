import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { openRagService, type ServiceOptions } from '@rag/service';
import { createMcpServer } from './tools.js';

export type McpStdioOptions = Pick<ServiceOptions, 'indexDir' | 'retriever' | 'retrievers' | 'retrieverSettings' | 'pathBase' | 'staleCheckIntervalMs' | 'watch'> & {
  /** Absolute paths in errors and `index_stats`. Default `false`. */
  exposePaths?: boolean;
};

export interface McpStdioServer {
  /** Resolves when the client closes the connection (stdin ends). */
  closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves the MCP tools on stdin/stdout until the client hangs up. stdout carries the
 * protocol only: nothing else may be printed there while this runs.
 */
export async function serveMcpOverStdio(options: McpStdioOptions): Promise<McpStdioServer> {
  // The tools neither answer nor generate, so no model is loaded; one client asks one thing
  // at a time, so searches stay on this thread (no workers to start or to keep the process alive).
  const { exposePaths, ...serviceOptions } = options;
  const service = await openRagService({ ...serviceOptions, generator: 'extractive', workers: 0 }, { loadGenerator: false });
  const server = createMcpServer(service, { exposePaths: exposePaths === true });
  const transport = new StdioServerTransport();
  // The SDK drops a line it cannot read; JSON-RPC 2.0 requires an answer with id null:
  // -32700 for text that is not JSON, -32600 for JSON that is not a valid message.
  transport.onerror = (error) => {
    const notJson = error instanceof SyntaxError;
    const invalid = !notJson && (error as { name?: string }).name === 'ZodError';
    if (!notJson && !invalid) return;
    void transport.send({
      jsonrpc: '2.0',
      id: null,
      error: notJson ? { code: -32700, message: 'Parse error: the line is not JSON.' } : { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 request, notification or response.' },
    } as unknown as Parameters<typeof transport.send>[0]);
  };
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  return { closed, close: () => server.close().then(() => service.close()) };
}
