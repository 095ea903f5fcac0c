import type { Hit } from '@rag/core';
import type { TermPostings } from './postings.js';
import { fieldTermWeight, termContribution } from './scoring.js';

/** What the pruned first stage reads: the index's postings and query-time norms. */
export interface ScoringView {
  /** Number of fields (`FIELD_NAMES.length`). */
  fieldCount: number;
  /** Term `id`'s postings in field `f`. */
  postings(f: number, id: number): TermPostings;
  /** 1 / B_f(d) per field. */
  inverseNorms: readonly Float64Array[];
  /** Weight of each field (0: not scored). */
  fieldWeights: readonly number[];
  k1: number;
}

/** A query term as the first stage scores it. */
export interface ScoredTerm {
  id: number;
  /** queryWeight · idf. */
  weight: number;
}

/** Work done by one pruned search, for benchmarks. */
export interface PruningStats {
  /** Posting entries read: cursor steps plus the entries skip searches looked at. */
  postingsVisited: number;
  /** Blocks of chunks summed, when the first stage skips blocks (see `FirstStageOptions.blocks`). */
  blocksVisited?: number;
}

/**
 * Per term and field, the largest `weight_f · tf · 1/B_f(d)` over the term's postings: with
 * them, `termContribution(w, Σ_f bound_f)` bounds what the term can add to any chunk.
 * Computed lazily, once per term, and kept (a server asks about the same terms again).
 */
export class TermBounds {
  readonly #view: ScoringView;
  /** termCount × fields; NaN until computed. */
  readonly #bounds: Float64Array;

  constructor(view: ScoringView, termCount: number) {
    this.#view = view;
    this.#bounds = new Float64Array(termCount * view.fieldCount).fill(Number.NaN);
  }

  /** Σ_f of the term's per-field bounds (its largest combined frequency, loosely). */
  combinedBound(id: number): number {
    const { fieldCount: count, inverseNorms, fieldWeights } = this.#view;
    let sum = 0;
    for (let f = 0; f < count; f++) {
      let bound = this.#bounds[id * count + f]!;
      if (Number.isNaN(bound)) {
        bound = 0;
        const weight = fieldWeights[f]!;
        if (weight > 0) {
          const { docs, tfs } = this.#view.postings(f, id);
          const norms = inverseNorms[f]!;
          for (let p = 0; p < docs.length; p++) bound = Math.max(bound, fieldTermWeight(weight, tfs[p]!, norms[docs[p]!]!));
        }
        this.#bounds[id * count + f] = bound;
      }
      sum += bound;
    }
    return sum;
  }
}

const NONE = 0xffffffff;
/** Bounds are compared with this much slack, so float rounding can never prune a chunk that belongs in the top k. */
const SLACK = 1 + 1e-9;

/**
 * The best `k` chunks of the first stage by MaxScore (Turtle and Flood): terms sorted by
 * how much they can add; once `k` chunks are held, the weakest terms whose bounds together
 * cannot beat the k-th score no longer propose chunks, and a chunk's remaining terms are
 * looked up only while they could still lift it past the k-th score. Every chunk kept is
 * scored exactly as the exhaustive search scores it (terms in query order, fields in field
 * order), so the result — ids, scores and order — equals exhaustive scoring followed by
 * `selectTopK`.
 */
