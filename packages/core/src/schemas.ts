import * as v from './validation.js';
import type { Schema, SchemaIssue } from './validation.js';
import { RagError, type RagErrorCode } from './errors.js';

/** A span in the benchmark's format; offsets are code points, the end exclusive. */
export const sourceSchema = v.object({
    file_path: v.string().check(v.minLength(1)),
    first_character_index: v.int().check(v.nonnegative()),
    last_character_index: v.int().check(v.nonnegative()),
  }).check(v.refine((s) => s.last_character_index >= s.first_character_index, {
    message: 'last_character_index must not be smaller than first_character_index',
  }));

export const questionSchema = v.looseObject({
  question_id: v.string().check(v.minLength(1)),
  question: v.string(),
  answer: v.optional(v.string()),
  sources: v.optional(v.array(sourceSchema)),
});

export const datasetSchema = v.looseObject({
  rag_questions: v.array(questionSchema),
});

export const searchResultSchema = v.looseObject({
  question_id: v.string().check(v.minLength(1)),
  question: v.optional(v.string()),
  retrieved_sources: v.array(sourceSchema),
  answer: v.optional(v.string()),
});

export const searchResultsSchema = v.looseObject({
  search_results: v.array(searchResultSchema),
  k: v.optional(v.int().check(v.positive())),
});

export type Question = v.Infer<typeof questionSchema>;
export type Dataset = v.Infer<typeof datasetSchema>;
export type SearchResult = v.Infer<typeof searchResultSchema>;
export type SearchResults = v.Infer<typeof searchResultsSchema>;

function describeIssue(issue: SchemaIssue): string {
  const path = issue.path.length === 0 ? '(top level)' : issue.path.map(String).join('.');
  return `${path}: ${issue.code === 'invalid' ? `must be ${issue.message}` : issue.message}`;
}

function parseWith<T>(schema: Schema<T>, text: string, label: string, code: RagErrorCode, expected: string): T {
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
    const issues = result.issues.slice(0, 5).map(describeIssue);
    const more = result.issues.length > 5 ? ` (and ${result.issues.length - 5} more)` : '';
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
