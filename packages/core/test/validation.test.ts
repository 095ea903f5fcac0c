import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { integerIn, parseOptions, RagError, v } from '../src/index.js';

/** The first problem's path and message, or 'ok'. */
function firstIssue(schema: v.Schema, value: unknown): string {
  const result = schema.safeParse(value);
  if (result.success) return 'ok';
  const [issue] = result.issues;
  return `${issue!.path.join('.')}: ${issue!.code} ${issue!.message}`;
}

describe('schema: leaves', () => {
  it('numbers are finite, integers safe', () => {
    expect(firstIssue(v.number(), 1.5)).toBe('ok');
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, '1', null]) expect(firstIssue(v.number(), bad)).toBe(': invalid a number');
    expect(firstIssue(v.int(), 2 ** 53)).toBe(': invalid an integer');
    expect(firstIssue(v.int(), 1.5)).toBe(': invalid an integer');
  });

  it('says a number bound in words, as the options errors print it', () => {
    expect(v.number().check(v.minimum(0), v.maximum(1)).describe()).toBe('a number in [0, 1]');
    expect(v.number().check(v.gt(0), v.maximum(1)).describe()).toBe('a number in (0, 1]');
    expect(v.int().check(v.minimum(1)).describe()).toBe('an integer ≥ 1');
    expect(v.number().check(v.positive()).describe()).toBe('a number > 0');
    expect(v.int().check(v.maximum(9)).describe()).toBe('an integer ≤ 9');
    expect(firstIssue(integerIn(2, 5), 6)).toBe(': invalid an integer in [2, 5]');
  });

  it('strings, enums, booleans, custom tests and patterns', () => {
    expect(firstIssue(v.string().check(v.minLength(1)), '')).toBe(': invalid a non-empty string');
    expect(firstIssue(v.string().check(v.maxLength(2)), 'abc')).toBe(': invalid a string of at most 2 characters');
    expect(firstIssue(v.string().check(v.minLength(1), v.maxLength(9)), '')).toBe(': invalid a non-empty string of at most 9 characters');
    expect(firstIssue(v.string().check(v.minLength(3)), 'ab')).toBe(': invalid a string of at least 3 characters');
    expect(firstIssue(v.enum(['window', 'chunk']), 'page')).toBe(': invalid "window" or "chunk"');
    expect(firstIssue(v.enum(['a', 'b', 'c']), 1)).toBe(': invalid "a", "b" or "c"');
    expect(firstIssue(v.boolean(), 0)).toBe(': invalid true or false');
    expect(firstIssue(v.custom((x) => typeof x === 'function', 'a function'), 1)).toBe(': rule a function');
    expect(firstIssue(v.string().check(v.regex(/^https?:/, 'an http(s) URL')), 'ftp://x')).toBe(': rule an http(s) URL');
    expect(firstIssue(v.string().check(v.regex(/^https?:/, 'an http(s) URL')), 'http://x')).toBe('ok');
  });
});

