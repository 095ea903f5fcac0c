/**
 * Every failure the toolkit reports on purpose is a `RagError`: a stable `code` that
 * programs can switch on, a message that says what went wrong, and a `hint` that says
 * how to fix it. Anything else that escapes is a bug.
 */
export type RagErrorCode =
  | 'INVALID_ARGUMENT'
  | 'CORPUS_NOT_FOUND'
  | 'CORPUS_EMPTY'
  | 'INDEX_NOT_FOUND'
  | 'INDEX_INCOMPATIBLE'
  | 'INDEX_CORRUPT'
  | 'DATASET_INVALID'
  | 'RESULTS_INVALID'
  | 'UNKNOWN_NAME'
  | 'MODEL_NOT_FOUND'
  | 'IO_ERROR'
  | 'CANCELLED';

export interface RagErrorOptions {
  /** One sentence telling the user how to fix the problem. */
  hint?: string;
  /** The underlying error, kept for debugging (`--verbose` prints it). */
  cause?: unknown;
}

export class RagError extends Error {
  override readonly name = 'RagError';
  readonly code: RagErrorCode;
  readonly hint: string | undefined;

  constructor(code: RagErrorCode, message: string, options: RagErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.hint = options.hint;
  }

  /** Message plus hint, as shown to a user. */
  format(): string {
    return this.hint ? `${this.message}\n  hint: ${this.hint}` : this.message;
  }
}

export function isRagError(error: unknown): error is RagError {
  return error instanceof RagError;
}
