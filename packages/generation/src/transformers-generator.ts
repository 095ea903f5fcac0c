import type { PreTrainedModel, PreTrainedTokenizer, Tensor } from '@huggingface/transformers';
import { RagError, isRagError } from '@rag/core';
import { Channel } from './channel.js';
import { toPromptTokenizer } from './chat-tokenizer.js';
import { mapCitations } from './citations.js';
import { cancelledError, throwIfAborted } from './errors.js';
import { Lock } from './lock.js';
import { noSourcesAnswer } from './extractive/not-found.js';
import { loadTransformers, withTransformersEnvironment, type ModelLocation, type Transformers } from '@rag/models';
import { locateModel, QWEN3_MODEL_ID, type ModelLocationOptions } from './model-source.js';
import { DEFAULT_MAX_NEW_TOKENS, checkInteger, resolveDecoding, toGenerateKwargs, type DecodingOptions } from './options.js';
import { DEFAULT_CONTEXT_TOKENS, DEFAULT_MIN_SOURCE_TOKENS } from './options.js';
import { buildPrompt, DEFAULT_SYSTEM_PROMPT, promptTemplateHash, type PromptOptions } from './prompt.js';
import { stripThinking, ThinkingFilter } from './think.js';
import type { AnswerResult, GenerateOptions, GenerateRequest, GenerationEvent, Generator, GeneratorIdentity } from './types.js';

/** A model file being fetched or read while a generator loads (transformers.js progress). */
export interface ModelLoadProgress {
  status: string;
  file?: string;
  /** Percent of this file, 0–100, while downloading. */
  progress?: number;
}

export interface TransformersGeneratorOptions extends ModelLocationOptions, PromptOptions {
  /** Name reported in results. Default `qwen3` for {@link QWEN3_MODEL_ID}, else the model id or folder. */
  name?: string;
  /** Most tokens generated per answer. Integer in [1, 32,768]. Default {@link DEFAULT_MAX_NEW_TOKENS} (200). */
  maxNewTokens?: number;
  /** Greedy by default; see {@link DecodingOptions}. */
  decoding?: DecodingOptions;
  /** Called while model files are downloaded or read. */
  onLoadProgress?: (event: ModelLoadProgress) => void;
}

async function loadModel(hf: Transformers, location: ModelLocation, onProgress?: (e: ModelLoadProgress) => void) {
  const common = {
    local_files_only: location.kind === 'folder',
    cache_dir: location.cacheDir,
    ...(onProgress ? { progress_callback: (info: unknown) => onProgress(info as ModelLoadProgress) } : {}),
  };
  try {
    // transformers.js reads the hub address from its global env: set for this load only.
    return await withTransformersEnvironment(hf.env, { remoteHost: location.remoteHost }, async () => {
      const tokenizer = await hf.AutoTokenizer.from_pretrained(location.pathOrId, common);
      const model = await hf.AutoModelForCausalLM.from_pretrained(location.pathOrId, { ...common, dtype: location.dtype, device: 'cpu' });
      return { tokenizer, model };
    });
  } catch (error) {
    if (isRagError(error)) throw error;
    throw new RagError('MODEL_NOT_FOUND', `Could not load ${location.modelId} (dtype ${location.dtype}): ${(error as Error).message}`, {
      hint: 'Check that the folder is a complete transformers.js export of a causal LM (config.json, tokenizer files, onnx/model*.onnx), or try another --dtype.',
      cause: error,
    });
  }
}

/** Generates `[batch, n]` int64 tensors from the prompt's ids. */
function promptTensors(hf: Transformers, ids: readonly number[]): { input_ids: Tensor; attention_mask: Tensor } {
  const n = ids.length;
  return {
    input_ids: new hf.Tensor('int64', BigInt64Array.from(ids, (id) => BigInt(id)), [1, n]),
    attention_mask: new hf.Tensor('int64', new BigInt64Array(n).fill(1n), [1, n]),
  };
}

/** Stops generation once `signal` is aborted (checked after every token). */
function abortCriteria(hf: Transformers, signal: AbortSignal) {
  class AbortCriteria extends hf.StoppingCriteria {
    override _call(inputIds: number[][]): boolean[] {
      return inputIds.map(() => signal.aborted);
    }
  }
  return new AbortCriteria();
}

/**
 * Runs `model.generate` and yields the visible text (think blocks removed) as the streamer
 * produces it; returns the output ids. Aborting `signal`, or the caller leaving the
 * iteration, stops the model after its current token; the former then throws `CANCELLED`.
 */
