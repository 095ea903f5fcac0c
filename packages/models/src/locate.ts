import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { RagError } from '@rag/core';
import {
  DEFAULT_DOWNLOAD_CHECK_TIMEOUT_MS,
  DEFAULT_MODEL_CACHE_DIR,
  DEFAULT_REMOTE_HOST,
  downloadsAllowedByEnvironment,
  MODEL_DTYPE_FILE_SUFFIX,
  MODEL_DTYPES,
  REQUIRED_MODEL_FILES,
  type ModelDtype,
} from './conventions.js';

/** What to tell a user who has no model: where to put a folder, what else to use. Each caller words its own. */
const GENERIC_ADVICE =
  'pass a model folder holding config.json, tokenizer.json, tokenizer_config.json and onnx/model*.onnx (modelDir), ' +
  'copied from a machine where the model downloaded.';

export interface ModelLocationOptions {
  /** Hub model id (`owner/name`). Required unless `modelDir` is given. */
  model?: string;
  /** A local model folder (config.json, tokenizer files, onnx/…); nothing is downloaded. */
  modelDir?: string;
  /** Download cache; a complete model there loads offline. Default {@link DEFAULT_MODEL_CACHE_DIR}. */
  cacheDir?: string;
  /**
   * Weight format, or `auto`: for a folder (or cached model) the first present of
   * {@link MODEL_DTYPES} in that order, for a download {@link DEFAULT_HUB_DTYPE}. Default `auto`.
   */
  dtype?: ModelDtype | 'auto';
  /** May a missing model be downloaded from the hub? Default {@link downloadsAllowedByEnvironment} (`true` unless an offline variable is 1). */
  allowDownload?: boolean;
  /** Milliseconds the hub reachability check may take. Default {@link DEFAULT_DOWNLOAD_CHECK_TIMEOUT_MS}. */
  downloadCheckTimeoutMs?: number;
  /** Hub base URL. Default {@link DEFAULT_REMOTE_HOST}. */
  remoteHost?: string;
  /** dtype of a hub model downloaded with `dtype: 'auto'`. Default `fp32` (transformers.js's CPU default). */
  hubDtype?: ModelDtype;
  /**
   * The end of every hint: how this caller's user supplies a model instead (a flag, a
   * setting, another generator), starting lowercase. Default: a generic folder advice.
   */
  advice?: string;
}

export interface ModelLocation {
  /** `folder`: a local folder (given or cached); `download`: fetch from the hub into cacheDir. */
  kind: 'folder' | 'download';
  /** Absolute folder path, or the hub id. */
  pathOrId: string;
  /** The model's name as reported: hub id, or the folder path. */
  modelId: string;
  dtype: ModelDtype;
  cacheDir: string;
  /** Hub base URL for a download. */
  remoteHost: string;
}

/** The ONNX file a dtype loads, relative to the model folder. */
export function onnxFile(dtype: ModelDtype): string {
  return join('onnx', `model${MODEL_DTYPE_FILE_SUFFIX[dtype]}.onnx`);
}

export function isHubModelId(name: string): boolean {
  return /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/.test(name) && !name.includes('..') && !name.includes('--');
}

