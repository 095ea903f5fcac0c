import { RagError } from '@rag/core';
import { DEFAULT_RERANK_OPTIONS, type RerankOptions } from './rerank/options.js';
import {
  DEFAULT_QUERY_OPTIONS,
  DEFAULT_TOKENIZER_OPTIONS,
  type QueryOptions,
  type TokenizerOptions,
} from './tokenizer/options.js';

/** The fields of a chunk that are indexed separately (BM25F). */
export const FIELD_NAMES = ['body', 'path', 'symbol'] as const;
export type FieldName = (typeof FIELD_NAMES)[number];

export interface FieldOptions {
  /** How much one occurrence in this field counts against one in the body; ≥ 0 (0 ignores the field). */
  weight: number;
  /** Length normalisation of this field, in [0, 1]: 0 ignores length, 1 divides by relative length fully. */
  b: number;
}

export interface Bm25Options {
  /** Term-frequency saturation, > 0: higher lets repeated terms keep adding score. Default `1.2`. */
  k1: number;
  /**
   * Per-field weight and b. `body` is the chunk text (default weight 1, b 0.75); `path`
   * the directory and file-name words of `file_path` plus its dotted module name
   * (default weight 1, b 0.3); `symbol` the chunk's qualified symbol or heading path
   * (default weight 3, b 0.3).
   */
  fields: Record<FieldName, FieldOptions>;
  tokenizer: TokenizerOptions;
  query: QueryOptions;
  context: ContextOptions;
  rerank: RerankOptions;
}

/** What is indexed with a chunk besides its own text, path and symbol. */
export interface ContextOptions {
  /**
   * Index the header row of a Markdown table with each later chunk of the same section
   * that continues the table (in its symbol field, not its text or span): the column
   * names ("LoRA", "Tensor parallel") say what the rows' check marks mean. Default `true`.
   */
  tableHeaders: boolean;
}

export const DEFAULT_CONTEXT_OPTIONS: Readonly<ContextOptions> = Object.freeze({ tableHeaders: true });

/** What callers may pass (e.g. as `BuildContext.settings`): any subset; `b` is shorthand for `fields.body.b`. */
export interface Bm25Settings {
  k1?: number;
  b?: number;
  fields?: { [F in FieldName]?: Partial<FieldOptions> };
  tokenizer?: Partial<TokenizerOptions>;
  query?: Partial<QueryOptions>;
  context?: Partial<ContextOptions>;
  rerank?: Partial<RerankOptions>;
}

export const DEFAULT_BM25_OPTIONS: Readonly<Bm25Options> = Object.freeze({
  k1: 1.2,
  fields: Object.freeze({
    body: Object.freeze({ weight: 1, b: 0.75 }),
    path: Object.freeze({ weight: 1, b: 0.3 }),
    symbol: Object.freeze({ weight: 3, b: 0.3 }),
  }),
  tokenizer: DEFAULT_TOKENIZER_OPTIONS,
  query: DEFAULT_QUERY_OPTIONS,
  context: DEFAULT_CONTEXT_OPTIONS,
  rerank: DEFAULT_RERANK_OPTIONS,
});

function invalid(path: string, requirement: string, value: unknown): RagError {
  return new RagError('INVALID_ARGUMENT', `bm25 setting ${path} must be ${requirement} (got ${typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value))}).`, {
    hint: `Pass ${path} as ${requirement}, or leave it out to use the default.`,
  });
}

function checkKeys(value: unknown, path: string, allowed: readonly string[]): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(path, 'an object', value);
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      throw new RagError('INVALID_ARGUMENT', `Unknown bm25 setting ${path === 'settings' ? key : `${path}.${key}`}.`, {
        hint: `Valid keys${path === 'settings' ? '' : ` of ${path}`}: ${allowed.join(', ')}.`,
      });
    }
  }
  return value as Record<string, unknown>;
}

function readNumber(
  source: Record<string, unknown>,
  key: string,
  path: string,
  fallback: number,
  accept: (n: number) => boolean,
  requirement: string,
): number {
  const value = source[key];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || !accept(value)) throw invalid(`${path}.${key}`, requirement, value);
  return value;
}

function readBoolean(source: Record<string, unknown>, key: string, path: string, fallback: boolean): boolean {
  const value = source[key];
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw invalid(`${path}.${key}`, 'true or false', value);
  return value;
}

const isPositive = (n: number): boolean => n > 0;
const isNonNegative = (n: number): boolean => n >= 0;
const isUnit = (n: number): boolean => n >= 0 && n <= 1;
const isCount = (n: number): boolean => Number.isInteger(n) && n >= 1;
const isWeight = (n: number): boolean => n >= 0 && n <= 10;

