/**
 * The schemas every package declares its options and file formats with: a small validator
 * of plain JSON-like values written for this project, in place of a general schema library.
 * Every rag process builds its packages' option schemas when it loads them, and a one-shot
 * `rag search` spent more time compiling and initialising such a library than searching; this
 * one is a few kilobytes. Each schema can say what a valid value is, in words ("a number in
 * [0, 1]", "an integer ≥ 1", `"a" or "b"`), which is what rag's option errors print.
 *
 * Objects are strict (`strictObject`: an unknown key is an error, so a misspelt option is
 * refused), stripping (`object`: unknown keys dropped) or loose (`looseObject`: kept).
 * Numbers must be finite; `int()` safe integers.
 */

/** One problem found in a value. */
export interface SchemaIssue {
  /** Keys from the value's root to the offending value. */
  path: PropertyKey[];
  /** `invalid`: wrong kind or out of bounds; `unknown_keys`: keys a strict object does not declare; `rule`: a refinement, pattern or custom test failed. */
  code: 'invalid' | 'unknown_keys' | 'rule';
  /** What the value must be ("an integer ≥ 1"), or the failed rule's message. */
  message: string;
  /** For `unknown_keys`: the keys not declared, and those that are. */
  keys?: string[];
  validKeys?: string[];
}

export type SafeParseResult<T> = { success: true; data: T } | { success: false; issues: SchemaIssue[] };

/** A bound or rule added to a schema with `.check(…)`; a rule's test sees the parsed value. */
export interface SchemaCheck<T = unknown> {
  /** A lower or upper bound on a number (or on a string's or list's length with `length`). */
  bound?: { side: 'low' | 'high'; value: number; inclusive: boolean; length?: boolean };
  /** A rule with its own message (a pattern, a refinement). */
  rule?: { test: (value: T) => boolean; message: string; path?: PropertyKey[] };
}

/** A check of any value type: a bound applies to every schema it can measure. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
type AnyCheck = SchemaCheck<any>;

const INVALID: unique symbol = Symbol('invalid');
type Invalid = typeof INVALID;

export abstract class Schema<Out = unknown, In = Out> {
  /** Type-level only: the parsed value's type and the accepted input's type. */
  declare readonly _output: Out;
  declare readonly _input: In;
  /** @internal */
  checks: readonly AnyCheck[] = [];

  /** A copy of this schema with `checks` added. */
  check(...checks: SchemaCheck<Out>[]): this {
    const copy = Object.create(Object.getPrototypeOf(this) as object) as this;
    Object.assign(copy, this);
    copy.checks = [...this.checks, ...checks];
    return copy;
  }

  /** The value as parsed (objects copied), or every problem found. */
  safeParse(value: unknown): SafeParseResult<Out> {
    const issues: SchemaIssue[] = [];
    const data = this.run(value, [], issues);
    return data === INVALID || issues.length > 0 ? { success: false, issues } : { success: true, data: data as Out };
  }

  /** What a valid value is, in words: "a number in [0, 1]", "true or false". */
  abstract describe(): string;

  /** @internal Checks the value's kind and builds the output (checks run after it). */
  abstract parseValue(value: unknown, path: PropertyKey[], issues: SchemaIssue[]): unknown;

  /** @internal Parses `value` at `path`, adding its problems to `issues`; INVALID when any. */
  run(value: unknown, path: PropertyKey[], issues: SchemaIssue[]): unknown {
    const before = issues.length;
    const out = this.parseValue(value, path, issues);
    if (out === INVALID || issues.length > before) return INVALID;
    for (const { bound, rule } of this.checks) {
      if (bound && !withinBound(bound, value)) {
        issues.push({ path, code: 'invalid', message: this.describe() });
        return INVALID;
      }
      if (rule && !rule.test(out)) {
        issues.push({ path: [...path, ...(rule.path ?? [])], code: 'rule', message: rule.message });
        return INVALID;
      }
    }
    return out;
  }
}

function withinBound(bound: NonNullable<AnyCheck['bound']>, value: unknown): boolean {
  const n = bound.length ? (value as string | unknown[]).length : (value as number);
  if (bound.side === 'low') return bound.inclusive ? n >= bound.value : n > bound.value;
  return bound.inclusive ? n <= bound.value : n < bound.value;
}

function invalid(issues: SchemaIssue[], path: PropertyKey[], schema: Schema): Invalid {
  issues.push({ path, code: 'invalid', message: schema.describe() });
  return INVALID;
}

