import { answerKindInstruction, detectAnswerKind } from './answer-kind.js';
import { RagError } from '@rag/core';
import { sha256Hex, stableStringify } from './hash.js';
import { DEFAULT_CONTEXT_TOKENS, DEFAULT_MIN_SOURCE_TOKENS, checkInteger } from './options.js';
import { describeSource } from './sources.js';
import type { SourceForAnswer } from './types.js';

/** Bumped whenever the layout of the user message changes (part of the template hash). */
const PROMPT_LAYOUT_VERSION = 3;

export const DEFAULT_SYSTEM_PROMPT = [
  'You answer questions about a software project using only the numbered sources the user gives you.',
  'Cite each fact with the number of its source in square brackets, like [1] or [2][3], right after the fact.',
  'Cite only the numbers of the sources given.',
  'If the sources do not contain the answer, say plainly that they do not, and do not guess.',
  'Be brief: a few sentences; write code identifiers in backticks.',
].join(' ');

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** The model's tokenizer as the prompt builder needs it. */
export interface PromptTokenizer {
  /** Token ids of `messages` rendered with the model's chat template, generation prompt added, thinking off. */
  encodeChat(messages: readonly ChatMessage[]): number[];
  /** Token ids of plain text, without special tokens. */
  encode(text: string): number[];
  /** The text of token ids. */
  decode(ids: readonly number[]): string;
}

export interface PromptOptions {
  /**
   * Budget for the whole prompt in model tokens: system prompt, sources, question and the
   * chat template's markup, counted with the model's tokenizer. Sources are added best
   * first until the next does not fit; that one is cut at a token boundary. Integer in
   * [64, 1,048,576]. Default {@link DEFAULT_CONTEXT_TOKENS} (2048).
   */
  contextTokens?: number;
  /** Instructions for the model. Default {@link DEFAULT_SYSTEM_PROMPT}. */
  systemPrompt?: string;
  /**
   * A source is cut to fit only when at least this many of its tokens fit; otherwise it
   * is left out. Integer in [1, contextTokens]. Default {@link DEFAULT_MIN_SOURCE_TOKENS} (24).
   */
  minSourceTokens?: number;
  /**
   * Words of the question that no indexed chunk holds (`GenerateRequest.unindexedWords`),
   * named in the user message (at most five). Default none.
   */
  unindexedWords?: readonly string[];
}

export interface ShownSource {
  source: SourceForAnswer;
  /** The text shown: the source's text, or a token-boundary prefix of it. */
  text: string;
  truncated: boolean;
}

export interface BuiltPrompt {
  messages: ChatMessage[];
  /** The rendered prompt's token ids (at most contextTokens of them). */
  inputIds: number[];
  /** The sources in the prompt, numbered 1.. in this order. */
  shown: ShownSource[];
  /** True when the last shown source was cut. */
  truncated: boolean;
}

function formatSource(n: number, shown: ShownSource): string {
  const label = `[${n}] ${describeSource(shown.source)}${shown.truncated ? ' (cut to fit)' : ''}`;
  return `${label}\n${shown.text.trimEnd()}`;
}

/** Most of the question's unindexed words named in the prompt. */
const MAX_UNINDEXED_NAMED = 5;

/**
 * The line that tells the model which words of the question no indexed chunk holds (see
 * `GenerateRequest.unindexedWords`): sources near the question can then not be mistaken for
 * an answer about what the corpus never mentions. '' when there are none.
 */
function unindexedLine(unindexedWords: readonly string[]): string {
  const named = [...new Set(unindexedWords)].slice(0, MAX_UNINDEXED_NAMED);
  return named.length > 0 ? `\nNot in the indexed corpus at all: ${named.map((word) => `“${word}”`).join(', ')}. If the answer depends on them, say that the sources do not contain it.` : '';
}

/**
 * The user message: numbered, labelled sources, the question, one line on the form the
 * answer should take when the question asks for a particular kind of fact (see
 * `detectAnswerKind`: a default, an error, a place, steps, a list, yes/no, a value), and one
 * naming the question's words that the whole indexed corpus lacks, when there are any.
 */