export function maxScoreTopK(view: ScoringView, terms: readonly ScoredTerm[], k: number, bounds: TermBounds, stats?: PruningStats): Hit[] {
  const n = terms.length;
  if (n === 0 || k < 1) return [];
  const { fieldCount, inverseNorms, fieldWeights, k1 } = view;
  // Upper bound of each term's contribution; terms ordered by it, weakest first.
  const upper = terms.map((term) => termContribution(term.weight, bounds.combinedBound(term.id), k1));
  const order = terms.map((_, i) => i).sort((a, b) => upper[a]! - upper[b]! || a - b);
  const prefix = new Float64Array(n);
  for (let r = 0; r < n; r++) prefix[r] = (r > 0 ? prefix[r - 1]! : 0) + upper[order[r]!]!;

  // One cursor per (term, scored field with postings), in field order within a term.
  const slotStart = new Uint32Array(n + 1);
  const slotField: number[] = [];
  const slotDocs: Uint32Array[] = [];
  const slotTfs: Uint16Array[] = [];
  for (let i = 0; i < n; i++) {
    const id = terms[i]!.id;
    for (let f = 0; f < fieldCount; f++) {
      if (fieldWeights[f]! === 0) continue;
      const list = view.postings(f, id);
      if (list.docs.length > 0) {
        slotField.push(f);
        slotDocs.push(list.docs);
        slotTfs.push(list.tfs);
      }
    }
    slotStart[i + 1] = slotField.length;
  }
  const position = new Uint32Array(slotField.length);
  const end = Uint32Array.from(slotDocs, (docs) => docs.length);
  let visited = 0;
  /** The smallest head doc over term i's cursors (NONE when all are done). */
  const headOf = (i: number): number => {
    let best = NONE;
    for (let s = slotStart[i]!; s < slotStart[i + 1]!; s++) {
      if (position[s]! < end[s]!) {
        const doc = slotDocs[s]![position[s]!]!;
        if (doc < best) best = doc;
      }
    }
    return best;
  };
  const termDoc = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    termDoc[i] = headOf(i);
    for (let s = slotStart[i]!; s < slotStart[i + 1]!; s++) if (position[s]! < end[s]!) visited++;
  }
  /** Moves term i's cursors to the first posting ≥ doc (galloping, then binary search). */
  const seek = (i: number, doc: number): void => {
    for (let s = slotStart[i]!; s < slotStart[i + 1]!; s++) {
      const docs = slotDocs[s]!;
      let lo = position[s]!;
      const hi = end[s]!;
      if (lo >= hi || docs[lo]! >= doc) continue; // the head was counted when the cursor reached it
      let step = 1;
      let bound = lo + 1;
      while (bound < hi && docs[bound]! < doc) {
        visited++;
        lo = bound;
        step *= 2;
        bound = lo + step;
      }
      let top = Math.min(bound, hi);
      if (bound < hi) visited++;
      while (lo + 1 < top) {
        const mid = (lo + top) >>> 1;
        visited++;
        if (docs[mid]! < doc) lo = mid;
        else top = mid;
      }
      position[s] = top;
    }
    termDoc[i] = headOf(i);
  };
  /** Term i's combined frequency at doc from the cursors sitting on doc; steps those past it. */
  const takeAt = (i: number, doc: number): number => {
    let tf = 0;
    for (let s = slotStart[i]!; s < slotStart[i + 1]!; s++) {
      const at = position[s]!;
      if (at >= end[s]!) continue;
      const f = slotField[s]!;
      if (slotDocs[s]![at] !== doc) continue;
      tf += fieldTermWeight(fieldWeights[f]!, slotTfs[s]![at]!, inverseNorms[f]![doc]!);
      position[s] = at + 1;
      if (at + 1 < end[s]!) visited++;
    }
    termDoc[i] = headOf(i);
    return tf;
  };

  const heapIds = new Uint32Array(k);
  const heapScores = new Float64Array(k);
  let size = 0;
  const below = (a: number, b: number): boolean => heapScores[a]! < heapScores[b]! || (heapScores[a] === heapScores[b] && heapIds[a]! > heapIds[b]!);
  const swap = (a: number, b: number): void => {
    const id = heapIds[a]!;
    heapIds[a] = heapIds[b]!;
    heapIds[b] = id;
    const score = heapScores[a]!;
    heapScores[a] = heapScores[b]!;
    heapScores[b] = score;
  };
  const siftDown = (from: number, limit: number): void => {
    let i = from;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= limit) return;
      let worst = left;
      if (left + 1 < limit && below(left + 1, left)) worst = left + 1;
      if (!below(worst, i)) return;
      swap(worst, i);
      i = worst;
    }
  };
  const push = (doc: number, score: number): void => {
    if (size < k) {
      heapIds[size] = doc;
      heapScores[size] = score;
      let i = size++;
      while (i > 0) {
        const parent = (i - 1) >>> 1;
        if (!below(i, parent)) break;
        swap(i, parent);
        i = parent;
      }
    } else if (score > heapScores[0]!) {
      // Chunks come in id order, so an equal score from a later chunk ranks below: only a higher one enters.
      heapIds[0] = doc;
      heapScores[0] = score;
      siftDown(0, size);
    }
  };

  // Terms order[0 .. essentialFrom) are non-essential: together they cannot beat the k-th score.
  let essentialFrom = 0;
  const contributions = new Float64Array(n);
  const scored = new Uint32Array(n);
  for (;;) {
    let doc = NONE;
    for (let r = essentialFrom; r < n; r++) {
      const head = termDoc[order[r]!]!;
      if (head < doc) doc = head;
    }
    if (doc === NONE) break;
    const threshold = size === k ? heapScores[0]! : 0;
    let partial = 0;
    let count = 0;
    /** Adds term i's contribution at doc, when its cursors sit on doc. */
    const score = (i: number): void => {
      if (termDoc[i] !== doc) return;
      const tf = takeAt(i, doc);
      if (tf > 0) {
        contributions[i] = termContribution(terms[i]!.weight, tf, k1);
        partial += contributions[i]!;
        scored[count++] = i;
      }
    };
    for (let r = essentialFrom; r < n; r++) score(order[r]!);
    // Non-essential terms, strongest first, only while they could still lift it past the threshold.
    let possible = true;
    for (let r = essentialFrom - 1; r >= 0; r--) {
      if (size === k && (partial + prefix[r]!) * SLACK <= threshold) {
        possible = false;
        break;
      }
      seek(order[r]!, doc);
      score(order[r]!);
    }
    if (possible && count > 0) {
      // The exact score, summed in query-term order as the exhaustive search sums it.
      scored.subarray(0, count).sort();
      let total = 0;
      for (let c = 0; c < count; c++) total += contributions[scored[c]!]!;
      if (total > 0) push(doc, total);
    }
    if (size === k) {
      const kth = heapScores[0]!;
      while (essentialFrom < n && prefix[essentialFrom]! * SLACK < kth) essentialFrom++;
    }
  }
  if (stats) stats.postingsVisited += visited;
  const hits: Hit[] = new Array(size);
  for (let out = size - 1; out >= 0; out--) {
    hits[out] = { chunkId: heapIds[0]!, score: heapScores[0]! };
    swap(0, out);
    siftDown(0, out);
  }
  return hits;
}
