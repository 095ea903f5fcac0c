import { resolve } from 'node:path';
import { defaultCacheDir as coreDefaultCacheDir, downloadsAllowedByEnvironment, MODEL_DTYPE_FILE_SUFFIX, RagError } from '@rag/core';
import { DEFAULT_CORPUS_EMBEDDER_OPTIONS, type CorpusEmbedderOptions } from './corpus/options.js';

/** The sentence-embedding model used when `embedder: 'transformers'` names none. */
export const DEFAULT_MODEL = 'Xenova/all-MiniLM-L6-v2';

export type EmbedderKind = 'corpus' | 'transformers';
export type VectorIndexChoice = 'auto' | 'exact' | 'hnsw';
export type VectorEncoding = 'float32' | 'int8';

/** hnswlib graph parameters (`index: 'hnsw'`, or `auto` above `exactLimit`). */
export interface HnswOptions {
  /** Links per node, integer in [2, 128]: more is better recall, more memory, slower build. Default 16. */
  m: number;
  /** Candidate list while building, integer in [8, 2000]: more is a better graph and a slower build. Default 200. */
  efConstruction: number;
  /** Candidate list while searching (at least k is used), integer in [1, 10000]: more is better recall, slower queries. Default 128. */
  efSearch: number;
  /** Seed of the level assignment. Default 100. */
  seed: number;
}

export interface EmbeddingOptions {
  /**
   * Which embedder: `corpus` (the zero-download embedder learned from the indexed chunks)
   * or `transformers` (an ONNX sentence-embedding model through transformers.js).
   * Default `corpus`, or `transformers` when `model` or `modelDir` is given.
   */
  embedder: EmbedderKind;
  /** Hub name of the transformers model, e.g. `Xenova/all-MiniLM-L6-v2`. Default {@link DEFAULT_MODEL}. */
  model: string;
  /**
   * A local model folder (config.json, tokenizer.json, tokenizer_config.json,
   * onnx/model.onnx). When set it wins over `model` and nothing is downloaded. Default null.
   */
  modelDir: string | null;
  /** ONNX weights to load: `fp32` (onnx/model.onnx), `q8` (model_quantized.onnx), `fp16`, `int8`, `uint8`, `q4`, `bnb4`, `q4f16`. Default `fp32`. */
  dtype: string;
  /**
   * Where downloaded models (`<cacheDir>/models`) and embedding checkpoints
   * (`<cacheDir>/checkpoints`) live. Default `$RAG_CACHE_DIR`, else `~/.cache/rag`.
   */
  cacheDir: string;
  /**
   * May a missing model be downloaded from `remoteHost`? Default true, unless
   * `HF_HUB_OFFLINE`, `TRANSFORMERS_OFFLINE` or `RAG_OFFLINE` is set to 1.
   */
  allowRemote: boolean;
  /** Hub (or mirror) URL models are downloaded from. Default `https://huggingface.co/`. */
  remoteHost: string;
  /**
   * How long to wait for the hub to answer each request before giving up with
   * MODEL_NOT_FOUND, in ms (the download itself is not limited). Integer in [100, 600000]. Default 15000.
   */
  connectTimeoutMs: number;
  /**
   * Tokens per model window, special tokens included: longer chunks are split into
   * overlapping windows whose vectors are averaged. Integer ≥ 8, or null for the model's
   * limit capped at 256 (all-MiniLM-L6-v2 was trained on 256). Default null.
   */
  windowTokens: number | null;
  /** Tokens consecutive windows share, integer in [0, windowTokens / 2]. Default 32. */
  windowOverlap: number;
  /** Most padded tokens in one forward pass (bounds memory: batch × length ≤ this), integer ≥ 64. Default 8192. */
  batchTokens: number;
  /** Chunks per embedding batch: the unit of progress and of the resumable checkpoint. Integer ≥ 1. Default 256. */
  batchSize: number;
  /** Keep finished batches in a checkpoint so an interrupted build resumes where it stopped. Default true. */
  resume: boolean;
  /** Corpus-embedder settings (see `DEFAULT_CORPUS_EMBEDDER_OPTIONS`). */
  corpus: CorpusEmbedderOptions;
  /**
   * Vector search: `exact` (brute force, recall 1), `hnsw` (hnswlib graph, approximate)
   * or `auto` (exact up to `exactLimit` vectors, hnsw above). Default `auto`.
   */
  index: VectorIndexChoice;
  /** With `index: 'auto'`, the largest corpus searched exactly (about 13 ms a query at 128-d). Integer ≥ 0. Default 100,000. */
  exactLimit: number;
  hnsw: HnswOptions;
  /** On-disk vectors: `float32`, or `int8` (per-vector scale, a quarter of the size; dequantised on load). Default `float32`. */
  encoding: VectorEncoding;
  /** Embed `file_path` and `symbol` on a line before the chunk text, so names count too. Default true. */
  includeMetadata: boolean;
}

