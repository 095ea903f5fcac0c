import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { RagError, type BuildContext, type Chunk, type LoadContext, type PreviousBuild, type ProgressEvent, type ProgressFn, type RetrieverFactory, type VectorSearch } from '@rag/core';
import { chunkFingerprint, embeddingText } from './chunk-text.js';
import { CORPUS_MODEL_FILE, CorpusEmbedder, fitCorpusEmbedder } from './corpus/embedder.js';
import { embedTexts } from './embed-chunks.js';
import type { Embedder } from './embedder.js';
import { resolveEmbeddingOptions, type EmbeddingOptions, type EmbeddingSettings, type HnswOptions } from './options.js';
import { createManifest, EmbeddingRetriever, HNSW_FILE, readEmbeddingManifest } from './retriever.js';
import { HnswVectorIndex } from './search/hnsw-index.js';
import { TransformersEmbedder } from './transformers/embedder.js';
import { decodeVectors, VECTORS_FILE } from './vector-file.js';

/** Merges settings objects one level deep (`corpus` and `hnsw` are merged key by key). */
export function mergeEmbeddingSettings(...layers: (EmbeddingSettings | Record<string, unknown> | undefined)[]): EmbeddingSettings {
  const out: Record<string, unknown> = {};
  for (const layer of layers) {
    if (!layer) continue;
    for (const [key, value] of Object.entries(layer)) {
      if (value === undefined) continue;
      const previous = out[key];
      const nested = (key === 'corpus' || key === 'hnsw') && typeof value === 'object' && value !== null;
      out[key] = nested ? { ...(previous as object | undefined), ...(value as object) } : value;
    }
  }
  return out as EmbeddingSettings;
}

function useHnsw(options: EmbeddingOptions, count: number): boolean {
  return options.index === 'hnsw' || (options.index === 'auto' && count > options.exactLimit);
}

/**
 * Builds an embedding retriever over `chunks` (ids equal to positions). The corpus
 * embedder is fitted on the chunks themselves; a transformers model is loaded (see
 * `loadSentenceModel`) and run batch by batch with a resumable checkpoint.
 * Progress phases: `fit` and `embed` (corpus), `embed` (transformers), `hnsw`.
 */
export async function buildEmbeddingRetriever(
  chunks: readonly Chunk[],
  settings: EmbeddingSettings = {},
  onProgress?: ProgressFn,
  previous?: PreviousBuild,
): Promise<EmbeddingRetriever> {
  const options = resolveEmbeddingOptions(settings);
  const texts = chunks.map((c) => embeddingText(c, options.includeMetadata));
  let embedder: Embedder;
  let vectors: Float32Array;
  let checkpoint = null;
  let stats: Record<string, unknown> = {};
  const started = performance.now();
  if (options.embedder === 'corpus') {
    const fitted = fitCorpusEmbedder(texts, options.corpus, onProgress);
    embedder = fitted.embedder;
    vectors = fitted.vectors;
    stats = { ...fitted.stats };
  } else {
    embedder = await TransformersEmbedder.create(options);
    // Unchanged chunks keep their vectors from the previous build of the same model; only
    // the rest is embedded (the model's output depends on the chunk's text alone).
    const kept = previous ? await readReusableVectors(previous, embedder, options) : undefined;
    const missing = kept ? texts.map((_, i) => i).filter((i) => !kept.has(i)) : texts.map((_, i) => i);
    const embedded = await embedTexts(embedder, missing.map((i) => texts[i]!), {
      batchSize: options.batchSize,
      checkpointRoot: options.resume ? join(options.cacheDir, 'checkpoints') : null,
      ...(onProgress ? { onProgress: (event: ProgressEvent) => onProgress({ ...event, done: event.done + (texts.length - missing.length), total: texts.length }) } : {}),
    });
    vectors = new Float32Array(texts.length * embedder.dimension);
    const dimension = embedder.dimension;
    missing.forEach((row, i) => vectors.set(embedded.vectors.subarray(i * dimension, (i + 1) * dimension), row * dimension));
    for (const [row, vector] of kept ?? []) vectors.set(vector, row * dimension);
    checkpoint = embedded.checkpoint;
    stats = { resumedBatches: embedded.resumedBatches, computedBatches: embedded.computedBatches, reusedVectors: texts.length - missing.length };
  }
  const embedSeconds = (performance.now() - started) / 1000;
  const hnswStarted = performance.now();
  const hnsw = useHnsw(options, chunks.length) ? HnswVectorIndex.build(vectors, embedder.dimension, options.hnsw, onProgress) : null;
  const manifest = createManifest(embedder, chunks.length, chunkFingerprint(chunks), hnsw ? 'hnsw' : 'exact', options);
  stats = { ...stats, embedSeconds, ...(hnsw ? { hnswSeconds: (performance.now() - hnswStarted) / 1000 } : {}) };
  return new EmbeddingRetriever(embedder, vectors, manifest, hnsw, checkpoint, stats);
}

