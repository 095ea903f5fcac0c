// `@rag/generation/internals`: the parts under the public interface, for this workspace's tests,
// benchmarks and sibling packages that need one step deeper. No stability promise beyond it.
export type { CitedSource, GeneratorIdentity, Span } from './types.js';
export { resolveDecoding } from './options.js';
export {
  buildPrompt,
  formatMessages,
  formatUserMessage,
  promptTemplateHash,
  type BuiltPrompt,
  type ChatMessage,
  type PromptTokenizer,
  type ShownSource,
} from './prompt.js';
export { CHAT_TEMPLATE_ARGS, renderChat, toPromptTokenizer } from './chat-tokenizer.js';
export { mapCitations, type CitationMapping } from './citations.js';
export { stripThinking, ThinkingFilter } from './think.js';
export { describeSource, sourceHash } from './sources.js';
export { NO_SOURCES_ANSWER, NOT_FOUND_ANSWER } from './messages.js';
export { answerExtractively, scoreAnswerUnits, type ExtractiveAnswer } from './extractive/generator.js';
export { resolveExtractiveOptions } from './extractive/options.js';
export { splitIntoUnits, type TextUnit } from './extractive/units.js';
export { readableField } from './extractive/docstrings.js';
export { answerCacheKey, type AnswerCacheKeyInput } from './cache.js';
export { DEFAULT_CHECKPOINT_INTERVAL_MS } from './dataset.js';
