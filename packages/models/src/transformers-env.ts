import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * transformers.js is configured through one global object (`env`): where models are
 * looked up, whether the network may be used, which fetch to use. Every package that loads
 * a model goes through here, so two loads never see each other's settings.
 */

export type Transformers = typeof import('@huggingface/transformers');
type Environment = Transformers['env'];

/** The settings of transformers.js's `env` a model load may change. */
export type TransformersEnvironmentPatch = Partial<
  Pick<Environment, 'allowRemoteModels' | 'allowLocalModels' | 'localModelPath' | 'cacheDir' | 'useFSCache' | 'remoteHost' | 'fetch'>
>;

/** Imports transformers.js once, quiet (our errors say more than its lookup warnings) and without telemetry. */
export async function loadTransformers(): Promise<Transformers> {
  process.env.ORT_DISABLE_TELEMETRY ??= '1';
  const transformers = await import('@huggingface/transformers');
  transformers.env.logLevel = transformers.LogLevel.ERROR;
  return transformers;
}

let environmentLock: Promise<unknown> = Promise.resolve();

/**
 * Runs `run` with `patch` applied to transformers.js's `env`, then restores it. Loads run
 * one at a time: the environment is global, and a model's files are resolved while it loads.
 */
export async function withTransformersEnvironment<T>(env: Environment, patch: TransformersEnvironmentPatch, run: () => Promise<T>): Promise<T> {
  const previous = environmentLock;
  let release!: () => void;
  environmentLock = new Promise<void>((resolve) => (release = resolve));
  await previous.catch(() => undefined);
  const saved: TransformersEnvironmentPatch = {};
  for (const key of Object.keys(patch) as (keyof TransformersEnvironmentPatch)[]) (saved as Record<string, unknown>)[key] = env[key];
  Object.assign(env, patch);
  try {
    return await run();
  } finally {
    Object.assign(env, saved);
    release();
  }
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

/** sha256 (16 hex digits) over `files` of a model folder, so a changed folder is a different model. */
export async function fingerprintModelFolder(dir: string, files: readonly string[]): Promise<string> {
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(file);
    hash.update(await readFile(join(dir, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

/** The message of a load failure with its underlying code (`ECONNREFUSED`, …) when that adds something. */
export function describeLoadFailure(error: unknown): string {
  const e = error as Error & { cause?: unknown };
  const cause = e?.cause as (Error & { code?: string }) | undefined;
  const detail = cause?.code ?? cause?.message;
  return `${e?.message ?? String(error)}${detail && !String(e?.message).includes(detail) ? ` (${detail})` : ''}`;
}
