import { createHash } from 'node:crypto';
import { access, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { RagError } from '@rag/core';
import { DTYPE_SUFFIXES, type EmbeddingOptions } from '../options.js';

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

type Transformers = typeof import('@huggingface/transformers');

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
  return ['config.json', 'tokenizer.json', 'tokenizer_config.json', `onnx/model${DTYPE_SUFFIXES[dtype] ?? ''}.onnx`];
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

async function missingFiles(dir: string, dtype: string): Promise<string[]> {
  const missing: string[] = [];
  for (const file of requiredModelFiles(dtype)) if (!(await exists(join(dir, file)))) missing.push(file);
  return missing;
}

/** sha256 over the files that decide the vectors, so a changed folder is a different model. */
async function fingerprintFolder(dir: string, dtype: string): Promise<string> {
  const hash = createHash('sha256');
  for (const file of requiredModelFiles(dtype)) {
    hash.update(file);
    hash.update(await readFile(join(dir, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * `fetch` that gives up when the server has not answered within `timeoutMs`: an
 * unreachable hub (a firewall that drops packets) then fails in seconds instead of
 * hanging. Once headers arrive the body downloads without a limit.
 */
export function fetchWithTimeout(base: typeof fetch, timeoutMs: number): typeof fetch {
  return async (input, init = {}) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, controller.signal]) : controller.signal;
    try {
      return await base(input, { ...init, signal });
    } finally {
      clearTimeout(timer);
    }
  };
}

/** transformers.js configuration is one global object: loads run one at a time and restore it. */
let environmentLock: Promise<unknown> = Promise.resolve();

type Environment = Transformers['env'];
type EnvironmentPatch = Partial<Pick<Environment, 'allowRemoteModels' | 'allowLocalModels' | 'localModelPath' | 'cacheDir' | 'useFSCache' | 'remoteHost' | 'fetch'>>;

async function withEnvironment<T>(env: Environment, patch: EnvironmentPatch, run: () => Promise<T>): Promise<T> {
  const previous = environmentLock;
  let release!: () => void;
  environmentLock = new Promise<void>((resolve) => (release = resolve));
  await previous.catch(() => undefined);
  const saved: EnvironmentPatch = {};
  for (const key of Object.keys(patch) as (keyof EnvironmentPatch)[]) (saved as Record<string, unknown>)[key] = env[key];
  Object.assign(env, patch);
  try {
    return await run();
  } finally {
    Object.assign(env, saved);
    release();
  }
}

function causeText(error: unknown): string {
  const e = error as Error & { cause?: unknown };
  const cause = e?.cause as (Error & { code?: string }) | undefined;
  const detail = cause?.code ?? cause?.message;
  return `${e?.message ?? String(error)}${detail && !String(e?.message).includes(detail) ? ` (${detail})` : ''}`;
}

function offlineHint(options: EmbeddingOptions, name: string): string {
  return (
    `On a machine with internet, run once with model "${name}" (it is cached in ${join(options.cacheDir, 'models')}) and copy that folder, ` +
    `or download config.json, tokenizer.json, tokenizer_config.json and ${requiredModelFiles(options.dtype)[3]} from https://huggingface.co/${name} ` +
    'into one folder and pass it as modelDir (--model_dir). Or use the zero-download embedder (embedder "corpus").'
  );
}

async function loadTransformers(): Promise<Transformers> {
  const transformers = await import('@huggingface/transformers');
  // The library logs a warning for every file it looks for locally; our errors say more.
  transformers.env.logLevel = transformers.LogLevel.ERROR;
  return transformers;
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
  const missing = await missingFiles(dir, options.dtype);
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
    const pipeline = await withEnvironment(
      transformers.env,
      { allowRemoteModels: false, allowLocalModels: true, localModelPath: `${dirname(dir)}/`, useFSCache: false },
      () => createPipeline(transformers, name, options, true),
    );
    const config = (pipeline.model.config ?? {}) as Record<string, unknown>;
    const id = `transformers:folder:${folderName}:${options.dtype}:${await fingerprintFolder(dir, options.dtype)}`;
    return { transformers, pipeline, id, source: 'folder', location: dir, config };
  } catch (error) {
    throw new RagError('MODEL_NOT_FOUND', `Could not load the model in ${dir}: ${causeText(error)}`, {
      hint: 'Check that the folder holds a sentence-embedding model exported for transformers.js (ONNX) and that its files are complete.',
      cause: error,
    });
  }
}

async function loadFromHub(transformers: Transformers, options: EmbeddingOptions): Promise<LoadedModel> {
  const name = options.model;
  const cacheDir = join(options.cacheDir, 'models');
  const cachedMissing = await missingFiles(join(cacheDir, name), options.dtype);
  const cached = cachedMissing.length === 0;
  const id = `transformers:${name}:${options.dtype}`;
  if (!cached && !options.allowRemote) {
    throw new RagError('MODEL_NOT_FOUND', `Model "${name}" is not in the cache (${cacheDir}) and downloads are off.`, {
      hint: offlineHint(options, name),
    });
  }
  const patch: EnvironmentPatch = cached
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
    const pipeline = await withEnvironment(transformers.env, patch, () => createPipeline(transformers, name, options, cached));
    const config = (pipeline.model.config ?? {}) as Record<string, unknown>;
    return { transformers, pipeline, id, source: cached ? 'cache' : 'hub', location: cached ? join(cacheDir, name) : options.remoteHost, config };
  } catch (error) {
    const where = cached ? `the cached copy in ${join(cacheDir, name)}` : `${options.remoteHost} (not cached in ${cacheDir})`;
    throw new RagError('MODEL_NOT_FOUND', `Could not load model "${name}" from ${where}: ${causeText(error)}`, {
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