/**
 * Vectors of the previous build for the new chunks that copy a previous chunk (row → vector),
 * when that build used the same model, dimension and chunk text layout over exactly
 * `previous.chunks`; undefined otherwise (everything is embedded, as without a previous build).
 */
async function readReusableVectors(previous: PreviousBuild, embedder: Embedder, options: EmbeddingOptions): Promise<Map<number, Float32Array> | undefined> {
  try {
    const manifest = await readEmbeddingManifest(previous.dir, previous.readFile);
    const same =
      manifest.embedder.id === embedder.id &&
      manifest.embedder.dimension === embedder.dimension &&
      isDeepStrictEqual(manifest.embedder.settings, embedder.settings) &&
      manifest.includeMetadata === options.includeMetadata &&
      manifest.count === previous.chunks.length &&
      manifest.chunkFingerprint === chunkFingerprint(previous.chunks);
    if (!same) return undefined;
    const decoded = decodeVectors(await (previous.readFile ?? readFile)(join(previous.dir, VECTORS_FILE)), VECTORS_FILE);
    if (decoded.count !== manifest.count || decoded.dimension !== embedder.dimension) return undefined;
    const kept = new Map<number, Float32Array>();
    const dimension = embedder.dimension;
    previous.sourceOf.forEach((source, row) => {
      if (source >= 0) kept.set(row, decoded.vectors.subarray(source * dimension, (source + 1) * dimension));
    });
    return kept;
  } catch {
    return undefined;
  }
}

export interface LoadEmbeddingOptions {
  /**
   * Settings that locate the model at query time (`model`, `modelDir`, `cacheDir`,
   * `allowRemote`, …), layered over those recorded in the index. Naming a different
   * model than the one the index was built with is refused with INDEX_INCOMPATIBLE.
   */
  settings?: EmbeddingSettings;
  /** Use this embedder for queries instead of recreating the recorded one (checked the same way). */
  embedder?: Embedder;
  /** How the vector and model files are read: see `LoadContext.readFile`. Default: the disk. */
  readFile?: (path: string) => Promise<Uint8Array>;
  /** The files and chunks were verified by the index store: see `LoadContext.verified`. Default `false`. */
  verified?: boolean;
  /**
   * The store's own search over this index's vectors (`LoadContext.vectorSearch`): the
   * vectors and graph files are then not read, and searches go to the store.
   */
  vectorSearch?: VectorSearch;
}

function mismatch(dir: string, built: { id: string; dimension: number }, query: { id: string; dimension: number }): RagError {
  return new RagError(
    'INDEX_INCOMPATIBLE',
    `The embedding index in ${dir} was built with ${built.id} (${built.dimension} dimensions), but queries would be embedded with ${query.id}${Number.isNaN(query.dimension) ? '' : ` (${query.dimension} dimensions)`}; their vectors are not comparable.`,
    {
      hint: 'Search with the model the index was built with (the same --model_dir or model name), or rebuild the index with the new one: `rag index --retriever embedding …`.',
    },
  );
}