/** What callers may pass (e.g. as `BuildContext.settings`): any subset, nested objects partial. */
export type EmbeddingSettings = Partial<Omit<EmbeddingOptions, 'corpus' | 'hnsw'>> & {
  corpus?: Partial<CorpusEmbedderOptions>;
  hnsw?: Partial<HnswOptions>;
};

export const DEFAULT_HNSW_OPTIONS: Readonly<HnswOptions> = Object.freeze({ m: 16, efConstruction: 200, efSearch: 128, seed: 100 });

/** Defaults; `cacheDir` and `allowRemote` are filled from the environment by `resolveEmbeddingOptions`. */
export const DEFAULT_EMBEDDING_OPTIONS: Readonly<Omit<EmbeddingOptions, 'cacheDir' | 'allowRemote'>> = Object.freeze({
  embedder: 'corpus',
  model: DEFAULT_MODEL,
  modelDir: null,
  dtype: 'fp32',
  remoteHost: 'https://huggingface.co/',
  connectTimeoutMs: 15_000,
  windowTokens: null,
  windowOverlap: 32,
  batchTokens: 8192,
  batchSize: 256,
  resume: true,
  corpus: DEFAULT_CORPUS_EMBEDDER_OPTIONS,
  index: 'auto',
  exactLimit: 100_000,
  hnsw: DEFAULT_HNSW_OPTIONS,
  encoding: 'float32',
  includeMetadata: true,
});

/** ONNX file suffix per dtype, as transformers.js names them (shared with @rag/generation). */
export const DTYPE_SUFFIXES: Readonly<Record<string, string>> = MODEL_DTYPE_FILE_SUFFIX;

/** `$RAG_CACHE_DIR`, else `~/.cache/rag`. */
export const defaultCacheDir = (): string => coreDefaultCacheDir();

/** False when the environment asks for offline operation. */
export const remoteAllowedByEnvironment = (): boolean => downloadsAllowedByEnvironment();

function invalid(path: string, requirement: string, value: unknown): RagError {
  return new RagError('INVALID_ARGUMENT', `embedding setting ${path} must be ${requirement} (got ${JSON.stringify(value) ?? String(value)}).`, {
    hint: `Pass ${path} as ${requirement}, or leave it out to use the default.`,
  });
}

function checkKeys(value: unknown, path: string, allowed: readonly string[]): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(path, 'an object', value);
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      throw new RagError('INVALID_ARGUMENT', `Unknown embedding setting ${path === 'settings' ? key : `${path}.${key}`}.`, {
        hint: `Valid keys${path === 'settings' ? '' : ` of ${path}`}: ${allowed.join(', ')}.`,
      });
    }
  }
  return value as Record<string, unknown>;
}

type Reader = <T>(key: string, fallback: T, accept: (v: unknown) => boolean, requirement: string) => T;

function reader(source: Record<string, unknown>, path: string): Reader {
  return (key, fallback, accept, requirement) => {
    const value = source[key];
    if (value === undefined) return fallback;
    if (!accept(value)) throw invalid(path === 'settings' ? key : `${path}.${key}`, requirement, value);
    return value as typeof fallback;
  };
}

const integerIn = (lo: number, hi: number) => (v: unknown) => Number.isInteger(v) && (v as number) >= lo && (v as number) <= hi;
const numberIn = (lo: number, hi: number, openLow = false) => (v: unknown) =>
  typeof v === 'number' && Number.isFinite(v) && (openLow ? v > lo : v >= lo) && v <= hi;
const oneOf = (values: readonly string[]) => (v: unknown) => typeof v === 'string' && values.includes(v);
const isBoolean = (v: unknown) => typeof v === 'boolean';
const nonEmptyString = (v: unknown) => typeof v === 'string' && v.length > 0;

function resolveCorpusOptions(value: unknown): CorpusEmbedderOptions {
  const d = DEFAULT_CORPUS_EMBEDDER_OPTIONS;
  const source = checkKeys(value ?? {}, 'corpus', Object.keys(d));
  const read = reader(source, 'corpus');
  return {
    dimension: read('dimension', d.dimension, integerIn(2, 1024), 'an integer in [2, 1024]'),
    context: read('context', d.context, oneOf(['window', 'chunk']), '"window" or "chunk"'),
    window: read('window', d.window, integerIn(1, 20), 'an integer in [1, 20]'),
    minPairCount: read('minPairCount', d.minPairCount, integerIn(1, Number.MAX_SAFE_INTEGER), 'an integer ≥ 1'),
    minCount: read('minCount', d.minCount, integerIn(1, Number.MAX_SAFE_INTEGER), 'an integer ≥ 1'),
    maxVocabulary: read('maxVocabulary', d.maxVocabulary, integerIn(1, 65_536), 'an integer in [1, 65536]'),
    smoothing: read('smoothing', d.smoothing, numberIn(0, 1, true), 'a number in (0, 1]'),
    eigenPower: read('eigenPower', d.eigenPower, numberIn(0, 1), 'a number in [0, 1]'),
    powerIterations: read('powerIterations', d.powerIterations, integerIn(0, 6), 'an integer in [0, 6]'),
    oversampling: read('oversampling', d.oversampling, integerIn(0, 256), 'an integer in [0, 256]'),
    center: read('center', d.center, isBoolean, 'true or false'),
    seed: read('seed', d.seed, integerIn(0, 2 ** 32 - 1), 'an integer in [0, 2³²)'),
  };
}