function readConfig(dir: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** External-data files the config says the chosen ONNX file needs (`model.onnx_data`, …). */
function externalDataFiles(config: Record<string, unknown> | undefined, dtype: ModelDtype): string[] {
  const jsConfig = config?.['transformers.js_config'] as { use_external_data_format?: unknown } | undefined;
  const base = `model${MODEL_DTYPE_FILE_SUFFIX[dtype]}.onnx`;
  const spec = jsConfig?.use_external_data_format;
  const value = spec && typeof spec === 'object' ? (spec as Record<string, unknown>)[base] : spec;
  if (value === true) return [join('onnx', `${base}_data`)];
  if (typeof value === 'number' && value > 0) {
    return Array.from({ length: value }, (_, i) => join('onnx', i === 0 ? `${base}_data` : `${base}_data_${i}`));
  }
  return [];
}

export interface FolderCheck {
  /** Files the folder lacks, relative to it (empty when complete). */
  missing: string[];
  /** The dtype it would load; absent when no wanted weights are there. */
  dtype?: ModelDtype;
  /** Every dtype whose weights are present, in {@link MODEL_DTYPES} order. */
  presentDtypes: ModelDtype[];
}

/** What a model folder holds and lacks for `dtype` (`auto`: the first present). */
export function checkModelFolder(dir: string, dtype: ModelDtype | 'auto'): FolderCheck {
  const missing = REQUIRED_MODEL_FILES.filter((f) => !existsSync(join(dir, f))) as string[];
  const presentDtypes = MODEL_DTYPES.filter((d) => existsSync(join(dir, onnxFile(d))));
  const chosen = dtype === 'auto' ? presentDtypes[0] : presentDtypes.includes(dtype) ? dtype : undefined;
  if (chosen === undefined) missing.push(dtype === 'auto' ? 'onnx/model*.onnx' : onnxFile(dtype));
  else missing.push(...externalDataFiles(readConfig(dir), chosen).filter((f) => !existsSync(join(dir, f))));
  return chosen === undefined ? { missing, presentDtypes } : { missing, dtype: chosen, presentDtypes };
}

function adviceOf(options: ModelLocationOptions): string {
  return options.advice ?? GENERIC_ADVICE;
}

function offlineHint(options: ModelLocationOptions): string {
  const advice = adviceOf(options);
  return advice[0]!.toUpperCase() + advice.slice(1);
}

async function checkHubReachable(id: string, options: ModelLocationOptions): Promise<void> {
  const host = options.remoteHost ?? DEFAULT_REMOTE_HOST;
  const url = `${host}${id}/resolve/main/config.json`;
  const timeout = options.downloadCheckTimeoutMs ?? DEFAULT_DOWNLOAD_CHECK_TIMEOUT_MS;
  let status: number;
  try {
    const response = await fetch(url, { method: 'HEAD', redirect: 'follow', signal: AbortSignal.timeout(timeout) });
    status = response.status;
  } catch (error) {
    const name = (error as Error).name;
    const cause = name === 'TimeoutError' || name === 'AbortError' ? `no answer within ${timeout} ms` : ((error as { cause?: { code?: string } }).cause?.code ?? name);
    throw new RagError('MODEL_NOT_FOUND', `Could not load model ${id}: it is not on this machine and ${host} cannot be reached (${cause}).`, {
      hint: `Run once where the hub is reachable (it downloads into ${options.cacheDir ?? DEFAULT_MODEL_CACHE_DIR}), or ${adviceOf(options)}`,
      cause: error,
    });
  }
  if (status === 401 || status === 403 || status === 404) {
    throw new RagError('MODEL_NOT_FOUND', `Model ${id} was not found on ${host} (HTTP ${status}).`, {
      hint: 'Check the model id; a gated model needs HF_TOKEN.',
    });
  }
  if (status >= 400) {
    throw new RagError('MODEL_NOT_FOUND', `Model ${id} could not be fetched from ${host} (HTTP ${status}).`, { hint: offlineHint(options) });
  }
}

function describeMissing(dir: string, check: FolderCheck): string {
  const present = check.presentDtypes.length > 0 ? ` It has weights for: ${check.presentDtypes.join(', ')}.` : '';
  return `${dir} is missing ${check.missing.join(', ')}.${present}`;
}

/**
 * Decides where a model comes from, failing fast with `MODEL_NOT_FOUND` (and a hint) when
 * it is neither on disk nor downloadable, so that nothing hangs on a machine without a
 * network. A hub model already complete in `cacheDir` loads from there without a network.
 */
export async function locateModel(options: ModelLocationOptions = {}): Promise<ModelLocation> {
  const dtype = options.dtype ?? 'auto';
  if (dtype !== 'auto' && !MODEL_DTYPES.includes(dtype)) {
    throw new RagError('INVALID_ARGUMENT', `Unknown dtype "${String(dtype)}".`, { hint: `Use one of: auto, ${MODEL_DTYPES.join(', ')}.` });
  }
  const cacheDir = resolve(options.cacheDir ?? DEFAULT_MODEL_CACHE_DIR);
  const hubDtype = options.hubDtype ?? 'fp32';
  const remoteHost = (options.remoteHost ?? DEFAULT_REMOTE_HOST).replace(/\/?$/, '/');
  if (options.modelDir !== undefined) {
    const dir = resolve(options.modelDir);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      throw new RagError('MODEL_NOT_FOUND', `Model folder ${dir} does not exist.`, { hint: offlineHint(options) });
    }
    const check = checkModelFolder(dir, dtype);
    if (check.missing.length > 0 || check.dtype === undefined) {
      throw new RagError('MODEL_NOT_FOUND', `${describeMissing(dir, check)}`, {
        hint: check.presentDtypes.length > 0 && dtype !== 'auto' ? `Pass --dtype ${check.presentDtypes[0]} or add the missing files.` : offlineHint(options),
      });
    }
    return { kind: 'folder', pathOrId: dir, modelId: dir, dtype: check.dtype, cacheDir, remoteHost };
  }
  const id = options.model;
  if (id === undefined) {
    throw new RagError('INVALID_ARGUMENT', 'Name a model: a hub id (model) or a local folder (modelDir).', { hint: offlineHint(options) });
  }
  if (!isHubModelId(id) || isAbsolute(id)) {
    throw new RagError('MODEL_NOT_FOUND', `"${id}" is neither a model folder nor a hub model id (owner/name).`, { hint: offlineHint(options) });
  }
  const cached = join(cacheDir, id);
  if (existsSync(cached)) {
    const check = checkModelFolder(cached, dtype === 'auto' ? hubDtype : dtype);
    const anyCheck = dtype === 'auto' && check.dtype === undefined ? checkModelFolder(cached, 'auto') : check;
    if (anyCheck.missing.length === 0 && anyCheck.dtype !== undefined) {
      return { kind: 'folder', pathOrId: cached, modelId: id, dtype: anyCheck.dtype, cacheDir, remoteHost };
    }
  }
  if (!(options.allowDownload ?? downloadsAllowedByEnvironment())) {
    throw new RagError('MODEL_NOT_FOUND', `Model ${id} is not in the cache (${cacheDir}) and downloads are off.`, { hint: offlineHint(options) });
  }
  await checkHubReachable(id, { ...options, cacheDir, remoteHost });
  return { kind: 'download', pathOrId: id, modelId: id, dtype: dtype === 'auto' ? hubDtype : dtype, cacheDir, remoteHost };
}

/** True when `locateModel` would find the model on disk (no network needed). */
export function isModelOnDisk(options: ModelLocationOptions = {}): boolean {
  const dtype = options.dtype ?? 'auto';
  if (options.modelDir !== undefined) {
    const dir = resolve(options.modelDir);
    return existsSync(dir) && checkModelFolder(dir, dtype).missing.length === 0;
  }
  const id = options.model;
  if (id === undefined || !isHubModelId(id)) return false;
  const cached = join(resolve(options.cacheDir ?? DEFAULT_MODEL_CACHE_DIR), id);
  return existsSync(cached) && checkModelFolder(cached, dtype).missing.length === 0;
}
