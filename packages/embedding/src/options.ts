import { resolve } from 'node:path';
import { integerIn, optionError, parseOptions, v } from '@rag/core';
import { defaultCacheDir, downloadsAllowedByEnvironment, MODEL_DTYPE_FILE_SUFFIX, type ModelDtype } from '@rag/models';
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

/** ONNX file suffix per dtype, as transformers.js names them (see @rag/models). */
const CONTEXT = { subject: 'embedding', root: 'settings' } as const;
const count = v.int().check(v.minimum(1));

const CORPUS_SCHEMA = v.strictObject({
  dimension: v.optional(integerIn(2, 1024)),
  context: v.optional(v.enum(['window', 'chunk'])),
  window: v.optional(integerIn(1, 20)),
  minPairCount: v.optional(count),
  minCount: v.optional(count),
  maxVocabulary: v.optional(integerIn(1, 65_536)),
  smoothing: v.optional(v.number().check(v.gt(0), v.maximum(1))),
  eigenPower: v.optional(v.number().check(v.minimum(0), v.maximum(1))),
  powerIterations: v.optional(integerIn(0, 6)),
  oversampling: v.optional(integerIn(0, 256)),
  center: v.optional(v.boolean()),
  seed: v.optional(integerIn(0, 2 ** 32 - 1)),
});

const HNSW_SCHEMA = v.strictObject({
  m: v.optional(integerIn(2, 128)),
  efConstruction: v.optional(integerIn(8, 2000)),
  efSearch: v.optional(integerIn(1, 10_000)),
  seed: v.optional(integerIn(0, 2 ** 31 - 1)),
});

/** The schema of {@link EmbeddingSettings}: unknown keys are refused at every level. */
export const EMBEDDING_SETTINGS_SCHEMA = v.strictObject({
  embedder: v.optional(v.enum(['corpus', 'transformers'])),
  model: v.optional(v.string().check(v.minLength(1))),
  modelDir: v.optional(v.nullable(v.string().check(v.minLength(1)))),
  dtype: v.optional(v.enum(Object.keys(MODEL_DTYPE_FILE_SUFFIX) as [ModelDtype, ...ModelDtype[]])),
  cacheDir: v.optional(v.string().check(v.minLength(1))),
  allowRemote: v.optional(v.boolean()),
  remoteHost: v.optional(v.string().check(v.regex(/^https?:\/\//, 'an http(s) URL'))),
  connectTimeoutMs: v.optional(integerIn(100, 600_000)),
  windowTokens: v.optional(v.nullable(v.int().check(v.minimum(8)))),
  windowOverlap: v.optional(v.int().check(v.minimum(0))),
  batchTokens: v.optional(v.int().check(v.minimum(64))),
  batchSize: v.optional(count),
  resume: v.optional(v.boolean()),
  corpus: v.optional(CORPUS_SCHEMA),
  index: v.optional(v.enum(['auto', 'exact', 'hnsw'])),
  exactLimit: v.optional(v.int().check(v.minimum(0))),
  hnsw: v.optional(HNSW_SCHEMA),
  encoding: v.optional(v.enum(['float32', 'int8'])),
  includeMetadata: v.optional(v.boolean()),
});

/** Fills unset keys of `given` from `defaults` (both flat objects). */
function withDefaults<T extends object>(defaults: Readonly<T>, given: Partial<T> | undefined): T {
  const out = { ...defaults };
  for (const [key, value] of Object.entries(given ?? {})) if (value !== undefined) (out as Record<string, unknown>)[key] = value;
  return out;
}

/**
 * Complete, validated options from user settings. Unknown keys are refused, so a typo
 * never silently falls back to a default; throws `RagError('INVALID_ARGUMENT')` naming
 * the offending field.
 */
export function resolveEmbeddingOptions(settings: unknown = {}): EmbeddingOptions {
  const d = DEFAULT_EMBEDDING_OPTIONS;
  const parsed = parseOptions(EMBEDDING_SETTINGS_SCHEMA, settings ?? {}, CONTEXT);
  const modelDir = parsed.modelDir ?? d.modelDir;
  const namesModel = parsed.model !== undefined || modelDir !== null;
  const windowTokens = parsed.windowTokens === undefined ? d.windowTokens : parsed.windowTokens;
  const windowOverlap = parsed.windowOverlap ?? d.windowOverlap;
  if (windowTokens !== null && windowOverlap > windowTokens / 2) {
    throw optionError(CONTEXT, ['windowOverlap'], `an integer in [0, ${Math.floor(windowTokens / 2)}] (half of windowTokens)`, windowOverlap);
  }
  return {
    embedder: parsed.embedder ?? (namesModel ? 'transformers' : d.embedder),
    model: parsed.model ?? d.model,
    modelDir: modelDir === null ? null : resolve(modelDir),
    dtype: parsed.dtype ?? d.dtype,
    cacheDir: resolve(parsed.cacheDir ?? defaultCacheDir()),
    allowRemote: parsed.allowRemote ?? downloadsAllowedByEnvironment(),
    remoteHost: parsed.remoteHost ?? d.remoteHost,
    connectTimeoutMs: parsed.connectTimeoutMs ?? d.connectTimeoutMs,
    windowTokens,
    windowOverlap,
    batchTokens: parsed.batchTokens ?? d.batchTokens,
    batchSize: parsed.batchSize ?? d.batchSize,
    resume: parsed.resume ?? d.resume,
    corpus: withDefaults(DEFAULT_CORPUS_EMBEDDER_OPTIONS, parsed.corpus as Partial<CorpusEmbedderOptions> | undefined),
    index: parsed.index ?? d.index,
    exactLimit: parsed.exactLimit ?? d.exactLimit,
    hnsw: withDefaults(DEFAULT_HNSW_OPTIONS, parsed.hnsw),
    encoding: parsed.encoding ?? d.encoding,
    includeMetadata: parsed.includeMetadata ?? d.includeMetadata,
  };
}