export function formatUserMessage(question: string, shown: readonly ShownSource[], unindexedWords: readonly string[] = []): string {
  const blocks = shown.map((s, i) => formatSource(i + 1, s));
  const instruction = answerKindInstruction(detectAnswerKind(question));
  return `Sources:\n\n${blocks.length > 0 ? blocks.join('\n\n') : '(none)'}\n\nQuestion: ${question.trim()}${instruction ? `\nAnswer form: ${instruction}` : ''}${unindexedLine(unindexedWords)}`;
}

export function formatMessages(question: string, shown: readonly ShownSource[], systemPrompt: string, unindexedWords: readonly string[] = []): ChatMessage[] {
  return [
    { role: 'system', content: systemPrompt },
    { role: 'user', content: formatUserMessage(question, shown, unindexedWords) },
  ];
}

/**
 * Hash of everything in the prompt that is not the question or the sources: the system
 * prompt and the message layout (rendered for a fixed example, so any layout change
 * changes the hash).
 */
export function promptTemplateHash(systemPrompt: string = DEFAULT_SYSTEM_PROMPT): string {
  const example: ShownSource = {
    source: { file_path: 'a/b.py', first_character_index: 0, last_character_index: 4, start_line: 1, end_line: 2, symbol: 'S', text: 'text' },
    text: 'text',
    truncated: true,
  };
  return sha256Hex(stableStringify({ v: PROMPT_LAYOUT_VERSION, systemPrompt, layout: formatMessages('Q?', [example], systemPrompt, ['W']) }));
}

/** Drops a trailing replacement character: the prefix ended inside a multi-byte character. */
function dropPartialCharacter(text: string): string {
  return text.replace(/\uFFFD+$/, '');
}

/**
 * Builds the chat prompt for `question` over `sources` (best first) within the token
 * budget. Throws `INVALID_ARGUMENT` when the question alone leaves no room for a source.
 */
export function buildPrompt(question: string, sources: readonly SourceForAnswer[], tokenizer: PromptTokenizer, options: PromptOptions = {}): BuiltPrompt {
  const budget = checkInteger('contextTokens', options.contextTokens ?? DEFAULT_CONTEXT_TOKENS, 64, 1_048_576);
  const minSourceTokens = checkInteger('minSourceTokens', options.minSourceTokens ?? DEFAULT_MIN_SOURCE_TOKENS, 1, budget);
  const systemPrompt = options.systemPrompt ?? DEFAULT_SYSTEM_PROMPT;
  const unindexedWords = options.unindexedWords ?? [];
  const encode = (shown: readonly ShownSource[]) => tokenizer.encodeChat(formatMessages(question, shown, systemPrompt, unindexedWords));

  let shown: ShownSource[] = [];
  let inputIds = encode(shown);
  let truncated = false;
  const tooSmall = (what: string) =>
    new RagError('INVALID_ARGUMENT', `A context of ${budget} tokens is too small: ${what}.`, {
      hint: 'Raise contextTokens (--context_tokens) or shorten the question.',
    });
  if (inputIds.length > budget) throw tooSmall(`the instructions and the question alone take ${inputIds.length} tokens`);

  for (const source of sources) {
    const whole = [...shown, { source, text: source.text, truncated: false }];
    const wholeIds = encode(whole);
    if (wholeIds.length <= budget) {
      shown = whole;
      inputIds = wholeIds;
      continue;
    }
    // Cut this source to the room left after its label, at a token boundary. Tokens can
    // merge differently inside the prompt than alone, so re-count and shrink until it fits.
    const room = budget - encode([...shown, { source, text: '', truncated: true }]).length;
    const textIds = tokenizer.encode(source.text);
    let take = Math.min(room, textIds.length);
    while (take >= minSourceTokens) {
      const text = dropPartialCharacter(tokenizer.decode(textIds.slice(0, take)));
      const trial = [...shown, { source, text, truncated: true }];
      const trialIds = encode(trial);
      if (trialIds.length <= budget) {
        shown = trial;
        inputIds = trialIds;
        truncated = true;
        break;
      }
      take -= Math.max(1, trialIds.length - budget);
    }
    break;
  }
  if (shown.length === 0 && sources.length > 0) throw tooSmall(`not even ${minSourceTokens} tokens of the best source fit`);
  return { messages: formatMessages(question, shown, systemPrompt, unindexedWords), inputIds, shown, truncated };
}
