import { beforeAll, describe, expect, it } from 'vitest';
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { answerKindInstruction, DEFAULT_SYSTEM_PROMPT } from '../src/index.js';
import { buildPrompt, formatMessages, formatUserMessage, promptTemplateHash, renderChat, toPromptTokenizer, type PromptTokenizer } from '../src/internals.js';
import { qwen3Tokenizer } from './helpers/qwen3.js';
import { source } from './helpers/sources.js';

let tokenizer: PreTrainedTokenizer;
let tokens: PromptTokenizer;

beforeAll(async () => {
  tokenizer = await qwen3Tokenizer();
  tokens = toPromptTokenizer(tokenizer);
});

const QWEN3_NO_THINKING_TAIL = '<|im_start|>assistant\n<think>\n\n</think>\n\n';

const port = source('# TCP port the development server listens on.\nDEFAULT_PORT = 8421\n', {
  file_path: 'tinyserve/defaults.py',
  start_line: 11,
  end_line: 12,
  symbol: 'DEFAULT_PORT',
});
const long = source(Array.from({ length: 400 }, (_, i) => `line ${i}: the handler returns résumé 🚀 value_${i}`).join('\n'), {
  file_path: 'docs/guide.md',
  start_line: 1,
  end_line: 400,
});
const later = source('never shown', { file_path: 'z.py' });

describe('the real Qwen3 chat template', () => {
  it('is rendered with thinking disabled: the generation prompt ends in an empty think block', () => {
    const rendered = renderChat(tokenizer, formatMessages('What is the port?', [{ source: port, text: port.text, truncated: false }], DEFAULT_SYSTEM_PROMPT));
    expect(rendered.startsWith(`<|im_start|>system\n${DEFAULT_SYSTEM_PROMPT}<|im_end|>\n<|im_start|>user\nSources:\n\n[1] tinyserve/defaults.py:11-12 (DEFAULT_PORT)\n# TCP port`)).toBe(true);
    // A value question gets one line on the answer's form after it (see detectAnswerKind).
    expect(rendered.endsWith(`Question: What is the port?\nAnswer form: ${answerKindInstruction('value')}<|im_end|>\n${QWEN3_NO_THINKING_TAIL}`)).toBe(true);
  });

  it('adds no answer-form line to a question that asks for an explanation', () => {
    const message = formatUserMessage('Why does the router compile patterns once?', []);
    expect(message.endsWith('Question: Why does the router compile patterns once?')).toBe(true);
  });

  it("names the question's words that the whole indexed corpus lacks, and says what to do then", () => {
    const message = formatUserMessage('Why does the router compile Kafka topics once?', [], ['Kafka', 'topics', 'Kafka']);
    expect(message.endsWith('Question: Why does the router compile Kafka topics once?\nNot in the indexed corpus at all: “Kafka”, “topics”. If the answer depends on them, say that the sources do not contain it.')).toBe(true);
    // None known: no such line.
    expect(formatUserMessage('Why does the router compile Kafka topics once?', [])).not.toContain('Not in the indexed corpus');
  });

  it('counts the prompt with the special tokens as single ids', () => {
    const ids = tokens.encodeChat([{ role: 'user', content: 'Hi' }]);
    // <|im_start|> user \n Hi <|im_end|> \n <|im_start|> assistant \n <think> \n\n </think> \n\n
    expect(ids[0]).toBe(151644);
    expect(ids).toContain(151667);
    expect(ids).toContain(151668);
    expect(ids.at(-1)).toBe(271);
  });
});

