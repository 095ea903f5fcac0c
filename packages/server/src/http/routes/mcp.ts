import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createMcpServer } from '../../mcp/tools.js';
import type { RagService } from '@rag/service';
import { mcpSchema } from '../schemas.js';

const METHOD_NOT_ALLOWED = {
  jsonrpc: '2.0',
  error: { code: -32000, message: 'This MCP endpoint is stateless: send JSON-RPC requests with POST.' },
  id: null,
};

/**
 * Streamable HTTP in stateless mode: every POST gets a fresh MCP server and transport,
 * so requests share nothing and need no session bookkeeping. Fastify has already parsed
 * (and size-limited) the JSON body, which is handed to the transport as is.
 */
export function registerMcpRoute(app: FastifyInstance, service: RagService, exposePaths = false): void {
  app.post('/mcp', { schema: mcpSchema }, async (request, reply) => {
    const server = createMcpServer(service, { exposePaths });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.raw.once('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    reply.hijack();
    await transport.handleRequest(request.raw, reply.raw, request.body);
    return reply;
  });
  const refuse = async (_request: FastifyRequest, reply: FastifyReply) => reply.code(405).header('allow', 'POST').send(METHOD_NOT_ALLOWED);
  app.get('/mcp', { schema: { hide: true } }, refuse);
  app.delete('/mcp', { schema: { hide: true } }, refuse);
}