/** Loads a retriever saved by `EmbeddingRetriever.save`, checking it matches `chunks` and the query model. */
export async function loadEmbeddingRetriever(dir: string, chunks: readonly Chunk[], options: LoadEmbeddingOptions = {}): Promise<EmbeddingRetriever> {
  const manifest = await readEmbeddingManifest(dir, options.readFile);
  // An index store that verified the generation vouches for the chunks (and a database
  // store fetches texts on demand only), so the fingerprint, which reads every text, is skipped then.
  if (manifest.count !== chunks.length || (options.verified !== true && manifest.chunkFingerprint !== chunkFingerprint(chunks))) {
    throw new RagError('INDEX_INCOMPATIBLE', `The embedding index in ${dir} was built over different chunks than the index holds.`, {
      hint: 'Rebuild the index with `rag index --corpus_dir <dir> --retriever embedding`.',
    });
  }
  const readBytes = async (file: string): Promise<Uint8Array> => {
    try {
      return await (options.readFile ?? readFile)(join(dir, file));
    } catch (error) {
      throw new RagError('INDEX_CORRUPT', `The embedding index in ${dir} is incomplete: ${file} is missing.`, {
        hint: 'Rebuild the index with `rag index --corpus_dir <dir> --retriever embedding`.',
        cause: error,
      });
    }
  };
  // With the store searching, the vectors stay in the store (they are checked there when written).
  const decoded = options.vectorSearch ? { count: manifest.count, dimension: manifest.embedder.dimension, vectors: new Float32Array(0) } : decodeVectors(await readBytes(VECTORS_FILE), join(dir, VECTORS_FILE));
  if (decoded.count !== manifest.count || decoded.dimension !== manifest.embedder.dimension) {
    throw new RagError('INDEX_CORRUPT', `${join(dir, VECTORS_FILE)} does not match ${dir}/embedding.json.`, {
      hint: 'Rebuild the index with `rag index --corpus_dir <dir> --retriever embedding`.',
    });
  }
  const recorded = manifest.embedder.settings as EmbeddingSettings;
  let embedder = options.embedder;
  if (!embedder) {
    if (recorded.embedder === 'corpus') {
      const override = options.settings ?? {};
      if (override.model || override.modelDir) {
        throw mismatch(dir, manifest.embedder, { id: `transformers:${override.modelDir ?? override.model}`, dimension: NaN });
      }
      embedder = CorpusEmbedder.decode(await readBytes(CORPUS_MODEL_FILE), join(dir, CORPUS_MODEL_FILE));
    } else {
      // A model given at load time replaces the recorded one entirely (not merged with it).
      const override = options.settings ?? {};
      const location = override.modelDir || override.model ? {} : { model: recorded.model, modelDir: recorded.modelDir };
      embedder = await TransformersEmbedder.create(
        resolveEmbeddingOptions(
          mergeEmbeddingSettings(
            { embedder: 'transformers', dtype: recorded.dtype, windowTokens: recorded.windowTokens, windowOverlap: recorded.windowOverlap },
            location,
            override,
          ),
        ),
      );
    }
  }
  if (embedder.id !== manifest.embedder.id || embedder.dimension !== manifest.embedder.dimension) {
    const query = { id: embedder.id, dimension: embedder.dimension };
    await embedder.dispose?.();
    throw mismatch(dir, manifest.embedder, query);
  }
  if (options.vectorSearch) return new EmbeddingRetriever(embedder, decoded.vectors, manifest, null, null, null, options.vectorSearch);
  const hnsw = manifest.index === 'hnsw' && manifest.hnsw ? await readHnsw(dir, manifest.embedder.dimension, manifest.count, manifest.hnsw, readBytes) : null;
  return new EmbeddingRetriever(embedder, decoded.vectors, manifest, hnsw);
}

/**
 * The graph is read by the native library from a path: from a store other than the disk (a
 * database), its bytes go through a private temporary file first.
 */
async function readHnsw(dir: string, dimension: number, count: number, settings: HnswOptions, readBytes: (file: string) => Promise<Uint8Array>): Promise<HnswVectorIndex> {
  const path = join(dir, HNSW_FILE);
  if (existsSync(path)) return HnswVectorIndex.read(path, dimension, count, settings);
  const scratch = await mkdtemp(join(tmpdir(), 'rag-hnsw-'));
  try {
    await writeFile(join(scratch, HNSW_FILE), await readBytes(HNSW_FILE));
    return HnswVectorIndex.read(join(scratch, HNSW_FILE), dimension, count, settings);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * The `RetrieverFactory` named `embedding`. `defaults` are layered under the build
 * context's settings, and at load time locate the query model (e.g. a CLI's
 * `--model_dir`). Settings: see `EmbeddingOptions`; with none, the zero-download corpus
 * embedder is used.
 */
export function createEmbeddingRetrieverFactory(defaults: EmbeddingSettings = {}): RetrieverFactory {
  return {
    name: 'embedding',
    description: 'dense vectors: a zero-download embedder learned from the corpus, or a transformers.js model (model / modelDir)',
    build: (chunks: readonly Chunk[], context: BuildContext = {}) =>
      buildEmbeddingRetriever(chunks, mergeEmbeddingSettings(defaults, context.settings as EmbeddingSettings | undefined), context.onProgress, context.previous),
    load: (dir: string, chunks: readonly Chunk[], context: LoadContext = {}) => {
      const locating: LoadEmbeddingOptions = defaults.model || defaults.modelDir ? { settings: defaults } : { settings: pickRuntime(defaults) };
      if (context.readFile) locating.readFile = context.readFile;
      if (context.verified) locating.verified = true;
      const vectorSearch = context.vectorSearch?.(dir);
      if (vectorSearch) locating.vectorSearch = vectorSearch;
      return loadEmbeddingRetriever(dir, chunks, locating);
    },
  };
}

/** Settings that only say where and how to fetch a model, never which one. */
function pickRuntime(settings: EmbeddingSettings): EmbeddingSettings {
  const { cacheDir, allowRemote, remoteHost, connectTimeoutMs, batchTokens } = settings;
  return mergeEmbeddingSettings({ cacheDir, allowRemote, remoteHost, connectTimeoutMs, batchTokens });
}

/** `createEmbeddingRetrieverFactory()` with no defaults: the corpus embedder unless settings name a model. */
export const embeddingRetrieverFactory: RetrieverFactory = createEmbeddingRetrieverFactory();
