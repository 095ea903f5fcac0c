import { isRagError, statusOfCode } from '@rag/core';

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

/**
 * The HTTP status (from @rag/core's one code → status table) and body for `error`;
 * unexpected errors become a 500 without internals.
 */
export function classifyError(error: unknown): ClassifiedError {
  if (isRagError(error)) {
    const { code, message, hint } = error;
    return { status: statusOfCode(code), body: hint ? { code, message, hint } : { code, message } };
  }
  return {
    status: 500,
    body: { code: 'INTERNAL', message: 'The server failed unexpectedly.', hint: 'See the server log for details, and please report it.' },
  };
}
