import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answer, createAnswerCache, createExtractiveGenerator, withAnswerCache } from '../src/index.js';
import { answerCacheKey, type AnswerCacheKeyInput } from '../src/internals.js';
import { counting } from './helpers/counting.js';
import { source } from './helpers/sources.js';
import { tempDir } from './helpers/tmp.js';

const root = await tempDir();
const extractive = createExtractiveGenerator();
const portSource = source('# Port the server listens on.\nPORT = 8421\n', { file_path: 'srv/defaults.py' });
const request = { question: 'Which port does the server listen on?', sources: [portSource] };

describe('answerCacheKey', () => {
  const base: AnswerCacheKeyInput = { question: 'q?', k: 5, retriever: 'bm25', generator: extractive.identity, sources: [portSource] };
  const key = answerCacheKey(base);

  it('is a sha256 that ignores surrounding whitespace of the question', () => {
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(answerCacheKey({ ...base, question: '  q? ' })).toBe(key);
  });

  it('changes with everything that changes an answer', () => {
    const variants: AnswerCacheKeyInput[] = [
      { ...base, question: 'other?' },
      { ...base, k: 3 },
      { ...base, retriever: 'hybrid' },
      { ...base, generator: { ...extractive.identity, name: 'qwen3' } },
      { ...base, generator: { ...extractive.identity, modelId: 'org/model' } },
      { ...base, generator: { ...extractive.identity, settings: { ...extractive.identity.settings, maxQuotes: 1 } } },
      { ...base, generator: { ...extractive.identity, templateHash: 'f'.repeat(64) } },
      { ...base, sources: [{ ...portSource, text: 'PORT = 9000\n' }] },
      { ...base, sources: [{ ...portSource, last_character_index: 3 }] },
      { ...base, sources: [portSource, portSource] },
      { ...base, unindexedWords: ['kafka'] },
      { ...base, unindexedWords: [] },
      { ...base, rareWords: ['backoff'] },
      { ...base, rareWords: [] },
    ];
    const keys = new Set(variants.map(answerCacheKey));
    expect(keys.size).toBe(variants.length);
    expect(keys.has(key)).toBe(false);
  });

  it('trusts a given sha256 instead of hashing the text', () => {
    const withHash = { ...portSource, sha256: 'a'.repeat(64) };
    expect(answerCacheKey({ ...base, sources: [withHash] })).toBe(answerCacheKey({ ...base, sources: [{ ...withHash, text: 'different' }] }));
  });
});

describe('withAnswerCache', () => {
  it('answers a repeated question from disk, streaming the stored answer', async () => {
    const cache = createAnswerCache(join(root, 'hits'));
    const inner = counting(extractive);
    const cached = withAnswerCache(inner, cache, { k: 1, retriever: 'bm25' });
    const first = await answer(cached, request);
    expect(first.cached).toBe(false);
    const tokens: string[] = [];
    const second = await answer(cached, request, { onToken: (t) => tokens.push(t) });
    expect(second).toEqual({ ...first, cached: true });
    expect(tokens.join('')).toBe(first.answer);
    expect(inner.calls).toBe(1);
    // A new process sees the same entry.
    expect((await answer(withAnswerCache(inner, createAnswerCache(join(root, 'hits')), { k: 1, retriever: 'bm25' }), request)).cached).toBe(true);
  });

  it('recomputes when a source changed (a re-indexed file) or the settings differ', async () => {
    const cache = createAnswerCache(join(root, 'invalidation'));
    const inner = counting(extractive);
    await answer(withAnswerCache(inner, cache, { k: 1 }), request);
    const changed = { ...request, sources: [{ ...portSource, text: '# Port the server listens on.\nPORT = 9000\n' }] };
    const recomputed = await answer(withAnswerCache(inner, cache, { k: 1 }), changed);
    expect(recomputed.cached).toBe(false);
    expect(recomputed.answer).toContain('9000');
    await answer(withAnswerCache(inner, cache, { k: 2 }), request);
    expect(inner.calls).toBe(3);
  });

  it('treats a damaged entry as a miss and writes atomically (no temp files left)', async () => {
    const dir = join(root, 'damaged');
    const cache = createAnswerCache(dir);
    const key = answerCacheKey({ question: request.question, generator: extractive.identity, sources: request.sources });
    await answer(withAnswerCache(extractive, cache), request);
    const shard = join(dir, key.slice(0, 2));
    expect(await readdir(shard)).toEqual([`${key}.json`]);
    await writeFile(join(shard, `${key}.json`), '{"format": "rag-answer-cache", trunc');
    expect(await cache.get(key)).toBeUndefined();
    expect((await answer(withAnswerCache(extractive, cache), request)).cached).toBe(false);
    expect((await cache.get(key))?.answer).toContain('8421');
  });

  it('serves no entry that fails its schema or its checksum, and rewrites it', async () => {
    const dir = join(root, 'tampered');
    const cache = createAnswerCache(dir);
    const key = answerCacheKey({ question: request.question, generator: extractive.identity, sources: request.sources });
    await answer(withAnswerCache(extractive, cache), request);
    const path = join(dir, key.slice(0, 2), `${key}.json`);
    const entry = JSON.parse(await readFile(path, 'utf8')) as { result: Record<string, unknown> };
    // `result: {}` once made every later answer to the question fail forever.
    await writeFile(path, JSON.stringify({ ...entry, result: {} }));
    expect(await cache.get(key)).toBeUndefined();
    // An edited answer (checksum no longer matches) is not served either.
    await writeFile(path, JSON.stringify({ ...entry, result: { ...entry.result, answer: 'DEFAULT_PORT = 9999' } }));
    expect(await cache.get(key)).toBeUndefined();
    const again = await answer(withAnswerCache(extractive, cache), request);
    expect(again.cached).toBe(false);
    expect(again.answer).toContain('8421');
    expect((await cache.get(key))?.answer).toContain('8421');
  });

  it('still answers when the cache cannot be written, and says so to onCacheError', async () => {
    const failing = { dir: '/nowhere', get: async () => undefined, set: async () => Promise.reject(new Error('ENOSPC: no space left on device')) };
    const errors: unknown[] = [];
    const result = await answer(withAnswerCache(extractive, failing, {}, (error) => errors.push(error)), request);
    expect(result.answer).toContain('8421');
    expect(errors).toHaveLength(1);
  });
});
