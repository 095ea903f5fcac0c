import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseSearchResults, sliceCodePoints, type SearchResults, type Source } from '@rag/core';
import { describe, expect, it } from 'vitest';
import { answerDataset, answerDatasetToFile, checkpointPathFor, createAnswerCache, createExtractiveGenerator, type AnswerProgress, type Generator } from '../src/index.js';
import { counting } from './helpers/counting.js';
import { tempDir } from './helpers/tmp.js';

const REPO = resolve(import.meta.dirname, '..', '..', '..');
const root = await tempDir();
const questions = JSON.parse(readFileSync(join(REPO, 'datasets/mini/questions.json'), 'utf8')).rag_questions as { question_id: string; question: string; sources: Source[] }[];

/** Search results whose sources are each question's gold spans plus the next question's. */
const results: SearchResults = {
  search_results: questions.map((q, i) => ({ question_id: q.question_id, question: q.question, retrieved_sources: [...q.sources, questions[(i + 1) % questions.length]!.sources[0]!] })),
  k: 5,
};
const readSpan = (s: Source) => sliceCodePoints(readFileSync(join(REPO, s.file_path), 'utf8'), s.first_character_index, s.last_character_index);

describe('answerDataset', () => {
  it('adds an answer to every result, in order, in the with-answers format', async () => {
    const progress: AnswerProgress[] = [];
    const run = await answerDataset(results, { generator: createExtractiveGenerator(), readSpan, onProgress: (p) => progress.push(p) });
    const parsed = parseSearchResults(JSON.stringify(run.output), 'output');
    expect(parsed.k).toBe(5);
    expect(parsed.search_results.map((r) => r.question_id)).toEqual(questions.map((q) => q.question_id));
    expect(parsed.search_results.every((r) => typeof r.answer === 'string' && /\[1\]/.test(r.answer))).toBe(true);
    expect(parsed.search_results[0]!.retrieved_sources).toEqual(results.search_results[0]!.retrieved_sources);
    expect(run.answered).toBe(questions.length);
    expect(progress.at(-1)).toMatchObject({ phase: 'answer', done: questions.length, total: questions.length, resumed: 0 });
    expect(progress.at(-1)!.questionsPerSecond).toBeGreaterThan(0);
    expect(progress.at(-1)!.tokensPerSecond).toBeGreaterThan(0);
  });

  it('resumes from the checkpoint after an interruption and gives the same file', async () => {
    const output = join(root, 'resume', 'answers.json');
    const checkpoint = checkpointPathFor(output);
    const controller = new AbortController();
    const first = counting(createExtractiveGenerator());
    await expect(
      answerDatasetToFile(results, output, {
        generator: first,
        readSpan,
        signal: controller.signal,
        onProgress: (p) => {
          if (p.done === 5) controller.abort();
        },
      }),
    ).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(existsSync(output)).toBe(false);
    const saved = JSON.parse(await readFile(checkpoint, 'utf8')) as { answers: Record<string, string> };
    expect(Object.keys(saved.answers)).toEqual(['0', '1', '2', '3', '4']);

    const second = counting(createExtractiveGenerator());
    const resumed = await answerDatasetToFile(results, output, { generator: second, readSpan });
    expect(resumed.resumed).toBe(5);
    expect(second.calls).toBe(questions.length - 5);
    expect(existsSync(checkpoint)).toBe(false);
    const fresh = await answerDataset(results, { generator: createExtractiveGenerator(), readSpan });
    expect(JSON.parse(await readFile(output, 'utf8'))).toEqual(fresh.output);
  });

  it('starts over when the checkpoint belongs to another run', async () => {
    const checkpointPath = join(root, 'other', 'cp.json');
    await answerDataset(results, { generator: createExtractiveGenerator({ maxQuotes: 1 }), readSpan, checkpointPath });
    const run = await answerDataset(results, { generator: createExtractiveGenerator(), readSpan, checkpointPath });
    expect(run.resumed).toBe(0);
    expect(run.answered).toBe(questions.length);
  });

  /** The extractive generator, recording every request it is given. */
  function recordingGenerator() {
    const requests: Parameters<Generator['generate']>[0][] = [];
    const extractive = createExtractiveGenerator();
    const generator: Generator = {
      ...counting(extractive),
      generate(request, options) {
        requests.push(request);
        return extractive.generate(request, options);
      },
    };
    return { generator, requests };
  }

  it.each([
    ['unindexed', { unindexedWords: async () => ['Kafka'] }, (request: Parameters<Generator['generate']>[0]) => request.unindexedWords, ['Kafka']],
    ['rare', { rareWords: async () => ['backoff'] }, (request: Parameters<Generator['generate']>[0]) => request.rareWords, ['backoff']],
  ] as const)("tells the generator each question's %s words, and a run told them does not resume one that was not", async (name, told, wordsOf, words) => {
    const { generator, requests } = recordingGenerator();
    const checkpointPath = join(root, name, 'cp.json');
    await answerDataset(results, { generator: createExtractiveGenerator(), readSpan, checkpointPath });
    const run = await answerDataset(results, { generator, readSpan, checkpointPath, ...told });
    expect(run.resumed).toBe(0);
    expect(requests.map((request) => request.question)).toEqual(questions.map((q) => q.question));
    expect(requests.map(wordsOf)).toEqual(questions.map(() => words));
  });

  it('answers from the first k sources only, and uses the answer cache when given', async () => {
    const cache = createAnswerCache(join(root, 'cache'));
    const generator = counting(createExtractiveGenerator());
    const one = await answerDataset(results, { generator, readSpan, k: 1, cache, retriever: 'bm25' });
    expect(one.output.search_results.every((r) => !/\[2\]/.test(r.answer ?? ''))).toBe(true);
    const again = await answerDataset(results, { generator, readSpan, k: 1, cache, retriever: 'bm25' });
    expect(generator.calls).toBe(questions.length);
    expect(again.generatedTokens).toBe(0);
    expect(again.output).toEqual(one.output);
    await expect(answerDataset(results, { generator, readSpan, k: 0 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