/** Validated tokenizer options; `path` names the object in error messages. */
export function resolveTokenizerOptions(value: unknown = {}, path = 'tokenizer'): TokenizerOptions {
  const d = DEFAULT_TOKENIZER_OPTIONS;
  const source = checkKeys(value, path, Object.keys(d));
  const minTokenLength = readNumber(source, 'minTokenLength', path, d.minTokenLength, isCount, 'an integer ≥ 1');
  const maxTokenLength = readNumber(
    source,
    'maxTokenLength',
    path,
    Math.max(d.maxTokenLength, minTokenLength),
    (n) => isCount(n) && n >= minTokenLength,
    `an integer ≥ minTokenLength (${minTokenLength})`,
  );
  return {
    splitIdentifiers: readBoolean(source, 'splitIdentifiers', path, d.splitIdentifiers),
    splitDigits: readBoolean(source, 'splitDigits', path, d.splitDigits),
    dottedNames: readBoolean(source, 'dottedNames', path, d.dottedNames),
    stopwords: readBoolean(source, 'stopwords', path, d.stopwords),
    stem: readBoolean(source, 'stem', path, d.stem),
    derivations: readBoolean(source, 'derivations', path, d.derivations),
    minTokenLength,
    maxTokenLength,
  };
}

/** Validated query options; `path` names the object in error messages. */
export function resolveQueryOptions(value: unknown = {}, path = 'query'): QueryOptions {
  const d = DEFAULT_QUERY_OPTIONS;
  const source = checkKeys(value, path, Object.keys(d));
  return {
    dropQuestionWords: readBoolean(source, 'dropQuestionWords', path, d.dropQuestionWords),
    subwordWeight: readNumber(source, 'subwordWeight', path, d.subwordWeight, isUnit, 'a number in [0, 1]'),
    aliases: readBoolean(source, 'aliases', path, d.aliases),
    abbreviations: readNumber(source, 'abbreviations', path, d.abbreviations, isUnit, 'a number in [0, 1]'),
  };
}

/** Validated context options; `path` names the object in error messages. */
export function resolveContextOptions(value: unknown = {}, path = 'context'): ContextOptions {
  const source = checkKeys(value, path, Object.keys(DEFAULT_CONTEXT_OPTIONS));
  return { tableHeaders: readBoolean(source, 'tableHeaders', path, DEFAULT_CONTEXT_OPTIONS.tableHeaders) };
}

/** Validated second-stage options; `path` names the object in error messages. */
export function resolveRerankOptions(value: unknown = {}, path = 'rerank'): RerankOptions {
  const d = DEFAULT_RERANK_OPTIONS;
  const source = checkKeys(value, path, Object.keys(d));
  const weight = (key: 'proximity' | 'coverage' | 'modality' | 'definition' | 'explanation' | 'sectionSupport'): number => readNumber(source, key, path, d[key], isWeight, 'a number in [0, 10]');
  return {
    depth: readNumber(source, 'depth', path, d.depth, (n) => Number.isInteger(n) && n >= 0, 'an integer ≥ 0'),
    proximity: weight('proximity'),
    coverage: weight('coverage'),
    proximityWindow: readNumber(source, 'proximityWindow', path, d.proximityWindow, (n) => isCount(n) && n <= 50, 'an integer in [1, 50]'),
    modality: weight('modality'),
    auxiliaryFactor: readNumber(source, 'auxiliaryFactor', path, d.auxiliaryFactor, (n) => n > 0 && n <= 1, 'a number in (0, 1]'),
    definition: weight('definition'),
    explanation: weight('explanation'),
    sectionSupport: weight('sectionSupport'),
    dedupe: readBoolean(source, 'dedupe', path, d.dedupe),
  };
}

/**
 * Complete, validated options from user settings (unknown keys are refused, so a typo
 * never silently falls back to a default). Throws `RagError('INVALID_ARGUMENT')` naming
 * the offending field.
 */
export function resolveBm25Options(settings: unknown = {}): Bm25Options {
  const source = checkKeys(settings, 'settings', ['k1', 'b', 'fields', 'tokenizer', 'query', 'context', 'rerank']);
  const k1 = readNumber(source, 'k1', 'settings', DEFAULT_BM25_OPTIONS.k1, isPositive, 'a number > 0');
  const bodyB = readNumber(source, 'b', 'settings', DEFAULT_BM25_OPTIONS.fields.body.b, isUnit, 'a number in [0, 1]');
  const fieldSettings = checkKeys(source.fields ?? {}, 'settings.fields', FIELD_NAMES);
  const fields = {} as Record<FieldName, FieldOptions>;
  for (const name of FIELD_NAMES) {
    const path = `settings.fields.${name}`;
    const field = checkKeys(fieldSettings[name] ?? {}, path, ['weight', 'b']);
    const defaults = DEFAULT_BM25_OPTIONS.fields[name];
    fields[name] = {
      weight: readNumber(field, 'weight', path, defaults.weight, isNonNegative, 'a number ≥ 0'),
      b: readNumber(field, 'b', path, name === 'body' ? bodyB : defaults.b, isUnit, 'a number in [0, 1]'),
    };
  }
  if (FIELD_NAMES.every((name) => fields[name].weight === 0)) {
    throw new RagError('INVALID_ARGUMENT', 'bm25 settings give every field weight 0, so nothing could match.', {
      hint: 'Give at least one of settings.fields.body/path/symbol a weight > 0.',
    });
  }
  return {
    k1,
    fields,
    tokenizer: resolveTokenizerOptions(source.tokenizer ?? {}, 'settings.tokenizer'),
    query: resolveQueryOptions(source.query ?? {}, 'settings.query'),
    context: resolveContextOptions(source.context ?? {}, 'settings.context'),
    rerank: resolveRerankOptions(source.rerank ?? {}, 'settings.rerank'),
  };
}
