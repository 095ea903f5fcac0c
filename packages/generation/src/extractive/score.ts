import { definedNames, spellsAnswerType, tokenize, tokenizeQuery, type AnswerType, type QueryTerm } from '@rag/text';
import type { AnswerKind } from '../answer-kind.js';
import { carriesKind } from './evidence.js';
import type { TextUnit } from './units.js';

/** A unit of one source with what scoring needs. */
export interface ScoredUnit {
  unit: TextUnit;
  /** 0-based position of the unit's source in the request (its rank). */
  sourceIndex: number;
  /** Distinct index terms of the unit. */
  terms: Set<string>;
  /** Number of index terms, repeats included (the unit's length). */
  length: number;
  score: number;
  /** How many distinct query terms the unit contains. */
  matched: number;
  /** Share of the question's idf-weighted terms the unit contains, in [0, 1]. */
  coverage: number;
  /** A code unit that defines a name the question mentions (set by `scoreUnits`). */
  defines?: boolean;
  /** The unit carries the kind of fact the question asks for (set by `scoreUnits`, see `carriesKind`). */
  carries?: boolean;
  /** A sentence ending in a colon right before a list item or table row of its source: it introduces a list. */
  introducesList?: boolean;
  /** The unit comes from documentation, not from a code file. */
  fromDocs: boolean;
  /** Terms of the unit's source's symbol and path: where it stands, counted for coverage only. */
  placeTerms: ReadonlySet<string>;
}

export interface ScoringStatistics {
  /** Units of all the given sources: the collection idf is computed over. */
  unitCount: number;
  documentFrequency: Map<string, number>;
}

/** Units longer than this many terms start to lose score: long units match by chance. */
const LENGTH_PIVOT = 30;
/**
 * Each later source counts this much less (rank r is divided by 1 + r × this). 0.5 since
 * retrieval joins the adjacent chunks of a code hit into one source (`rerank.joinSpan` of
 * @rag/bm25): a later source then brings more lines, and at 0.3 their matches crowded out
 * the top source's. Decided on the development answer sets (`pnpm bench:answers`): with
 * joined sources 0.5 stated 4 more facts than 0.3; without joins the two tie.
 */
const RANK_DECAY = 0.5;
/**
 * A code unit that defines a name the question mentions (the constant, function, class,
 * attribute or parameter asked about) is likely the answer rather than a mere use of it.
 */
const DEFINITION_BOOST = 1.2;
/**
 * A unit that carries the kind of fact the question asks for (the assignment for a default,
 * the `raise` for an error, …; see `carriesKind`) is what the answer should lead with: its
 * score is multiplied by this much.
 */
const KIND_BOOST = 1.5;
/**
 * Kinds whose carrying units are worth more than {@link KIND_BOOST}. A how-to is answered by
 * an instruction or a command, never by the sentence that says what the feature is, however
 * many of the question's words that sentence repeats; a default question by the assignment
 * or the "defaults to" sentence, not by the prose around the setting; "what happens when
 * …" by the branch that runs then, not by the lines that mention the same names. Chosen on
 * the development answer sets (`pnpm bench:answers`, see docs/benchmarks.md); the other
 * kinds gained nothing or lost above 1.5 (error and list questions lost), consequences
 * gained most at 2 (3 and 4 lost as many development questions as they won), and so did
 * "how is X computed" (1.5 and 1.75 one question fewer than 2, 3 lost two).
 */
const KIND_BOOSTS: Readonly<Partial<Record<AnswerKind, number>>> = Object.freeze({ how: 4, default: 3, consequence: 2, mechanism: 2 });
/**
 * A unit that spells a value of the type the question's focus names (a MIME type for
 * "which content type", `--a-flag` for "which flag"; `answerTypesOf` of @rag/text) counts
 * this much more. Chosen on the development answer sets: the content-type, flag and
 * duration rules each answered one more question, the others none more and none less;
 * 2.5 lost a question on werkzeug code.
 */
const TYPE_BOOST = 1.5;
/**
 * Coverage weighs terms by idf over the retrieved units, but never below this: among two or
 * three short sources a word they all share ("port", "server") would otherwise weigh nothing
 * and the question would seem to be about its one missing filler word.
 */
export const COVERAGE_IDF_FLOOR = 1;
export function collectStatistics(units: readonly { terms: Set<string> }[]): ScoringStatistics {
  const documentFrequency = new Map<string, number>();
  for (const unit of units) for (const term of unit.terms) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  return { unitCount: units.length, documentFrequency };
}

/** BM25's idf, always positive: rare terms among the retrieved units say the most. */
export function inverseFrequency(stats: ScoringStatistics, term: string): number {
  const df = stats.documentFrequency.get(term) ?? 0;
  return Math.log(1 + (stats.unitCount - df + 0.5) / (df + 0.5));
}

