import { RagError, type Dataset, type SearchResult, type SearchResults } from '@rag/core';
import {
  DEFAULT_KS,
  DEFAULT_MAX_CONTEXT_LENGTH,
  DEFAULT_MRR_K,
  DEFAULT_SPAN_LENGTH_K,
  type EvaluateOptions,
  type ResolvedEvaluateOptions,
} from './options.js';
import { spanLength } from './iou.js';

function requirePositiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new RagError('INVALID_ARGUMENT', `${name} must be a positive integer, got ${String(value)}.`, {
      hint: `Pass a whole number of 1 or more as ${name}.`,
    });
  }
  return value;
}

/** Fills in defaults and rejects nonsensical values. */
export function resolveOptions(options: EvaluateOptions, results: SearchResults): ResolvedEvaluateOptions {
  const requested = options.ks ?? DEFAULT_KS;
  if (requested.length === 0) {
    throw new RagError('INVALID_ARGUMENT', 'ks must name at least one rank.', { hint: 'Pass e.g. ks: [1, 3, 5, 10].' });
  }
  const ks = [...new Set(requested.map((k) => requirePositiveInteger(k, 'ks')))].sort((a, b) => a - b);
  return {
    ks,
    k: requirePositiveInteger(options.k ?? results.k ?? ks[ks.length - 1]!, 'k'),
    maxContextLength: requirePositiveInteger(options.maxContextLength ?? DEFAULT_MAX_CONTEXT_LENGTH, 'maxContextLength'),
    mrrK: requirePositiveInteger(options.mrrK ?? DEFAULT_MRR_K, 'mrrK'),
    spanLengthK: requirePositiveInteger(options.spanLengthK ?? DEFAULT_SPAN_LENGTH_K, 'spanLengthK'),
  };
}

/** Rejects datasets that cannot be scored: empty, duplicate ids, or questions without gold sources. */
export function validateDataset(dataset: Dataset): void {
  if (dataset.rag_questions.length === 0) {
    throw new RagError('DATASET_INVALID', 'The dataset has no questions, so there is nothing to score.', {
      hint: 'Pass a dataset whose "rag_questions" array is not empty.',
    });
  }
  const seen = new Set<string>();
  for (const question of dataset.rag_questions) {
    if (seen.has(question.question_id)) {
      throw new RagError('DATASET_INVALID', `The dataset lists question ${question.question_id} more than once.`, {
        hint: 'Give every question a unique question_id.',
      });
    }
    seen.add(question.question_id);
    if (question.sources === undefined) {
      throw new RagError(
        'DATASET_INVALID',
        `Question ${question.question_id} has no "sources": scoring needs an answered dataset, one whose questions list their gold sources.`,
        { hint: 'Evaluate against an AnsweredQuestions dataset, not an UnansweredQuestions one.' },
      );
    }
  }
}

/**
 * Enforces the benchmark's rules on the results: one entry per question, at most `k`
 * sources each, no span longer than `maxContextLength`. Returns the entries by id.
 */
export function validateResults(results: SearchResults, options: ResolvedEvaluateOptions): Map<string, SearchResult> {
  const byId = new Map<string, SearchResult>();
  for (const result of results.search_results) {
    const id = result.question_id;
    if (byId.has(id)) {
      throw new RagError('RESULTS_INVALID', `The results list question ${id} more than once.`, {
        hint: 'Write exactly one search_results entry per question.',
      });
    }
    byId.set(id, result);
    const count = result.retrieved_sources.length;
    if (count > options.k) {
      throw new RagError('RESULTS_INVALID', `Question ${id} lists ${count} sources, more than k = ${options.k}.`, {
        hint: `Return at most ${options.k} sources per question (or evaluate with a larger k).`,
      });
    }
    for (const source of result.retrieved_sources) {
      const length = spanLength(source);
      if (length > options.maxContextLength) {
        throw new RagError(
          'RESULTS_INVALID',
          `Question ${id} cites ${source.file_path} with a span of ${length} characters, longer than the limit of ${options.maxContextLength}.`,
          { hint: `Cut retrieved spans to at most ${options.maxContextLength} characters.` },
        );
      }
    }
  }
  return byId;
}
