import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { v, writeFileAtomic } from '@rag/core';
import { sha256Hex, stableStringify } from './hash.js';
import { sourceHash } from './sources.js';
import type { AnswerResult, GenerateOptions, GenerateRequest, GenerationEvent, Generator, GeneratorIdentity, SourceForAnswer } from './types.js';

/** Bumped when the key recipe or the entry layout changes: old entries are then misses. */
const CACHE_FORMAT_VERSION = 2;

const spanSchema = v.object({ first_character_index: v.int().check(v.minimum(0)), last_character_index: v.int().check(v.minimum(0)) });

/** What a stored result must look like to be served: anything else is a miss, then rewritten. */
const resultSchema = v.object({
  answer: v.string(),
  citedSources: v.array(
    v.extend(spanSchema, {
      file_path: v.string(),
      n: v.int().check(v.minimum(1)),
      start_line: v.int().check(v.minimum(0)),
      end_line: v.int().check(v.minimum(0)),
      symbol: v.string(),
      quotes: v.optional(v.array(spanSchema)),
    }),
  ),
  droppedCitations: v.array(v.int()),
  generator: v.string(),
  modelId: v.optional(v.string()),
  sourcesUsed: v.int().check(v.minimum(0)),
  truncatedSource: v.boolean(),
  promptTokens: v.number().check(v.minimum(0)),
  generatedTokens: v.number().check(v.minimum(0)),
  finishReason: v.enum(['stop', 'length']),
  elapsedMs: v.number().check(v.minimum(0)),
  cached: v.boolean(),
});
const CACHE_FORMAT = 'rag-answer-cache';

/** Retrieval settings that shaped the sources, recorded in the key. */
export interface AnswerCacheContext {
  /** Number of sources retrieved. */
  k?: number;
  /** Retriever name (`bm25`, `hybrid`, …). */
  retriever?: string;
}

export interface AnswerCacheKeyInput extends AnswerCacheContext {
  question: string;
  generator: GeneratorIdentity;
  sources: readonly SourceForAnswer[];
  /** `GenerateRequest.unindexedWords`, when the caller told them. */
  unindexedWords?: readonly string[];
  /** `GenerateRequest.rareWords`, when the caller told them. */
  rareWords?: readonly string[];
}

/**
 * The cache key: sha256 over everything that changes an answer — question, k, retriever,
 * generator name, model id and settings (decoding, budgets, dtype), the prompt
 * template's hash, each source's location and content hash, and the question's unindexed
 * and rare words when given. A re-indexed file whose text changed gives new hashes, so answers that
 * used it are recomputed.
 */
export function answerCacheKey(input: AnswerCacheKeyInput): string {
  return sha256Hex(
    stableStringify({
      v: CACHE_FORMAT_VERSION,
      question: input.question.trim(),
      k: input.k ?? null,
      retriever: input.retriever ?? null,
      generator: input.generator,
      sources: input.sources.map((s) => [s.file_path, s.first_character_index, s.last_character_index, sourceHash(s)]),
      // Only when told, so that the keys of requests without them stay what they were.
      ...(input.unindexedWords ? { unindexed: [...input.unindexedWords] } : {}),
      ...(input.rareWords ? { rare: [...input.rareWords] } : {}),
    }),
  );
}

export interface AnswerCache {
  readonly dir: string;
  /** The stored result, or `undefined` when absent or unreadable (a damaged entry is a miss). */
  get(key: string): Promise<AnswerResult | undefined>;
  /** Stores atomically: a reader never sees half an entry. */
  set(key: string, result: AnswerResult): Promise<void>;
}

interface CacheEntry {
  format: typeof CACHE_FORMAT;
  version: number;
  key: string;
  storedAt: string;
  result: AnswerResult;
  /** sha256 of the result as stored: an entry edited by hand (or damaged) is a miss. */
  resultSha256: string;
}

/** An answer cache in `dir`: one JSON file per answer, fanned out by the key's first two hex digits. */
export function createAnswerCache(dir: string): AnswerCache {
  const root = resolve(dir);
  const pathOf = (key: string) => join(root, key.slice(0, 2), `${key}.json`);
  return {
    dir: root,
    async get(key) {
      try {
        const entry = JSON.parse(await readFile(pathOf(key), 'utf8')) as Partial<CacheEntry>;
        if (entry.format !== CACHE_FORMAT || entry.version !== CACHE_FORMAT_VERSION || entry.key !== key) return undefined;
        if (entry.resultSha256 !== sha256Hex(stableStringify(entry.result ?? null))) return undefined;
        const parsed = resultSchema.safeParse(entry.result);
        return parsed.success ? (entry.result as AnswerResult) : undefined;
      } catch {
        return undefined;
      }
    },
    async set(key, result) {
      const stored = { ...result, cached: false };
      const entry: CacheEntry = { format: CACHE_FORMAT, version: CACHE_FORMAT_VERSION, key, storedAt: new Date().toISOString(), result: stored, resultSha256: sha256Hex(stableStringify(stored)) };
      await writeFileAtomic(pathOf(key), JSON.stringify(entry));
    },
  };
}

/**
 * `generator` behind `cache`: a hit streams the stored answer as one token event and a
 * `done` event with `cached: true`; a miss runs the generator and stores its result. A
 * failed store (a full disk, a read-only folder) never fails the answer: the cache is an
 * optimisation, `onCacheError` hears about it.
 */
export function withAnswerCache(
  generator: Generator,
  cache: AnswerCache,
  context: AnswerCacheContext = {},
  onCacheError: (error: unknown) => void = () => undefined,
): Generator {
  async function* generate(request: GenerateRequest, options?: GenerateOptions): AsyncGenerator<GenerationEvent> {
    const key = answerCacheKey({
      ...context,
      question: request.question,
      generator: generator.identity,
      sources: request.sources,
      ...(request.unindexedWords ? { unindexedWords: request.unindexedWords } : {}),
      ...(request.rareWords ? { rareWords: request.rareWords } : {}),
    });
    const hit = await cache.get(key);
    if (hit) {
      if (hit.answer) yield { type: 'token', text: hit.answer };
      yield { type: 'done', result: { ...hit, cached: true } };
      return;
    }
    for await (const event of generator.generate(request, options)) {
      if (event.type === 'done') await cache.set(key, event.result).catch(onCacheError);
      yield event;
    }
  }
  return {
    name: generator.name,
    ...(generator.modelId !== undefined ? { modelId: generator.modelId } : {}),
    identity: generator.identity,
    generate,
    dispose: () => generator.dispose(),
  };
}
