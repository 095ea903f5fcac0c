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

/** An absolute path after a space, quote, bracket or backtick (not `//` inside a URL). */
const ABSOLUTE_PATH = /(^|[\s(\[`'"])(?:\/[^\s`'")\],;]+|~\/[^\s`'")\],;]*)/g;

/**
 * Replaces absolute paths in a message with `<path>`: where the index, the corpus or the
 * model cache live on the server's machine is none of a client's business. The server's
 * own log keeps the full error.
 */
export function redactPaths(text: string): string {
  return text.replace(ABSOLUTE_PATH, (_match, before: string) => `${before}<path>`);
}

/**
 * The HTTP status (from @rag/core's one code → status table) and body for `error`;
 * unexpected errors become a 500 without internals.
 */
export function classifyError(error: unknown, exposePaths = false): ClassifiedError {
  if (isRagError(error)) {
    const { code } = error;
    const shown = (text: string) => (exposePaths ? text : redactPaths(text));
    const message = shown(error.message);
    const hint = error.hint === undefined ? undefined : shown(error.hint);
    return { status: statusOfCode(code), body: hint ? { code, message, hint } : { code, message } };
  }
  return {
    status: 500,
    body: { code: 'INTERNAL', message: 'The server failed unexpectedly.', hint: 'See the server log for details, and please report it.' },
  };
}
