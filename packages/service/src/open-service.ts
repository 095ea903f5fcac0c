import { integerIn, openIndexSession, parseOptions, z, type RetrieverSource } from '@rag/core';
import { chooseDefaultGenerator, createGeneratorRegistry, type GeneratorRegistry, type GeneratorSettings } from '@rag/generation';
import { AnswerQueue } from './answer-queue.js';
import { GeneratorPool } from './generator-pool.js';
import {
  DEFAULT_MAX_CONCURRENT_ANSWERS,
  DEFAULT_MAX_QUEUED_ANSWERS,
  DEFAULT_STALE_CHECK_INTERVAL_MS,
  type ServiceOptions,
} from './options.js';
import { createDefaultRetrieverRegistry } from './retrievers.js';
import { RagService } from './service.js';

export interface ResolvedServiceOptions {
  indexDir: string;
  retriever: string | undefined;
  retrievers: RetrieverSource | undefined;
  generator: string | undefined;
  generators: GeneratorRegistry | undefined;
  generatorSettings: GeneratorSettings;
  pathBase: string;
  maxConcurrentAnswers: number;
  maxQueuedAnswers: number;
  staleCheckIntervalMs: number;
}

/** The schema of {@link ServiceOptions}; servers extend it with their own keys. */
export const SERVICE_OPTIONS_SCHEMA = z.strictObject({
  indexDir: z.string().min(1),
  retriever: z.string().min(1).optional(),
  retrievers: z.custom<RetrieverSource>((v) => typeof v === 'object' && v !== null && typeof (v as RetrieverSource).get === 'function', 'a retriever registry').optional(),
  generator: z.string().min(1).optional(),
  generatorSettings: z.custom<GeneratorSettings>((v) => typeof v === 'object' && v !== null, 'an object').optional(),
  generators: z.custom<GeneratorRegistry>((v) => typeof v === 'object' && v !== null, 'a generator registry').optional(),
  pathBase: z.string().min(1).optional(),
  maxConcurrentAnswers: integerIn(1, 64).optional(),
  maxQueuedAnswers: integerIn(0, 10_000).optional(),
  staleCheckIntervalMs: integerIn(0, 3_600_000).optional(),
});

/** Applies defaults to validated service options. */
export function withServiceDefaults(options: z.output<typeof SERVICE_OPTIONS_SCHEMA>): ResolvedServiceOptions {
  return {
    indexDir: options.indexDir,
    retriever: options.retriever,
    retrievers: options.retrievers,
    generator: options.generator,
    generators: options.generators,
    generatorSettings: options.generatorSettings ?? {},
    pathBase: options.pathBase ?? process.cwd(),
    maxConcurrentAnswers: options.maxConcurrentAnswers ?? DEFAULT_MAX_CONCURRENT_ANSWERS,
    maxQueuedAnswers: options.maxQueuedAnswers ?? DEFAULT_MAX_QUEUED_ANSWERS,
    staleCheckIntervalMs: options.staleCheckIntervalMs ?? DEFAULT_STALE_CHECK_INTERVAL_MS,
  };
}

/** The options with defaults applied; throws `INVALID_ARGUMENT` naming the bad option. */
export function resolveServiceOptions(options: ServiceOptions): ResolvedServiceOptions {
  return withServiceDefaults(parseOptions(SERVICE_OPTIONS_SCHEMA, options, { subject: 'service' }));
}

/**
 * Opens the index and wires the packages into a service. The default generator is
 * created now, so a missing model fails at startup rather than on the first question.
 */
export async function openRagService(options: ServiceOptions, { loadGenerator = true } = {}): Promise<RagService> {
  const resolved = resolveServiceOptions(options);
  const sessionOptions: Parameters<typeof openIndexSession>[1] = {
    pathBase: resolved.pathBase,
    retrievers: resolved.retrievers ?? createDefaultRetrieverRegistry(),
  };
  if (resolved.retriever !== undefined) sessionOptions.retriever = resolved.retriever;
  const registry = resolved.generators ?? createGeneratorRegistry();
  const generatorName = resolved.generator ?? chooseDefaultGenerator(resolved.generatorSettings);
  const session = await openIndexSession(resolved.indexDir, sessionOptions);
  const generators = new GeneratorPool(registry, generatorName, resolved.generatorSettings);
  if (loadGenerator) await generators.get();
  return new RagService({
    session,
    generators,
    queue: new AnswerQueue(resolved.maxConcurrentAnswers, resolved.maxQueuedAnswers),
    staleCheckIntervalMs: resolved.staleCheckIntervalMs,
  });
}
