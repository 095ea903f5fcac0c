import type { Dataset, Question, SearchResults, Source } from '@rag/core';
import { iou, spanLength } from './iou.js';
import { IOU_THRESHOLD, type EvaluateOptions, type ResolvedEvaluateOptions } from './options.js';
import type { BestRetrieved, EvaluationReport, QuestionReport } from './report.js';
import { resolveOptions, validateDataset, validateResults } from './validate.js';

const LISTED_IDS = 10;

function countOf(n: number, singular: string, plural: string): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

function describeIds(ids: readonly string[]): string {
  const shown = ids.slice(0, LISTED_IDS).join(', ');
  return ids.length > LISTED_IDS ? `${shown} (and ${ids.length - LISTED_IDS} more)` : shown;
}

function scoreQuestion(
  question: Question,
  gold: Source[],
  retrieved: readonly Source[] | undefined,
  options: ResolvedEvaluateOptions,
): QuestionReport {
  const sources = retrieved ?? [];
  // Rank (1-based) at which each gold span is first found; a gold span is found once or
  // not at all, so a duplicated retrieved span cannot count twice.
  const foundAt = gold.map(() => Infinity);
  let best: BestRetrieved | null = null;
  for (const [index, source] of sources.entries()) {
    const rank = index + 1;
    // Without gold spans every IoU is 0; the first source still shows what was retrieved.
    let score = 0;
    for (const [g, goldSource] of gold.entries()) {
      const overlap = iou(source, goldSource);
      if (overlap > IOU_THRESHOLD && foundAt[g] === Infinity) foundAt[g] = rank;
      score = Math.max(score, overlap);
    }
    if (best === null || score > best.iou) best = { source, iou: score, rank };
  }
  const recall: Record<number, number> = {};
  for (const k of options.ks) {
    recall[k] = gold.length === 0 ? 0 : foundAt.filter((rank) => rank <= k).length / gold.length;
  }
  const first = Math.min(...foundAt);
  return {
    question_id: question.question_id,
    question: question.question,
    recall,
    firstHitRank: Number.isFinite(first) ? first : null,
    gold,
    best,
    retrieved: sources.length,
    missing: retrieved === undefined,
  };
}

/**
 * Scores search results against an answered dataset with the benchmark's rule: a gold
 * span is found at k when one of the first k retrieved sources names the same file with
 * IoU > 0.05; a question's recall is found/gold, the dataset's the mean over its
 * questions. Pure: parse the files with `parseDataset` / `parseSearchResults` first.
 * Throws `RagError` (DATASET_INVALID, RESULTS_INVALID, INVALID_ARGUMENT) on input that
 * breaks the rules; tolerable oddities become `warnings`.
 */
export function evaluate(dataset: Dataset, results: SearchResults, options: EvaluateOptions = {}): EvaluationReport {
  validateDataset(dataset);
  const resolved = resolveOptions(options, results);
  const byId = validateResults(results, resolved);
  const warnings: string[] = [];

  const datasetIds = new Set(dataset.rag_questions.map((q) => q.question_id));
  const unknownQuestionIds = [...byId.keys()].filter((id) => !datasetIds.has(id));
  if (unknownQuestionIds.length > 0) {
    warnings.push(
      `Ignored ${countOf(unknownQuestionIds.length, 'result entry', 'result entries')} for questions not in the dataset: ${describeIds(unknownQuestionIds)}.`,
    );
  }

  const perQuestion = dataset.rag_questions.map((question) =>
    scoreQuestion(question, question.sources ?? [], byId.get(question.question_id)?.retrieved_sources, resolved),
  );
  const missingQuestionIds = perQuestion.filter((q) => q.missing).map((q) => q.question_id);
  if (missingQuestionIds.length > 0) {
    warnings.push(
      `${countOf(missingQuestionIds.length, 'question has no result entry and scores', 'questions have no result entry and score')} 0: ${describeIds(missingQuestionIds)}.`,
    );
  }
  const withoutGold = perQuestion.filter((q) => q.gold.length === 0).map((q) => q.question_id);
  if (withoutGold.length > 0) {
    warnings.push(`${countOf(withoutGold.length, 'question lists no gold sources and scores', 'questions list no gold sources and score')} 0: ${describeIds(withoutGold)}.`);
  }

  const count = perQuestion.length;
  const recall: Record<number, number> = {};
  for (const k of resolved.ks) {
    recall[k] = perQuestion.reduce((sum, q) => sum + (q.recall[k] ?? 0), 0) / count;
  }
  const mrr =
    perQuestion.reduce((sum, q) => sum + (q.firstHitRank !== null && q.firstHitRank <= resolved.mrrK ? 1 / q.firstHitRank : 0), 0) /
    count;

  let spanTotal = 0;
  let spanCount = 0;
  for (const question of dataset.rag_questions) {
    for (const source of byId.get(question.question_id)?.retrieved_sources.slice(0, resolved.spanLengthK) ?? []) {
      spanTotal += spanLength(source);
      spanCount++;
    }
  }

  return {
    questions: count,
    recall,
    mrr,
    meanSpanLength: spanCount === 0 ? 0 : spanTotal / spanCount,
    perQuestion,
    unknownQuestionIds,
    missingQuestionIds,
    warnings,
    options: resolved,
  };
}
