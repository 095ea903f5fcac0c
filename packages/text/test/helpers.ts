import { isRagError, type RagError } from '@rag/core';
import { expect } from 'vitest';

/** The RagError `run` throws (or rejects with); fails the test when it throws nothing or something else. */
export async function rejection(run: () => unknown): Promise<RagError> {
  try {
    await run();
  } catch (error) {
    expect(isRagError(error)).toBe(true);
    return error as RagError;
  }
  throw new Error('expected a RagError, nothing was thrown');
}
