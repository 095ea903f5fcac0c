import { describe, expect, it } from 'vitest';
import { parseDataset, parseSearchResults } from '../src/index.js';
import { rejection } from './helpers.js';

const source = { file_path: 'vllm/a.py', first_character_index: 3, last_character_index: 40 };

describe('parseDataset', () => {
  it('reads an answered dataset and keeps unknown fields', () => {
    const text = JSON.stringify({
      rag_questions: [{ question_id: 'q1', question: 'Why?', answer: 'Because.', sources: [source], difficulty: 'easy' }],
      version: 2,
    });
    const dataset = parseDataset(text, 'd.json');
    expect(dataset.rag_questions[0]).toEqual({
      question_id: 'q1',
      question: 'Why?',
      answer: 'Because.',
      sources: [source],
      difficulty: 'easy',
    });
    expect((dataset as Record<string, unknown>).version).toBe(2);
  });

  it('reads an unanswered dataset', () => {
    const dataset = parseDataset('{"rag_questions": [{"question_id": "q1", "question": "Why?"}]}', 'd.json');
    expect(dataset.rag_questions[0]!.sources).toBeUndefined();
  });

  it('rejects malformed JSON, naming the file', async () => {
    const error = await rejection(() => parseDataset('{"rag_questions": [', 'data/q.json'));
    expect(error.code).toBe('DATASET_INVALID');
    expect(error.message).toMatch(/^data\/q\.json is not valid JSON: /);
    expect(error.hint).toContain('rag_questions');
  });

  it('names the path of a missing or wrongly typed field', async () => {
    const missing = await rejection(() => parseDataset('{"questions": []}', 'q.json'));
    expect(missing.message).toContain('rag_questions');
    const wrongType = await rejection(() =>
      parseDataset(
        JSON.stringify({ rag_questions: [{ question_id: 'q1', question: '?', sources: [{ ...source, last_character_index: 'end' }] }] }),
        'q.json',
      ),
    );
    expect(wrongType.code).toBe('DATASET_INVALID');
    expect(wrongType.message).toContain('rag_questions.0.sources.0.last_character_index');
  });

  it('rejects a span that ends before it starts', async () => {
    const text = JSON.stringify({
      rag_questions: [{ question_id: 'q1', question: '?', sources: [{ ...source, first_character_index: 50 }] }],
    });
    const error = await rejection(() => parseDataset(text, 'q.json'));
    expect(error.message).toContain('last_character_index must not be smaller than first_character_index');
  });

  it('rejects negative and fractional offsets', async () => {
    for (const bad of [-1, 1.5]) {
      const text = JSON.stringify({ rag_questions: [{ question_id: 'q1', question: '?', sources: [{ ...source, first_character_index: bad }] }] });
      expect((await rejection(() => parseDataset(text, 'q.json'))).message).toContain('rag_questions.0.sources.0.first_character_index');
    }
  });
});

describe('parseSearchResults', () => {
  it('reads results with and without answers', () => {
    const text = JSON.stringify({
      search_results: [
        { question_id: 'q1', question: 'Why?', retrieved_sources: [source] },
        { question_id: 'q2', retrieved_sources: [], answer: 'No idea.' },
      ],
      k: 10,
    });
    const results = parseSearchResults(text, 'r.json');
    expect(results.k).toBe(10);
    expect(results.search_results.map((r) => r.retrieved_sources.length)).toEqual([1, 0]);
    expect(results.search_results[1]!.answer).toBe('No idea.');
  });

  it('rejects malformed JSON with RESULTS_INVALID', async () => {
    const error = await rejection(() => parseSearchResults('not json', 'r.json'));
    expect(error.code).toBe('RESULTS_INVALID');
    expect(error.message).toContain('r.json is not valid JSON');
  });

  it('names the path of a wrongly typed field', async () => {
    const text = JSON.stringify({ search_results: [{ question_id: 'q1', retrieved_sources: [{ ...source, file_path: 7 }] }], k: 10 });
    const error = await rejection(() => parseSearchResults(text, 'r.json'));
    expect(error.code).toBe('RESULTS_INVALID');
    expect(error.message).toContain('search_results.0.retrieved_sources.0.file_path');
  });

  it('rejects a non-positive k and an empty question_id', async () => {
    expect((await rejection(() => parseSearchResults('{"search_results": [], "k": 0}', 'r.json'))).message).toContain('k');
    const text = JSON.stringify({ search_results: [{ question_id: '', retrieved_sources: [] }] });
    expect((await rejection(() => parseSearchResults(text, 'r.json'))).message).toContain('search_results.0.question_id');
  });

  it('lists at most five issues and counts the rest', async () => {
    const text = JSON.stringify({ search_results: Array.from({ length: 7 }, () => ({ question_id: 1, retrieved_sources: [] })) });
    const error = await rejection(() => parseSearchResults(text, 'r.json'));
    expect(error.message).toContain('search_results.4.question_id');
    expect(error.message).not.toContain('search_results.5.question_id');
    expect(error.message).toContain('(and 2 more)');
  });
});
