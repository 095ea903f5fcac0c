import { chooseDefaultGenerator, createGeneratorRegistry } from '@rag/generation';
import { AnswerQueue } from './answer-queue.js';
import { GeneratorPool } from './generator-pool.js';
import { createDefaultRetrieverRegistry, openIndexSession } from './index-session.js';
import type { ResolvedServerOptions } from './options.js';
import { RagService } from './service.js';

/**
 * Opens the index and wires the packages into a service. The default generator is
 * created now, so a missing model fails at startup rather than on the first question.
 */
export async function openRagService(options: ResolvedServerOptions, { loadGenerator = true } = {}): Promise<RagService> {
  const sessionOptions: Parameters<typeof openIndexSession>[1] = {
    pathBase: options.pathBase,
    retrievers: options.retrievers ?? createDefaultRetrieverRegistry(),
  };
  if (options.retriever !== undefined) sessionOptions.retriever = options.retriever;
  const session = await openIndexSession(options.indexDir, sessionOptions);
  const registry = options.generators ?? createGeneratorRegistry();
  const generatorName = options.generator ?? chooseDefaultGenerator(options.generatorSettings);
  const generators = new GeneratorPool(registry, generatorName, options.generatorSettings);
  if (loadGenerator) await generators.get();
  return new RagService({
    session,
    generators,
    queue: new AnswerQueue(options.maxConcurrentAnswers, options.maxQueuedAnswers),
    staleCheckIntervalMs: options.staleCheckIntervalMs,
  });
}
