import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { openRagService, type ServiceOptions } from '@rag/service';
import { createMcpServer } from './tools.js';

export type McpStdioOptions = Pick<ServiceOptions, 'indexDir' | 'retriever' | 'retrievers' | 'pathBase' | 'staleCheckIntervalMs'>;

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
  // The tools neither answer nor generate, so no model is loaded.
  const service = await openRagService({ ...options, generator: 'extractive' }, { loadGenerator: false });
  const server = createMcpServer(service);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  return { closed, close: () => server.close() };
}