function quote(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/** `"a", "b" or "c"`. */
function listChoices(values: readonly unknown[]): string {
  const shown = values.map(quote);
  return shown.length <= 1 ? (shown[0] ?? 'nothing') : `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}`;
}

// ---- bounds and rules ------------------------------------------------------------------

/** value ≥ `n`. */
export function minimum(n: number): AnyCheck {
  return { bound: { side: 'low', value: n, inclusive: true } };
}
/** value ≤ `n`. */
export function maximum(n: number): AnyCheck {
  return { bound: { side: 'high', value: n, inclusive: true } };
}
/** value > `n`. */
export function gt(n: number): AnyCheck {
  return { bound: { side: 'low', value: n, inclusive: false } };
}
/** value > 0. */
export function positive(): AnyCheck {
  return gt(0);
}
/** value ≥ 0. */
export function nonnegative(): AnyCheck {
  return minimum(0);
}
/** A string's or list's length ≥ `n`. */
export function minLength(n: number): AnyCheck {
  return { bound: { side: 'low', value: n, inclusive: true, length: true } };
}
/** A string's or list's length ≤ `n`. */
export function maxLength(n: number): AnyCheck {
  return { bound: { side: 'high', value: n, inclusive: true, length: true } };
}
/** A string matching `pattern`; `message` says what it must be ("an http(s) URL"). */
export function regex(pattern: RegExp, message: string): SchemaCheck<string> {
  return { rule: { test: (value: string) => pattern.test(value), message } };
}
/** A rule on the parsed value (run when everything inside it is valid), reported at `path` below the value. */
export function refine<T>(test: (value: T) => boolean, options: { message: string; path?: PropertyKey[] }): SchemaCheck<T> {
  return { rule: { test, message: options.message, ...(options.path ? { path: options.path } : {}) } };
}

// ---- leaves ------------------------------------------------------------------------------

export class NumberSchema extends Schema<number> {
  constructor(readonly integer: boolean) {
    super();
  }
  describe(): string {
    const kind = this.integer ? 'an integer' : 'a number';
    let low: { value: number; inclusive: boolean } | undefined;
    let high: { value: number; inclusive: boolean } | undefined;
    for (const { bound } of this.checks) {
      if (bound?.side === 'low') low = bound;
      if (bound?.side === 'high') high = bound;
    }
    if (low && high) return `${kind} in ${low.inclusive ? '[' : '('}${low.value}, ${high.value}${high.inclusive ? ']' : ')'}`;
    if (low) return `${kind} ${low.inclusive ? '≥' : '>'} ${low.value}`;
    if (high) return `${kind} ${high.inclusive ? '≤' : '<'} ${high.value}`;
    return kind;
  }
  /** @internal */
  parseValue(value: unknown, path: PropertyKey[], issues: SchemaIssue[]): unknown {
    const ok = typeof value === 'number' && (this.integer ? Number.isSafeInteger(value) : Number.isFinite(value));
    return ok ? value : invalid(issues, path, this);
  }
}

export class StringSchema extends Schema<string> {
  describe(): string {
    let min = 0;
    let max: number | undefined;
    for (const { bound } of this.checks) {
      if (bound?.side === 'low') min = bound.value;
      if (bound?.side === 'high') max = bound.value;
    }
    const base = min === 1 ? 'a non-empty string' : 'a string';
    if (min > 1 && max !== undefined) return `${base} of ${min} to ${max} characters`;
    if (min > 1) return `${base} of at least ${min} characters`;
    return max === undefined ? base : `${base} of at most ${max} characters`;
  }
  /** @internal */
  parseValue(value: unknown, path: PropertyKey[], issues: SchemaIssue[]): unknown {
    return typeof value === 'string' ? value : invalid(issues, path, this);
  }
}

export class BooleanSchema extends Schema<boolean> {
  describe(): string {
    return 'true or false';
  }
  /** @internal */
  parseValue(value: unknown, path: PropertyKey[], issues: SchemaIssue[]): unknown {
    return typeof value === 'boolean' ? value : invalid(issues, path, this);
  }
}

export class UnknownSchema extends Schema<unknown> {
  describe(): string {
    return 'any value';
  }
  /** @internal */
  parseValue(value: unknown): unknown {
    return value;
  }
}

export class EnumSchema<T extends string> extends Schema<T> {
  constructor(readonly values: readonly T[]) {
    super();
  }
  describe(): string {
    return listChoices(this.values);
  }
  /** @internal */
  parseValue(value: unknown, path: PropertyKey[], issues: SchemaIssue[]): unknown {
    return (this.values as readonly unknown[]).includes(value) ? value : invalid(issues, path, this);
  }
}

export class CustomSchema<T> extends Schema<T> {
  constructor(
    readonly test: (value: unknown) => boolean,
    readonly message: string,
  ) {
    super();
  }
  describe(): string {
    return this.message;
  }
  /** @internal */
  parseValue(value: unknown, path: PropertyKey[], issues: SchemaIssue[]): unknown {
    if (this.test(value)) return value;
    issues.push({ path, code: 'rule', message: this.message });
    return INVALID;
  }
}

/** A finite number. */
export function number(): Schema<number> {
  return new NumberSchema(false);
}
/** A safe integer. */
export function int(): Schema<number> {
  return new NumberSchema(true);
}
export function string(): Schema<string> {
  return new StringSchema();
}
export function boolean(): Schema<boolean> {
  return new BooleanSchema();
}
/** Any value, passed through. */
export function unknown(): Schema<unknown> {
  return new UnknownSchema();
}
/** One of `values`. */
function enumOf<const T extends string>(values: readonly T[]): Schema<T> {
  return new EnumSchema(values);
}
export { enumOf as enum };
/** A value `test` accepts; `message` says what it must be ("a retriever registry"). */
export function custom<T>(test: (value: unknown) => boolean, message: string): Schema<T> {
  return new CustomSchema<T>(test, message);
}

// ---- wrappers ------------------------------------------------------------------------------

export class OptionalSchema<S extends Schema> extends Schema<S['_output'] | undefined, S['_input'] | undefined> {
  readonly optional = true;
  constructor(readonly inner: S) {
    super();
  }
  describe(): string {
    return this.inner.describe();
  }
  /** @internal */
  parseValue(value: unknown, path: PropertyKey[], issues: SchemaIssue[]): unknown {
    return value === undefined ? undefined : this.inner.run(value, path, issues);
  }
}

export class NullableSchema<S extends Schema> extends Schema<S['_output'] | null, S['_input'] | null> {
  constructor(readonly inner: S) {
    super();
  }
  describe(): string {
    return `${this.inner.describe()} or null`;
  }
  /** @internal */
  parseValue(value: unknown, path: PropertyKey[], issues: SchemaIssue[]): unknown {
    return value === null ? null : this.inner.run(value, path, issues);
  }
}

export class ReadonlySchema<S extends Schema> extends Schema<Readonly<S['_output']>, S['_input']> {
  constructor(readonly inner: S) {
    super();
  }
  describe(): string {
    return this.inner.describe();
  }
  /** @internal */
  parseValue(value: unknown, path: PropertyKey[], issues: SchemaIssue[]): unknown {
    const out = this.inner.run(value, path, issues);
    return typeof out === 'object' && out !== null ? Object.freeze(out) : out;
  }
}

export class UnionSchema<S extends readonly Schema[]> extends Schema<S[number]['_output'], S[number]['_input']> {
  constructor(readonly options: S) {
    super();
  }
  describe(): string {
    return this.options.map((o) => o.describe()).join(' or ');
  }
  /** @internal */
  parseValue(value: unknown, path: PropertyKey[], issues: SchemaIssue[]): unknown {
    for (const option of this.options) {
      const tried: SchemaIssue[] = [];
      const out = option.run(value, path, tried);
      if (out !== INVALID && tried.length === 0) return out;
    }
    return invalid(issues, path, this);
  }
}

/** `schema`, or undefined (an object's key may then be left out). */
export function optional<S extends Schema>(schema: S): OptionalSchema<S> {
  return new OptionalSchema(schema);
}
/** `schema`, or null. */
export function nullable<S extends Schema>(schema: S): NullableSchema<S> {
  return new NullableSchema(schema);
}
/** `schema`, its parsed object or list frozen. */
export function readonly<S extends Schema>(schema: S): ReadonlySchema<S> {
  return new ReadonlySchema(schema);
}
/** The first of `options` that accepts the value. */
export function union<const S extends readonly Schema[]>(options: S): UnionSchema<S> {
  return new UnionSchema(options);
}

// ---- containers ------------------------------------------------------------------------------

/** `out[key] = value` as an own property, even for a key such as `__proto__` that JSON data may hold. */
function setOwn(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class ArraySchema<S extends Schema> extends Schema<S['_output'][], S['_input'][]> {
  constructor(readonly element: S) {
    super();
  }
  describe(): string {
    return 'a list';
  }
  /** @internal */
  parseValue(value: unknown, path: PropertyKey[], issues: SchemaIssue[]): unknown {
    if (!Array.isArray(value)) return invalid(issues, path, this);
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = this.element.run(value[i], [...path, i], issues);
    return out;
  }
}

/** A schema of plain objects (not lists, not null): it checks that much and leaves the keys to {@link parseKeys}. */
abstract class PlainObjectSchema<Out, In> extends Schema<Out, In> {
  describe(): string {
    return 'an object';
  }
  /** @internal */
  parseValue(value: unknown, path: PropertyKey[], issues: SchemaIssue[]): unknown {
    return isPlainObject(value) ? this.parseKeys(value, path, issues) : invalid(issues, path, this);
  }
  /** @internal The parsed copy of an object's keys. */
  abstract parseKeys(value: Record<string, unknown>, path: PropertyKey[], issues: SchemaIssue[]): Record<string, unknown>;
}

export class RecordSchema<S extends Schema> extends PlainObjectSchema<Record<string, S['_output']>, Record<string, S['_input']>> {
  constructor(readonly value: S) {
    super();
  }
  /** @internal */
  parseKeys(value: Record<string, unknown>, path: PropertyKey[], issues: SchemaIssue[]): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) setOwn(out, key, this.value.run(value[key], [...path, key], issues));
    return out;
  }
}

