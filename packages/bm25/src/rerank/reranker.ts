import { selectHits, type Chunk, type Explanation, type Hit } from '@rag/core';
import type { Bm25Index } from '../bm25-index.js';
import type { ResolvedQueryTerm } from '../explain.js';
import { answerTypesOf, detectAnswerKind, identifierTerm, namesSpelledInWords, createTokenizer, type AnswerKind, type AnswerType } from '@rag/text';
import { carriesEvidence, hasName, isStubAt, readsAsDescriptionAt, spellsAnyType } from '../chunk-features.js';
import type { EvidenceKind, RerankOptions } from './options.js';
import { AUXILIARY, AUXILIARY_QUERY_WORDS, chunkFlags, DOCUMENTATION_QUERY_WORDS, HISTORY, HISTORY_QUERY_WORDS, PROSE, TermModalities } from './priors.js';
import { ChunkScan, coverageScore, phraseScore, type QueryPair } from './proximity.js';
import { CorpusProjects, type QueryScope } from '../projects.js';
import { createQueryShaper, type QueryShape } from './query.js';
import { sectionSupport } from './sections.js';

export { selectDisjoint } from '@rag/core';

/** Everything the second stage computes once per query. */
interface PreparedQuery {
  /** The types of value the question's focus asks for (`answerTypesOf`); [] when the signal is off. */
  types: readonly AnswerType[];
  shape: QueryShape;
  pairs: QueryPair[];
  /** Term id of each slot; `#slotOf` maps them back while the query runs (reset by `#release`). */
  slotIds: number[];
  /** Weight (query weight · idf) of each slot's term. */
  slotWeights: number[];
  /** The indexed snake/kebab identifiers of the query, as index terms, with their slots. */
  definitions: { name: string; slot: number }[];
  /** tanh of the mean prose-vs-code log ratio of the query's terms; 0 without a prior. */
  lean: number;
  asksForAuxiliary: boolean;
  /** The question speaks of releases, changelogs or history (`HISTORY_QUERY_WORDS`): release notes keep their score. */
  asksForHistory: boolean;
  /** The question asks where a named identifier lives (`placeKinds`): prose earns no explanation credit. */
  asksForPlace: boolean;
  /** For a place question, its words as spelled (a code chunk whose own name is one of them is the named thing). */
  placeNames: ReadonlySet<string>;
  /** The kind of answer the question asks for, and the answer-evidence weight of that kind (0: none). */
  kind: AnswerKind;
  evidenceWeight: number;
  /** Projects the question names (see `CorpusProjects.scope`); empty: every chunk is in scope. */
  projects: readonly number[];
}

const NO_NAMES: ReadonlySet<string> = new Set();

/**
 * The names a place question can mean: each of its words as written, and the names it
 * spells in plain words (`namesSpelledInWords`: "the sandboxed environment" →
 * `SandboxedEnvironment` when it asks for nothing else).
 */
export function placeNamesOf(query: string): Set<string> {
  return new Set([...(query.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []), ...namesSpelledInWords(query)]);
}

/** The parts of a second-stage score, in the order they are summed. */
export interface RerankParts {
  relative: number;
  phrase: number;
  covered: number;
  defined: number;
  explained: number;
  support: number;
  evidence: number;
  /** 1 when the chunk spells a value of a type the question asks for (`answerTypesOf`), else 0. */
  typed: number;
  auxiliary: number;
  /** `historyFactor` for a release-notes or changelog chunk the question does not ask for; else 1. */
  history: number;
  /** `descriptionFactor` for a code chunk that describes rather than does, outside place questions; else 1. */
  described: number;
  /** `stubFactor` for a docs chunk of titles and markup only; else 1. */
  stub: number;
  side: number;
  /** `projectFactor` for a chunk outside the projects the question names, else 1. */
  scope: number;
  score: number;
}

