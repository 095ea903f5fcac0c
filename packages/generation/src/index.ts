export type {
  AnswerResult,
  CitedSource,
  GenerateOptions,
  GenerateRequest,
  GenerationEvent,
  Generator,
  GeneratorIdentity,
  SourceForAnswer,
  Span,
} from './types.js';
export {
  DEFAULT_CONTEXT_TOKENS,
  DEFAULT_DECODING,
  DEFAULT_MAX_NEW_TOKENS,
  DEFAULT_MIN_SOURCE_TOKENS,
  resolveDecoding,
  type DecodingOptions,
} from './options.js';
export {
  buildPrompt,
  DEFAULT_SYSTEM_PROMPT,
  formatMessages,
  formatUserMessage,
  promptTemplateHash,
  type BuiltPrompt,
  type ChatMessage,
  type PromptOptions,
  type PromptTokenizer,
  type ShownSource,
} from './prompt.js';
export { CHAT_TEMPLATE_ARGS, renderChat, toPromptTokenizer } from './chat-tokenizer.js';
export { mapCitations, type CitationMapping } from './citations.js';
export { stripThinking, ThinkingFilter } from './think.js';
export { describeSource, sourceHash, toSourceForAnswer } from './sources.js';
export { NO_SOURCES_ANSWER, NOT_FOUND_ANSWER } from './messages.js';
export { DEFAULT_HUB_DTYPE, isModelOnDisk, locateModel, QWEN3_MODEL_ID, type ModelLocationOptions } from './model-source.js';
export { createTransformersGenerator, type ModelLoadProgress, type TransformersGeneratorOptions } from './transformers-generator.js';
export { answerExtractively, createExtractiveGenerator, EXTRACTIVE_GENERATOR_NAME, type ExtractiveAnswer } from './extractive/generator.js';
export {
  DEFAULT_MAX_ANSWER_CHARS,
  DEFAULT_MAX_QUOTES,
  DEFAULT_MIN_RELATIVE_SCORE,
  resolveExtractiveOptions,
  type ExtractiveOptions,
} from './extractive/options.js';
export { splitIntoUnits, type TextUnit } from './extractive/units.js';
export {
  DEFAULT_GENERATOR,
  chooseDefaultGenerator,
  createGeneratorRegistry,
  QWEN3_GENERATOR_NAME,
  type GeneratorInfo,
  type GeneratorRegistry,
  type GeneratorSettings,
} from './registry.js';
export { answerCacheKey, createAnswerCache, withAnswerCache, type AnswerCache, type AnswerCacheContext, type AnswerCacheKeyInput } from './cache.js';
export { answer, type AnswerOptions } from './answer.js';
export {
  answerDataset,
  answerDatasetToFile,
  checkpointPathFor,
  DEFAULT_CHECKPOINT_INTERVAL_MS,
  type AnswerDatasetOptions,
  type AnswerDatasetResult,
  type AnswerProgress,
  type SpanReader,
} from './dataset.js';
