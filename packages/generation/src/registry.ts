import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { RagError } from '@rag/core';
import { createExtractiveGenerator, EXTRACTIVE_GENERATOR_NAME } from './extractive/generator.js';
import type { ExtractiveOptions } from './extractive/options.js';
import { isHubModelId } from '@rag/models';
import { isModelOnDisk, QWEN3_MODEL_ID } from './model-source.js';
import { createTransformersGenerator, type TransformersGeneratorOptions } from './transformers-generator.js';
import type { Generator } from './types.js';

export const QWEN3_GENERATOR_NAME = 'qwen3';

/** The generator used when none is named and no LLM is on disk: it needs no model. */
export const DEFAULT_GENERATOR = EXTRACTIVE_GENERATOR_NAME;

/** Settings for any generator; each uses the fields that concern it and ignores the rest. */
export interface GeneratorSettings extends ExtractiveOptions, Omit<TransformersGeneratorOptions, 'model' | 'name'> {}

export interface GeneratorInfo {
  name: string;
  description: string;
}

export interface GeneratorRegistry {
  /** The named generators (`extractive`, `qwen3`); any hub id or model folder works as well. */
  names(): string[];
  describe(): GeneratorInfo[];
  /**
   * The generator called `name`: `extractive`; `qwen3` ({@link QWEN3_MODEL_ID}, or the
   * folder in `settings.modelDir`); a model folder path; or a hub model id `owner/name`.
   * Throws `UNKNOWN_NAME` for anything else and `MODEL_NOT_FOUND` when the model is
   * neither on disk nor downloadable.
   */
  create(name: string, settings?: GeneratorSettings): Promise<Generator>;
}

const BUILTINS: readonly GeneratorInfo[] = [
  { name: EXTRACTIVE_GENERATOR_NAME, description: 'quotes the most relevant retrieved sentences and lines with citations; needs no model' },
  { name: QWEN3_GENERATOR_NAME, description: `${QWEN3_MODEL_ID} through transformers.js on the CPU (downloaded once, or --model_dir)` },
];

function looksLikePath(name: string): boolean {
  return name.startsWith('.') || name.startsWith('/') || name.startsWith('~') || /^[A-Za-z]:[\\/]/.test(name) || name.includes('\\');
}

function extractiveOptions(settings: GeneratorSettings): ExtractiveOptions {
  const options: ExtractiveOptions = {};
  if (settings.maxQuotes !== undefined) options.maxQuotes = settings.maxQuotes;
  if (settings.maxAnswerChars !== undefined) options.maxAnswerChars = settings.maxAnswerChars;
  if (settings.minRelativeScore !== undefined) options.minRelativeScore = settings.minRelativeScore;
  return options;
}

export function createGeneratorRegistry(): GeneratorRegistry {
  return {
    names: () => BUILTINS.map((b) => b.name),
    describe: () => BUILTINS.map((b) => ({ ...b })),
    async create(name, settings = {}) {
      if (name === EXTRACTIVE_GENERATOR_NAME) return createExtractiveGenerator(extractiveOptions(settings));
      if (name === QWEN3_GENERATOR_NAME) return createTransformersGenerator({ ...settings, model: QWEN3_MODEL_ID, name: QWEN3_GENERATOR_NAME });
      // A folder on disk wins over a hub id of the same spelling (`models/qwen`).
      if (looksLikePath(name) || (name.includes('/') && existsSync(resolve(name)))) {
        return createTransformersGenerator({ ...settings, modelDir: name, name });
      }
      if (isHubModelId(name)) return createTransformersGenerator({ ...settings, model: name, name });
      throw new RagError('UNKNOWN_NAME', `Unknown generator "${name}".`, {
        hint: `Use ${BUILTINS.map((b) => b.name).join(' or ')}, a hub model id (owner/name) or a model folder path.`,
      });
    },
  };
}

/**
 * The generator to use when the user names none: `qwen3` when its model is on disk (a
 * `modelDir`, or a complete download in the cache), else {@link DEFAULT_GENERATOR}.
 * Never touches the network.
 */
export function chooseDefaultGenerator(options: Pick<GeneratorSettings, 'modelDir' | 'cacheDir' | 'dtype'> = {}): string {
  return isModelOnDisk({ ...options, model: QWEN3_MODEL_ID }) ? QWEN3_GENERATOR_NAME : DEFAULT_GENERATOR;
}
