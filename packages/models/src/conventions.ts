import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Model-file conventions shared by every package that loads transformers.js models
 * (@rag/embedding, @rag/generation), so they cache to one place and obey the same
 * offline switches.
 */

/** Weight formats transformers.js loads; each is one ONNX file under `onnx/`. Order: `auto`'s preference in a folder. */
export const MODEL_DTYPES = ['q4', 'q8', 'fp32', 'fp16', 'int8', 'uint8', 'q4f16', 'bnb4'] as const;
export type ModelDtype = (typeof MODEL_DTYPES)[number];

/** The ONNX file each dtype loads: `onnx/model<suffix>.onnx` (transformers.js's naming). */
export const MODEL_DTYPE_FILE_SUFFIX: Readonly<Record<ModelDtype, string>> = Object.freeze({
  fp32: '',
  fp16: '_fp16',
  q8: '_quantized',
  int8: '_int8',
  uint8: '_uint8',
  q4: '_q4',
  q4f16: '_q4f16',
  bnb4: '_bnb4',
});

/** Environment variables that switch model downloads off when set to 1 / true / yes. */
export const OFFLINE_ENV_VARS = ['HF_HUB_OFFLINE', 'TRANSFORMERS_OFFLINE', 'RAG_OFFLINE'] as const;

function isTruthyFlag(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true', 'yes'].includes(value.toLowerCase());
}

/** False when the environment asks for offline operation (see {@link OFFLINE_ENV_VARS}). */
export function downloadsAllowedByEnvironment(env: NodeJS.ProcessEnv = process.env): boolean {
  return !OFFLINE_ENV_VARS.some((name) => isTruthyFlag(env[name]));
}

/** rag's cache root: `$RAG_CACHE_DIR`, else `~/.cache/rag`. Models go to `<root>/models`. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.RAG_CACHE_DIR ?? join(homedir(), '.cache', 'rag'));
}

/** Where downloaded models are kept: `<defaultCacheDir()>/models`. */
export const DEFAULT_MODEL_CACHE_DIR = join(defaultCacheDir(), 'models');

/** The model hub transformers.js downloads from. */
export const DEFAULT_REMOTE_HOST = 'https://huggingface.co/';

/** How long the hub may take to answer a reachability check before the model counts as unavailable. */
export const DEFAULT_DOWNLOAD_CHECK_TIMEOUT_MS = 10_000;

/** Files every model folder needs besides its ONNX weights. */
export const REQUIRED_MODEL_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json'] as const;