describe('buildPrompt', () => {
  it("counts the line that names the unindexed words within the budget, in the messages it returns", () => {
    const plain = buildPrompt('What is the Kafka port?', [port], tokens, { contextTokens: 2048 });
    const told = buildPrompt('What is the Kafka port?', [port], tokens, { contextTokens: 2048, unindexedWords: ['Kafka'] });
    expect(told.messages[1]!.content).toContain('Not in the indexed corpus at all: “Kafka”.');
    expect(plain.messages[1]!.content).not.toContain('Not in the indexed corpus');
    expect(told.inputIds).toEqual(tokens.encodeChat(told.messages));
    expect(told.inputIds.length).toBeGreaterThan(plain.inputIds.length);
  });

  it('adds whole sources best first while they fit', () => {
    const built = buildPrompt('What is the port?', [port, later], tokens, { contextTokens: 2048 });
    expect(built.shown.map((s) => s.source.file_path)).toEqual(['tinyserve/defaults.py', 'z.py']);
    expect(built.truncated).toBe(false);
    expect(built.inputIds).toEqual(tokens.encodeChat(built.messages));
  });

  it('cuts the source that does not fit at a token boundary and stops there', () => {
    const budget = 700;
    const built = buildPrompt('What does the handler return?', [port, long, later], tokens, { contextTokens: budget });
    expect(built.shown.map((s) => s.source.file_path)).toEqual(['tinyserve/defaults.py', 'docs/guide.md']);
    expect(built.truncated).toBe(true);
    const cut = built.shown[1]!;
    expect(cut.truncated).toBe(true);
    expect(long.text.startsWith(cut.text)).toBe(true);
    expect(cut.text.length).toBeLessThan(long.text.length);
    // A token boundary: the cut text is exactly the first m tokens of the source.
    const sourceIds = tokens.encode(long.text);
    const cutIds = tokens.encode(cut.text);
    expect(cutIds).toEqual(sourceIds.slice(0, cutIds.length));
    expect(built.inputIds.length).toBeLessThanOrEqual(budget);
    // Tight: one more token of the source would not have fitted (within the few tokens a
    // re-merge at the cut can shift).
    expect(budget - built.inputIds.length).toBeLessThan(8);
    expect(built.messages[1]!.content).toContain('[2] docs/guide.md:1-400 (cut to fit)');
  });

  it('never splits an astral character when it cuts', () => {
    // Each line is 17 tokens and its 🚀 takes 3, so 20 consecutive budgets put the cut
    // inside an emoji at least once; decoding such a prefix gives U+FFFD, which is dropped.
    const sourceIds = tokens.encode(long.text);
    let cutInsideEmoji = 0;
    for (let budget = 600; budget < 620; budget++) {
      const built = buildPrompt('Q?', [long], tokens, { contextTokens: budget, minSourceTokens: 1 });
      const text = built.shown[0]!.text;
      expect(text).not.toMatch(/\uFFFD|[\uD800-\uDBFF]$/);
      expect(long.text.startsWith(text)).toBe(true);
      if (tokens.decode(sourceIds.slice(0, tokens.encode(text).length + 1)).includes('\uFFFD')) cutInsideEmoji++;
    }
    expect(cutInsideEmoji).toBeGreaterThan(0);
  });

  it('leaves out a source when fewer than minSourceTokens of it would fit', () => {
    const withPort = buildPrompt('Q?', [port], tokens).inputIds.length;
    const built = buildPrompt('Q?', [port, long], tokens, { contextTokens: withPort + 30, minSourceTokens: 40 });
    expect(built.shown.map((s) => s.source.file_path)).toEqual(['tinyserve/defaults.py']);
    expect(built.truncated).toBe(false);
  });

  it('refuses a budget too small for the question and the instructions', () => {
    expect(() => buildPrompt('What is the port?', [port], tokens, { contextTokens: 64 })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(() => buildPrompt('Q?', [port], tokens, { contextTokens: 10 })).toThrow(/contextTokens/);
  });
});

describe('promptTemplateHash', () => {
  it('is stable and changes with the system prompt', () => {
    expect(promptTemplateHash()).toBe(promptTemplateHash(DEFAULT_SYSTEM_PROMPT));
    expect(promptTemplateHash('Answer in French.')).not.toBe(promptTemplateHash());
    expect(promptTemplateHash()).toMatch(/^[0-9a-f]{64}$/);
  });
});
