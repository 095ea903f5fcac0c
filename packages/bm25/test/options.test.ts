import { describe, expect, it } from 'vitest';
import { bm25RetrieverFactory, DEFAULT_BM25_OPTIONS, resolveBm25Options } from '../src/index.js';
import { makeChunks, rejection } from './helpers.js';

describe('resolveBm25Options', () => {
  it('fills in the documented defaults', () => {
    expect(resolveBm25Options({})).toEqual(DEFAULT_BM25_OPTIONS);
    expect(DEFAULT_BM25_OPTIONS).toMatchObject({
      k1: 1.2,
      fields: { body: { weight: 1, b: 0.75 }, path: { weight: 1, b: 0.3 }, symbol: { weight: 3, b: 0.3 } },
    });
  });

  it('keeps the default answer-evidence weight of every kind a setting leaves out', () => {
    const { answerEvidence } = resolveBm25Options({ rerank: { answerEvidence: { error: 0.5 } } }).rerank;
    expect(answerEvidence).toEqual({ ...DEFAULT_BM25_OPTIONS.rerank.answerEvidence, error: 0.5 });
    expect(DEFAULT_BM25_OPTIONS.rerank.answerEvidence).toEqual({ default: 0.1, error: 0.2, list: 0, yesno: 0, value: 0 });
  });

  it('reads b as the body field b, and lets a field override it', () => {
    expect(resolveBm25Options({ b: 0.5 }).fields.body.b).toBe(0.5);
    expect(resolveBm25Options({ b: 0.5, fields: { body: { b: 0.2 } } }).fields.body.b).toBe(0.2);
    expect(resolveBm25Options({ b: 0.5 }).fields.path.b).toBe(DEFAULT_BM25_OPTIONS.fields.path.b);
  });

  it.each([
    [{ k1: 0 }, 'settings.k1', 'a number > 0'],
    [{ k1: -1 }, 'settings.k1', 'a number > 0'],
    [{ k1: '1.2' }, 'settings.k1', 'a number > 0'],
    [{ k1: Number.NaN }, 'settings.k1', 'a number > 0'],
    [{ b: 1.5 }, 'settings.b', 'in [0, 1]'],
    [{ rerank: { answerEvidence: { error: 11 } } }, 'settings.rerank.answerEvidence.error', 'in [0, 10]'],
    [{ rerank: { answerType: -1 } }, 'settings.rerank.answerType', 'in [0, 10]'],
    [{ rerank: { answerEvidence: { how: 1 } } }, 'settings.rerank.answerEvidence', 'how'],
    [{ fields: { path: { b: -0.1 } } }, 'settings.fields.path.b', 'in [0, 1]'],
    [{ fields: { symbol: { weight: -1 } } }, 'settings.fields.symbol.weight', '≥ 0'],
    [{ tokenizer: { stem: 'yes' } }, 'settings.tokenizer.stem', 'true or false'],
    [{ tokenizer: { minTokenLength: 1.5 } }, 'settings.tokenizer.minTokenLength', 'integer'],
    [{ tokenizer: { minTokenLength: 4, maxTokenLength: 3 } }, 'settings.tokenizer.maxTokenLength', 'minTokenLength'],
    [{ query: { subwordWeight: 2 } }, 'settings.query.subwordWeight', 'in [0, 1]'],
    [{ fields: 'body' }, 'settings.fields', 'an object'],
  ])('refuses %j naming %s', async (settings, field, requirement) => {
    const error = await rejection(() => resolveBm25Options(settings));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain(field);
    expect(error.message).toContain(requirement);
    expect(error.hint).toContain(field);
  });

  it.each([
    [{ k2: 1 }, 'k2'],
    [{ fields: { title: { weight: 1 } } }, 'settings.fields.title'],
    [{ tokenizer: { lowercase: false } }, 'settings.tokenizer.lowercase'],
  ])('refuses the unknown key in %j', async (settings, key) => {
    const error = await rejection(() => resolveBm25Options(settings));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain(key);
    expect(error.hint).toMatch(/^Valid keys/);
  });

  it('refuses weights that leave nothing to match', async () => {
    const error = await rejection(() => resolveBm25Options({ fields: { body: { weight: 0 }, path: { weight: 0 }, symbol: { weight: 0 }, anchor: { weight: 0 } } }));
    expect(error.code).toBe('INVALID_ARGUMENT');
  });

  it('validates settings passed through the factory', async () => {
    const error = await rejection(() => bm25RetrieverFactory.build(makeChunks([{ text: 'x' }]), { settings: { k1: -2 } }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain('settings.k1');
  });
});
