import { PROSE_LANGUAGES, type Chunk } from '@rag/core';
import { ANSWER_TYPE_RULES, codeCarriesKind, isMarkupStub, readsAsDescription, separatedNamesIn, spellsAnswerType, type AnswerType } from '@rag/text';
import type { TermDictionary } from './dictionary.js';
import { EVIDENCE_KINDS, type EvidenceKind, type RerankOptions } from './rerank/options.js';

/**
 * What the second stage needs to know about a chunk's raw text, computed once when the
 * index is built so that a search reads no chunk text: which kinds of fact a code chunk
 * carries (`codeCarriesKind`), which types of value a chunk spells (`ANSWER_TYPE_RULES`),
 * whether a code chunk describes rather than does (`readsAsDescription`), whether a docs
 * chunk is nothing but titles and markup (`isMarkupStub`), and which
 * snake/kebab names it defines (code) or spells as inline code (prose; see
 * `separatedNamesIn`). Stored with the index (`bm25.bin`).
 */
export interface ChunkFeatures {
  /** Bit i of chunk d: code chunk d carries `EVIDENCE_KINDS[i]`. Prose chunks have none. */
  evidence: Uint8Array;
  /** Bit i of chunk d: chunk d (code or prose) spells a value of `ANSWER_TYPE_RULES[i].type`. */
  types: Uint8Array;
  /**
   * Marks of chunk d: bit 0 ({@link DESCRIPTION_MARK}) for a code chunk that reads as a
   * description (`readsAsDescription`), bit 1 ({@link STUB_MARK}) for a prose chunk that is
   * nothing but titles and markup (`isMarkupStub`).
   */
  descriptions: Uint8Array;
  /** Chunk d's names are `names[nameOffsets[d] .. nameOffsets[d + 1])`; length docCount + 1. */
  nameOffsets: Uint32Array;
  /** Term ids of the names, ascending within a chunk; names the dictionary lacks are left out. */
  names: Uint32Array;
}

/** Bit of `ChunkFeatures.descriptions`: a code chunk that reads as a description. */
export const DESCRIPTION_MARK = 1;
/** Bit of `ChunkFeatures.descriptions`: a prose chunk of titles and markup only. */
export const STUB_MARK = 2;

const EVIDENCE_BIT: Readonly<Record<EvidenceKind, number>> = Object.fromEntries(EVIDENCE_KINDS.map((kind, i) => [kind, 1 << i])) as Record<EvidenceKind, number>;
const TYPE_BIT: Readonly<Record<AnswerType, number>> = Object.fromEntries(ANSWER_TYPE_RULES.map((rule, i) => [rule.type, 1 << i])) as Record<AnswerType, number>;

/**
 * The features of every chunk (ids equal to positions), names as ids of `dictionary`. Only
 * what `rerank` will ask is computed: evidence for the kinds it weighs, names when the
 * definition or explanation signal is on (an index's options never change after its build).
 */
export function computeChunkFeatures(chunks: readonly Chunk[], dictionary: TermDictionary, rerank: RerankOptions): ChunkFeatures {
  return new FeatureBuilder(chunks, dictionary, rerank).build(() => -1);
}

/**
 * The same features as `computeChunkFeatures`, taking over those of chunks copied from a
 * previous build (`sourceOf[d]`, -1 for none) instead of reading their texts again. A copied
 * chunk has the same text, so the same evidence and the same names; only which of its names
 * the dictionary holds can change. Its stored names are renumbered into `dictionary` (a name
 * it no longer holds drops out), and a name the previous dictionary lacked — left out then —
 * can only be held now if a new chunk brought it: a copied chunk whose text spells one of
 * those names is read again. `newTerms`: the terms of `dictionary` that copied chunks did not
 * bring (any superset of those `previous` lacks will do); default every term. `renumbered`:
 * each previous term id's id in `dictionary` (-1 for none) when the caller has it; default
 * looked up by term. The arguments are `FeatureReuse`'s: chunks, dictionary, rerank options,
 * previous build, sourceOf, newTerms, renumbered.
 */