/**
 * A number as written in prose or code: `-1`, `2048`, `0.85`, `3.10`, not a digit inside a
 * name (`8x2048`, `fp16`, `v2`). The index's tokenizer drops numbers; a question that names
 * one ("more than one -1 in the shape") points at the line that writes it.
 */
const NUMBER = /(?<![\w.])-?\d+(?:\.\d+)?(?![\w.]*\w)/g;
/** Numbers are matched as terms under this prefix, which no word the tokenizer makes has. */
const NUMBER_TERM = '#';

const DIGIT = /\d/;

function numberTerms(text: string): string[] {
  if (!DIGIT.test(text)) return [];
  return (text.match(NUMBER) ?? []).map((n) => `${NUMBER_TERM}${n}`);
}

export function unitTerms(unit: TextUnit): { terms: Set<string>; length: number } {
  const main = unit.matched ?? unit.display;
  const text = unit.note === undefined && unit.context === undefined ? main : [main, unit.note ?? '', unit.context ?? ''].join('\n');
  const all = tokenize(text);
  const terms = new Set(all);
  for (const term of numberTerms(text)) terms.add(term);
  return { terms, length: all.length };
}

/**
 * The question's index terms, and the numbers it writes as terms of weight 1 (marked as
 * expansions: not words a "not found" answer names or weighs by rarity).
 */
export function queryTerms(question: string): QueryTerm[] {
  const terms = tokenizeQuery(question);
  const seen = new Set(terms.map((q) => q.term));
  for (const term of numberTerms(question)) {
    if (seen.has(term)) continue;
    seen.add(term);
    terms.push({ term, weight: 1, expansion: true });
  }
  return terms;
}

/**
 * Scores `units` for the question, in place: the idf-weighted query terms each unit
 * contains, damped for long units and later-ranked sources, raised for definition lines,
 * for lines that carry the kind of fact asked (`kind`) and for those that spell a value of
 * the asked type (`types`, from `answerTypesOf`). A line defines what the question names
 * when it defines one of its terms or one of `spelledNames` (`namesSpelledInWords`).
 */
export function scoreUnits(
  units: ScoredUnit[],
  query: readonly QueryTerm[],
  stats: ScoringStatistics,
  kind: AnswerKind = 'explain',
  types: readonly AnswerType[] = [],
  spelledNames: readonly string[] = [],
): void {
  const idf = new Map(query.map((q) => [q.term, inverseFrequency(stats, q.term)]));
  // Names the question spells; the short forms added for it (`env` for "environment") are not.
  const asked = new Set(query.filter((q) => !q.expansion).map((q) => q.term));
  // Names the question spells in words ("the sandboxed environment"), lowercased as `definedNames` gives them.
  const spelled = new Set(spelledNames.map((name) => name.toLowerCase()));
  const coverageWeight = new Map(query.map((q) => [q.term, q.weight * Math.max(COVERAGE_IDF_FLOOR, idf.get(q.term)!)]));
  let total = 0;
  for (const { term } of query) total += coverageWeight.get(term)!;
  for (const scored of units) {
    let sum = 0;
    let matched = 0;
    let covered = 0;
    for (const { term, weight } of query) {
      if (!scored.terms.has(term)) {
        if (scored.placeTerms.has(term)) covered += coverageWeight.get(term)!;
        continue;
      }
      sum += weight * idf.get(term)!;
      covered += coverageWeight.get(term)!;
      matched++;
    }
    const lengthDamping = 1 / (1 + Math.max(0, scored.length - LENGTH_PIVOT) / (2 * LENGTH_PIVOT));
    const rankDamping = 1 / (1 + RANK_DECAY * scored.sourceIndex);
    // A docstring's example (`loader = FileSystemLoader("templates")`) shows how to call the
    // code; it defines nothing and sets no default.
    const example = scored.unit.kind === 'code' && scored.unit.doc === true;
    const defines = matched > 0 && scored.unit.kind === 'code' && !example && definedNames(scored.unit.display).some((n) => asked.has(n) || spelled.has(n));
    // "Where is X implemented?" is answered by the line that defines X.
    // A list is carried by its items and rows, and by the sentence that introduces them (which brings them, see `leadCompletion`).
    const carries =
      matched > 0 && (kind === 'where' ? defines : example ? kind === 'how' : carriesKind(scored.unit, kind, scored.fromDocs) || (kind === 'list' && scored.introducesList === true));
    const typed = matched > 0 && types.some((type) => spellsAnswerType(scored.unit.display, type));
    scored.score = sum * lengthDamping * rankDamping * (defines ? DEFINITION_BOOST : 1) * (carries ? (KIND_BOOSTS[kind] ?? KIND_BOOST) : 1) * (typed ? TYPE_BOOST : 1);
    scored.matched = matched;
    scored.defines = defines;
    scored.carries = carries;
    // A line of `Llama.forward` answers a question about "Llama's forward method" without
    // repeating the class name: the place counts for coverage, not for the score.
    scored.coverage = total > 0 ? covered / total : 0;
  }
}
