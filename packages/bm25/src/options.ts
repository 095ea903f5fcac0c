import { parseOptions, RagError, v } from '@rag/core';
import {
  DEFAULT_QUERY_OPTIONS,
  DEFAULT_TOKENIZER_OPTIONS,
  QUERY_SETTINGS_SCHEMA,
  TOKENIZER_SETTINGS_SCHEMA,
  withQueryDefaults,
  withTokenizerDefaults,
  type QueryOptions,
  type QuerySettings,
  type TokenizerOptions,
  type TokenizerSettings,
} from '@rag/text';
import type { AnswerKind } from '@rag/text';
import { ANSWER_KINDS, DEFAULT_RERANK_OPTIONS, type RerankOptions } from './rerank/options.js';

/** The fields of a chunk that are indexed separately (BM25F). */
export const FIELD_NAMES = ['body', 'path', 'symbol', 'anchor'] as const;
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
   * (default weight 3, b 0.3); `anchor` the documentation paragraphs that name what a
   * code chunk defines (see `ContextOptions.anchors`; default weight 0.5, b 0.75: borrowed
   * words count less than the chunk's own).
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
  /**
   * Index with each code chunk, in the `anchor` field, the documentation paragraphs that
   * name a function, class or method it defines as inline code (`` `launch` ``,
   * :func:`~click.launch`), with their section's heading path: the words the docs use for
   * what the code does reach the code. In a corpus of several projects (top-level folders
   * each holding a package of its own name), a page links only to its own project's
   * definitions. Default `true`.
   */
  anchors: boolean;
  /**
   * Index with each Python chunk of a class (its methods, and the pieces of a class body cut
   * in several), in the `anchor` field, the summary line of the class's docstring: the
   * words that say what the class is for ("The sandboxed environment") reach the methods
   * that do its work (see `classSummaries`). Default `true`.
   */
  classSummaries: boolean;
}

export const DEFAULT_CONTEXT_OPTIONS: Readonly<ContextOptions> = Object.freeze({ tableHeaders: true, anchors: true, classSummaries: true });

/** What callers may pass (e.g. as `BuildContext.settings`): any subset; `b` is shorthand for `fields.body.b`. */
export interface Bm25Settings {
  k1?: number;
  b?: number;
  fields?: { [F in FieldName]?: Partial<FieldOptions> };
  tokenizer?: TokenizerSettings;
  query?: QuerySettings;
  context?: Partial<ContextOptions>;
  rerank?: Partial<RerankOptions>;
}

export const DEFAULT_BM25_OPTIONS: Readonly<Bm25Options> = Object.freeze({
  k1: 1.2,
  fields: Object.freeze({
    body: Object.freeze({ weight: 1, b: 0.75 }),
    path: Object.freeze({ weight: 1, b: 0.3 }),
    symbol: Object.freeze({ weight: 3, b: 0.3 }),
    anchor: Object.freeze({ weight: 0.5, b: 0.75 }),
  }),
  tokenizer: DEFAULT_TOKENIZER_OPTIONS,
  query: DEFAULT_QUERY_OPTIONS,
  context: DEFAULT_CONTEXT_OPTIONS,
  rerank: DEFAULT_RERANK_OPTIONS,
});

const weight = v.number().check(v.minimum(0), v.maximum(10));
const unit = v.number().check(v.minimum(0), v.maximum(1));

const FIELD_SCHEMA = v.strictObject({ weight: v.optional(v.number().check(v.minimum(0))), b: v.optional(unit) });

