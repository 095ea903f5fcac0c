import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { answer, createTransformersGenerator, type GenerationEvent, type Generator } from '../src/index.js';
import { renderChat } from '../src/internals.js';
import { qwen3Tokenizer } from './helpers/qwen3.js';
import { source } from './helpers/sources.js';
import { QWEN3_IM_END, TINY_REPLY_RAW, writeQwen3ShapedModel, writeTinyModel } from './helpers/tiny-models.js';
import { tempDir } from './helpers/tmp.js';

const root = await tempDir();
const scriptedDir = join(root, 'scripted');
const loopDir = join(root, 'loop');
const qwenDir = join(root, 'qwen3-shaped');
const QWEN_REPLY = 'The default port is 8423 [1].'; // Qwen3 splits digits: each must occur once in the script.

const sources = [source('DEFAULT_PORT = 8421\n', { file_path: 'tinyserve/defaults.py', start_line: 12, end_line: 12, symbol: 'DEFAULT_PORT' })];
const request = { question: 'What is the default port?', sources };

async function collect(generator: Generator, signal?: AbortSignal): Promise<GenerationEvent[]> {
  const events: GenerationEvent[] = [];
  for await (const event of generator.generate(request, signal ? { signal } : {})) events.push(event);
  return events;
}

beforeAll(async () => {
  await writeTinyModel(scriptedDir, 'scripted');
  await writeTinyModel(loopDir, 'loop');
  // The Qwen3-shaped model answers QWEN_REPLY: after the prompt's last token ("\n\n" = 271,
  // the end of the empty think block) each reply token leads to the next.
  const tokenizer = await qwen3Tokenizer();
  const reply = tokenizer.encode(QWEN_REPLY, { add_special_tokens: false });
  await writeQwen3ShapedModel(qwenDir, [271, ...reply, QWEN3_IM_END]);
});