/**
 * Re-scores the best first-stage hits of a query (see `RerankOptions`):
 *
 *   score = scope · (a · h · d · t · (s / s_top + proximity · phrase + coverage · covered + definition · defined
 *                         + explanation · explained + sectionSupport · support + answerEvidence[kind] · evidence
 *                         + answerType · typed)
 *                    + modality · (1 + side · lean))
 *
 * s is the chunk's BM25F score and s_top the query's best; phrase, covered, defined (code
 * only), explained (prose only) and support are in [0, 1], evidence is 1 for a code chunk
 * that carries the kind of fact the question asks for (`codeCarriesKind`, stored per chunk), else 0;
 * typed is 1 for a chunk that spells a value of a type the question's focus names (a
 * content type, an environment variable, a flag, …; `answerTypesOf`, stored per chunk);
 * a is `auxiliaryFactor` for a test/example/benchmark chunk when the query asks for
 * none, else 1; h is `historyFactor` for a chunk of release notes, a changelog or news
 * (`isHistoryPath`) when the query speaks of no release or history, else 1; d is
 * `descriptionFactor` for a code chunk that reads as a description
 * (`readsAsDescription`, stored per chunk) unless the question asks for a place, else 1;
 * t is `stubFactor` for a docs chunk that is nothing but titles and markup
 * (`isMarkupStub`, stored per chunk), else 1;
 * lean in (−1, 1) says how prose-like the query's terms are, and side is +1 for a prose
 * chunk, −1 for code. The prior is written 1 + side · lean so that no score is
 * negative (fusion methods may drop those); only its difference between chunks matters.
 * scope is `projectFactor` for a chunk outside the projects the question names (see
 * `scope`), else 1.
 */
export class Reranker {
  readonly #index: Bm25Index;
  readonly #chunks: readonly Chunk[];
  readonly #options: RerankOptions;
  readonly #flags: Uint8Array;
  readonly #modalities: TermModalities | undefined;
  readonly #auxiliaryTerms: ReadonlySet<string>;
  readonly #historyTerms: ReadonlySet<string>;
  readonly #documentationTerms: ReadonlySet<string>;
  readonly #shape: (text: string) => QueryShape;
  readonly #slotOf: Int32Array;
  readonly #scan = new ChunkScan();
  readonly #projects: CorpusProjects;

  constructor(index: Bm25Index, chunks: readonly Chunk[]) {
    this.#index = index;
    this.#chunks = chunks;
    const { options } = index;
    this.#options = options.rerank;
    this.#flags = chunkFlags(chunks);
    this.#modalities = options.rerank.modality > 0 ? TermModalities.learn(index.data, this.#flags, index.postings) : undefined;
    // The index's options are validated already: no pass through the validator per list.
    const tokenizeWords = createTokenizer(options.tokenizer);
    this.#auxiliaryTerms = new Set(tokenizeWords(AUXILIARY_QUERY_WORDS));
    this.#historyTerms = new Set(tokenizeWords(HISTORY_QUERY_WORDS));
    this.#documentationTerms = new Set(tokenizeWords(DOCUMENTATION_QUERY_WORDS));
    this.#shape = createQueryShaper(options.tokenizer, options.query);
    this.#slotOf = new Int32Array(index.data.dictionary.size).fill(-1);
    this.#projects = new CorpusProjects(chunks);
  }

