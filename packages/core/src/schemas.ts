import * as z from 'zod/mini';
import { RagError, type RagErrorCode } from './errors.js';

/** A span in the benchmark's format; offsets are code points, the end exclusive. */
export const sourceSchema = z.object({
    file_path: z.string().check(z.minLength(1)),
    first_character_index: z.int().check(z.nonnegative()),
    last_character_index: z.int().check(z.nonnegative()),
  }).check(z.refine((s) => s.last_character_index >= s.first_character_index, {
    message: 'last_character_index must not be smaller than first_character_index',
  }));

export const questionSchema = z.looseObject({
  question_id: z.string().check(z.minLength(1)),
  question: z.string(),
  answer: z.optional(z.string()),
  sources: z.optional(z.array(sourceSchema)),
});

export const datasetSchema = z.looseObject({
  rag_questions: z.array(questionSchema),
});

export const searchResultSchema = z.looseObject({
  question_id: z.string().check(z.minLength(1)),
  question: z.optional(z.string()),
  retrieved_sources: z.array(sourceSchema),
  answer: z.optional(z.string()),
});

export const searchResultsSchema = z.looseObject({
  search_results: z.array(searchResultSchema),
  k: z.optional(z.int().check(z.positive())),
});

export type Question = z.infer<typeof questionSchema>;
export type Dataset = z.infer<typeof datasetSchema>;
export type SearchResult = z.infer<typeof searchResultSchema>;
export type SearchResults = z.infer<typeof searchResultsSchema>;

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.length === 0 ? '(top level)' : issue.path.map(String).join('.');
  return `${path}: ${issue.message}`;
}

function parseWith<T>(schema: z.ZodMiniType<T>, text: string, label: string, code: RagErrorCode, expected: string): T {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new RagError(code, `${label} is not valid JSON: ${(error as Error).message}`, {
      hint: `Expected ${expected}.`,
      cause: error,
    });
  }
  const result = schema.safeParse(json);
  if (!result.success) {
    const issues = result.error.issues.slice(0, 5).map(describeIssue);
    const more = result.error.issues.length > 5 ? ` (and ${result.error.issues.length - 5} more)` : '';
    throw new RagError(code, `${label} does not match the expected format: ${issues.join('; ')}${more}`, {
      hint: `Expected ${expected}.`,
    });
  }
  return result.data;
}

/** Parses a dataset file's text; `label` (usually the path) names it in errors. */
export function parseDataset(text: string, label: string): Dataset {
  const dataset = parseWith(datasetSchema, text, label, 'DATASET_INVALID', '{"rag_questions": [{"question_id", "question", ...}]}');
  // Results are keyed by question_id: two questions with one id would be scored as one.
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const { question_id } of dataset.rag_questions) (seen.has(question_id) ? repeated : seen).add(question_id);
  if (repeated.size > 0) {
    const shown = [...repeated].slice(0, 5).join(', ') + (repeated.size > 5 ? ` and ${repeated.size - 5} more` : '');
    throw new RagError('DATASET_INVALID', `${label} repeats question_id ${shown}.`, { hint: 'Give every question its own question_id.' });
  }
  return dataset;
}

/** Parses a search-results file's text; `label` (usually the path) names it in errors. */
export function parseSearchResults(text: string, label: string): SearchResults {
  return parseWith(
    searchResultsSchema,
    text,
    label,
    'RESULTS_INVALID',
    '{"search_results": [{"question_id", "retrieved_sources": [{"file_path", "first_character_index", "last_character_index"}]}], "k"}',
  );
}