describe('a tiny scripted model through transformers.js', () => {
  let generator: Generator;
  beforeAll(async () => {
    generator = await createTransformersGenerator({ modelDir: scriptedDir, maxNewTokens: 50 });
  });

  it('streams tokens in order, then one done event, with <think> removed from both', async () => {
    const events = await collect(generator);
    const last = events.at(-1)!;
    expect(last.type).toBe('done');
    const tokens = events.slice(0, -1);
    expect(tokens.length).toBeGreaterThan(2);
    expect(tokens.every((e) => e.type === 'token')).toBe(true);
    const streamed = tokens.map((e) => (e.type === 'token' ? e.text : '')).join('');
    // The model itself says TINY_REPLY_RAW, think block included.
    expect(TINY_REPLY_RAW).toBe('<think>x</think>Port 8421 [1], see ([7])');
    expect(streamed).toBe('Port 8421 [1], see ([7])');
    if (last.type !== 'done') throw new Error('no result');
    expect(last.result.answer).toBe('Port 8421 [1], see');
  });

  it('decodes greedily although the model config asks for sampling, so the reply is exact and repeatable', async () => {
    const first = await answer(generator, request);
    const second = await answer(generator, request);
    expect(first.answer).toBe('Port 8421 [1], see');
    expect(second.answer).toBe(first.answer);
    expect(first.finishReason).toBe('stop');
    // <think>, x, </think>, the nine reply words, <|im_end|>.
    expect(first.generatedTokens).toBe(13);
  });

  it('samples when asked: the tiny logits (1 vs 0) then rarely pick the scripted token', async () => {
    const sampling = await createTransformersGenerator({ modelDir: scriptedDir, maxNewTokens: 13, decoding: { doSample: true } });
    // Each step keeps the scripted token with p ≈ 0.22 (temperature 0.6, top-k 20), so all
    // 13 in a row happen about once in 10⁹ runs.
    expect((await answer(sampling, request)).answer).not.toBe('Port 8421 [1], see');
    expect(sampling.identity.settings.decoding).toEqual({ doSample: true });
    await sampling.dispose();
  });

  it('maps [1] to the source and drops and reports [7]', async () => {
    const result = await answer(generator, request);
    expect(result.citedSources).toEqual([
      { n: 1, file_path: 'tinyserve/defaults.py', first_character_index: 0, last_character_index: 20, start_line: 12, end_line: 12, symbol: 'DEFAULT_PORT' },
    ]);
    expect(result.droppedCitations).toEqual([7]);
    expect(result.generator).toBe(scriptedDir);
    expect(result.modelId).toBe(scriptedDir);
    expect(result.sourcesUsed).toBe(1);
    expect(result.promptTokens).toBeGreaterThan(50);
  });

  it('tells the model which words of the question the corpus lacks: the prompt grows by that line', async () => {
    const plain = await answer(generator, request);
    const told = await answer(generator, { ...request, unindexedWords: ['gRPC'] });
    expect(told.promptTokens).toBeGreaterThan(plain.promptTokens);
  });

  it('answers without running the model when nothing was retrieved', async () => {
    const result = await answer(generator, { question: 'Q?', sources: [] });
    expect(result.answer).toMatch(/No sources were retrieved/);
    expect(result.generatedTokens).toBe(0);
    // The question's words the corpus never holds say why.
    const told = await answer(generator, { question: 'How is the Kafka consumer configured?', sources: [], unindexedWords: ['Kafka'] });
    expect(told.answer).toMatch(/No sources were retrieved .* The indexed sources never mention “Kafka”\.$/);
  });

  it('records what changes answers in its identity', () => {
    expect(generator.identity.modelId).toBe(scriptedDir);
    expect(generator.identity.settings).toMatchObject({ dtype: 'fp32', maxNewTokens: 50, contextTokens: 2048, decoding: { doSample: false } });
    expect(generator.identity.templateHash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('cancellation', () => {
  let generator: Generator;
  beforeAll(async () => {
    generator = await createTransformersGenerator({ modelDir: loopDir, maxNewTokens: 5000, name: 'loop' });
  });

  it('stops a generation that would run on for 5000 tokens when the signal aborts', async () => {
    const controller = new AbortController();
    const seen: string[] = [];
    await expect(
      answer(generator, request, {
        signal: controller.signal,
        onToken: (text) => {
          seen.push(text);
          if (seen.length === 3) controller.abort();
        },
      }),
    ).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(seen.join('')).toMatch(/^tick tock tick/);
    expect(seen.length).toBe(3);
  });

  it('queues concurrent answers, and cancels one aborted while it waits its turn', async () => {
    const scripted = await createTransformersGenerator({ modelDir: scriptedDir });
    const controller = new AbortController();
    const first = answer(scripted, request);
    const waiting = answer(scripted, request, { signal: controller.signal });
    const third = answer(scripted, request);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'CANCELLED' });
    expect((await first).answer).toBe('Port 8421 [1], see');
    expect((await third).answer).toBe('Port 8421 [1], see');
    await scripted.dispose();
  });

  it('refuses to start with an aborted signal', async () => {
    await expect(collect(generator, AbortSignal.abort())).rejects.toMatchObject({ code: 'CANCELLED' });
  });

  it('stops the model when the reader leaves the stream early, and the next answer runs', async () => {
    for await (const event of generator.generate(request)) {
      expect(event.type).toBe('token');
      break;
    }
    const short = await createTransformersGenerator({ modelDir: loopDir, maxNewTokens: 4 });
    const result = await answer(short, request);
    expect(result.answer).toBe('tick tock tick tock');
    expect(result.finishReason).toBe('length');
    await short.dispose();
    // The first generator's lock was released: it can answer again.
    const controller = new AbortController();
    await expect(answer(generator, request, { signal: controller.signal, onToken: () => controller.abort() })).rejects.toMatchObject({ code: 'CANCELLED' });
  });
});

describe('a Qwen3-shaped model with the real tokenizer and chat template', () => {
  let generator: Generator;
  beforeAll(async () => {
    generator = await createTransformersGenerator({ modelDir: qwenDir, name: 'qwen3', contextTokens: 512 });
  });

  it('answers through the chat template with thinking off', async () => {
    const result = await answer(generator, request);
    expect(result.answer).toBe(QWEN_REPLY);
    expect(result.citedSources.map((c) => c.file_path)).toEqual(['tinyserve/defaults.py']);
    expect(result.generator).toBe('qwen3');
    expect(result.promptTokens).toBeLessThanOrEqual(512);
  });

  it('renders the empty think block Qwen3 uses when thinking is off', async () => {
    const tokenizer = await qwen3Tokenizer();
    const text = renderChat(tokenizer, [{ role: 'user', content: 'Hi' }]);
    expect(text).toBe('<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n');
  });
});

describe('model files', () => {
  it('loads the dtype asked for, and picks the present one with auto', async () => {
    const dir = join(root, 'q8');
    await writeTinyModel(dir);
    await rename(join(dir, 'onnx', 'model.onnx'), join(dir, 'onnx', 'model_quantized.onnx'));
    const auto = await createTransformersGenerator({ modelDir: dir });
    expect(auto.identity.settings.dtype).toBe('q8');
    expect((await answer(auto, request)).answer).toBe('Port 8421 [1], see');
    await auto.dispose();
    await expect(createTransformersGenerator({ modelDir: dir, dtype: 'q4' })).rejects.toMatchObject({
      code: 'MODEL_NOT_FOUND',
      message: expect.stringContaining('onnx/model_q4.onnx'),
      hint: expect.stringContaining('--dtype q8'),
    });
  });

  it('loads a hub id offline when the cache holds it', async () => {
    const cacheDir = join(root, 'cache');
    await writeTinyModel(join(cacheDir, 'tiny-org', 'tiny-chat'));
    const generator = await createTransformersGenerator({ model: 'tiny-org/tiny-chat', cacheDir, dtype: 'fp32', remoteHost: 'http://127.0.0.1:9/' });
    expect(generator.name).toBe('tiny-org/tiny-chat');
    expect((await answer(generator, request)).answer).toBe('Port 8421 [1], see');
    await generator.dispose();
  });

  it('reports a broken model file as MODEL_NOT_FOUND with the loader error', async () => {
    const dir = join(root, 'broken');
    await writeTinyModel(dir);
    await writeFile(join(dir, 'onnx', 'model.onnx'), 'not an onnx file');
    await expect(createTransformersGenerator({ modelDir: dir })).rejects.toMatchObject({ code: 'MODEL_NOT_FOUND', message: expect.stringContaining('Could not load') });
  });

  it('refuses a model without a chat template', async () => {
    const dir = join(root, 'no-template');
    await writeTinyModel(dir);
    const config = JSON.parse(await import('node:fs/promises').then((fs) => fs.readFile(join(dir, 'tokenizer_config.json'), 'utf8'))) as Record<string, unknown>;
    delete config.chat_template;
    await writeFile(join(dir, 'tokenizer_config.json'), JSON.stringify(config));
    await expect(createTransformersGenerator({ modelDir: dir })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('chat template') });
  });

  it('fails fast when a folder is missing or incomplete', async () => {
    await expect(createTransformersGenerator({ modelDir: join(root, 'nowhere') })).rejects.toMatchObject({ code: 'MODEL_NOT_FOUND', message: expect.stringContaining('does not exist') });
    const dir = join(root, 'incomplete');
    await mkdir(join(dir, 'onnx'), { recursive: true });
    await writeFile(join(dir, 'config.json'), '{}');
    await expect(createTransformersGenerator({ modelDir: dir })).rejects.toMatchObject({
      code: 'MODEL_NOT_FOUND',
      message: expect.stringMatching(/missing tokenizer\.json, tokenizer_config\.json, onnx\/model\*\.onnx/),
    });
    await rm(dir, { recursive: true });
  });
});
