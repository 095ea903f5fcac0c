import { describe, expect, it } from 'vitest';
import { parseDataset, parseSearchResults, RagError, type Dataset } from '@rag/core';
import { evaluate } from '../src/index.js';
import { dataset, misses, results, span } from './helpers.js';

const gold = span('pkg/a.py', 100, 200);

function caught(run: () => unknown): RagError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(RagError);
    return error as RagError;
  }
  throw new Error('expected a RagError, nothing was thrown');
}

describe('evaluate: warnings', () => {
  it('ignores result entries for unknown questions and lists them', () => {
    const report = evaluate(dataset({ q1: [gold] }), results({ q1: [gold], ghost: [gold], phantom: [] }));
    expect(report.recall[1]).toBe(1);
    expect(report.questions).toBe(1);
    expect(report.unknownQuestionIds).toEqual(['ghost', 'phantom']);
    expect(report.warnings).toEqual(['Ignored 2 result entries for questions not in the dataset: ghost, phantom.']);
  });

  it('scores questions without a result entry 0 and lists them', () => {
    const report = evaluate(dataset({ q1: [gold], q2: [gold] }), results({ q1: [gold] }));
    expect(report.recall[10]).toBe(0.5);
    expect(report.missingQuestionIds).toEqual(['q2']);
    expect(report.warnings).toEqual(['1 question has no result entry and scores 0: q2.']);
  });

  it('shortens long id lists in warnings', () => {
    const ids = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`q${i}`, [gold]]));
    const report = evaluate(dataset(ids), results({}));
    expect(report.missingQuestionIds).toHaveLength(12);
    expect(report.warnings[0]).toMatch(/q9 \(and 2 more\)\.$/);
  });

  it('scores questions with an empty gold list 0 with a warning', () => {
    const report = evaluate(dataset({ q1: [], q2: [gold] }), results({ q1: [gold], q2: [gold] }));
    expect(report.recall[1]).toBe(0.5);
    expect(report.warnings).toEqual(['1 question lists no gold sources and scores 0: q1.']);
  });
});

describe('evaluate: errors', () => {
  it('rejects duplicate result entries for one question', () => {
    const input = { search_results: [{ question_id: 'q1', retrieved_sources: [] }, { question_id: 'q1', retrieved_sources: [gold] }] };
    const error = caught(() => evaluate(dataset({ q1: [gold] }), input));
    expect(error.code).toBe('RESULTS_INVALID');
    expect(error.message).toContain('q1');
  });

  it('rejects a question listing more than k sources, naming it and the count', () => {
    const error = caught(() => evaluate(dataset({ q1: [gold] }), results({ q1: misses(11) })));
    expect(error.code).toBe('RESULTS_INVALID');
    expect(error.message).toBe('Question q1 lists 11 sources, more than k = 10.');
    expect(error.hint).toContain('at most 10');
  });

  it("takes k from the results file, and the option over the file's", () => {
    expect(caught(() => evaluate(dataset({ q1: [gold] }), results({ q1: misses(4) }, 3))).message).toContain('more than k = 3');
    expect(evaluate(dataset({ q1: [gold] }), results({ q1: misses(4) }, 3), { k: 4 }).options.k).toBe(4);
    expect(evaluate(dataset({ q1: [gold] }), results({ q1: misses(4) }), { ks: [1, 5] }).options.k).toBe(5);
  });

  it('rejects spans longer than maxContextLength, naming question, file and length', () => {
    const long = span('pkg/big.py', 10, 2011);
    const error = caught(() => evaluate(dataset({ q1: [gold] }), results({ q1: [long] })));
    expect(error.code).toBe('RESULTS_INVALID');
    expect(error.message).toContain('q1');
    expect(error.message).toContain('pkg/big.py');
    expect(error.message).toContain('2001 characters');
    // Exactly at the limit is allowed.
    expect(evaluate(dataset({ q1: [gold] }), results({ q1: [span('pkg/big.py', 10, 2010)] })).questions).toBe(1);
    expect(caught(() => evaluate(dataset({ q1: [gold] }), results({ q1: [gold] }), { maxContextLength: 50 })).message).toContain(
      '100 characters',
    );
  });

  it('checks the rules on entries for unknown questions too', () => {
    expect(caught(() => evaluate(dataset({ q1: [gold] }), results({ ghost: misses(11) }))).message).toContain('ghost');
  });

  it('asks for an answered dataset when a question has no sources', () => {
    const unanswered: Dataset = { rag_questions: [{ question_id: 'q1', question: 'what?' }] };
    const error = caught(() => evaluate(unanswered, results({ q1: [gold] })));
    expect(error.code).toBe('DATASET_INVALID');
    expect(error.message).toContain('q1');
    expect(error.message).toContain('answered dataset');
  });

  it('rejects an empty dataset and duplicate question ids', () => {
    expect(caught(() => evaluate({ rag_questions: [] }, results({}))).code).toBe('DATASET_INVALID');
    const twice: Dataset = { rag_questions: [...dataset({ q1: [gold] }).rag_questions, ...dataset({ q1: [gold] }).rag_questions] };
    const error = caught(() => evaluate(twice, results({})));
    expect(error.code).toBe('DATASET_INVALID');
    expect(error.message).toContain('q1');
  });

  it('rejects nonsensical options', () => {
    for (const options of [{ ks: [] }, { ks: [0] }, { ks: [1.5] }, { k: -1 }, { maxContextLength: 0 }, { mrrK: Number.NaN }]) {
      expect(caught(() => evaluate(dataset({ q1: [gold] }), results({}), options)).code).toBe('INVALID_ARGUMENT');
    }
  });
});

describe('malformed input (parsed by @rag/core)', () => {
  it('rejects invalid JSON with the label in the message', () => {
    const error = caught(() => parseSearchResults('{"search_results": [', 'run.json'));
    expect(error.code).toBe('RESULTS_INVALID');
    expect(error.message).toContain('run.json is not valid JSON');
  });

  it('names the field path of a wrongly typed field', () => {
    const text = JSON.stringify({ search_results: [{ question_id: 'q1', retrieved_sources: [{ file_path: 'a.py', first_character_index: '0', last_character_index: 5 }] }] });
    const error = caught(() => parseSearchResults(text, 'run.json'));
    expect(error.message).toContain('search_results.0.retrieved_sources.0.first_character_index');
    const datasetError = caught(() => parseDataset('{"rag_questions": [{"question": "?"}]}', 'qs.json'));
    expect(datasetError.code).toBe('DATASET_INVALID');
    expect(datasetError.message).toContain('rag_questions.0.question_id');
  });

  it('feeds parsed files straight into evaluate', () => {
    const parsedDataset = parseDataset(JSON.stringify(dataset({ q1: [gold] })), 'qs.json');
    const parsedResults = parseSearchResults(JSON.stringify(results({ q1: [gold] }, 10)), 'run.json');
    expect(evaluate(parsedDataset, parsedResults).recall[1]).toBe(1);
  });
});
