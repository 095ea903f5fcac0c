import { createRequire } from 'node:module';
import type { Hit, ProgressFn } from '@rag/core';
import type { HierarchicalNSW } from 'hnswlib-node';
import type { HnswOptions } from '../options.js';

type HnswModule = typeof import('hnswlib-node');
let hnswModule: HnswModule | undefined;

/** The native addon, loaded on first use so exact-only users never pay for it. */
function loadHnsw(): HnswModule {
  hnswModule ??= createRequire(import.meta.url)('hnswlib-node') as HnswModule;
  return hnswModule;
}

/**
 * Approximate nearest-neighbour search over unit vectors with an hnswlib graph in
 * inner-product space (hnswlib's distance there is 1 − dot, turned back into the dot
 * product so scores equal the exact search's).
 */
export class HnswVectorIndex {
  readonly #graph: HierarchicalNSW;
  readonly #dimension: number;
  readonly #scratch: number[];
  #efSearch: number;

  private constructor(graph: HierarchicalNSW, dimension: number, readonly count: number, readonly options: HnswOptions) {
    this.#graph = graph;
    this.#dimension = dimension;
    this.#scratch = new Array<number>(dimension).fill(0);
    this.#efSearch = options.efSearch;
  }

  /** Inserts every row of `vectors`; reports phase `hnsw` every 1,000 points. */
  static build(vectors: Float32Array, dimension: number, options: HnswOptions, onProgress?: ProgressFn): HnswVectorIndex {
    const count = dimension === 0 ? 0 : vectors.length / dimension;
    const { HierarchicalNSW: Graph } = loadHnsw();
    const graph = new Graph('ip', dimension);
    graph.initIndex(Math.max(count, 1), options.m, options.efConstruction, options.seed);
    const point = new Array<number>(dimension);
    for (let row = 0; row < count; row++) {
      for (let i = 0; i < dimension; i++) point[i] = vectors[row * dimension + i]!;
      graph.addPoint(point, row);
      if (onProgress && ((row + 1) % 1000 === 0 || row + 1 === count)) onProgress({ phase: 'hnsw', done: row + 1, total: count });
    }
    return new HnswVectorIndex(graph, dimension, count, options);
  }

  static read(path: string, dimension: number, count: number, options: HnswOptions): HnswVectorIndex {
    const { HierarchicalNSW: Graph } = loadHnsw();
    const graph = new Graph('ip', dimension);
    graph.readIndexSync(path);
    return new HnswVectorIndex(graph, dimension, count, options);
  }

  /** Candidate list size used by searches (at least k is always used); tunable after loading. */
  get efSearch(): number {
    return this.#efSearch;
  }

  set efSearch(ef: number) {
    this.#efSearch = ef;
  }

  /**
   * The `k` nearest chunks; with `scope`, nearest among its chunks (the graph is walked as
   * usual and only those are kept), at most `inScope` of them (how many the scope holds).
   */
  search(query: Float32Array, k: number, scope?: Uint8Array, inScope = this.count): Hit[] {
    const wanted = Math.min(k, this.count, inScope);
    if (wanted <= 0) return [];
    for (let i = 0; i < this.#dimension; i++) this.#scratch[i] = query[i]!;
    this.#graph.setEf(Math.max(this.#efSearch, wanted));
    const { distances, neighbors } = scope === undefined ? this.#graph.searchKnn(this.#scratch, wanted) : this.#graph.searchKnn(this.#scratch, wanted, (label) => scope[label] === 1);
    const hits = neighbors.map((chunkId, i) => ({ chunkId, score: 1 - distances[i]! }));
    // hnswlib returns nearest first; re-sort so equal scores order by id as the exact search does.
    return hits.sort((a, b) => b.score - a.score || a.chunkId - b.chunkId);
  }

  write(path: string): void {
    this.#graph.writeIndexSync(path);
  }
}
