import { RagError } from '@rag/core';
import { checkInteger } from '../options.js';

/** Most sentences or lines quoted in one extractive answer. */
export const DEFAULT_MAX_QUOTES = 3;
/** Budget of the whole answer in characters (a single long quote is shortened to fit). */
export const DEFAULT_MAX_ANSWER_CHARS = 600;
/** A unit is quoted only when it scores at least this share of the best unit's score. */
export const DEFAULT_MIN_RELATIVE_SCORE = 0.35;

export interface ExtractiveOptions {
  /** Most sentences or lines quoted. Integer in [1, 20]. Default {@link DEFAULT_MAX_QUOTES} (3). */
  maxQuotes?: number;
  /** Longest answer in characters. Integer in [40, 20,000]. Default {@link DEFAULT_MAX_ANSWER_CHARS} (600). */
  maxAnswerChars?: number;
  /**
   * Quote a unit only when its score is at least this share of the best one, in (0, 1]:
   * higher gives shorter, more focused answers. Default {@link DEFAULT_MIN_RELATIVE_SCORE} (0.35).
   */
  minRelativeScore?: number;
}

export type ResolvedExtractiveOptions = Required<ExtractiveOptions>;

export function resolveExtractiveOptions(options: ExtractiveOptions = {}): ResolvedExtractiveOptions {
  const minRelativeScore = options.minRelativeScore ?? DEFAULT_MIN_RELATIVE_SCORE;
  if (!(minRelativeScore > 0 && minRelativeScore <= 1)) {
    throw new RagError('INVALID_ARGUMENT', `minRelativeScore must be in (0, 1]; got ${String(minRelativeScore)}.`, {
      hint: 'Leave it out for the default (0.35).',
    });
  }
  return {
    maxQuotes: checkInteger('maxQuotes', options.maxQuotes ?? DEFAULT_MAX_QUOTES, 1, 20),
    maxAnswerChars: checkInteger('maxAnswerChars', options.maxAnswerChars ?? DEFAULT_MAX_ANSWER_CHARS, 40, 20_000),
    minRelativeScore,
  };
}