describe('schema: objects', () => {
  const shape = { a: v.int(), b: v.optional(v.string()) };

  it('strict objects refuse unknown keys and list the valid ones', () => {
    const result = v.strictObject(shape).safeParse({ a: 1, c: 2, d: 3 });
    expect(result.success).toBe(false);
    expect(!result.success && result.issues[0]).toEqual({ path: [], code: 'unknown_keys', message: 'unknown keys', keys: ['c', 'd'], validKeys: ['a', 'b'] });
  });

  it('stripping objects drop unknown keys, loose ones keep them; absent optional keys stay absent', () => {
    expect(v.object(shape).safeParse({ a: 1, c: 2 })).toEqual({ success: true, data: { a: 1 } });
    expect(v.looseObject(shape).safeParse({ a: 1, c: 2 })).toEqual({ success: true, data: { a: 1, c: 2 } });
    const parsed = v.strictObject(shape).safeParse({ a: 1 });
    expect(parsed.success && Object.keys(parsed.data)).toEqual(['a']);
  });

  it('a nested problem is reported at its path, every one of them', () => {
    const schema = v.strictObject({ fields: v.record(v.string(), v.strictObject({ b: v.number().check(v.minimum(0), v.maximum(1)) })) });
    expect(firstIssue(schema, { fields: { body: { b: 2 } } })).toBe('fields.body.b: invalid a number in [0, 1]');
    const list = v.array(v.int());
    const result = list.safeParse([1, 'x', 2, 'y']);
    expect(!result.success && result.issues.map((i) => i.path.join('.'))).toEqual(['1', '3']);
  });

  it('refinements run on valid values only, at their own path', () => {
    const schema = v.strictObject({ low: v.int(), high: v.int() }).check(v.refine((o) => o.high >= o.low, { message: 'high must be ≥ low', path: ['high'] }));
    expect(firstIssue(schema, { low: 3, high: 1 })).toBe('high: rule high must be ≥ low');
    expect(firstIssue(schema, { low: 'x', high: 1 })).toBe('low: invalid an integer');
  });

  it('extend keeps the unknown-key rule and lets the new fields win', () => {
    const base = v.strictObject({ a: v.int(), b: v.int() });
    const extended = v.extend(base, { b: v.string(), c: v.optional(v.boolean()) });
    expect(extended.safeParse({ a: 1, b: 'x', c: true }).success).toBe(true);
    expect(firstIssue(extended, { a: 1, b: 'x', z: 1 })).toBe(': unknown_keys unknown keys');
  });

  it('unions take the first match and name every alternative; nullable and readonly', () => {
    const perComponent = v.union([v.int(), v.record(v.string(), v.int())]);
    expect(perComponent.safeParse({ bm25: 2 })).toEqual({ success: true, data: { bm25: 2 } });
    expect(firstIssue(perComponent, 'x')).toBe(': invalid an integer or an object');
    expect(firstIssue(v.nullable(v.int()), null)).toBe('ok');
    expect(v.nullable(v.int()).describe()).toBe('an integer or null');
    const words = v.readonly(v.array(v.string())).safeParse(['a']);
    expect(words.success && Object.isFrozen(words.data)).toBe(true);
  });
});

describe('parseOptions on these schemas', () => {
  const schema = v.strictObject({ k1: v.optional(v.number().check(v.gt(0))), fields: v.optional(v.strictObject({ weight: v.optional(v.number()) })) });

  it('names the full path, the rule, the value and a hint', () => {
    let error: unknown;
    try {
      parseOptions(schema, { k1: -1 }, { subject: 'bm25', root: 'settings' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RagError);
    expect((error as RagError).message).toBe('bm25 option settings.k1 must be a number > 0 (got -1).');
    expect((error as RagError).hint).toBe('Pass settings.k1 as a number > 0, or leave it out to use the default.');
  });

  it('an unknown nested key lists the keys valid there', () => {
    expect(() => parseOptions(schema, { fields: { wieght: 1 } }, { subject: 'bm25', root: 'settings' })).toThrow(/Unknown bm25 option settings\.fields\.wieght/);
    try {
      parseOptions(schema, { fields: { wieght: 1 } }, { subject: 'bm25', root: 'settings' });
    } catch (e) {
      expect((e as RagError).hint).toBe('Valid keys of settings.fields: weight.');
    }
  });
});

describe('schema: properties', () => {
  it('a value a bounded integer schema accepts is exactly an integer in its range', () => {
    fc.assert(
      fc.property(fc.integer({ min: -50, max: 50 }), fc.integer({ min: -50, max: 50 }), fc.oneof(fc.integer({ min: -100, max: 100 }), fc.double(), fc.string()), (a, b, value) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        const accepted = integerIn(low, high).safeParse(value).success;
        expect(accepted).toBe(Number.isSafeInteger(value) && (value as number) >= low && (value as number) <= high);
      }),
    );
  });

  it('parsing JSON-like data with a loose schema of unknowns gives an equal copy', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (value) => {
        const result = v.looseObject({}).safeParse(value);
        expect(result).toEqual({ success: true, data: value });
      }),
    );
  });
});