const RERANK_SCHEMA = v.strictObject({
  depth: v.optional(v.int().check(v.minimum(0))),
  proximity: v.optional(weight),
  coverage: v.optional(weight),
  proximityWindow: v.optional(v.int().check(v.minimum(1), v.maximum(50))),
  modality: v.optional(weight),
  auxiliaryFactor: v.optional(v.number().check(v.gt(0), v.maximum(1))),
  historyFactor: v.optional(v.number().check(v.gt(0), v.maximum(1))),
  descriptionFactor: v.optional(v.number().check(v.gt(0), v.maximum(1))),
  stubFactor: v.optional(v.number().check(v.gt(0), v.maximum(1))),
  definition: v.optional(weight),
  explanation: v.optional(weight),
  placeKinds: v.optional(v.array(v.enum(ANSWER_KINDS as [AnswerKind, ...AnswerKind[]]))),
  sectionSupport: v.optional(weight),
  answerEvidence: v.optional(v.strictObject({ default: v.optional(weight), error: v.optional(weight), list: v.optional(weight), yesno: v.optional(weight), value: v.optional(weight) })),
  answerType: v.optional(weight),
  dedupe: v.optional(v.boolean()),
  fileShare: v.optional(v.number().check(v.gt(0), v.maximum(1))),
  kindShare: v.optional(v.number().check(v.gt(0), v.maximum(1))),
  joinSpan: v.optional(v.int().check(v.minimum(0), v.maximum(1_000_000))),
  projectFactor: v.optional(v.number().check(v.gt(0), v.maximum(1))),
});

/** The schema of {@link Bm25Settings}: unknown keys are refused at every level. */
export const BM25_SETTINGS_SCHEMA = v.strictObject({
  k1: v.optional(v.number().check(v.gt(0))),
  b: v.optional(unit),
  fields: v.optional(v.strictObject({ body: v.optional(FIELD_SCHEMA), path: v.optional(FIELD_SCHEMA), symbol: v.optional(FIELD_SCHEMA), anchor: v.optional(FIELD_SCHEMA) })),
  tokenizer: v.optional(TOKENIZER_SETTINGS_SCHEMA),
  query: v.optional(QUERY_SETTINGS_SCHEMA),
  context: v.optional(v.strictObject({ tableHeaders: v.optional(v.boolean()), anchors: v.optional(v.boolean()), classSummaries: v.optional(v.boolean()) })),
  rerank: v.optional(RERANK_SCHEMA),
});

/**
 * Complete, validated options from user settings (unknown keys are refused, so a typo
 * never silently falls back to a default). Throws `RagError('INVALID_ARGUMENT')` naming
 * the offending field.
 */
export function resolveBm25Options(settings: unknown = {}): Bm25Options {
  const parsed = parseOptions(BM25_SETTINGS_SCHEMA, settings, { subject: 'bm25', root: 'settings' });
  const d = DEFAULT_BM25_OPTIONS;
  const fields = {} as Record<FieldName, FieldOptions>;
  for (const name of FIELD_NAMES) {
    const given = parsed.fields?.[name] ?? {};
    const fallbackB = name === 'body' ? (parsed.b ?? d.fields.body.b) : d.fields[name].b;
    fields[name] = { weight: given.weight ?? d.fields[name].weight, b: given.b ?? fallbackB };
  }
  if (FIELD_NAMES.every((name) => fields[name].weight === 0)) {
    throw new RagError('INVALID_ARGUMENT', 'bm25 settings give every field weight 0, so nothing could match.', {
      hint: 'Give at least one of fields.body/path/symbol a weight > 0.',
    });
  }
  const rerank = parsed.rerank ?? {};
  const resolvedRerank = { ...d.rerank } as RerankOptions;
  for (const key of Object.keys(rerank) as (keyof RerankOptions)[]) {
    if (rerank[key] !== undefined) (resolvedRerank as unknown as Record<string, unknown>)[key] = rerank[key];
  }
  if (rerank.answerEvidence !== undefined) {
    // A kind left out keeps its default weight.
    const given = Object.fromEntries(Object.entries(rerank.answerEvidence).filter(([, value]) => value !== undefined));
    resolvedRerank.answerEvidence = { ...d.rerank.answerEvidence, ...given };
  }
  return {
    k1: parsed.k1 ?? d.k1,
    fields,
    tokenizer: withTokenizerDefaults(parsed.tokenizer ?? {}),
    query: withQueryDefaults(parsed.query ?? {}),
    context: {
      tableHeaders: parsed.context?.tableHeaders ?? d.context.tableHeaders,
      anchors: parsed.context?.anchors ?? d.context.anchors,
      classSummaries: parsed.context?.classSummaries ?? d.context.classSummaries,
    },
    rerank: resolvedRerank,
  };
}