function resolveHnswOptions(value: unknown): HnswOptions {
  const d = DEFAULT_HNSW_OPTIONS;
  const source = checkKeys(value ?? {}, 'hnsw', Object.keys(d));
  const read = reader(source, 'hnsw');
  return {
    m: read('m', d.m, integerIn(2, 128), 'an integer in [2, 128]'),
    efConstruction: read('efConstruction', d.efConstruction, integerIn(8, 2000), 'an integer in [8, 2000]'),
    efSearch: read('efSearch', d.efSearch, integerIn(1, 10_000), 'an integer in [1, 10000]'),
    seed: read('seed', d.seed, integerIn(0, 2 ** 31 - 1), 'an integer in [0, 2³¹)'),
  };
}

const SETTING_KEYS = [...Object.keys(DEFAULT_EMBEDDING_OPTIONS), 'cacheDir', 'allowRemote'];

/**
 * Complete, validated options from user settings. Unknown keys are refused, so a typo
 * never silently falls back to a default; throws `RagError('INVALID_ARGUMENT')` naming
 * the offending field.
 */
export function resolveEmbeddingOptions(settings: unknown = {}): EmbeddingOptions {
  const d = DEFAULT_EMBEDDING_OPTIONS;
  const source = checkKeys(settings ?? {}, 'settings', SETTING_KEYS);
  const read = reader(source, 'settings');
  const model = read('model', d.model, nonEmptyString, 'a non-empty hub model name');
  const modelDirValue = read<string | null>('modelDir', d.modelDir, (v) => v === null || nonEmptyString(v), 'a folder path');
  const namesModel = source.model !== undefined || (modelDirValue !== null && modelDirValue !== undefined);
  const embedder = read<EmbedderKind>('embedder', namesModel ? 'transformers' : d.embedder, oneOf(['corpus', 'transformers']), '"corpus" or "transformers"');
  const windowTokens = read<number | null>('windowTokens', d.windowTokens, (v) => v === null || integerIn(8, 1_000_000)(v), 'an integer ≥ 8 or null');
  const windowOverlap = read('windowOverlap', d.windowOverlap, integerIn(0, 500_000), 'an integer ≥ 0');
  if (windowTokens !== null && windowOverlap > windowTokens / 2) {
    throw invalid('windowOverlap', `an integer in [0, ${Math.floor(windowTokens / 2)}] (half of windowTokens)`, windowOverlap);
  }
  const dtype = read('dtype', d.dtype, oneOf(Object.keys(DTYPE_SUFFIXES)), `one of ${Object.keys(DTYPE_SUFFIXES).join(', ')}`);
  return {
    embedder,
    model,
    modelDir: modelDirValue === null ? null : resolve(modelDirValue),
    dtype,
    cacheDir: resolve(read('cacheDir', defaultCacheDir(), nonEmptyString, 'a folder path')),
    allowRemote: read('allowRemote', remoteAllowedByEnvironment(), isBoolean, 'true or false'),
    remoteHost: read('remoteHost', d.remoteHost, (v) => typeof v === 'string' && /^https?:\/\//.test(v), 'an http(s) URL'),
    connectTimeoutMs: read('connectTimeoutMs', d.connectTimeoutMs, integerIn(100, 600_000), 'an integer in [100, 600000]'),
    windowTokens,
    windowOverlap,
    batchTokens: read('batchTokens', d.batchTokens, integerIn(64, 10_000_000), 'an integer ≥ 64'),
    batchSize: read('batchSize', d.batchSize, integerIn(1, 10_000_000), 'an integer ≥ 1'),
    resume: read('resume', d.resume, isBoolean, 'true or false'),
    corpus: resolveCorpusOptions(source.corpus),
    index: read('index', d.index, oneOf(['auto', 'exact', 'hnsw']), '"auto", "exact" or "hnsw"'),
    exactLimit: read('exactLimit', d.exactLimit, integerIn(0, Number.MAX_SAFE_INTEGER), 'an integer ≥ 0'),
    hnsw: resolveHnswOptions(source.hnsw),
    encoding: read('encoding', d.encoding, oneOf(['float32', 'int8']), '"float32" or "int8"'),
    includeMetadata: read('includeMetadata', d.includeMetadata, isBoolean, 'true or false'),
  };
}
