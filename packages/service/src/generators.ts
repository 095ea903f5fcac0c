import { isPostgresUrl } from './stores.js';
import { dirname, join } from 'node:path';
import {
  chooseDefaultGenerator,
  createAnswerCache,
  createGeneratorRegistry,
  withAnswerCache,
  type Generator,
  type GeneratorSettings,
} from '@rag/generation';

export interface AnswerGeneratorOptions {
  /** Generator name, hub id or model folder. Default: `qwen3` when its model is on disk, else `extractive`. */
  name?: string | undefined;
  settings?: GeneratorSettings;
  /** The index the answers are about; the answer cache lives beside it. */
  indexDir: string;
  /** Skip the answer cache. Default `false`. */
  noCache?: boolean;
  /** What the cache key records besides the sources: how many were retrieved, and by what. */
  context: { k: number; retriever: string };
  /** Told when an answer could not be stored in the cache (the answer itself still stands). */
  onCacheError?: (error: unknown) => void;
}

export interface OpenedGenerator {
  generator: Generator;
  name: string;
}

/**
 * Where answers for the index in `indexDir` are cached: beside it, so re-indexing keeps them;
 * for an index in a database, in `.rag/answer-cache` of the working directory.
 */
export function answerCacheDir(indexDir: string): string {
  if (isPostgresUrl(indexDir)) return join(process.cwd(), '.rag', 'answer-cache');
  return join(dirname(indexDir), 'answer-cache');
}

/**
 * Creates the generator asked for, wrapped in the on-disk answer cache. The cache lives
 * beside the index, not inside it, so re-indexing does not wipe it; its keys include every
 * source's content hash, so answers from changed files are never reused.
 */
export async function openAnswerGenerator(options: AnswerGeneratorOptions): Promise<OpenedGenerator> {
  const settings = options.settings ?? {};
  const name = options.name ?? (settings.modelDir ? settings.modelDir : chooseDefaultGenerator(settings));
  const generator = await createGeneratorRegistry().create(name, settings);
  if (options.noCache) return { generator, name };
  return { generator: withAnswerCache(generator, createAnswerCache(answerCacheDir(options.indexDir)), options.context, options.onCacheError), name };
}