export function reuseChunkFeatures(...args: ConstructorParameters<typeof FeatureReuse>): ChunkFeatures {
  const reuse = new FeatureReuse(...args);
  return reuse.builder.build((d, out) => reuse.given(d, out));
}

/**
 * `reuseChunkFeatures` chunk by chunk, for a caller that needs some chunks' features only
 * (an update's overlay: its own chunks, and the kept chunks whose features can differ from
 * their base chunks'), each equal to what `reuseChunkFeatures` gives it.
 */
export class FeatureReuse {
  readonly builder: FeatureBuilder;
  readonly #chunks: readonly Chunk[];
  readonly #dictionary: TermDictionary;
  readonly #previous: { features: ChunkFeatures; dictionary: TermDictionary };
  readonly #sourceOf: Int32Array;
  readonly #newIds: Int32Array;
  readonly #spellsFresh: RegExp | undefined;

  constructor(
    chunks: readonly Chunk[],
    dictionary: TermDictionary,
    rerank: RerankOptions,
    previous: { features: ChunkFeatures; dictionary: TermDictionary },
    sourceOf: Int32Array,
    newTerms?: readonly string[],
    renumbered?: Int32Array,
  ) {
    this.builder = new FeatureBuilder(chunks, dictionary, rerank);
    this.#chunks = chunks;
    this.#dictionary = dictionary;
    this.#previous = previous;
    this.#sourceOf = sourceOf;
    this.#newIds = renumbered ?? new Int32Array(previous.dictionary.size).fill(-2);
    const fresh = this.builder.wantsNames ? freshNames(newTerms ?? dictionary.terms(), previous.dictionary) : [];
    this.#spellsFresh = fresh.length > 0 ? new RegExp(fresh.map(escapeRegExp).join('|'), 'i') : undefined;
  }

  /** Whether copied chunks are read again when they spell a name the previous dictionary lacked (see `reuseChunkFeatures`). */
  get readsFreshNames(): boolean {
    return this.#spellsFresh !== undefined;
  }

  /** Whether chunk d's features are read from its text rather than taken over: a new chunk, or a copy that spells a fresh name. */
  readsText(d: number): boolean {
    return this.#sourceOf[d]! < 0 || (this.#spellsFresh !== undefined && this.#spellsFresh.test(this.#chunks[d]!.text));
  }

  /** `FeatureBuilder.build`'s `given` for the reuse: chunk d's taken-over bits, its names pushed to `out`, or -1 to read its text. */
  given(d: number, out: number[]): number {
    if (this.readsText(d)) return -1;
    const source = this.#sourceOf[d]!;
    const { evidence, types, descriptions, nameOffsets, names } = this.#previous.features;
    for (let i = nameOffsets[source]!; i < nameOffsets[source + 1]!; i++) {
      const id = this.#newIdOf(names[i]!);
      if (id >= 0) out.push(id);
    }
    return evidence[source]! | (types[source]! << 8) | (descriptions[source]! << 16);
  }

  #newIdOf(old: number): number {
    if (this.#newIds[old] === -2) this.#newIds[old] = this.#dictionary.lookup(this.#previous.dictionary.termAt(old));
    return this.#newIds[old]!;
  }
}

/** The `terms` that `previous` lacks and that could be a separated name (see `separatedNamesIn`). */
function freshNames(terms: Iterable<string>, previous: TermDictionary): string[] {
  const fresh: string[] = [];
  for (const term of terms) if (SEPARATED_NAME.test(term) && previous.lookup(term) < 0) fresh.push(term);
  return fresh;
}

