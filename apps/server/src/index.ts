export { createServer, startServer, type RagServer, type RunningServer } from './create-server.js';
export { openRagService } from './create-service.js';
export {
  DEFAULT_ANSWER_K,
  DEFAULT_BODY_LIMIT,
  DEFAULT_HOST,
  DEFAULT_MAX_CONCURRENT_ANSWERS,
  DEFAULT_MAX_QUEUED_ANSWERS,
  DEFAULT_PORT,
  DEFAULT_SEARCH_K,
  DEFAULT_STALE_CHECK_INTERVAL_MS,
  isLoopbackHost,
  MAX_K,
  MAX_QUERY_LENGTH,
  resolveServerOptions,
  type ResolvedServerOptions,
  type ServerOptions,
} from './options.js';
export {
  LISTED_STALE_FILES,
  RagService,
  type AnswerEvent,
  type AnswerRequest,
  type AnswerView,
  type CitedSourceView,
  type HitView,
  type SearchRequest,
  type SearchView,
  type StatsView,
} from './service.js';
export {
  createDefaultRetrieverRegistry,
  createOutputPathMapper,
  openIndexSession,
  type IndexSession,
  type IndexSessionOptions,
  type RetrieverSource,
  type SessionHit,
} from './index-session.js';
export { CorpusReader, type SpanRequest, type SpanText } from './corpus-reader.js';
export { StalenessTracker, type FileState, type StalenessReport } from './staleness.js';
export { AnswerQueue, type QueueState, type Release } from './answer-queue.js';
export { GeneratorPool } from './generator-pool.js';
export { classifyError, ServiceError, type ErrorBody, type ServiceErrorCode } from './errors.js';
export { createMcpServer, MCP_SERVER_NAME } from './mcp/tools.js';
export { serveMcpOverStdio, type McpStdioOptions, type McpStdioServer } from './mcp/stdio.js';
export { SERVER_VERSION } from './version.js';
