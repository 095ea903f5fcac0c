export { createServer, startServer, type RagServer, type RunningServer } from './create-server.js';
export {
  DEFAULT_BODY_LIMIT,
  DEFAULT_HOST,
  DEFAULT_PORT,
  isLoopbackHost,
  resolveServerOptions,
  type ResolvedServerOptions,
  type ServerOptions,
} from './options.js';
export { classifyError, redactPaths, type ErrorBody } from './errors.js';
export { createMcpServer, MCP_SERVER_NAME } from './mcp/tools.js';
export { serveMcpOverStdio, type McpStdioOptions, type McpStdioServer } from './mcp/stdio.js';
export { SERVER_VERSION } from './version.js';