/** What a separated name looks like: word characters with an inner underscore, none at its edges. */
const SEPARATED_NAME = /^[^_\s.\-/]+_[^\s.\-/]*[^_\s.\-/]$/;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Fills the feature arrays chunk by chunk, reading a chunk's text only when told to. */
export class FeatureBuilder {
  readonly wantsNames: boolean;
  readonly #chunks: readonly Chunk[];
  readonly #dictionary: TermDictionary;
  readonly #kinds: readonly EvidenceKind[];
  readonly #types: readonly AnswerType[];
  readonly #descriptions: boolean;
  readonly #stubs: boolean;

  constructor(chunks: readonly Chunk[], dictionary: TermDictionary, rerank: RerankOptions) {
    const on = rerank.depth > 0;
    this.#chunks = chunks;
    this.#dictionary = dictionary;
    this.#kinds = on ? EVIDENCE_KINDS.filter((kind) => rerank.answerEvidence[kind] > 0) : [];
    this.#types = on && rerank.answerType > 0 ? ANSWER_TYPE_RULES.map((rule) => rule.type) : [];
    this.wantsNames = on && (rerank.definition > 0 || rerank.explanation > 0);
    this.#descriptions = on && rerank.descriptionFactor < 1;
    this.#stubs = on && rerank.stubFactor < 1;
  }

  /**
   * `given(d, names)` pushes chunk d's name ids and returns its evidence bits with its
   * type bits and description bit above them (`evidence | types << 8 | description << 16`),
   * or returns -1 (pushing nothing) for a chunk whose features are to be read from its text.
   */
  build(given: (d: number, names: number[]) => number): ChunkFeatures {
    const chunks = this.#chunks;
    const evidence = new Uint8Array(chunks.length);
    const types = new Uint8Array(chunks.length);
    const descriptions = new Uint8Array(chunks.length);
    const nameOffsets = new Uint32Array(chunks.length + 1);
    const names: number[] = [];
    const ids: number[] = [];
    for (let d = 0; d < chunks.length; d++) {
      ids.length = 0;
      const bits = this.featuresOf(d, given, ids);
      evidence[d] = bits & 0xff;
      types[d] = (bits >>> 8) & 0xff;
      descriptions[d] = bits >>> 16;
      for (let i = 0; i < ids.length; i++) names.push(ids[i]!);
      nameOffsets[d + 1] = names.length;
    }
    return { evidence, types, descriptions, nameOffsets, names: Uint32Array.from(names) };
  }

  /** Chunk d's bits (see `build`), its name ids pushed to `ids` in ascending order. */
  featuresOf(d: number, given: (d: number, names: number[]) => number, ids: number[]): number {
    const stored = given(d, ids);
    const bits = stored >= 0 ? stored : this.#read(d, ids);
    // Copied names are usually in order already (a sort per chunk is most of a reuse's cost).
    if (!isAscending(ids)) ids.sort((a, b) => a - b);
    return bits;
  }

