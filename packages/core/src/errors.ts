/**
 * Every failure the toolkit reports on purpose is a `RagError`: a stable `code` that
 * programs can switch on, a message that says what went wrong, a `hint` that says how to
 * fix it, and the underlying `cause`. Anything else that escapes is a bug.
 */

/**
 * Each code with the HTTP status a server answers it with: the one table every transport
 * (HTTP, SSE, MCP) and the CLI's exit codes derive from.
 */
export const RAG_ERROR_STATUS = Object.freeze({
  /** A caller passed a bad value (flag, option, request field). */
  INVALID_ARGUMENT: 400,
  /** A name (retriever, generator, language, fusion) that no registry knows. */
  UNKNOWN_NAME: 400,
  DATASET_INVALID: 400,
  RESULTS_INVALID: 400,
  CORPUS_NOT_FOUND: 404,
  CORPUS_EMPTY: 404,
  /** A file or span that is not part of the indexed corpus. */
  NOT_FOUND: 404,
  INDEX_NOT_FOUND: 500,
  INDEX_INCOMPATIBLE: 500,
  INDEX_CORRUPT: 500,
  /** Another writer holds the index's lock. */
  INDEX_BUSY: 409,
  MODEL_NOT_FOUND: 503,
  /** Too many answers waiting; retry later. */
  QUEUE_FULL: 503,
  /** A worker thread stopped while serving the request; it is replaced, so a retry works. */
  WORKER_FAILED: 503,
  IO_ERROR: 500,
  /** The index's database cannot be used: unreachable, credentials refused, no such database or no rights. */
  STORE_UNAVAILABLE: 503,
  // The client went away; nobody reads this status, but it must not look like success.
  CANCELLED: 499,
});

export type RagErrorCode = keyof typeof RAG_ERROR_STATUS;

/** Every code, for validation and documentation. */
export const RAG_ERROR_CODES = Object.freeze(Object.keys(RAG_ERROR_STATUS) as RagErrorCode[]);

export interface RagErrorOptions {
  /** One sentence telling the user how to fix the problem. */
  hint?: string | undefined;
  /** The underlying error, kept for debugging (`--verbose` prints it). */
  cause?: unknown;
}

/**
 * Marks RagErrors across copies of this module (a bundle, a second install): `instanceof`
 * only recognises the class of one copy, this global symbol recognises them all.
 */
const RAG_ERROR_BRAND = Symbol.for('@rag/core.RagError');

export class RagError extends Error {
  override readonly name = 'RagError';
  readonly code: RagErrorCode;
  readonly hint: string | undefined;
  readonly [RAG_ERROR_BRAND] = true;

  constructor(code: RagErrorCode, message: string, options: RagErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.hint = options.hint;
  }

  /** Message plus hint, as shown to a user. */
  format(): string {
    return formatRagError(this);
  }
}

/** True for a RagError from any copy of @rag/core (see {@link RAG_ERROR_BRAND}). */
export function isRagError(error: unknown): error is RagError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[RAG_ERROR_BRAND] === true;
}

/** Message plus hint, as shown to a user; works on a RagError from any copy of this module. */
export function formatRagError(error: Pick<RagError, 'message' | 'hint'>): string {
  return error.hint ? `${error.message}\n  hint: ${error.hint}` : error.message;
}

/** The HTTP status for a code; 500 for a code this copy does not know. */
export function statusOfCode(code: string): number {
  return (RAG_ERROR_STATUS as Record<string, number>)[code] ?? 500;
}

/** True when `error` means the work was cancelled (a RagError `CANCELLED` or an `AbortError`). */
export function isCancellation(error: unknown): boolean {
  return (isRagError(error) && error.code === 'CANCELLED') || (error instanceof Error && error.name === 'AbortError');
}

/** Codes that mean the command line itself was wrong: exit status 2 rather than 1. */
export const USAGE_ERROR_CODES: readonly RagErrorCode[] = Object.freeze(['INVALID_ARGUMENT', 'UNKNOWN_NAME']);

/** The process exit status for a failure: 2 for a wrong command line, 1 when the work failed. */
export function exitCodeOf(error: unknown): 1 | 2 {
  return isRagError(error) && USAGE_ERROR_CODES.includes(error.code) ? 2 : 1;
}
