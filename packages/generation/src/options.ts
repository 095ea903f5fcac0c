import { RagError } from '@rag/core';

/** Prompt budget in model tokens (system prompt, sources, question and chat markup). */
export const DEFAULT_CONTEXT_TOKENS = 2048;
/** Most tokens a model may generate for one answer. */
export const DEFAULT_MAX_NEW_TOKENS = 200;
/** A source cut to fit the budget is dropped instead when fewer tokens than this would remain. */
export const DEFAULT_MIN_SOURCE_TOKENS = 24;

/**
 * How the next token is chosen. The default is greedy: the same prompt always gives the
 * same answer. The sampling knobs apply only with `doSample`; left out, each takes the
 * value in the model's generation_config.json (Qwen3: temperature 0.6, top-k 20, top-p 0.95).
 */
export interface DecodingOptions {
  /** Sample instead of taking the most likely token. Default `false` (greedy). */
  doSample?: boolean;
  /** Softmax temperature when sampling, > 0. */
  temperature?: number;
  /** Sample only among the k most likely tokens. Integer ≥ 1. */
  topK?: number;
  /** Nucleus sampling mass, in (0, 1]. */
  topP?: number;
  /** Penalty > 1 discourages repeating tokens already in the text, ≥ 1. Applies to greedy decoding too. Default: the model's (usually 1, off). */
  repetitionPenalty?: number;
}

export const DEFAULT_DECODING: Readonly<DecodingOptions> = Object.freeze({ doSample: false });

function invalid(name: string, value: unknown, rule: string): never {
  throw new RagError('INVALID_ARGUMENT', `${name} must be ${rule}; got ${String(value)}.`, {
    hint: `Pass a valid ${name} or leave it out for the default.`,
  });
}

export function checkInteger(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) invalid(name, value, `an integer in [${min}, ${max}]`);
  return value;
}

function checkNumber(name: string, value: number | undefined, ok: (v: number) => boolean, rule: string): void {
  if (value !== undefined && (typeof value !== 'number' || Number.isNaN(value) || !ok(value))) invalid(name, value, rule);
}

/**
 * Validated decoding settings with only the fields that change the output: greedy
 * decoding ignores the sampling knobs, so they are dropped (and do not split the cache).
 * Throws `RagError('INVALID_ARGUMENT')` naming the bad field.
 */
export function resolveDecoding(options: DecodingOptions = {}): DecodingOptions {
  const doSample = options.doSample ?? false;
  if (typeof doSample !== 'boolean') invalid('doSample', doSample, 'true or false');
  checkNumber('temperature', options.temperature, (v) => v > 0, 'greater than 0');
  if (options.topK !== undefined) checkInteger('topK', options.topK, 1, 1_000_000);
  checkNumber('topP', options.topP, (v) => v > 0 && v <= 1, 'in (0, 1]');
  checkNumber('repetitionPenalty', options.repetitionPenalty, (v) => v >= 1, 'at least 1');
  const resolved: DecodingOptions = { doSample };
  if (doSample) {
    if (options.temperature !== undefined) resolved.temperature = options.temperature;
    if (options.topK !== undefined) resolved.topK = options.topK;
    if (options.topP !== undefined) resolved.topP = options.topP;
  }
  if (options.repetitionPenalty !== undefined) resolved.repetitionPenalty = options.repetitionPenalty;
  return resolved;
}

/** The decoding settings as transformers.js `generate()` keyword arguments. */
export function toGenerateKwargs(d: DecodingOptions): Record<string, unknown> {
  const kwargs: Record<string, unknown> = { do_sample: d.doSample ?? false };
  if (d.temperature !== undefined) kwargs.temperature = d.temperature;
  if (d.topK !== undefined) kwargs.top_k = d.topK;
  if (d.topP !== undefined) kwargs.top_p = d.topP;
  if (d.repetitionPenalty !== undefined) kwargs.repetition_penalty = d.repetitionPenalty;
  return kwargs;
}
