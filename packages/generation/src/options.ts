import { integerIn, optionError, parseOptions, v } from '@rag/core';

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

const CONTEXT = { subject: 'generation' } as const;

/** `value` when it is an integer in [min, max]; otherwise the shared option error naming `name`. */
export function checkInteger(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) throw optionError(CONTEXT, [name], `an integer in [${min}, ${max}]`, value);
  return value;
}

/** The schema of {@link DecodingOptions}; unknown keys are refused. */
export const DECODING_SCHEMA = v.strictObject({
  doSample: v.optional(v.boolean()),
  temperature: v.optional(v.number().check(v.gt(0))),
  topK: v.optional(integerIn(1, 1_000_000)),
  topP: v.optional(v.number().check(v.gt(0), v.maximum(1))),
  repetitionPenalty: v.optional(v.number().check(v.minimum(1))),
});

/** Validated decoding options; sampling parameters are kept only when `doSample` is on. */
export function resolveDecoding(options: DecodingOptions = {}): DecodingOptions {
  const parsed = parseOptions(DECODING_SCHEMA, options, { ...CONTEXT, root: 'decoding' });
  const doSample = parsed.doSample ?? false;
  const resolved: DecodingOptions = { doSample };
  if (doSample) {
    if (parsed.temperature !== undefined) resolved.temperature = parsed.temperature;
    if (parsed.topK !== undefined) resolved.topK = parsed.topK;
    if (parsed.topP !== undefined) resolved.topP = parsed.topP;
  }
  if (parsed.repetitionPenalty !== undefined) resolved.repetitionPenalty = parsed.repetitionPenalty;
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
