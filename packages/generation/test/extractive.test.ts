import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseDataset, sliceCodePoints, type Source } from '@rag/core';
import { describe, expect, it } from 'vitest';
import { answer, createExtractiveGenerator, type SourceForAnswer } from '../src/index.js';
import { answerExtractively, NOT_FOUND_ANSWER, resolveExtractiveOptions } from '../src/internals.js';
import { source } from './helpers/sources.js';

const REPO = resolve(import.meta.dirname, '..', '..', '..');
const dataset = parseDataset(readFileSync(join(REPO, 'datasets/mini/questions.json'), 'utf8'), 'questions.json');
const fileText = (path: string) => readFileSync(join(REPO, path), 'utf8');

function spanSource(span: Source): SourceForAnswer {
  return { ...span, start_line: 0, end_line: 0, symbol: '', text: sliceCodePoints(fileText(span.file_path), span.first_character_index, span.last_character_index) };
}

/** Facts each reference answer rests on; a correct citation's span contains them. */
const KEY_FACTS: Record<string, string[]> = {
  'code-01': ['8421'],
  'code-02': ['def route', 'self.router.add(pattern, handler, methods)', 'return handler'],
  'code-03': ['405', '404', 'cast'],
  'code-04': ['500', 'traceback', 'Internal Server Error'],
  'code-05': ['1_048_576', '413'],
  'code-06': ['grüße', 'English'],
  'code-07': ['STARTUP_BANNER', '🚀 tinyserve läuft auf'],
  'code-08': ['perf_counter'],
  'code-09': ['application/json'],
  'docs-01': ['pip install tinyserve==0.3.1'],
  'docs-02': ['@app.route', 'app.run()'],
  'docs-03': ['TINYSERVE_HOST', 'TINYSERVE_PORT', 'TINYSERVE_WORKERS'],
  'docs-04': ['405', '404'],
  'docs-05': ['traceback', 'secrets'],
  'docs-06': ['proxy_pass', '127.0.0.1'],
  'docs-07': ['processes', 'load balancer'],
  'docs-08': ['8000', '8421'],
  'docs-09': ['3.9', '3.13', 'PyPy 3.10'],
};

const questions = dataset.rag_questions;

/**
 * Sources as a retriever might return them: the gold spans at rank 2 (and 3), between
 * the gold spans of three other questions of the same corpus as distractors.
 */
function retrievedFor(index: number): { sources: SourceForAnswer[]; gold: Source[] } {
  const gold = questions[index]!.sources!;
  const other = (offset: number) => questions[(index + offset) % questions.length]!.sources![0]!;
  return { sources: [other(1), ...gold, other(2), other(3)].map(spanSource), gold };
}

const sameSpan = (a: Source, b: Source) => a.file_path === b.file_path && a.first_character_index === b.first_character_index && a.last_character_index === b.last_character_index;