/** What an object's fields are: each key's schema. */
export type Shape = Record<string, Schema>;
type OptionalKeys<S extends Shape> = { [K in keyof S]: S[K] extends OptionalSchema<Schema> ? K : never }[keyof S];
type Flatten<T> = { [K in keyof T]: T[K] } & {};
type ObjectOutput<S extends Shape> = Flatten<{ [K in Exclude<keyof S, OptionalKeys<S>>]: S[K]['_output'] } & { [K in OptionalKeys<S>]?: S[K]['_output'] }>;
type ObjectInput<S extends Shape> = Flatten<{ [K in Exclude<keyof S, OptionalKeys<S>>]: S[K]['_input'] } & { [K in OptionalKeys<S>]?: S[K]['_input'] }>;
type UnknownKeys = 'strict' | 'strip' | 'loose';
type Loose<T, U extends UnknownKeys> = U extends 'loose' ? T & Record<string, unknown> : T;

export class ObjectSchema<S extends Shape, U extends UnknownKeys = UnknownKeys> extends PlainObjectSchema<Loose<ObjectOutput<S>, U>, Loose<ObjectInput<S>, U>> {
  constructor(
    readonly shape: S,
    readonly unknownKeys: U,
  ) {
    super();
  }
  /** @internal */
  parseKeys(value: Record<string, unknown>, path: PropertyKey[], issues: SchemaIssue[]): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(this.shape)) {
      const field = this.shape[key]!;
      if (!Object.hasOwn(value, key) && field instanceof OptionalSchema) continue;
      out[key] = field.run(value[key], [...path, key], issues);
    }
    const unknown = Object.keys(value).filter((key) => !Object.hasOwn(this.shape, key));
    if (unknown.length > 0 && this.unknownKeys === 'strict') issues.push({ path, code: 'unknown_keys', message: 'unknown keys', keys: unknown, validKeys: Object.keys(this.shape) });
    if (this.unknownKeys === 'loose') for (const key of unknown) setOwn(out, key, value[key]);
    return out;
  }
}

