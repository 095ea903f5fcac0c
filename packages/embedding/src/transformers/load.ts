import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { RagError } from '@rag/core';
import {
  checkModelFolder,
  describeLoadFailure,
  fetchWithTimeout,
  fingerprintModelFolder,
  loadTransformers,
  locateModel,
  onnxFile,
  REQUIRED_MODEL_FILES,
  withTransformersEnvironment,
  type ModelDtype,
  type Transformers,
  type TransformersEnvironmentPatch,
} from '@rag/models';
import type { EmbeddingOptions } from '../options.js';

/** The parts of transformers.js this package uses, typed structurally. */
export interface TokenizerLike {
  encode(text: string, options?: { add_special_tokens?: boolean }): number[];
  readonly model_max_length: number;
  readonly pad_token_id?: number | null;
}

export interface TensorLike {
  readonly data: ArrayLike<number>;
  readonly dims: number[];
  dispose?(): void;
}

export interface ModelLike {
  (inputs: Record<string, unknown>): Promise<Record<string, TensorLike | undefined>>;
  dispose?(): Promise<unknown>;
}

export interface PipelineLike {
  (texts: string | string[], options?: { pooling?: string; normalize?: boolean }): Promise<TensorLike>;
  readonly tokenizer: TokenizerLike;
  readonly model: ModelLike & { config?: Record<string, unknown> };
  dispose?(): Promise<unknown>;
}

export interface LoadedModel {
  transformers: Transformers;
  pipeline: PipelineLike;
  /** Identity recorded in indexes (see `Embedder.id`). */
  id: string;
  /** Where it came from, for messages. */
  source: 'folder' | 'cache' | 'hub';
  location: string;
  config: Record<string, unknown>;
}

/** Files a model folder needs, relative to it. */
export function requiredModelFiles(dtype: string): string[] {
  return [...REQUIRED_MODEL_FILES, onnxFile(dtype as ModelDtype)];
}

/** How a user of the embedder supplies a model instead (the end of each MODEL_NOT_FOUND hint, lowercase first). */
function offlineAdvice(options: EmbeddingOptions, name: string): string {
  return (
    `on a machine with internet, run once with model "${name}" (it is cached in ${join(options.cacheDir, 'models')}) and copy that folder, ` +
    `or download config.json, tokenizer.json, tokenizer_config.json and ${requiredModelFiles(options.dtype)[3]} from https://huggingface.co/${name} ` +
    'into one folder and pass it as modelDir (--model_dir). Or use the zero-download embedder (embedder "corpus").'
  );
}

function offlineHint(options: EmbeddingOptions, name: string): string {
  const advice = offlineAdvice(options, name);
  return advice[0]!.toUpperCase() + advice.slice(1);
}

async function createPipeline(transformers: Transformers, name: string, options: EmbeddingOptions, localOnly: boolean): Promise<PipelineLike> {
  const pipe = await transformers.pipeline('feature-extraction', name, {
    dtype: options.dtype as 'fp32',
    device: 'cpu',
    local_files_only: localOnly,
  });
  return pipe as unknown as PipelineLike;
}