describe('the extractive generator on datasets/mini', () => {
  it.each(questions.map((q, i) => [q.question_id, i] as const))('%s: cites a gold span that holds the key facts', (id, index) => {
    const { sources, gold } = retrievedFor(index);
    const result = answerExtractively(questions[index]!.question, sources);
    const citedGold = result.citedSources.filter((c) => gold.some((g) => sameSpan(c, g)));
    expect(citedGold.length).toBeGreaterThan(0);
    const citedText = citedGold.map((c) => sources[c.n - 1]!.text).join('\n');
    for (const fact of KEY_FACTS[id]!) expect(citedText).toContain(fact);
    // Every citation in the text names a cited source, and each quote lies inside its source.
    const numbers = [...result.lines.join('\n').matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
    expect(new Set(numbers)).toEqual(new Set(result.citedSources.map((c) => c.n)));
    for (const cited of result.citedSources) {
      for (const quote of cited.quotes ?? []) {
        expect(quote.first_character_index).toBeGreaterThanOrEqual(cited.first_character_index);
        expect(quote.last_character_index).toBeLessThanOrEqual(cited.last_character_index);
        const quoted = sliceCodePoints(fileText(cited.file_path), quote.first_character_index, quote.last_character_index);
        expect(sources[cited.n - 1]!.text).toContain(quoted);
      }
    }
  });

  it('quotes the fact itself for short factual questions', () => {
    const facts: Record<string, string> = { 'code-01': '8421', 'code-05': '1_048_576', 'code-07': 'STARTUP_BANNER', 'docs-04': '405', 'docs-08': '8000', 'docs-09': 'PyPy 3.10', 'docs-05': 'secrets' };
    for (const [id, fact] of Object.entries(facts)) {
      const index = questions.findIndex((q) => q.question_id === id);
      const { sources } = retrievedFor(index);
      expect(answerExtractively(questions[index]!.question, sources).lines.join('\n')).toContain(fact);
    }
  });

  it('quotes code-point offsets correctly after emoji (i18n.py, guide.md)', () => {
    const index = questions.findIndex((q) => q.question_id === 'code-07');
    const { sources } = retrievedFor(index);
    const result = answerExtractively(questions[index]!.question, sources);
    const quote = result.citedSources.find((c) => c.file_path.endsWith('i18n.py'))!.quotes![0]!;
    expect(sliceCodePoints(fileText('datasets/mini/corpus/tinyserve/i18n.py'), quote.first_character_index, quote.last_character_index)).toContain(
      'STARTUP_BANNER = "🚀 tinyserve läuft auf {host}:{port} — Strg+C beendet"',
    );
  });
});

describe('createExtractiveGenerator', () => {
  it('streams its lines and says which generator answered', async () => {
    const generator = createExtractiveGenerator();
    const tokens: string[] = [];
    const result = await answer(generator, { question: 'What port does the server use?', sources: [source('# Port the server listens on.\nPORT = 8421\n'), source('The server port is 8421 by default.', { file_path: 'docs/a.md' })] }, { onToken: (t) => tokens.push(t) });
    expect(tokens.join('')).toBe(result.answer);
    expect(result.generator).toBe('extractive');
    // The direct answer leads on its own line; supporting quotes follow as a list.
    expect(result.answer).toBe('`PORT = 8421` — Port the server listens on. [1]\n- The server port is 8421 by default. [2]');
    expect(result.citedSources.map((c) => c.n)).toEqual([1, 2]);
    expect(result.generatedTokens).toBe(result.answer.split(/\s+/).length);
  });

  it('says so when no retrieved text matches the question, and names the closest sources', async () => {
    const result = await answer(createExtractiveGenerator(), { question: 'How are quaternions normalised?', sources: [source('x = 1')] });
    expect(result.answer.startsWith(NOT_FOUND_ANSWER)).toBe(true);
    expect(result.answer).toContain('The closest sources: [1]');
    expect(result.citedSources.map((c) => [c.n, c.quotes])).toEqual([[1, undefined]]);
  });

  it('keeps to maxQuotes and validates its options', () => {
    const sources = [source('alpha beta one.\n\nalpha beta two.\n\nalpha beta three.', { file_path: 'a.md' })];
    expect(answerExtractively('alpha beta?', sources, { maxQuotes: 1 }).citedSources[0]!.quotes).toHaveLength(1);
    expect(() => createExtractiveGenerator({ maxQuotes: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(() => createExtractiveGenerator({ minRelativeScore: 2 })).toThrow(/minRelativeScore/);
    // Options once resolved come back as they are (a generator checks them once, not per answer), frozen.
    const resolved = resolveExtractiveOptions({ maxQuotes: 2 });
    expect(resolveExtractiveOptions(resolved)).toBe(resolved);
    expect(Object.isFrozen(resolved)).toBe(true);
    // A look-alike that was not resolved here is checked.
    expect(() => resolveExtractiveOptions({ ...resolved, maxQuotes: 0 })).toThrow(/maxQuotes/);
  });

  it('says why nothing was retrieved: the telling words the corpus never holds, rarest first', () => {
    const answer = answerExtractively('How is the Kafka consumer group rebalanced?', [], {}, ['Kafka', 'rebalanced']);
    expect(answer.lines).toEqual(['No sources were retrieved for this question, so there is nothing to answer from. The indexed sources never mention “Kafka” or “rebalanced”.']);
    expect(answer.citedSources).toEqual([]);
    // Without unindexed words (the retriever cannot tell), the plain sentence alone.
    expect(answerExtractively('How is the Kafka consumer group rebalanced?', []).lines).toEqual(['No sources were retrieved for this question, so there is nothing to answer from.']);
  });

  it('stops when cancelled', async () => {
    await expect(answer(createExtractiveGenerator(), { question: 'q', sources: [] }, { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'CANCELLED' });
  });
});
