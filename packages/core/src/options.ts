import { z } from 'zod';
import { RagError } from './errors.js';

/**
 * The one way every package validates its options: a zod schema (objects `strict`, so a
 * misspelt key is refused rather than silently ignored) and one error shape,
 * `INVALID_ARGUMENT` with the option's full path, what it must be, what it got, and a hint.
 */

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

/** Strips optional/default/nullable wrappers to reach the schema that does the checking. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current: z.ZodType = schema;
  for (let i = 0; i < 8; i++) {
    const def = (current as unknown as { _zod: { def: { innerType?: z.ZodType; in?: z.ZodType } } })._zod.def;
    const inner = def.innerType ?? def.in;
    if (!inner) break;
    current = inner;
  }
  return current;
}

/** The keys the object schema at `path` accepts, or undefined when it is not an object. */
function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] | undefined {
  let current = unwrap(schema);
  for (const key of path) {
    const shape = (current as unknown as { shape?: Record<string, z.ZodType> }).shape;
    const next = shape?.[String(key)];
    if (!next) return undefined;
    current = unwrap(next);
  }
  const shape = (current as unknown as { shape?: Record<string, z.ZodType> }).shape;
  return shape ? Object.keys(shape) : undefined;
}

function joinPath(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

function requirementOf(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.expected === 'int' ? 'an integer' : `a ${issue.expected}`;
    case 'too_small':
      return `${issue.origin === 'number' ? 'a number' : 'a value'} ${issue.inclusive ? '≥' : '>'} ${String(issue.minimum)}`;
    case 'too_big':
      return `${issue.origin === 'number' ? 'a number' : 'a value'} ${issue.inclusive ? '≤' : '<'} ${String(issue.maximum)}`;
    case 'invalid_value':
      return `one of ${issue.values.map((v) => describeValue(v)).join(', ')}`;
    default:
      return issue.message;
  }
}

/**
 * `schema.parse(value)` with rag's error shape. `subject` names whose options these are
 * (`bm25`, `server`, …) in messages.
 */
export function parseOptions<S extends z.ZodType>(schema: S, value: unknown, subject: string): z.output<S> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const where = joinPath(issue.path);
    const keys = issue.keys.map((k) => (where ? `${where}.${k}` : k)).join(', ');
    const valid = keysAt(schema, issue.path);
    throw new RagError('INVALID_ARGUMENT', `Unknown ${subject} option ${keys}.`, {
      hint: valid ? `Valid keys${where ? ` of ${where}` : ''}: ${valid.join(', ')}.` : 'Remove it.',
    });
  }
  const where = joinPath(issue.path) || 'options';
  const requirement = requirementOf(issue);
  const got = describeValue(valueAt(value, issue.path));
  throw new RagError('INVALID_ARGUMENT', `${subject} option ${where} must be ${requirement} (got ${got}).`, {
    hint: `Pass ${where} as ${requirement}, or leave it out to use the default.`,
  });
}

/** An integer in [min, max]: the most common option shape. */
export function integerIn(min: number, max: number): z.ZodNumber {
  return z.number().int().min(min).max(max);
}

export { z };
