import type { Source } from '@rag/core';
import type { ResolvedEvaluateOptions } from './options.js';

/** The retrieved span that came closest to a gold span. */
export interface BestRetrieved {
  source: Source;
  /** Highest IoU of this span with any gold span of the question. */
  iou: number;
  /** 1-based rank among the question's retrieved sources. */
  rank: number;
}

export interface QuestionReport {
  question_id: string;
  question: string;
  /** Recall of this question at each reported k: found gold spans / gold spans. */
  recall: Record<number, number>;
  /** 1-based rank of the first retrieved source that finds any gold span; `null` if none does. */
  firstHitRank: number | null;
  gold: Source[];
  /** Highest-IoU retrieved span (earliest rank on ties); `null` when nothing was retrieved. */
  best: BestRetrieved | null;
  /** Number of sources the results listed for this question. */
  retrieved: number;
  /** True when the results file had no entry for this question (scored 0). */
  missing: boolean;
}

export interface EvaluationReport {
  /** Number of dataset questions scored (the denominator of every mean). */
  questions: number;
  /** Mean recall over the questions at each k, in [0, 1]. */
  recall: Record<number, number>;
  /** Mean reciprocal rank of the first hit within the top `mrrK`, in [0, 1]. */
  mrr: number;
  /** Mean length in code points of the retrieved spans within the top `spanLengthK` (0 if none). */
  meanSpanLength: number;
  perQuestion: QuestionReport[];
  /** Result entries whose question_id is not in the dataset (ignored). */
  unknownQuestionIds: string[];
  /** Dataset questions with no result entry (scored 0). */
  missingQuestionIds: string[];
  /** Human-readable notes about ignored or missing entries. */
  warnings: string[];
  options: ResolvedEvaluateOptions;
}
