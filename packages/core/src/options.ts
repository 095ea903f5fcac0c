import * as z from 'zod/mini';
import { RagError } from './errors.js';

/**
 * The one way every package validates its options: a zod schema (objects `strict`, so a
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

interface Def {
  type: string;
  innerType?: z.ZodMiniType;
  in?: z.ZodMiniType;
  checks?: { _zod: { def: Record<string, unknown> } }[];
  /** Set on `z.int()` (`safeint`) and the other number formats. */
  format?: string;
  shape?: Record<string, z.ZodMiniType>;
  entries?: Record<string, unknown>;
  values?: unknown[];
}

function defOf(schema: z.ZodMiniType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
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

/** Strips optional/default/nullable/pipe wrappers to reach the schema that does the checking. */
function unwrap(schema: z.ZodMiniType): z.ZodMiniType {
  let current = schema;
  for (let i = 0; i < 8; i++) {
    const def = defOf(current);
    const inner = def.innerType ?? def.in;
    if (!inner) break;
    current = inner;
  }
  return current;
}

/** The schema at `path` inside `schema`, or undefined when the path leaves the declared shape. */
function schemaAt(schema: z.ZodMiniType, path: readonly PropertyKey[]): z.ZodMiniType | undefined {
  let current: z.ZodMiniType | undefined = unwrap(schema);
  for (const key of path) {
    if (!current) return undefined;
    const def = defOf(current) as Def & { valueType?: z.ZodMiniType };
    const shape = (current as unknown as { shape?: Record<string, z.ZodMiniType> }).shape;
    // An object's field by name; a record's (or list's) values under any key.
    const next: z.ZodMiniType | undefined = shape ? shape[String(key)] : def.type === 'record' ? def.valueType : undefined;
    if (!next) return undefined;
    current = unwrap(next);
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

function describeNumber(def: Def): string {
  const kind = def.format?.includes('int') ? 'an integer' : 'a number';
  let low: { value: number; inclusive: boolean } | undefined;
  let high: { value: number; inclusive: boolean } | undefined;
  for (const check of def.checks ?? []) {
    const c = check._zod.def;
    if (c.check === 'greater_than') low = { value: c.value as number, inclusive: c.inclusive as boolean };
    if (c.check === 'less_than') high = { value: c.value as number, inclusive: c.inclusive as boolean };
  }
  if (low && high) return `${kind} in ${low.inclusive ? '[' : '('}${low.value}, ${high.value}${high.inclusive ? ']' : ')'}`;
  if (low) return `${kind} ${low.inclusive ? '≥' : '>'} ${low.value}`;
  if (high) return `${kind} ${high.inclusive ? '≤' : '<'} ${high.value}`;
  return kind;
}

/** `"a", "b" or "c"`. */
function listChoices(values: readonly unknown[]): string {
  const shown = values.map((v) => describeValue(v));
  return shown.length <= 1 ? (shown[0] ?? 'nothing') : `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}`;
}

/** What a value of `schema` must be, in words. */
function describeSchema(schema: z.ZodMiniType): string | undefined {
  const def = defOf(schema);
  switch (def.type) {
    case 'number':
      return describeNumber(def);
    case 'boolean':
      return 'true or false';
    case 'string':
      return (def.checks ?? []).some((c) => c._zod.def.check === 'min_length') ? 'a non-empty string' : 'a string';
    case 'object':
    case 'record':
      return 'an object';
    case 'array':
      return 'a list';
    case 'enum':
      return listChoices(Object.values(def.entries ?? {}));
    case 'literal':
      return listChoices(def.values ?? []);
    default:
      return undefined;
  }
}

function joinPath(root: string, path: readonly PropertyKey[]): string {
  return [root, ...path.map(String)].join('.');
}

/**
 * `schema.parse(value)` with rag's error shape: the first problem, with the option's path
 * from `root` (`settings.fields.body.b`), is a `RagError('INVALID_ARGUMENT')`.
 */
export function parseOptions<S extends z.ZodMiniType>(schema: S, value: unknown, context: ParseOptionsContext): z.output<S> {
  const result = schema.safeParse(value === undefined ? {} : value);
  if (result.success) return result.data;
  const root = context.root ?? 'options';
  const issue = result.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const where = joinPath(root, issue.path);
    const keys = issue.keys.map((k) => `${where}.${k}`).join(', ');
    const shape = (schemaAt(schema, issue.path) as unknown as { shape?: Record<string, unknown> } | undefined)?.shape;
    throw new RagError('INVALID_ARGUMENT', `Unknown ${context.subject} option ${keys}.`, {
      hint: shape ? `Valid keys${issue.path.length > 0 ? ` of ${where}` : ''}: ${Object.keys(shape).join(', ')}.` : 'Remove it.',
    });
  }
  // A refinement's message is the requirement; otherwise the schema says what is allowed.
  const at = schemaAt(schema, issue.path);
  const requirement = issue.code === 'custom' || issue.code === 'invalid_format' ? issue.message : ((at && describeSchema(at)) ?? issue.message);
  throw optionError(context, issue.path, requirement, valueAt(value, issue.path));
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
export function integerIn(min: number, max: number): z.ZodMiniNumberFormat {
  return z.int().check(z.minimum(min), z.maximum(max));
}