  /** Chunk d's bits (see `build`), its names pushed to `ids`, read from its text. */
  #read(d: number, ids: number[]): number {
    const chunk = this.#chunks[d]!;
    const text = chunk.text;
    // A chunk's language is its file's: prose as `chunkFlags` marks it, asked of one chunk.
    const prose = PROSE_LANGUAGES.has(chunk.language);
    let bits = 0;
    if (!prose) for (const kind of this.#kinds) if (codeCarriesKind(text, kind)) bits |= EVIDENCE_BIT[kind];
    if (this.#descriptions && chunk.language === 'python' && readsAsDescription(text)) bits |= DESCRIPTION_MARK << 16;
    if (this.#stubs && prose && isMarkupStub(text)) bits |= STUB_MARK << 16;
    for (const type of this.#types) if (spellsAnswerType(text, type)) bits |= TYPE_BIT[type] << 8;
    if (this.wantsNames) {
      for (const name of separatedNamesIn(text, prose ? 'explains' : 'defines')) {
        const id = this.#dictionary.lookup(name);
        if (id >= 0) ids.push(id);
      }
    }
    return bits;
  }
}

function isAscending(ids: readonly number[]): boolean {
  for (let i = 1; i < ids.length; i++) if (ids[i - 1]! > ids[i]!) return false;
  return true;
}

/** Whether code chunk `d` carries the kind of fact `kind` (see `codeCarriesKind`). */
export function carriesEvidence(features: ChunkFeatures, d: number, kind: EvidenceKind): boolean {
  return (features.evidence[d]! & EVIDENCE_BIT[kind]) !== 0;
}

/** Whether chunk `d` spells a value of any of `types` (see `ANSWER_TYPE_RULES`). */
export function spellsAnyType(features: ChunkFeatures, d: number, types: readonly AnswerType[]): boolean {
  const bits = features.types[d]!;
  for (const type of types) if ((bits & TYPE_BIT[type]) !== 0) return true;
  return false;
}

/** Whether code chunk `d` reads as a description (see `readsAsDescription`). */
export function readsAsDescriptionAt(features: ChunkFeatures, d: number): boolean {
  return (features.descriptions[d]! & DESCRIPTION_MARK) !== 0;
}

/** Whether prose chunk `d` is nothing but titles and markup (see `isMarkupStub`). */
export function isStubAt(features: ChunkFeatures, d: number): boolean {
  return (features.descriptions[d]! & STUB_MARK) !== 0;
}

/** Whether chunk `d` defines (code) or explains (prose) the name whose term id is `termId`. */
export function hasName(features: ChunkFeatures, d: number, termId: number): boolean {
  const { nameOffsets, names } = features;
  let low = nameOffsets[d]!;
  let high = nameOffsets[d + 1]!;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const id = names[middle]!;
    if (id === termId) return true;
    if (id < termId) low = middle + 1;
    else high = middle;
  }
  return false;
}

/** Whether one chunk's name ids are term ids in strictly ascending order. */
export function checkChunkNames(names: Uint32Array, termCount: number): boolean {
  for (let i = 0; i < names.length; i++) if (names[i]! >= termCount || (i > 0 && names[i - 1]! >= names[i]!)) return false;
  return true;
}

/**
 * Structural check of stored features against the index they belong to; a message when
 * broken. `namesDeferred`: the names are read chunk by chunk later (a paged index), so only
 * their offsets are checked now and each chunk's names with {@link checkChunkNames} on arrival.
 */
export function checkChunkFeatures(features: ChunkFeatures, docCount: number, termCount: number, namesDeferred = false): string | undefined {
  const { evidence, types, descriptions, nameOffsets, names } = features;
  if (evidence.length !== docCount) return `it has evidence for ${evidence.length} chunks, not ${docCount}`;
  if (types.length !== docCount) return `it has answer types for ${types.length} chunks, not ${docCount}`;
  if (descriptions.length !== docCount) return `it has description marks for ${descriptions.length} chunks, not ${docCount}`;
  if (nameOffsets.length !== docCount + 1 || nameOffsets[0] !== 0 || nameOffsets[docCount] !== names.length) return 'its name offsets do not span its names';
  // Plain loops: this runs over every chunk each time an index is opened.
  for (let d = 0; d < docCount; d++) {
    const start = nameOffsets[d]!;
    const end = nameOffsets[d + 1]!;
    if (start > end) return 'its name offsets are out of order';
    if (namesDeferred) continue;
    for (let i = start; i < end; i++) {
      if (names[i]! >= termCount || (i > start && names[i - 1]! >= names[i]!)) return `the names of chunk ${d} are out of range or order`;
    }
  }
  const evidenceLimit = 1 << EVIDENCE_KINDS.length;
  const typesLimit = 1 << ANSWER_TYPE_RULES.length;
  const marks = DESCRIPTION_MARK | STUB_MARK;
  for (let d = 0; d < docCount; d++) {
    if (evidence[d]! >= evidenceLimit) return 'its evidence has unknown bits';
    if (types[d]! >= typesLimit) return 'its answer types have unknown bits';
    if (descriptions[d]! > marks) return 'its description marks have unknown bits';
  }
  return undefined;
}