async function* streamGeneration(
  hf: Transformers,
  model: PreTrainedModel,
  tokenizer: PreTrainedTokenizer,
  inputIds: readonly number[],
  kwargs: Record<string, unknown>,
  signal: AbortSignal | undefined,
): AsyncGenerator<string, Tensor> {
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  const channel = new Channel<string>();
  const filter = new ThinkingFilter();
  const streamer = new hf.TextStreamer(tokenizer, {
    skip_prompt: true,
    skip_special_tokens: true,
    callback_function: (text: string) => {
      const visible = filter.push(text);
      if (visible) channel.push(visible);
    },
  });
  const running = model
    .generate({ ...promptTensors(hf, inputIds), ...kwargs, streamer, stopping_criteria: abortCriteria(hf, stop.signal) } as never)
    .then(
      (output) => {
        const rest = filter.flush();
        if (rest) channel.push(rest);
        channel.close();
        return output as Tensor;
      },
      (error: unknown) => {
        channel.fail(error);
        throw error;
      },
    );
  running.catch(() => undefined);
  try {
    for (let piece = await channel.next(); piece !== undefined && !stop.signal.aborted; piece = await channel.next()) yield piece;
    const output = await running;
    if (signal?.aborted) throw cancelledError();
    return output;
  } finally {
    stop.abort();
    await running.catch(() => undefined);
    signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * A generator backed by a chat LLM run with transformers.js on onnxruntime-node (CPU).
 * Loads the model before returning, so a missing or broken model fails here, not on the
 * first question.
 */
export async function createTransformersGenerator(options: TransformersGeneratorOptions = {}): Promise<Generator> {
  const maxNewTokens = checkInteger('maxNewTokens', options.maxNewTokens ?? DEFAULT_MAX_NEW_TOKENS, 1, 32_768);
  const contextTokens = checkInteger('contextTokens', options.contextTokens ?? DEFAULT_CONTEXT_TOKENS, 64, 1_048_576);
  const minSourceTokens = options.minSourceTokens ?? DEFAULT_MIN_SOURCE_TOKENS;
  const decoding = resolveDecoding(options.decoding);
  const systemPrompt = options.systemPrompt ?? DEFAULT_SYSTEM_PROMPT;
  const location = await locateModel(options);
  const hf = await loadTransformers();
  const { tokenizer, model } = await loadModel(hf, location, options.onLoadProgress);
  if (!(tokenizer as PreTrainedTokenizer).chat_template) {
    await model.dispose();
    throw new RagError('INVALID_ARGUMENT', `${location.modelId} has no chat template in its tokenizer_config.json.`, {
      hint: 'Use an instruction-tuned chat model (e.g. the default qwen3).',
    });
  }
  const name = options.name ?? (location.modelId === QWEN3_MODEL_ID ? 'qwen3' : location.modelId);
  const identity: GeneratorIdentity = {
    name,
    modelId: location.modelId,
    settings: { dtype: location.dtype, maxNewTokens, contextTokens, minSourceTokens, decoding },
    templateHash: promptTemplateHash(systemPrompt),
  };
  const promptTokenizer = toPromptTokenizer(tokenizer);
  const lock = new Lock();
  const promptOptions = { contextTokens, systemPrompt, minSourceTokens };

  async function* generate(request: GenerateRequest, generateOptions: GenerateOptions = {}): AsyncGenerator<GenerationEvent> {
    const started = performance.now();
    const signal = generateOptions.signal;
    throwIfAborted(signal);
    const base = { generator: name, modelId: location.modelId, droppedCitations: [], cached: false };
    if (request.sources.length === 0) {
      const answer = noSourcesAnswer(request.question, request.unindexedWords ?? []);
      yield { type: 'token', text: answer };
      const result: AnswerResult = { ...base, answer, citedSources: [], sourcesUsed: 0, truncatedSource: false, promptTokens: 0, generatedTokens: 0, finishReason: 'stop', elapsedMs: performance.now() - started };
      yield { type: 'done', result };
      return;
    }
    const prompt = buildPrompt(request.question, request.sources, promptTokenizer, { ...promptOptions, unindexedWords: request.unindexedWords ?? [] });
    const release = await lock.acquire();
    let stream: AsyncGenerator<string, Tensor> | undefined;
    let output: Tensor;
    try {
      throwIfAborted(signal);
      const kwargs = { ...toGenerateKwargs(decoding), max_new_tokens: maxNewTokens };
      stream = streamGeneration(hf, model, tokenizer, prompt.inputIds, kwargs, signal);
      let step = await stream.next();
      for (; !step.done; step = await stream.next()) yield { type: 'token', text: step.value };
      output = step.value;
    } finally {
      // A reader that left early leaves `stream` suspended: closing it stops the model
      // before the next generation may start.
      await stream?.return(undefined as never);
      release();
    }
    const all = (output.tolist() as bigint[][])[0]!;
    const generatedIds = all.slice(prompt.inputIds.length).map(Number);
    const text = stripThinking(tokenizer.decode(generatedIds, { skip_special_tokens: true }));
    const mapping = mapCitations(text, request.sources.slice(0, prompt.shown.length));
    const result: AnswerResult = {
      ...base,
      answer: mapping.answer.trim(),
      citedSources: mapping.citedSources,
      droppedCitations: mapping.droppedCitations,
      sourcesUsed: prompt.shown.length,
      truncatedSource: prompt.truncated,
      promptTokens: prompt.inputIds.length,
      generatedTokens: generatedIds.length,
      finishReason: generatedIds.length >= maxNewTokens ? 'length' : 'stop',
      elapsedMs: performance.now() - started,
    };
    yield { type: 'done', result };
  }

  return {
    name,
    modelId: location.modelId,
    identity,
    generate,
    async dispose() {
      await model.dispose();
    },
  };
}