  /**
   * The question as searched and the projects it names: when the corpus holds several
   * projects (see `CorpusProjects`) and `projectFactor` < 1, a project's name is taken out
   * of the words searched and chunks of the other projects are scaled by `projectFactor`.
   */
  scope(query: string): QueryScope {
    if (this.#options.projectFactor === 1 || this.#projects.names.length < 2) return { text: query, projects: [] };
    return this.#projects.scope(query);
  }

  get options(): RerankOptions {
    return this.#options;
  }

  /**
   * How prose-like a query with these term ids reads, in (−1, 1): tanh of the terms' mean
   * log ratio of prose to code frequency (see `termModalities`); 0 for no terms, undefined
   * when the prior is off or the corpus has only one kind of text.
   */
  leanOf(termIds: readonly number[]): number | undefined {
    if (!this.#modalities) return undefined;
    if (termIds.length === 0) return 0;
    let sum = 0;
    for (const id of termIds) sum += this.#modalities.ratio(id);
    return Math.tanh(sum / termIds.length);
  }

  /** How many first-stage hits a search for `k` results re-scores. */
  depthFor(k: number): number {
    return Math.max(k, this.#options.depth);
  }

  /**
   * The best `k` of `candidates` (first-stage hits for `query`, best first) after
   * re-scoring; `terms` are the query's resolved terms (`Bm25Index.resolveQuery`). `join`
   * false keeps every hit one chunk (see `RerankOptions.joinSpan`).
   */
  rerank(query: string, terms: readonly ResolvedQueryTerm[], candidates: readonly Hit[], k: number, projects: readonly number[] = [], join = true): Hit[] {
    if (candidates.length === 0) return [];
    const top = candidates[0]!.score;
    const prepared = this.#prepare(query, terms, projects);
    try {
      const support = this.#support(
        candidates.map((hit) => hit.chunkId),
        candidates.map((hit) => hit.score / top),
      );
      const rescored = candidates.map((hit, i) => ({ chunkId: hit.chunkId, score: this.#parts(prepared, hit.chunkId, hit.score, top, support?.[i] ?? 0).score }));
      rescored.sort((a, b) => b.score - a.score || a.chunkId - b.chunkId);
      const o = this.#options;
      return selectHits(rescored, this.#chunks, this.#flags, k, { dedupe: o.dedupe, fileShare: o.fileShare, kindShare: o.kindShare, joinSpan: join ? o.joinSpan : 0 });
    } finally {
      this.#release(prepared);
    }
  }

  /**
   * The second-stage score of `chunkId` and its parts, given its and the best first-stage
   * score; section support is taken from the query's first-stage candidates.
   */
  explainParts(
    query: string,
    chunkId: number,
    score: number,
    top: number,
    projects: readonly number[] = [],
  ): { parts: RerankParts; lean: number; asksForAuxiliary: boolean; asksForHistory: boolean; asksForPlace: boolean; kind: AnswerKind; evidenceWeight: number; types: readonly AnswerType[] } {
    const terms = this.#index.resolveQuery(query);
    const prepared = this.#prepare(query, terms, projects);
    try {
      let support = 0;
      if (this.#options.sectionSupport > 0) {
        const others = this.#index.searchTerms(terms, this.#options.depth).filter((hit) => hit.chunkId !== chunkId);
        const ids = [...others.map((hit) => hit.chunkId), chunkId];
        const relative = [...others.map((hit) => (top > 0 ? hit.score / top : 0)), top > 0 ? score / top : 0];
        support = this.#support(ids, relative)![ids.length - 1]!;
      }
      return {
        parts: this.#parts(prepared, chunkId, score, top, support),
        lean: prepared.lean,
        asksForAuxiliary: prepared.asksForAuxiliary,
        asksForHistory: prepared.asksForHistory,
        asksForPlace: prepared.asksForPlace,
        kind: prepared.kind,
        evidenceWeight: prepared.evidenceWeight,
        types: prepared.types,
      };
    } finally {
      this.#release(prepared);
    }
  }

  /** The explanation tree of a second-stage score around the chunk's BM25F explanation. */
  explain(query: string, chunkId: number, first: Explanation, top: number, projects: readonly number[] = []): Explanation {
    const { parts, lean, asksForAuxiliary, asksForHistory, asksForPlace, kind, evidenceWeight, types } = this.explainParts(query, chunkId, first.value, top, projects);
    const o = this.#options;
    const flags = this.#flags[chunkId]!;
    const named = projects.map((p) => this.#projects.names[p - 1]).join(', ');
    return {
      value: parts.score,
      description:
        'second stage: scope · (a · h · d · t · (s / s_top + proximity · phrase + coverage · covered + definition · defined + explanation · explained + sectionSupport · support + answerEvidence[kind] · evidence + answerType · typed) + modality · (1 + side · lean))',
      details: [
        { value: parts.relative, description: `s / s_top: BM25F score relative to the query's best (${top})`, details: [first] },
        { value: parts.phrase, description: `phrase: share of adjacent query word pairs found in order within ${o.proximityWindow} words (weight ${o.proximity})` },
        { value: parts.covered, description: `covered: share of the query's term weight found in the chunk (weight ${o.coverage})` },
        {
          value: parts.defined,
          description: asksForPlace
            ? `defined: share of the query's identifiers this code chunk defines, or 1 when its own name is a word of this place question or adjacent words of it joined (weight ${o.definition})`
            : `defined: share of the query's identifiers this code chunk defines (weight ${o.definition})`,
        },
        {
          value: parts.explained,
          description: asksForPlace
            ? `explained: 0, the question asks where a name lives (${kind} is one of placeKinds): only its definition answers (weight ${o.explanation})`
            : `explained: share of the query's identifiers this prose chunk spells as inline code (weight ${o.explanation})`,
        },
        {
          value: parts.support,
          description: `support: best relative first-stage score of another, non-overlapping candidate of the same function or section (weight ${o.sectionSupport})`,
        },
        {
          value: parts.evidence,
          description: `evidence: the question asks for ${kind === 'explain' ? 'an explanation' : `${kind === 'error' ? 'an' : 'a'} ${kind}`}; 1 when this code chunk carries that kind of fact (weight ${evidenceWeight})`,
        },
        {
          value: parts.typed,
          description:
            types.length > 0
              ? `typed: the question asks for a value of type ${types.join(' or ')}; 1 when this chunk spells one (weight ${o.answerType})`
              : `typed: the question names no type of value, so 0 (weight ${o.answerType})`,
        },
        {
          value: parts.auxiliary,
          description:
            flags & AUXILIARY
              ? asksForAuxiliary
                ? 'a: test/example/benchmark chunk, but the query asks for one, so 1'
                : `a: test/example/benchmark chunk, the query asks for none (auxiliaryFactor ${o.auxiliaryFactor})`
              : 'a: implementation chunk, 1',
        },
        {
          value: parts.history,
          description:
            flags & HISTORY
              ? asksForHistory
                ? 'h: release notes or changelog, but the query asks about releases or history, so 1'
                : `h: release notes or changelog, the query asks about no release (historyFactor ${o.historyFactor})`
              : 'h: not a history page, 1',
        },
        {
          value: parts.described,
          description: !readsAsDescriptionAt(this.#index.data.features, chunkId)
            ? 'd: a chunk that does more than describe, 1'
            : asksForPlace
              ? 'd: a code chunk that reads as a description, but the question asks for a place, so 1'
              : `d: a code chunk that reads as a description: mostly docstrings and comments (descriptionFactor ${o.descriptionFactor})`,
        },
        {
          value: parts.stub,
          description: isStubAt(this.#index.data.features, chunkId)
            ? `t: a docs chunk of titles and markup only, whose words the code fills in when the docs are built (stubFactor ${o.stubFactor})`
            : 't: a chunk with words of its own, 1',
        },
        {
          value: 1 + parts.side * lean,
          description: `1 + side · lean: ${flags & PROSE ? 'prose' : 'code'} chunk, query lean ${lean.toFixed(4)} toward prose (weight ${o.modality})`,
        },
        {
          value: parts.scope,
          description:
            projects.length === 0
              ? 'scope: the question names no project of the corpus, so 1'
              : parts.scope === 1
                ? `scope: the question names ${named} and this chunk is there, so 1`
                : `scope: the question names ${named} and this chunk is elsewhere (projectFactor ${o.projectFactor})`,
        },
      ],
    };
  }

  /** Section support of each candidate (see `sectionSupport`); `undefined` when it is off. */
  #support(ids: readonly number[], relative: readonly number[]): Float64Array | undefined {
    return this.#options.sectionSupport > 0 ? sectionSupport(ids, relative, this.#chunks, this.#flags) : undefined;
  }

  #parts(prepared: PreparedQuery, chunkId: number, score: number, top: number, support: number): RerankParts {
    const o = this.#options;
    const flags = this.#flags[chunkId]!;
    const relative = top > 0 ? score / top : 0;
    const scan = this.#scan;
    if (o.proximity > 0 || o.coverage > 0 || prepared.definitions.length > 0) {
      scan.scan(this.#index.data, this.#index.postings, chunkId, this.#slotOf, prepared.slotIds.length, o.proximityWindow);
    }
    const phrase = o.proximity > 0 ? phraseScore(scan, prepared.pairs, o.proximityWindow) : 0;
    const covered = o.coverage > 0 ? coverageScore(scan, prepared.slotWeights) : 0;
    // Prose mentions names; only code defines them. Both were read from the text when the
    // index was built (`ChunkFeatures`): a search reads no chunk text.
    const features = this.#index.data.features;
    let defined = 0;
    let explained = 0;
    if (prepared.definitions.length > 0) {
      let found = 0;
      for (const { slot } of prepared.definitions) {
        if (scan.perSlot[slot] !== 0 && hasName(features, chunkId, prepared.slotIds[slot]!)) found++;
      }
      if (flags & PROSE) explained = prepared.asksForPlace ? 0 : found / prepared.definitions.length;
      else defined = found / prepared.definitions.length;
    }
    // A place question ("where is jsonify implemented?") is answered by the code chunk that
    // is the named thing itself: its own name (the symbol's last part) is a word of the
    // question, spelled alike ("Session" names the class, not the `session()` helper).
    if (prepared.placeNames.size > 0 && !(flags & PROSE)) {
      const symbol = this.#chunks[chunkId]!.symbol;
      if (prepared.placeNames.has(symbol.slice(symbol.lastIndexOf('.') + 1))) defined = 1;
    }
    // Only code is judged: prose states every kind of fact in words alike.
    const evidence = prepared.evidenceWeight > 0 && !(flags & PROSE) && carriesEvidence(features, chunkId, prepared.kind as EvidenceKind) ? 1 : 0;
    // Unlike the kinds of fact, a value's type is spelled alike in prose and code.
    const typed = prepared.types.length > 0 && spellsAnyType(features, chunkId, prepared.types) ? 1 : 0;
    const auxiliary = flags & AUXILIARY && !prepared.asksForAuxiliary ? o.auxiliaryFactor : 1;
    // A release note names the feature it changed; a question about the feature means what it does now.
    const history = flags & HISTORY && !prepared.asksForHistory ? o.historyFactor : 1;
    // A class header or an abstract method says what happens; the code that does it answers
    // how, when and why. Where a thing is defined, its header is the answer.
    const described = !prepared.asksForPlace && readsAsDescriptionAt(features, chunkId) ? o.descriptionFactor : 1;
    // An autodoc stub's words are the code's, filled in when the site is built: the sources hold none.
    const stub = isStubAt(features, chunkId) ? o.stubFactor : 1;
    const side = flags & PROSE ? 1 : -1;
    const scope = prepared.projects.length > 0 && !prepared.projects.includes(this.#projects.projectOf(chunkId)) ? o.projectFactor : 1;
    const value =
      scope *
      (auxiliary *
        history *
        described *
        stub *
        (relative +
          o.proximity * phrase +
          o.coverage * covered +
          o.definition * defined +
          o.explanation * explained +
          o.sectionSupport * support +
          prepared.evidenceWeight * evidence +
          o.answerType * typed) +
        o.modality * (1 + side * prepared.lean));
    return { relative, phrase, covered, defined, explained, support, evidence, typed, auxiliary, history, described, stub, side, scope, score: value };
  }

  #prepare(query: string, terms: readonly ResolvedQueryTerm[], projects: readonly number[]): PreparedQuery {
    const shape = this.#shape(query);
    const weightOf = new Map(terms.map((term) => [term.term, term]));
    // Every distinct query term gets a slot, in query order.
    const slotIds = terms.map((term) => term.id);
    const slotWeights = terms.map((term) => term.weight);
    slotIds.forEach((id, slot) => (this.#slotOf[id] = slot));
    const slotFor = (term: string): number => {
      const resolved = weightOf.get(term);
      return resolved ? this.#slotOf[resolved.id]! : -1;
    };
    const pairs: QueryPair[] = [];
    if (this.#options.proximity > 0) {
      for (let i = 0; i + 1 < shape.words.length; i++) {
        const a = shape.words[i]![0]!;
        const b = shape.words[i + 1]![0]!;
        if (a === b) continue;
        const first = slotFor(a);
        const second = slotFor(b);
        if (first < 0 || second < 0) continue;
        pairs.push({ first, second, weight: Math.min(weightOf.get(a)!.weight, weightOf.get(b)!.weight) });
      }
    }
    const lean = this.leanOf(terms.map((term) => term.id)) ?? 0;
    const kind = detectAnswerKind(query);
    // The question's own words: "documented" need not occur in the corpus to say what is asked.
    const asksForPlace = this.#options.placeKinds.includes(kind) && !shape.words.some((variants) => variants.some((term) => this.#documentationTerms.has(term)));
    return {
      projects,
      kind,
      evidenceWeight: kind in this.#options.answerEvidence ? this.#options.answerEvidence[kind as EvidenceKind] : 0,
      shape,
      pairs,
      slotIds,
      slotWeights,
      definitions: this.#definitions(shape.separatedIdentifiers, slotFor),
      lean,
      asksForAuxiliary: terms.some((term) => this.#auxiliaryTerms.has(term.term)),
      // The question's own words: a changelog need not say "release" for a question to ask about one.
      asksForHistory: shape.words.some((variants) => variants.some((term) => this.#historyTerms.has(term))),
      asksForPlace,
      types: this.#options.answerType > 0 ? answerTypesOf(query) : [],
      placeNames: asksForPlace ? placeNamesOf(query) : NO_NAMES,
    };
  }

  #definitions(identifiers: readonly string[], slotFor: (term: string) => number): { name: string; slot: number }[] {
    if (this.#options.definition === 0 && this.#options.explanation === 0) return [];
    const definitions: { name: string; slot: number }[] = [];
    for (const identifier of identifiers) {
      const name = identifierTerm(identifier);
      const slot = slotFor(name);
      if (slot >= 0 && !definitions.some((known) => known.name === name)) definitions.push({ name, slot });
    }
    return definitions;
  }

  #release(prepared: PreparedQuery): void {
    for (const id of prepared.slotIds) this.#slotOf[id] = -1;
  }
}
