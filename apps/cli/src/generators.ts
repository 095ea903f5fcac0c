import { RagError } from '@rag/core';
import type { GeneratorSettings } from '@rag/generation';
import { MODEL_DTYPES } from '@rag/models';
import { openAnswerGenerator, type OpenedGenerator } from '@rag/service';
import type { FlagSpec, ParsedFlags } from './args.js';
import { writeErr } from './command.js';
import { resolveUserPath } from './paths.js';

export const GENERATOR_FLAGS: FlagSpec[] = [
  { name: 'generator', type: 'string', metavar: 'NAME', description: 'extractive, qwen3, a hub model id (owner/name) or a model folder', defaultLabel: 'qwen3 if its model is on disk, else extractive' },
  { name: 'model_dir', type: 'string', metavar: 'DIR', description: 'Local model folder (no download)' },
  { name: 'max_new_tokens', type: 'integer', metavar: 'N', min: 1, max: 8192, description: 'Longest answer in tokens (LLM generators)', defaultLabel: '200' },
  { name: 'context_tokens', type: 'integer', metavar: 'N', min: 256, max: 131072, description: 'Prompt token budget for the sources (LLM generators)', defaultLabel: '2048' },
  { name: 'dtype', type: 'string', metavar: 'TYPE', description: 'Model weights: q4, q8, fp16, fp32 or auto (LLM generators)', defaultLabel: 'auto' },
  { name: 'no_cache', type: 'boolean', description: 'Do not read or write the answer cache' },
];

/** The generator the flags ask for, with the answer cache beside the index unless --no_cache. */
export function openGenerator(flags: ParsedFlags, indexDir: string, context: { k: number; retriever: string }): Promise<OpenedGenerator> {
  const settings: GeneratorSettings = {};
  if (flags.model_dir) settings.modelDir = resolveUserPath(flags.model_dir as string);
  if (flags.max_new_tokens) settings.maxNewTokens = flags.max_new_tokens as number;
  if (flags.context_tokens) settings.contextTokens = flags.context_tokens as number;
  if (flags.dtype) {
    // Checked whatever the generator: a typo must not pass silently because extractive ignores it.
    const valid = ['auto', ...MODEL_DTYPES];
    if (!valid.includes(flags.dtype as string)) {
      throw new RagError('INVALID_ARGUMENT', `--dtype ${String(flags.dtype)} is not a weight format.`, { hint: `Use one of: ${valid.join(', ')}.` });
    }
    settings.dtype = flags.dtype as GeneratorSettings['dtype'];
  }
  return openAnswerGenerator({
    name: flags.generator as string | undefined,
    settings,
    indexDir,
    noCache: flags.no_cache === true,
    context,
    onCacheError: (error) => writeErr(`warning: the answer could not be stored in the cache (${(error as Error).message}); it will be computed again next time.`, flags.quiet === true),
  });
}