async function loadFromFolder(transformers: Transformers, options: EmbeddingOptions, dir: string): Promise<LoadedModel> {
  const info = await stat(dir).catch(() => null);
  if (!info?.isDirectory()) {
    throw new RagError('MODEL_NOT_FOUND', `Model folder ${dir} does not exist.`, {
      hint: `Point modelDir (--model_dir) at a folder holding ${requiredModelFiles(options.dtype).join(', ')}.`,
    });
  }
  const { missing } = checkModelFolder(dir, options.dtype as ModelDtype);
  if (missing.length > 0) {
    throw new RagError('MODEL_NOT_FOUND', `Model folder ${dir} lacks ${missing.join(', ')}.`, {
      hint: `A model folder needs ${requiredModelFiles(options.dtype).join(', ')} (dtype ${options.dtype}); copy them from the model's hub page or a transformers.js cache.`,
    });
  }
  // transformers.js resolves a model name under localModelPath; a name it would not accept
  // as a hub id (spaces, `--`) is used as a path as it stands, so pass the absolute path.
  const folderName = basename(dir);
  const usableName = /^[\w.-]{1,96}$/.test(folderName) && !folderName.includes('..') && !folderName.includes('--');
  const name = usableName ? folderName : dir;
  try {
    const pipeline = await withTransformersEnvironment(
      transformers.env,
      { allowRemoteModels: false, allowLocalModels: true, localModelPath: `${dirname(dir)}/`, useFSCache: false },
      () => createPipeline(transformers, name, options, true),
    );
    const config = (pipeline.model.config ?? {}) as Record<string, unknown>;
    const id = `transformers:folder:${folderName}:${options.dtype}:${await fingerprintModelFolder(dir, requiredModelFiles(options.dtype))}`;
    return { transformers, pipeline, id, source: 'folder', location: dir, config };
  } catch (error) {
    throw new RagError('MODEL_NOT_FOUND', `Could not load the model in ${dir}: ${describeLoadFailure(error)}`, {
      hint: 'Check that the folder holds a sentence-embedding model exported for transformers.js (ONNX) and that its files are complete.',
      cause: error,
    });
  }
}

async function loadFromHub(transformers: Transformers, options: EmbeddingOptions): Promise<LoadedModel> {
  const name = options.model;
  const cacheDir = join(options.cacheDir, 'models');
  // Decides cache / download / failure (offline, unreachable hub) before transformers.js runs.
  const location = await locateModel({
    model: name,
    cacheDir,
    dtype: options.dtype as ModelDtype,
    allowDownload: options.allowRemote,
    remoteHost: options.remoteHost,
    downloadCheckTimeoutMs: options.connectTimeoutMs,
    advice: offlineAdvice(options, name),
  });
  const cached = location.kind === 'folder';
  const id = `transformers:${name}:${options.dtype}`;
  const patch: TransformersEnvironmentPatch = cached
    ? // Everything is on disk: read it from the cache and never touch the network.
      { allowRemoteModels: false, allowLocalModels: true, localModelPath: `${cacheDir}/`, cacheDir, useFSCache: true }
    : {
        allowRemoteModels: true,
        allowLocalModels: false,
        cacheDir,
        useFSCache: true,
        remoteHost: options.remoteHost,
        fetch: fetchWithTimeout(globalThis.fetch.bind(globalThis), options.connectTimeoutMs),
      };
  try {
    const pipeline = await withTransformersEnvironment(transformers.env, patch, () => createPipeline(transformers, name, options, cached));
    const config = (pipeline.model.config ?? {}) as Record<string, unknown>;
    return { transformers, pipeline, id, source: cached ? 'cache' : 'hub', location: cached ? join(cacheDir, name) : options.remoteHost, config };
  } catch (error) {
    const where = cached ? `the cached copy in ${join(cacheDir, name)}` : `${options.remoteHost} (not cached in ${cacheDir})`;
    throw new RagError('MODEL_NOT_FOUND', `Could not load model "${name}" from ${where}: ${describeLoadFailure(error)}`, {
      hint: cached ? `Delete ${join(cacheDir, name)} so it downloads again, or pass a complete folder as modelDir.` : offlineHint(options, name),
      cause: error,
    });
  }
}

/**
 * Loads the sentence-embedding model the options name: `modelDir` (a local folder, remote
 * loading off), else `model` from the cache, else from the hub when `allowRemote`.
 * Every failure is `RagError('MODEL_NOT_FOUND')` with a hint; nothing waits on an
 * unreachable network for longer than `connectTimeoutMs` per request.
 */
export async function loadSentenceModel(options: EmbeddingOptions): Promise<LoadedModel> {
  const transformers = await loadTransformers();
  return options.modelDir ? loadFromFolder(transformers, options, options.modelDir) : loadFromHub(transformers, options);
}
