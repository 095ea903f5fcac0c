import type { Schema } from './validation.js';
import * as v from './validation.js';
import { RagError } from './errors.js';

/**
 * The one way every package validates its options: a schema of `schema.ts` (objects `strict`, so a
 * misspelt key is refused rather than silently ignored) and one error shape,
 * `INVALID_ARGUMENT` naming the option's full path, what it must be (read off the schema:
 * "a number in [0, 1]", "an integer ≥ 1", "true or false"), what it got, and a hint.
 */

export interface ParseOptionsContext {
  /** Whose options these are, for messages: `bm25`, `server`, `chunking`, … */
  subject: string;
  /** The name of the options object itself in paths (`settings`, `tokenizer`, `options`). Default `options`. */
  root?: string;
}

function describeValue(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'function') return 'a function';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** "a number in [0, 1]" for messages, "a number between 0 and 1" for hints. */
function rangeWords(requirement: string): string {
  return requirement.replace(/in ([[(])(-?[\d.e+]+), (-?[\d.e+]+)([\])])/, (_m, open: string, low: string, high: string, close: string) => {
    const ends = open === '[' && close === ']' ? '' : open === '(' && close === ']' ? `, above ${low}` : open === '[' ? `, below ${high}` : ', exclusive';
    return `between ${low} and ${high}${ends}`;
  });
}

function joinPath(root: string, path: readonly PropertyKey[]): string {
  return [root, ...path.map(String)].join('.');
}

/**
 * `schema.safeParse(value)` with rag's error shape: the first problem, with the option's path
 * from `root` (`settings.fields.body.b`), is a `RagError('INVALID_ARGUMENT')`.
 */
export function parseOptions<S extends Schema>(schema: S, value: unknown, context: ParseOptionsContext): v.output<S> {
  const result = schema.safeParse(value === undefined ? {} : value);
  if (result.success) return result.data;
  const root = context.root ?? 'options';
  const issue = result.issues[0]!;
  if (issue.code === 'unknown_keys') {
    const where = joinPath(root, issue.path);
    const keys = (issue.keys ?? []).map((k) => `${where}.${k}`).join(', ');
    throw new RagError('INVALID_ARGUMENT', `Unknown ${context.subject} option ${keys}.`, {
      hint: issue.validKeys ? `Valid keys${issue.path.length > 0 ? ` of ${where}` : ''}: ${issue.validKeys.join(', ')}.` : 'Remove it.',
    });
  }
  throw optionError(context, issue.path, issue.message, valueAt(value, issue.path));
}

/**
 * The error of an option that breaks a rule a schema cannot state alone (a bound that
 * depends on another option): the same shape as {@link parseOptions}' errors.
 */
export function optionError(context: ParseOptionsContext, path: readonly PropertyKey[], requirement: string, got: unknown): RagError {
  const where = joinPath(context.root ?? 'options', path);
  return new RagError('INVALID_ARGUMENT', `${context.subject} option ${where} must be ${requirement} (got ${describeValue(got)}).`, {
    hint: `Pass ${where} as ${rangeWords(requirement)}, or leave it out to use the default.`,
  });
}

/** An integer in [min, max]: the most common option shape. */
export function integerIn(min: number, max: number): Schema<number> {
  return v.int().check(v.minimum(min), v.maximum(max));
}

