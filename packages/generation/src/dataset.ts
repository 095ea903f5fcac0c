import { readFile, rm } from 'node:fs/promises';
import { RagError, writeFileAtomic, type ProgressEvent, type SearchResult, type SearchResults, type Source } from '@rag/core';
import { answer } from './answer.js';
import { withAnswerCache, type AnswerCache } from './cache.js';
import { cancelledError } from './errors.js';
import { sha256Hex, stableStringify } from './hash.js';
import type { Generator, SourceForAnswer } from './types.js';

const CHECKPOINT_FORMAT = 'rag-answer-checkpoint';
const CHECKPOINT_VERSION = 1;
/** The checkpoint is rewritten at most this often while answering (and always at the end). */
export const DEFAULT_CHECKPOINT_INTERVAL_MS = 2_000;

/** Progress of a dataset run: phase `answer`, done/total questions, and rates. */
export interface AnswerProgress extends ProgressEvent {
  phase: 'answer';
  /** Questions taken from a checkpoint instead of being answered again. */
  resumed: number;
  /** Questions answered per second in this run (resumed ones not counted). */
  questionsPerSecond: number;
  /** Generated tokens per second in this run (extractive: words per second). */
  tokensPerSecond: number;
  generatedTokens: number;
  elapsedMs: number;
}

/** Text of a retrieved span; a bare string gives a source without line numbers or symbol. */
export type SpanReader = (source: Source) => Promise<string | SourceForAnswer> | string | SourceForAnswer;

export interface AnswerDatasetOptions {
  generator: Generator;
  /** Reads each retrieved span (the CLI reads it from the corpus or the index). */
  readSpan: SpanReader;
  /** Answer from at most the first k sources of each question. Default: the file's `k`, else all. */
  k?: number;
  /**
   * Where progress is saved so an interrupted run resumes: written atomically every
   * `checkpointIntervalMs` and when the run stops. No checkpoint when left out.
   */
  checkpointPath?: string;
  /** Milliseconds between checkpoint writes, ≥ 0. Default {@link DEFAULT_CHECKPOINT_INTERVAL_MS} (2000). */
  checkpointIntervalMs?: number;
  /** Answers are looked up and stored here when given. */
  cache?: AnswerCache;
  /** Retriever name, recorded in cache keys. */
  retriever?: string;
  /**
   * The words of a question the indexed corpus never holds (`Retriever.unindexedWords` of the
   * index the results came from), passed to the generator with each question. Left out:
   * the generator is not told.
   */
  unindexedWords?: (question: string) => Promise<readonly string[]>;
  /** The words of a question the corpus barely holds (`Retriever.rareWords`), as {@link unindexedWords}. */
  rareWords?: (question: string) => Promise<readonly string[]>;
  onProgress?: (progress: AnswerProgress) => void;
  /** Aborting saves the checkpoint and throws `CANCELLED`. */
  signal?: AbortSignal;
}

export interface AnswerDatasetResult {
  /** The input with `answer` set on every search result. */
  output: SearchResults;
  /** Questions whose answers came from the checkpoint. */
  resumed: number;
  /** Questions answered in this run. */
  answered: number;
  generatedTokens: number;
  elapsedMs: number;
}

interface Checkpoint {
  format: typeof CHECKPOINT_FORMAT;
  version: number;
  fingerprint: string;
  /** Answers by position in `search_results`. */
  answers: Record<string, string>;
}

/** Identifies a run: the same questions, sources and generator resume; anything else starts over. */
function runFingerprint(results: SearchResults, generator: Generator, k: number | undefined, toldUnindexed: boolean, toldRare: boolean): string {
  const questions = results.search_results.map((r) => [r.question_id, r.question ?? '', r.retrieved_sources]);
  return sha256Hex(stableStringify({ v: CHECKPOINT_VERSION, generator: generator.identity, k: k ?? null, questions, ...(toldUnindexed ? { unindexed: true } : {}), ...(toldRare ? { rare: true } : {}) }));
}

async function readCheckpoint(path: string, fingerprint: string): Promise<Map<number, string>> {
  let checkpoint: Partial<Checkpoint>;
  try {
    checkpoint = JSON.parse(await readFile(path, 'utf8')) as Partial<Checkpoint>;
  } catch {
    return new Map();
  }
  if (checkpoint.format !== CHECKPOINT_FORMAT || checkpoint.version !== CHECKPOINT_VERSION || checkpoint.fingerprint !== fingerprint) return new Map();
  return new Map(Object.entries(checkpoint.answers ?? {}).map(([index, text]) => [Number(index), String(text)]));
}

async function writeCheckpoint(path: string, fingerprint: string, answers: ReadonlyMap<number, string>): Promise<void> {
  const checkpoint: Checkpoint = { format: CHECKPOINT_FORMAT, version: CHECKPOINT_VERSION, fingerprint, answers: Object.fromEntries(answers) };
  await writeFileAtomic(path, JSON.stringify(checkpoint));
}

