export type { AnswerResult, GenerateOptions, GenerateRequest, GenerationEvent, Generator, SourceForAnswer } from './types.js';
export {
  DEFAULT_CONTEXT_TOKENS,
  DEFAULT_DECODING,
  DEFAULT_MAX_NEW_TOKENS,
  DEFAULT_MIN_SOURCE_TOKENS,
  type DecodingOptions,
} from './options.js';
export { DEFAULT_SYSTEM_PROMPT, type PromptOptions } from './prompt.js';
export { toSourceForAnswer } from './sources.js';
export { DEFAULT_HUB_DTYPE, isModelOnDisk, locateModel, QWEN3_MODEL_ID, type ModelLocationOptions } from './model-source.js';
export { createTransformersGenerator, type ModelLoadProgress, type TransformersGeneratorOptions } from './transformers-generator.js';
export { createExtractiveGenerator, EXTRACTIVE_GENERATOR_NAME } from './extractive/generator.js';
export { DEFAULT_MAX_ANSWER_CHARS, DEFAULT_MAX_QUOTES, DEFAULT_MIN_RELATIVE_SCORE, type ExtractiveOptions } from './extractive/options.js';
export {
  DEFAULT_GENERATOR,
  chooseDefaultGenerator,
  createGeneratorRegistry,
  QWEN3_GENERATOR_NAME,
  type GeneratorInfo,
  type GeneratorRegistry,
  type GeneratorSettings,
} from './registry.js';
export { createAnswerCache, withAnswerCache, type AnswerCache, type AnswerCacheContext } from './cache.js';
export { answer, type AnswerOptions } from './answer.js';
export {
  answerDataset,
  answerDatasetToFile,
  checkpointPathFor,
  type AnswerDatasetOptions,
  type AnswerDatasetResult,
  type AnswerProgress,
  type SpanReader,
} from './dataset.js';
export { ANSWER_KIND_RULES, answerKindInstruction, detectAnswerKind, type AnswerKind, type AnswerKindRule } from './answer-kind.js';