/** An object with these fields; other keys are errors. */
export function strictObject<S extends Shape>(shape: S): ObjectSchema<S, 'strict'> {
  return new ObjectSchema(shape, 'strict');
}
/** An object with these fields; other keys are dropped from the parsed value. */
export function object<S extends Shape>(shape: S): ObjectSchema<S, 'strip'> {
  return new ObjectSchema(shape, 'strip');
}
/** An object with these fields; other keys are kept as they are. */
export function looseObject<S extends Shape>(shape: S): ObjectSchema<S, 'loose'> {
  return new ObjectSchema(shape, 'loose');
}
/** `schema`'s fields and `shape`'s (which win), its unknown-key rule and checks kept. */
export function extend<S extends Shape, T extends Shape, U extends UnknownKeys>(schema: ObjectSchema<S, U>, shape: T): ObjectSchema<Omit<S, keyof T> & T, U> {
  const extended = new ObjectSchema({ ...schema.shape, ...shape } as Omit<S, keyof T> & T, schema.unknownKeys);
  return extended.check(...schema.checks);
}
/** A list of `element`s. */
export function array<S extends Schema>(element: S): ArraySchema<S> {
  return new ArraySchema(element);
}
/** An object with any string keys, each value `value` (`key` is always a string schema). */
export function record<S extends Schema>(_key: Schema<string>, value: S): RecordSchema<S> {
  return new RecordSchema(value);
}

/** The parsed value's type. */
export type Infer<S extends Schema> = S['_output'];
export type output<S extends Schema> = S['_output'];
/** The type a schema accepts. */
export type input<S extends Schema> = S['_input'];
