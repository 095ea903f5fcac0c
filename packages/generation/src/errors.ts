import { RagError } from '@rag/core';

export function cancelledError(): RagError {
  return new RagError('CANCELLED', 'Answer generation was cancelled.', { hint: 'Run the command again to get an answer.' });
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancelledError();
}
