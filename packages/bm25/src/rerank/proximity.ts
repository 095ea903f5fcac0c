import { CONTINUES_SEGMENT, TERM_ID_MASK, type Bm25IndexData } from '../build.js';
import type { PostingSource } from '../postings.js';

/** Two query words that follow each other, as the terms that must meet in a chunk. */
export interface QueryPair {
  /** Slots (see `ChunkScan`) of the first and second word's leading terms. */
  first: number;
  second: number;
  /** How much the pair counts: the smaller weight (query weight · idf) of its two terms. */
  weight: number;
}

/**
 * Where a query's terms occur in one chunk, as word positions, reused from chunk to chunk
 * so a query allocates nothing per chunk. Slots are small integers the caller gives the
 * query's terms; `slotOf` maps a term id to its slot or -1 and is sized to the vocabulary,
 * so scanning costs one array read per term of the chunk. All terms of one word or
 * identifier share its position. The chunk's fields (body, path, symbol) are separate
 * texts: each starts `window + 1` positions after the previous one ends, so no pair of
 * words spans two of them.
 */
export class ChunkScan {
  /** Occurrences in position order: `slots[i]` was seen at `positions[i]`. */
  slots = new Int32Array(256);
  positions = new Int32Array(256);
  count = 0;
  /** Occurrences per slot in the last scan. */
  perSlot = new Int32Array(64);

  scan(data: Bm25IndexData, postings: PostingSource, doc: number, slotOf: Int32Array, slotCount: number, window: number): void {
    this.count = 0;
    if (slotCount > this.perSlot.length) this.perSlot = new Int32Array(slotCount);
    this.perSlot.fill(0, 0, slotCount);
    const terms = postings.sequence(doc);
    let i = 0;
    let position = -1;
    for (const field of data.fields) {
      const end = i + field.lengths[doc]!;
      position += window + 1;
      for (; i < end; i++) {
        const entry = terms[i]!;
        if ((entry & CONTINUES_SEGMENT) === 0) position++;
        const slot = slotOf[entry & TERM_ID_MASK]!;
        if (slot >= 0) this.#push(slot, position);
      }
    }
  }

  #push(slot: number, position: number): void {
    if (this.count === this.slots.length) {
      const slots = new Int32Array(this.count * 2);
      const positions = new Int32Array(this.count * 2);
      slots.set(this.slots);
      positions.set(this.positions);
      this.slots = slots;
      this.positions = positions;
    }
    this.slots[this.count] = slot;
    this.positions[this.count] = position;
    this.count++;
    this.perSlot[slot]!++;
  }

  /**
   * How many occurrences of slot `first` have an occurrence of slot `second` at distance
   * 0..window after them (distance 0: both in one identifier).
   */
  countFollowing(first: number, second: number, window: number): number {
    if (this.perSlot[first] === 0 || this.perSlot[second] === 0) return 0;
    let count = 0;
    for (let i = 0; i < this.count; i++) {
      if (this.slots[i] !== first) continue;
      const x = this.positions[i]!;
      // Occurrences of one position may come in any order: look back over those at x.
      let j = i;
      while (j > 0 && this.positions[j - 1] === x) j--;
      for (; j < this.count && this.positions[j]! - x <= window; j++) {
        if (this.slots[j] === second) {
          count++;
          break;
        }
      }
    }
    return count;
  }
}

/**
 * How much of a query's word order a chunk reproduces: for each pair of adjacent query
 * words, whether the second follows the first within `window` words (or sits in the same
 * identifier: "max num seqs" meets `max_num_seqs`). Σ weight · n / (n + 1) over the pairs,
 * divided by Σ weight, with n the number of places the pair occurs: in [0, 1); one
 * occurrence earns half of a pair's share, repeats add less and less.
 */
export function phraseScore(scan: ChunkScan, pairs: readonly QueryPair[], window: number): number {
  let matched = 0;
  let total = 0;
  for (const pair of pairs) {
    total += pair.weight;
    const count = scan.countFollowing(pair.first, pair.second, window);
    matched += (pair.weight * count) / (count + 1);
  }
  return total > 0 ? matched / total : 0;
}

/** Share of the query's term weight (`weights[slot]`) whose terms occur in the scanned chunk at all. */
export function coverageScore(scan: ChunkScan, weights: readonly number[]): number {
  let found = 0;
  let total = 0;
  for (let slot = 0; slot < weights.length; slot++) {
    total += weights[slot]!;
    if (scan.perSlot[slot]! > 0) found += weights[slot]!;
  }
  return total > 0 ? found / total : 0;
}
