import { dirname, join } from 'node:path';
import {
  chooseDefaultGenerator,
  createAnswerCache,
  createGeneratorRegistry,
  withAnswerCache,
  type Generator,
  type GeneratorSettings,
} from '@rag/generation';
import type { FlagSpec, ParsedFlags } from './args.js';
import { resolveUserPath } from './paths.js';

export const GENERATOR_FLAGS: FlagSpec[] = [
  { name: 'generator', type: 'string', metavar: 'NAME', description: 'extractive, qwen3, a hub model id (owner/name) or a model folder', defaultLabel: 'qwen3 if its model is on disk, else extractive' },
  { name: 'model_dir', type: 'string', metavar: 'DIR', description: 'Local model folder (no download)' },
  { name: 'max_new_tokens', type: 'integer', metavar: 'N', min: 1, max: 8192, description: 'Longest answer in tokens (LLM generators)', defaultLabel: '200' },
  { name: 'context_tokens', type: 'integer', metavar: 'N', min: 256, max: 131072, description: 'Prompt token budget for the sources (LLM generators)', defaultLabel: '2048' },
  { name: 'dtype', type: 'string', metavar: 'TYPE', description: 'Model weights: q4, q8, fp16, fp32 or auto (LLM generators)', defaultLabel: 'auto' },
  { name: 'no_cache', type: 'boolean', description: 'Do not read or write the answer cache' },
];

export interface OpenedGenerator {
  generator: Generator;
  name: string;
}

/**
 * Creates the generator the flags ask for, wrapped in the on-disk answer cache. The cache
 * lives beside the index, not inside it, so re-indexing does not wipe it; its keys include
 * every source's content hash, so answers from changed files are never reused.
 */
export async function openGenerator(flags: ParsedFlags, indexDir: string, context: { k: number; retriever: string }): Promise<OpenedGenerator> {
  const settings: GeneratorSettings = {};
  if (flags.model_dir) settings.modelDir = resolveUserPath(flags.model_dir as string);
  if (flags.max_new_tokens) settings.maxNewTokens = flags.max_new_tokens as number;
  if (flags.context_tokens) settings.contextTokens = flags.context_tokens as number;
  if (flags.dtype) settings.dtype = flags.dtype as GeneratorSettings['dtype'];
  const name = (flags.generator as string | undefined) ?? (settings.modelDir ? settings.modelDir : chooseDefaultGenerator(settings));
  const generator = await createGeneratorRegistry().create(name, settings);
  if (flags.no_cache) return { generator, name };
  const cache = createAnswerCache(join(dirname(indexDir), 'answer-cache'));
  return { generator: withAnswerCache(generator, cache, context), name };
}