function toSourceForAnswer(source: Source, read: string | SourceForAnswer): SourceForAnswer {
  if (typeof read !== 'string') return read;
  return { ...source, start_line: 0, end_line: 0, symbol: '', text: read };
}

function effectiveK(results: SearchResults, k: number | undefined): number | undefined {
  const value = k ?? results.k;
  if (value !== undefined && (!Number.isInteger(value) || value < 1)) {
    throw new RagError('INVALID_ARGUMENT', `k must be a positive integer; got ${String(value)}.`, { hint: 'Pass --k 1 or more.' });
  }
  return value;
}

/**
 * Answers every question of a search-results file with `generator`, in order, and returns
 * the file with an `answer` on each result (the with-answers format). Resumes from
 * `checkpointPath` when it holds answers of the same run.
 */
export async function answerDataset(results: SearchResults, options: AnswerDatasetOptions): Promise<AnswerDatasetResult> {
  const k = effectiveK(results, options.k);
  const fingerprint = runFingerprint(results, options.generator, k, options.unindexedWords !== undefined, options.rareWords !== undefined);
  const answers = options.checkpointPath ? await readCheckpoint(options.checkpointPath, fingerprint) : new Map<number, string>();
  const total = results.search_results.length;
  for (const index of answers.keys()) if (index < 0 || index >= total) answers.delete(index);
  const resumed = answers.size;
  const generator = options.cache ? withAnswerCache(options.generator, options.cache, { ...(k !== undefined ? { k } : {}), ...(options.retriever ? { retriever: options.retriever } : {}) }) : options.generator;
  const interval = options.checkpointIntervalMs ?? DEFAULT_CHECKPOINT_INTERVAL_MS;
  const started = performance.now();
  let lastSave = started;
  let answered = 0;
  let generatedTokens = 0;
  const report = () => {
    const elapsedMs = performance.now() - started;
    const seconds = Math.max(elapsedMs / 1000, 1e-9);
    options.onProgress?.({ phase: 'answer', done: answers.size, total, resumed, questionsPerSecond: answered / seconds, tokensPerSecond: generatedTokens / seconds, generatedTokens, elapsedMs });
  };
  const save = async () => {
    if (options.checkpointPath) await writeCheckpoint(options.checkpointPath, fingerprint, answers);
    lastSave = performance.now();
  };
  report();
  try {
    for (let index = 0; index < total; index++) {
      if (answers.has(index)) continue;
      if (options.signal?.aborted) throw cancelledError();
      const entry = results.search_results[index]!;
      const retrieved = k === undefined ? entry.retrieved_sources : entry.retrieved_sources.slice(0, k);
      const sources = await Promise.all(retrieved.map(async (s) => toSourceForAnswer(s, await options.readSpan(s))));
      const question = entry.question ?? '';
      const unindexedWords = options.unindexedWords ? await options.unindexedWords(question) : undefined;
      const rareWords = options.rareWords ? await options.rareWords(question) : undefined;
      const request = { question, sources, ...(unindexedWords ? { unindexedWords } : {}), ...(rareWords ? { rareWords } : {}) };
      const result = await answer(generator, request, options.signal ? { signal: options.signal } : {});
      answers.set(index, result.answer);
      answered++;
      if (!result.cached) generatedTokens += result.generatedTokens;
      if (performance.now() - lastSave >= interval) await save();
      report();
    }
  } catch (error) {
    await save();
    throw error;
  }
  await save();
  const searchResults: SearchResult[] = results.search_results.map((entry, index) => ({ ...entry, answer: answers.get(index)! }));
  return { output: { ...results, search_results: searchResults }, resumed, answered, generatedTokens, elapsedMs: performance.now() - started };
}

/** Checkpoint file used by `answerDatasetToFile` for `outputPath`: a sibling. */
export function checkpointPathFor(outputPath: string): string {
  return `${outputPath}.checkpoint.json`;
}

/**
 * `answerDataset`, then the output written atomically to `outputPath` (two-space JSON) and
 * the checkpoint (default {@link checkpointPathFor}) removed. An interrupted run leaves
 * the checkpoint; the next run with the same inputs resumes from it.
 */
export async function answerDatasetToFile(results: SearchResults, outputPath: string, options: AnswerDatasetOptions): Promise<AnswerDatasetResult> {
  const checkpointPath = options.checkpointPath ?? checkpointPathFor(outputPath);
  const result = await answerDataset(results, { ...options, checkpointPath });
  await writeFileAtomic(outputPath, `${JSON.stringify(result.output, null, 2)}\n`);
  await rm(checkpointPath, { force: true });
  return result;
}
