import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTinyBertModel, type TinyModelOptions } from './tiny-model.js';

/** Words of the tiny models' vocabulary: enough to write test sentences. */
export const TINY_WORDS = [
  'the', 'a', 'of', 'to', 'and', 'is', 'in', 'for', 'with', 'how', 'what', 'does',
  'cache', 'caching', 'memory', 'gpu', 'block', 'blocks', 'kv', 'page', 'paged', 'attention',
  'server', 'http', 'endpoint', 'request', 'requests', 'load', 'adapter', 'lora', 'model', 'models',
  'token', 'tokens', 'batch', 'scheduler', 'schedule', 'queue', 'sampling', 'temperature',
  'install', 'pip', 'docker', 'image', 'build', 'test', 'quantization', 'fp8', 'int8', 'weights',
  '##s', '##ing', '##ed', '.', ',', '/', '_', 'py',
];

export interface ModelFixture {
  root: string;
  /** Folder of the default tiny model (seed 1, 64 positions). */
  modelDir: string;
  /** A model of the same shape and vocabulary with other weights (seed 2). */
  otherModelDir: string;
  /** A tiny model with a 12-token limit, for windowing. */
  shortModelDir: string;
  cleanup(): Promise<void>;
}

/** Writes the tiny models of the tests into a fresh temporary folder. */
export async function createModelFixture(extra: Partial<TinyModelOptions> = {}): Promise<ModelFixture> {
  const root = await mkdtemp(join(tmpdir(), 'rag-embedding-models-'));
  const modelDir = join(root, 'tiny-bert');
  const otherModelDir = join(root, 'other', 'tiny-bert');
  const shortModelDir = join(root, 'tiny-bert-short');
  await writeTinyBertModel(modelDir, { words: TINY_WORDS, ...extra });
  await writeTinyBertModel(otherModelDir, { words: TINY_WORDS, seed: 2, ...extra });
  await writeTinyBertModel(shortModelDir, { words: TINY_WORDS, maxPositions: 12, ...extra });
  return { root, modelDir, otherModelDir, shortModelDir, cleanup: () => rm(root, { recursive: true, force: true }) };
}
