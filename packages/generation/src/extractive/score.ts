import { definedNames, tokenize, tokenizeQuery } from '@rag/text';
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
}

export interface ScoringStatistics {
  /** Units of all the given sources: the collection idf is computed over. */
  unitCount: number;
  documentFrequency: Map<string, number>;
}

/** Units longer than this many terms start to lose score: long units match by chance. */
const LENGTH_PIVOT = 30;
/** Each later source counts this much less (rank r is divided by 1 + r × this). */
const RANK_DECAY = 0.3;
/**
 * A code unit that defines a name the question mentions (the constant, function, class,
 * attribute or parameter asked about) is likely the answer rather than a mere use of it.
 */
const DEFINITION_BOOST = 1.2;
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

export function unitTerms(unit: TextUnit): { terms: Set<string>; length: number } {
  const all = tokenize([unit.display, unit.note ?? '', unit.context ?? ''].join('\n'));
  return { terms: new Set(all), length: all.length };
}

export function queryTerms(question: string): { term: string; weight: number }[] {
  return tokenizeQuery(question);
}

/**
 * Scores `units` for the question, in place: the idf-weighted query terms each unit
 * contains, damped for long units and later-ranked sources, raised for definition lines.
 */
export function scoreUnits(units: ScoredUnit[], query: readonly { term: string; weight: number }[], stats: ScoringStatistics): void {
  const idf = new Map(query.map((q) => [q.term, inverseFrequency(stats, q.term)]));
  const asked = new Set(query.map((q) => q.term));
  for (const scored of units) {
    let sum = 0;
    let matched = 0;
    for (const { term, weight } of query) {
      if (!scored.terms.has(term)) continue;
      sum += weight * idf.get(term)!;
      matched++;
    }
    const lengthDamping = 1 / (1 + Math.max(0, scored.length - LENGTH_PIVOT) / (2 * LENGTH_PIVOT));
    const rankDamping = 1 / (1 + RANK_DECAY * scored.sourceIndex);
    const boost = matched > 0 && scored.unit.kind === 'code' && definedNames(scored.unit.display).some((n) => asked.has(n)) ? DEFINITION_BOOST : 1;
    scored.score = sum * lengthDamping * rankDamping * boost;
    scored.matched = matched;
  }
}
