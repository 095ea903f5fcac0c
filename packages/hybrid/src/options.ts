import { parseOptions, v } from '@rag/core';
import { getFusionMethod } from './fusion/registry.js';

/** RRF's k as in Cormack et al. (2009). */
export const DEFAULT_RRF_K = 60;
/** Candidates taken from each component retriever. */
export const DEFAULT_POOL = 50;

export interface HybridOptions {
  /** Fusion method by name: `rrf`, `minmax`, `zscore` or any registered one (`fusionMethodNames()`). Default `rrf`. */
  fusion: string;
  /** RRF's k (settings key `rrfK` or `rrf_k`), > 0: small trusts each list's head, large flattens ranks. Default 60. */
  rrfK: number;
  /** Weight per component name, each ≥ 0 (0 mutes it); unlisted components weigh 1. Default `{}`. */
  weights: Record<string, number>;
  /**
   * Candidates asked of each component, integer ≥ 1 (never fewer than the k searched
   * for): one number for all, or per component name with the rest at 50. Default 50.
   */
  pool: number | Record<string, number>;
  /**
   * Drop a component's hits whose score is ≤ 0 before fusing: a BM25 score of 0 means no
   * query term matched, and such "hits" must not earn rank credit. One flag for all or
   * per component name (unlisted: true). Default true.
   */
  dropNonPositive: boolean | Record<string, boolean>;
  /**
   * After fusing, drop a hit whose span overlaps a better hit of the same file (a section and
   * a piece of it, found by different components), so the k results name k places. Needs
   * the chunks (the factory passes them). Default true.
   */
  dedupe: boolean;
  /**
   * After fusing, neither code nor prose may hold more than this share of any prefix of the
   * results (rounded up; as `@rag/bm25`'s `rerank.kindShare`): fusion would otherwise undo
   * the balance its lexical component keeps. In (0, 1]; 1 = no limit. Default 1.
   */
  kindShare: number;
  /**
   * After fusing, join a code hit with the fused candidates right next to it in its file
   * (chunks that meet) while the joined span stays within this many code points (as
   * `@rag/bm25`'s `rerank.joinSpan`; components are asked for single chunks, so the fused
   * list decides what joins). Needs the chunks. 0 turns it off. In [0, 1e6]. Default 2000.
   */
  joinSpan: number;
}

/** What callers may pass (e.g. as `BuildContext.settings`): any subset, plus per-component build settings. */
export type HybridSettings = Partial<HybridOptions> & {
  rrf_k?: number;
  /** Build settings handed to each component factory, by component name. */
  components?: Record<string, Record<string, unknown>>;
};

export const DEFAULT_HYBRID_OPTIONS: Readonly<HybridOptions> = Object.freeze({
  fusion: 'rrf',
  rrfK: DEFAULT_RRF_K,
  weights: Object.freeze({}) as Record<string, number>,
  pool: DEFAULT_POOL,
  dropNonPositive: true,
  dedupe: true,
  kindShare: 1,
  joinSpan: 2000,
});

const CONTEXT = { subject: 'hybrid', root: 'settings' } as const;
const perComponent = <T extends v.Schema>(value: T) => v.union([value, v.record(v.string(), value)]);

/** The schema of {@link HybridSettings}; unknown keys are refused. */
export const HYBRID_SETTINGS_SCHEMA = v.strictObject({
  fusion: v.optional(v.string().check(v.minLength(1))),
  rrfK: v.optional(v.number().check(v.gt(0))),
  rrf_k: v.optional(v.number().check(v.gt(0))),
  weights: v.optional(v.record(v.string(), v.number().check(v.minimum(0)))),
  pool: v.optional(perComponent(v.int().check(v.minimum(1)))),
  dropNonPositive: v.optional(perComponent(v.boolean())),
  dedupe: v.optional(v.boolean()),
  kindShare: v.optional(v.number().check(v.gt(0), v.maximum(1))),
  joinSpan: v.optional(v.int().check(v.minimum(0), v.maximum(1_000_000))),
  components: v.optional(v.record(v.string(), v.record(v.string(), v.unknown()))),
});

/**
 * Complete, validated options from settings; unknown keys are refused. An unknown fusion
 * name is `UNKNOWN_NAME` listing the valid ones, a bad value `INVALID_ARGUMENT`.
 */
export function resolveHybridOptions(settings: unknown = {}, base: Readonly<HybridOptions> = DEFAULT_HYBRID_OPTIONS): HybridOptions {
  const parsed = parseOptions(HYBRID_SETTINGS_SCHEMA, settings, CONTEXT);
  const fusion = parsed.fusion ?? base.fusion;
  getFusionMethod(fusion);
  const pool = parsed.pool ?? base.pool;
  const drop = parsed.dropNonPositive ?? base.dropNonPositive;
  return {
    fusion,
    rrfK: parsed.rrfK ?? parsed.rrf_k ?? base.rrfK,
    weights: { ...(parsed.weights ?? base.weights) },
    pool: typeof pool === 'number' ? pool : { ...pool },
    dropNonPositive: typeof drop === 'boolean' ? drop : { ...drop },
    dedupe: parsed.dedupe ?? base.dedupe,
    kindShare: parsed.kindShare ?? base.kindShare,
    joinSpan: parsed.joinSpan ?? base.joinSpan,
  };
}

export function weightOf(options: HybridOptions, name: string): number {
  return options.weights[name] ?? 1;
}

export function poolOf(options: HybridOptions, name: string): number {
  return typeof options.pool === 'number' ? options.pool : (options.pool[name] ?? DEFAULT_POOL);
}

export function dropsNonPositive(options: HybridOptions, name: string): boolean {
  return typeof options.dropNonPositive === 'boolean' ? options.dropNonPositive : (options.dropNonPositive[name] ?? true);
}

/**
 * Fusion settings for `bm25` + `embedding` with the zero-download corpus embedder: a min-max
 * weighted sum with the embedding at 0.05, then bm25's own selection rules (no overlapping
 * spans, code and prose each within 70 % of any prefix). BM25's score gaps survive min-max
 * normalisation, so the weaker dense list only reorders candidates BM25 scores alike;
 * equal-weight RRF, which throws the gaps away, cost 0.10–0.17 recall@5 on the public sets.
 * Chosen on the development sets (`docs/retrieval.md`): 0.05 kept one more vLLM code question
 * in the top 5 than 0.1, and the kind share kept the gains of bm25's on the others. With a
 * strong sentence model, raise the embedding weight (and measure).
 */
export const LEXICAL_DENSE_SETTINGS: Readonly<HybridSettings> = Object.freeze({
  fusion: 'minmax',
  weights: Object.freeze({ bm25: 1, embedding: 0.05 }) as Record<string, number>,
  kindShare: 0.7,
});
