import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { proseFlags, RagError, selectHits, writeFileAtomic, type Chunk, type Explanation, type Hit, type Retriever, type SaveContext, type SearchOptions } from '@rag/core';
import { getFusionMethod } from './fusion/registry.js';
import type { ComponentHits, FusedHit, FusionMethod } from './fusion/types.js';
import { dropsNonPositive, poolOf, resolveHybridOptions, weightOf, type HybridOptions, type HybridSettings } from './options.js';

export const HYBRID_MANIFEST_FILE = 'hybrid.json';
export const HYBRID_FORMAT = 'rag-hybrid';
/** Bumped whenever the layout or the meaning of a stored field changes. */
export const HYBRID_FORMAT_VERSION = 1;

/** What `hybrid.json` records. */
export interface HybridManifest {
  format: typeof HYBRID_FORMAT;
  version: number;
  /** Component names in fusion order; each saved in the directory of that name. */
  components: string[];
  options: HybridOptions;
}

/** Recent queries whose fused provenance is kept for `explain` (components search asynchronously). */
const PROVENANCE_CACHE_SIZE = 64;

/**
 * Fuses the rankings of several retrievers into one. Each component is asked for its
 * own candidate pool, non-positive scores are dropped where configured, and the fusion
 * method combines the lists; every fused hit keeps its rank and score in each component.
 */
export class HybridRetriever implements Retriever {
  readonly name = 'hybrid';
  readonly options: HybridOptions;
  readonly #method: FusionMethod;
  readonly #provenance = new Map<string, FusedHit[]>();

  readonly #chunks: readonly Chunk[] | undefined;
  readonly #flags: Uint8Array | undefined;

  /**
   * `chunks` (the ones the components search, ids equal to positions) let the fused list be
   * drawn under `dedupe`, `kindShare` and `joinSpan`; without them the fused order is returned as is.
   */
  constructor(
    readonly components: readonly Retriever[],
    options: HybridSettings | HybridOptions = {},
    chunks?: readonly Chunk[],
  ) {
    this.#chunks = chunks;
    this.#flags = chunks ? proseFlags(chunks) : undefined;
    const names = components.map((c) => c.name);
    const repeated = names.find((name, i) => names.indexOf(name) !== i);
    if (repeated !== undefined) {
      throw new RagError('INVALID_ARGUMENT', `Two hybrid components are named "${repeated}".`, { hint: 'Give every component retriever a distinct name.' });
    }
    if (components.length === 0) throw new RagError('INVALID_ARGUMENT', 'A hybrid retriever needs at least one component.', { hint: 'Pass e.g. [bm25, embedding].' });
    this.options = resolveHybridOptions(options);
    this.#method = getFusionMethod(this.options.fusion);
  }

  /** The same components under other fusion options (nothing is rebuilt). */
  withOptions(settings: HybridSettings): HybridRetriever {
    return new HybridRetriever(this.components, resolveHybridOptions(settings, this.options), this.#chunks);
  }

  /** Each component's candidates for `query`, at least `k` each; with `scope`, only chunks in it (see `SearchOptions.scope`). */
  async candidates(query: string, k: number, scope?: Uint8Array): Promise<ComponentHits[]> {
    return Promise.all(
      this.components.map(async (component) => {
        const pool = Math.max(k, poolOf(this.options, component.name));
        const hits = await component.search(query, scope === undefined ? { k: pool, join: false } : { k: pool, join: false, scope });
        return {
          name: component.name,
          weight: weightOf(this.options, component.name),
          hits: dropsNonPositive(this.options, component.name) ? hits.filter((h) => h.score > 0) : hits,
        };
      }),
    );
  }

  /** Every fused candidate, best first, with provenance; with `scope`, of chunks in it. */
  async fuse(query: string, k: number, scope?: Uint8Array): Promise<FusedHit[]> {
    const fused = this.#method.fuse(await this.candidates(query, k, scope), { rrfK: this.options.rrfK });
    if (this.#provenance.size >= PROVENANCE_CACHE_SIZE) this.#provenance.delete(this.#provenance.keys().next().value!);
    this.#provenance.set(query, fused);
    return fused;
  }

  async search(query: string, options: SearchOptions): Promise<Hit[]> {
    const fused = (await this.fuse(query, options.k, options.scope)).map(({ chunkId, score }) => ({ chunkId, score }));
    const { dedupe, kindShare } = this.options;
    const joinSpan = options.join === false ? 0 : this.options.joinSpan;
    if (!this.#chunks || !this.#flags || (!dedupe && kindShare >= 1 && joinSpan === 0)) return fused.slice(0, options.k);
    // Selection only drops overlaps, joins neighbours and reorders: every returned score is still its fused score.
    return selectHits(fused, this.#chunks, this.#flags, options.k, { dedupe, fileShare: 1, kindShare, joinSpan });
  }

  /**
   * The words no component can match: each component that can tell (the lexical one) is
   * asked, and a word counts when every one of them lacks it; when none can tell, none is listed.
   */
  async unindexedWords(query: string): Promise<string[]> {
    const lists = await Promise.all(this.components.filter((c) => c.unindexedWords).map((c) => c.unindexedWords!(query)));
    if (lists.length === 0) return [];
    return lists[0]!.filter((word) => lists.every((list) => list.includes(word)));
  }

  /** The words every component that can tell (the lexical one) calls rare; none when none can tell. */
  async rareWords(query: string): Promise<string[]> {
    const lists = await Promise.all(this.components.filter((c) => c.rareWords).map((c) => c.rareWords!(query)));
    if (lists.length === 0) return [];
    return lists[0]!.filter((word) => lists.every((list) => list.includes(word)));
  }

  /**
   * The fused score of `chunkId` split into each component's contribution, with the
   * component's own explanation below it. Uses the provenance of a recent `search` of the
   * same query (component searches are asynchronous; `explain` is not).
   */
  explain(query: string, chunkId: number): Explanation {
    const fused = this.#provenance.get(query);
    const header = `${this.#method.name} fusion of ${this.components.map((c) => c.name).join(', ')}${this.#method.name === 'rrf' ? ` (rrf_k ${this.options.rrfK})` : ''}`;
    if (!fused) return { value: 0, description: `${header}: run search() with this query first, then explain()` };
    const hit = fused.find((h) => h.chunkId === chunkId);
    if (!hit) return { value: 0, description: `${header}: chunk ${chunkId} is in no component's candidates` };
    const details = hit.components.map((p, i): Explanation => {
      const component = this.components[i]!;
      const own = p.rank !== null ? component.explain?.(query, chunkId) : undefined;
      return {
        value: p.contribution,
        description: this.#method.describe(p, weightOf(this.options, p.name), { rrfK: this.options.rrfK }),
        ...(own ? { details: [own] } : {}),
      };
    });
    return { value: hit.score, description: header, details };
  }

  /** Saves each component into `dir/<component name>/` and the fusion options into `hybrid.json`. */
  async save(dir: string, context?: SaveContext): Promise<void> {
    for (const component of this.components) {
      const target = join(dir, component.name);
      await mkdir(target, { recursive: true });
      await component.save(target, context);
    }
    const manifest: HybridManifest = {
      format: HYBRID_FORMAT,
      version: HYBRID_FORMAT_VERSION,
      components: this.components.map((c) => c.name),
      options: this.options,
    };
    await writeFileAtomic(join(dir, HYBRID_MANIFEST_FILE), JSON.stringify(manifest, null, 1));
  }
}
