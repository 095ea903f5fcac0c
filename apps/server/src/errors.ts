import type { RagErrorCode } from '@rag/core';

/**
 * Failures that only exist behind a server: a file that is not in the corpus, a full
 * answer queue. `RagErrorCode` has no such codes, so they live here.
 */
export type ServiceErrorCode = 'NOT_FOUND' | 'QUEUE_FULL';

export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  readonly code: ServiceErrorCode;
  readonly hint: string | undefined;

  constructor(code: ServiceErrorCode, message: string, hint?: string) {
    super(message);
    this.code = code;
    this.hint = hint;
  }
}

/** What every error response carries, over HTTP, SSE and MCP alike. */
export interface ErrorBody {
  code: string;
  message: string;
  hint?: string;
}

export interface ClassifiedError {
  status: number;
  body: ErrorBody;
}

const RAG_STATUS: Record<RagErrorCode, number> = {
  INVALID_ARGUMENT: 400,
  UNKNOWN_NAME: 400,
  DATASET_INVALID: 400,
  RESULTS_INVALID: 400,
  CORPUS_NOT_FOUND: 404,
  CORPUS_EMPTY: 404,
  INDEX_NOT_FOUND: 500,
  INDEX_INCOMPATIBLE: 500,
  INDEX_CORRUPT: 500,
  MODEL_NOT_FOUND: 503,
  IO_ERROR: 500,
  // The client went away; nobody reads this status, but it must not look like success.
  CANCELLED: 499,
};

const SERVICE_STATUS: Record<ServiceErrorCode, number> = { NOT_FOUND: 404, QUEUE_FULL: 503 };

/**
 * Duck-typed rather than `instanceof`: a caller such as the bundled CLI may hand the server
 * retrievers built from its own copy of @rag/core, whose `RagError` is another class.
 */
function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { name, code } = error as { name?: unknown; code?: unknown };
  return (name === 'RagError' || name === 'ServiceError') && typeof code === 'string' ? code : undefined;
}

/** The HTTP status and body for `error`; unexpected errors become a 500 without internals. */
export function classifyError(error: unknown): ClassifiedError {
  const code = codeOf(error);
  if (code !== undefined) {
    const { message, hint } = error as { message: string; hint?: string };
    const status = (RAG_STATUS as Record<string, number>)[code] ?? (SERVICE_STATUS as Record<string, number>)[code] ?? 500;
    return { status, body: hint ? { code, message, hint } : { code, message } };
  }
  return {
    status: 500,
    body: { code: 'INTERNAL', message: 'The server failed unexpectedly.', hint: 'See the server log for details, and please report it.' },
  };
}

export function isCancellation(error: unknown): boolean {
  return codeOf(error) === 'CANCELLED' || (error instanceof Error && error.name === 'AbortError');
}
