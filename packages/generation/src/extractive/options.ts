import { integerIn, parseOptions, v } from '@rag/core';

/** Most sentences or lines quoted in one extractive answer. */
export const DEFAULT_MAX_QUOTES = 3;
/** Budget of the whole answer in characters (a single long quote is shortened to fit). */
export const DEFAULT_MAX_ANSWER_CHARS = 500;
/** A unit is quoted only when it scores at least this share of the best unit's score. */
export const DEFAULT_MIN_RELATIVE_SCORE = 0.35;

export interface ExtractiveOptions {
  /** Most sentences or lines quoted. Integer in [1, 20]. Default {@link DEFAULT_MAX_QUOTES} (3). */
  maxQuotes?: number;
  /** Longest answer in characters. Integer in [40, 20,000]. Default {@link DEFAULT_MAX_ANSWER_CHARS} (500). */
  maxAnswerChars?: number;
  /**
   * Quote a unit only when its score is at least this share of the best one, in (0, 1]:
   * higher gives shorter, more focused answers. Default {@link DEFAULT_MIN_RELATIVE_SCORE} (0.35).
   */
  minRelativeScore?: number;
}

export type ResolvedExtractiveOptions = Required<ExtractiveOptions>;

/** The schema of {@link ExtractiveOptions}; unknown keys are refused. */
export const EXTRACTIVE_OPTIONS_SCHEMA = v.strictObject({
  maxQuotes: v.optional(integerIn(1, 20)),
  maxAnswerChars: v.optional(integerIn(40, 20_000)),
  minRelativeScore: v.optional(v.number().check(v.gt(0), v.maximum(1))),
});

/**
 * Options this module resolved: handed back as they are, not validated again (a generator
 * resolves its options once and answers every question with them).
 */
const RESOLVED = new WeakSet<ExtractiveOptions>();

/** Validated options with defaults; throws `INVALID_ARGUMENT` naming the bad option. */
export function resolveExtractiveOptions(options: ExtractiveOptions = {}): ResolvedExtractiveOptions {
  if (RESOLVED.has(options)) return options as ResolvedExtractiveOptions;
  const parsed = parseOptions(EXTRACTIVE_OPTIONS_SCHEMA, options, { subject: 'extractive generator' });
  // Frozen: what is handed back unchecked cannot have been changed since it was checked.
  const resolved: ResolvedExtractiveOptions = Object.freeze({
    maxQuotes: parsed.maxQuotes ?? DEFAULT_MAX_QUOTES,
    maxAnswerChars: parsed.maxAnswerChars ?? DEFAULT_MAX_ANSWER_CHARS,
    minRelativeScore: parsed.minRelativeScore ?? DEFAULT_MIN_RELATIVE_SCORE,
  });
  RESOLVED.add(resolved);
  return resolved;
}
