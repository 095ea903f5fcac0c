import {
  isModelOnDisk as isModelOnDiskAt,
  locateModel as locateModelAt,
  type ModelDtype,
  type ModelLocation,
  type ModelLocationOptions as GenericLocationOptions,
} from '@rag/models';

/** The default LLM: Qwen3-0.6B exported to ONNX for transformers.js. */
export const QWEN3_MODEL_ID = 'onnx-community/Qwen3-0.6B-ONNX';

/**
 * dtype used for a hub model when none is given: 4-bit weights (MatMulNBits) run on
 * onnxruntime's CPU provider and keep Qwen3-0.6B's download and memory small.
 */
export const DEFAULT_HUB_DTYPE: ModelDtype = 'q4';

/** How a user of the generators supplies a model instead (the end of every MODEL_NOT_FOUND hint). */
const GENERATOR_ADVICE =
  'pass --model_dir with a folder holding config.json, generation_config.json, tokenizer.json, ' +
  'tokenizer_config.json and onnx/model_q4.onnx (see the @rag/generation README), or use --generator extractive.';

/** Where a generator's model comes from: @rag/models' options with the LLM's defaults. */
export interface ModelLocationOptions extends Omit<GenericLocationOptions, 'hubDtype' | 'advice'> {
  /** Hub model id (`owner/name`). Default {@link QWEN3_MODEL_ID}. Ignored when `modelDir` is given. */
  model?: string;
}

function withDefaults(options: ModelLocationOptions): GenericLocationOptions {
  return { ...options, model: options.model ?? QWEN3_MODEL_ID, hubDtype: DEFAULT_HUB_DTYPE, advice: GENERATOR_ADVICE };
}

/** @rag/models' `locateModel` for a chat LLM: Qwen3 by default, 4-bit downloads, generator-flag advice. */
export function locateModel(options: ModelLocationOptions = {}): Promise<ModelLocation> {
  return locateModelAt(withDefaults(options));
}

/** True when {@link locateModel} would find the model on disk (no network needed). */
export function isModelOnDisk(options: ModelLocationOptions = {}): boolean {
  return isModelOnDiskAt(withDefaults(options));
}
