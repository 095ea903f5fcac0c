import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RagError, scopeSize, writeFileAtomic, type Explanation, type Hit, type Retriever, type SaveContext, type SearchOptions, type VectorSearch } from '@rag/core';
import type { EmbeddingCheckpoint } from './checkpoint.js';
import { CORPUS_MODEL_FILE, CorpusEmbedder } from './corpus/embedder.js';
import type { Embedder } from './embedder.js';
import type { EmbeddingOptions, HnswOptions, VectorEncoding } from './options.js';
import { searchExact } from './search/exact-index.js';
import { HnswVectorIndex } from './search/hnsw-index.js';
import { dotRow } from './vector-math.js';
import { encodeVectors, VECTORS_FILE } from './vector-file.js';

/** File names inside a retriever directory. */
export const EMBEDDING_MANIFEST_FILE = 'embedding.json';
export const HNSW_FILE = 'hnsw.bin';
export const EMBEDDING_FORMAT = 'rag-embedding';
/** Bumped whenever the layout or the meaning of a stored field changes. */
export const EMBEDDING_FORMAT_VERSION = 1;

/** What `embedding.json` records. */
export interface EmbeddingManifest {
  format: typeof EMBEDDING_FORMAT;
  version: number;
  embedder: { id: string; dimension: number; settings: Readonly<Record<string, unknown>> };
  count: number;
  chunkFingerprint: string;
  index: 'exact' | 'hnsw';
  hnsw: HnswOptions | null;
  encoding: VectorEncoding;
  includeMetadata: boolean;
}

/** How many recent query vectors are kept for `explain` (the model call is async). */
const QUERY_CACHE_SIZE = 64;

/** How many recent searches' hits are kept for `explain` when a store searches the vectors. */
const STORE_HITS_CACHE_SIZE = 64;

/**
 * Dense retrieval: the query's vector against every chunk vector, by exact search or an
 * HNSW graph, best cosine first. Scores are cosines in [-1, 1]. Loaded from a store that
 * searches vectors itself (pgvector), it holds no chunk vectors and asks the store.
 */
export class EmbeddingRetriever implements Retriever {
  readonly name = 'embedding';
  readonly #queryCache = new Map<string, Float32Array>();
  /** The store's hits of recent searches (query → chunk id → score), for `explain`. */
  readonly #storeHits = new Map<string, Map<number, number>>();
  #checkpoint: EmbeddingCheckpoint | null;

  constructor(
    readonly embedder: Embedder,
    /** Chunk vectors, row-major count × dimension. */
    readonly vectors: Float32Array,
    readonly manifest: EmbeddingManifest,
    readonly hnsw: HnswVectorIndex | null,
    checkpoint: EmbeddingCheckpoint | null = null,
    /** How the build went (corpus embedder: vocabulary, tokens, seconds per step); null when loaded. */
    readonly buildStats: Readonly<Record<string, unknown>> | null = null,
    /** The store's search over these vectors (`LoadContext.vectorSearch`); then `vectors` is empty. */
    readonly store: VectorSearch | null = null,
  ) {
    this.#checkpoint = checkpoint;
  }

  get count(): number {
    return this.manifest.count;
  }

