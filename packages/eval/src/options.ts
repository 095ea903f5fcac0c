/** The ranks at which recall is reported. */
export const DEFAULT_KS: readonly number[] = [1, 3, 5, 10];
/** The longest span, in code points, a retrieved source may have (the benchmark's rule). */
export const DEFAULT_MAX_CONTEXT_LENGTH = 2000;
/** Minimum IoU (exclusive) for a retrieved span to count as finding a gold span. */
export const IOU_THRESHOLD = 0.05;
/** Depth of the mean reciprocal rank (MRR@10). */
export const DEFAULT_MRR_K = 10;
/** Depth over which the mean retrieved span length is taken. */
export const DEFAULT_SPAN_LENGTH_K = 5;

export interface EvaluateOptions {
  /**
   * Ranks at which recall is reported: positive integers, any order, duplicates dropped.
   * Default `DEFAULT_KS` ([1, 3, 5, 10]).
   */
  ks?: readonly number[];
  /**
   * Most sources one question may list; a question listing more is an error. Positive
   * integer. Default: the results file's `k`, else the largest of `ks`.
   */
  k?: number;
  /**
   * Longest allowed retrieved span in code points; a longer one is an error. Positive
   * integer. Default `DEFAULT_MAX_CONTEXT_LENGTH` (2000).
   */
  maxContextLength?: number;
  /** Depth of the mean reciprocal rank: hits below this rank score 0. Positive integer. Default 10. */
  mrrK?: number;
  /** Depth over which `meanSpanLength` is averaged. Positive integer. Default 5. */
  spanLengthK?: number;
}

/** The options an evaluation actually ran with, defaults filled in. */
export interface ResolvedEvaluateOptions {
  ks: number[];
  k: number;
  maxContextLength: number;
  mrrK: number;
  spanLengthK: number;
}
