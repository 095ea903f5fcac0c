import { RagError } from '@rag/core';
import type { AnswerResult, GenerateOptions, GenerateRequest, Generator } from './types.js';

export interface AnswerOptions extends GenerateOptions {
  /** Called with each piece of streamed text, in order. */
  onToken?: (text: string) => void;
}

/** Runs `generator` to the end and returns its result (the streamed text goes to `onToken`). */
export async function answer(generator: Generator, request: GenerateRequest, options: AnswerOptions = {}): Promise<AnswerResult> {
  let result: AnswerResult | undefined;
  for await (const event of generator.generate(request, options)) {
    if (event.type === 'token') options.onToken?.(event.text);
    else result = event.result;
  }
  if (!result) throw new RagError('INVALID_ARGUMENT', `Generator ${generator.name} ended without a result.`);
  return result;
}
