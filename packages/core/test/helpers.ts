import { RagError } from '../src/index.js';
import { expect } from 'vitest';

/** Runs `run` and returns the RagError it throws (failing the test otherwise). */
export async function rejection(run: () => unknown): Promise<RagError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(RagError);
    return error as RagError;
  }
  throw new Error('expected a RagError, nothing was thrown');
}
