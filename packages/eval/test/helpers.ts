import type { Dataset, SearchResults, Source } from '@rag/core';

export function span(file_path: string, first: number, last: number): Source {
  return { file_path, first_character_index: first, last_character_index: last };
}

export function dataset(questions: Record<string, Source[]>): Dataset {
  return {
    rag_questions: Object.entries(questions).map(([id, sources]) => ({
      question_id: id,
      question: `question ${id}?`,
      answer: 'an answer',
      sources,
    })),
  };
}

export function results(entries: Record<string, Source[]>, k?: number): SearchResults {
  const search_results = Object.entries(entries).map(([id, retrieved_sources]) => ({ question_id: id, retrieved_sources }));
  return k === undefined ? { search_results } : { search_results, k };
}

/** `n` sources in a file no gold span names. */
export function misses(n: number): Source[] {
  return Array.from({ length: n }, (_, i) => span('elsewhere.py', i * 10, i * 10 + 5));
}