  async embedQuery(query: string): Promise<Float32Array> {
    const cached = this.#queryCache.get(query);
    if (cached) return cached;
    const vector = await this.embedder.embedQuery(query);
    if (this.#queryCache.size >= QUERY_CACHE_SIZE) this.#queryCache.delete(this.#queryCache.keys().next().value!);
    this.#queryCache.set(query, vector);
    return vector;
  }

  /** The `k` chunks nearest a query vector (already unit length); with `scope`, only chunks in it (see `SearchOptions.scope`). */
  searchVector(vector: Float32Array, k: number, scope?: Uint8Array): Hit[] {
    if (k <= 0 || this.count === 0) return [];
    if (this.store) throw storeSearchesError();
    if (this.hnsw) {
      if (scope === undefined) return this.hnsw.search(vector, k);
      try {
        return this.hnsw.search(vector, k, scope, scopeSize(scope));
      } catch {
        // A graph walk that reaches fewer chunks of a small scope than asked for fails in
        // hnswlib; the exact search over the scope answers instead.
      }
    }
    return searchExact(this.vectors, this.manifest.embedder.dimension, vector, k, scope);
  }

  async search(query: string, options: SearchOptions): Promise<Hit[]> {
    const vector = await this.embedQuery(query);
    if (!this.store || options.k <= 0 || this.count === 0) return this.searchVector(vector, options.k, options.scope);
    const hits = await this.store.search(vector, options.k, options.scope);
    if (this.#storeHits.size >= STORE_HITS_CACHE_SIZE) this.#storeHits.delete(this.#storeHits.keys().next().value!);
    this.#storeHits.set(query, new Map(hits.map((hit) => [hit.chunkId, hit.score])));
    return hits;
  }

  /** `search` without the promise; only for the corpus embedder, whose queries need no model call. */
  searchSync(query: string, options: SearchOptions): Hit[] {
    if (this.store) throw storeSearchesError();
    if (!(this.embedder instanceof CorpusEmbedder)) {
      throw new RagError('INVALID_ARGUMENT', 'searchSync needs the corpus embedder; a transformers model embeds asynchronously.', {
        hint: 'Use `await retriever.search(query, { k })`.',
      });
    }
    return this.searchVector(this.embedder.embedQuerySync(query), options.k, options.scope);
  }

  explain(query: string, chunkId: number): Explanation {
    const d = this.manifest.embedder.dimension;
    if (!Number.isInteger(chunkId) || chunkId < 0 || chunkId >= this.count) {
      return { value: 0, description: `chunk ${chunkId} is not in this index` };
    }
    if (this.store) {
      // The vectors are in the store: what it returned is all that is known here.
      const score = this.#storeHits.get(query)?.get(chunkId);
      return score === undefined
        ? { value: 0, description: `chunk ${chunkId} was not among the nearest vectors ${this.store.description} returned for this query (run search() with it first)` }
        : { value: score, description: `inner product of the query and chunk vectors (${this.manifest.embedder.id}, ${d} dimensions), from ${this.store.description}` };
    }
    if (this.embedder instanceof CorpusEmbedder) return this.embedder.explainQuery(query, this.vectors, chunkId);
    const vector = this.#queryCache.get(query);
    if (!vector) {
      return { value: 0, description: 'the query has not been embedded yet: run search() with it first, then explain()' };
    }
    return {
      value: dotRow(vector, this.vectors, chunkId, d),
      description: `cosine of the query and chunk vectors (${this.manifest.embedder.id}, ${d} dimensions, ${this.hnsw ? 'HNSW' : 'exact'} search)`,
    };
  }

  async save(dir: string, context?: SaveContext): Promise<void> {
    if (this.store) {
      throw new RagError('INVALID_ARGUMENT', 'This embedding retriever was loaded without its vectors (the store searches them); it cannot be saved.', {
        hint: 'Save the retriever a build returned, or load it from a store that keeps the vectors in files.',
      });
    }
    const d = this.manifest.embedder.dimension;
    context?.vectors?.(dir, { dimension: d, vectors: this.vectors });
    await writeFileAtomic(join(dir, VECTORS_FILE), encodeVectors(this.vectors, d, this.manifest.encoding));
    if (this.embedder instanceof CorpusEmbedder) await writeFileAtomic(join(dir, CORPUS_MODEL_FILE), this.embedder.encode());
    if (this.hnsw) this.hnsw.write(join(dir, HNSW_FILE));
    await writeFileAtomic(join(dir, EMBEDDING_MANIFEST_FILE), JSON.stringify(this.manifest, null, 1));
    // The vectors are in the index now; the resumable checkpoint has done its job.
    await this.#checkpoint?.discard();
    this.#checkpoint = null;
  }

  async dispose(): Promise<void> {
    await this.embedder.dispose?.();
  }
}

function storeSearchesError(): RagError {
  return new RagError('INVALID_ARGUMENT', 'The vectors of this embedding index are searched by its store (pgvector), which answers asynchronously.', {
    hint: 'Use `await retriever.search(query, { k })`.',
  });
}

/** Reads and checks `embedding.json`. */
export async function readEmbeddingManifest(dir: string, read: (path: string) => Promise<Uint8Array> = readFile): Promise<EmbeddingManifest> {
  let text: string;
  try {
    text = Buffer.from(await read(join(dir, EMBEDDING_MANIFEST_FILE))).toString('utf8');
  } catch (error) {
    throw new RagError('INDEX_NOT_FOUND', `No embedding index in ${dir} (${EMBEDDING_MANIFEST_FILE} is missing).`, {
      hint: 'Build one with `rag index --corpus_dir <dir> --retriever embedding`.',
      cause: error,
    });
  }
  let manifest: Partial<EmbeddingManifest>;
  try {
    manifest = JSON.parse(text) as Partial<EmbeddingManifest>;
  } catch (error) {
    throw new RagError('INDEX_CORRUPT', `${join(dir, EMBEDDING_MANIFEST_FILE)} is not valid JSON.`, {
      hint: 'Rebuild the index with `rag index --corpus_dir <dir> --retriever embedding`.',
      cause: error,
    });
  }
  if (manifest.format !== EMBEDDING_FORMAT || manifest.version !== EMBEDDING_FORMAT_VERSION) {
    throw new RagError(
      'INDEX_INCOMPATIBLE',
      `The embedding index in ${dir} has format ${String(manifest.format)} version ${String(manifest.version)}; this version reads ${EMBEDDING_FORMAT} version ${EMBEDDING_FORMAT_VERSION}.`,
      { hint: 'Rebuild the index with `rag index --corpus_dir <dir> --retriever embedding`.' },
    );
  }
  return manifest as EmbeddingManifest;
}

/** The manifest of a freshly built index. */
export function createManifest(
  embedder: Embedder,
  count: number,
  chunkFingerprint: string,
  index: 'exact' | 'hnsw',
  options: EmbeddingOptions,
): EmbeddingManifest {
  return {
    format: EMBEDDING_FORMAT,
    version: EMBEDDING_FORMAT_VERSION,
    embedder: { id: embedder.id, dimension: embedder.dimension, settings: embedder.settings },
    count,
    chunkFingerprint,
    index,
    hnsw: index === 'hnsw' ? { ...options.hnsw } : null,
    encoding: options.encoding,
    includeMetadata: options.includeMetadata,
  };
}
