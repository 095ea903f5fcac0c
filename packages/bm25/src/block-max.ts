import type { Hit } from '@rag/core';
import type { PruningStats } from './max-score.js';
import { drainHeap, newHeap, offerToHeap, type Heap } from './top-k.js';

/**
 * Chunk ids per block of the first stage's block bounds, as a power of two (5: 32 chunks).
 * Smaller blocks give tighter bounds (fewer postings summed) but more blocks to bound and
 * visit per query; how the size was chosen is in docs/scaling.md.
 */
export const DEFAULT_BLOCK_SHIFT = 5;

/**
 * A term's postings cut at fixed chunk-id blocks, listing only the blocks the term occurs
 * in (a rare term's table is as short as its list): for each, where its postings start in
 * the list and the largest impact among them. Made once per term, next to its impacts.
 */
export interface BlockTable {
  /** The blocks the term occurs in, ascending (block = chunk id >> shift). */
  blocks: Uint32Array;
  /** `starts[j]` = the first posting of `blocks[j]`; `starts[blocks.length]` = the list's length. */
  starts: Uint32Array;
  /** The largest impact among the postings of `blocks[j]`. */
  maxima: Float64Array;
  /**
   * For a term in more than 1 / {@link DENSE_TABLE_SHARE} of all blocks: where every block
   * starts in its list (`denseStarts[b]` … `denseStarts[b + 1]`), so a visit needs no cursor
   * stepping through the blocks it skipped.
   */
  denseStarts?: Uint32Array;
}

/** A term in more than 1 / this share of the blocks also gets a start for every block. */
export const DENSE_TABLE_SHARE = 8;

/** One query term's list as the block loop reads it: chunk ids ascending, with their impacts. */
export interface BlockedList {
  docs: Uint32Array;
  impacts: Float64Array;
  table: BlockTable;
}

/** The block table of a posting list whose chunk ids ascend, over `blockCount` blocks of `1 << shift` chunks. */
export function tabulateBlocks(docs: Uint32Array, impacts: Float64Array, shift: number, blockCount: number): BlockTable {
  let count = 0;
  let previous = -1;
  for (let p = 0; p < docs.length; p++) {
    const block = docs[p]! >>> shift;
    if (block !== previous) {
      count++;
      previous = block;
    }
  }
  const blocks = new Uint32Array(count);
  const starts = new Uint32Array(count + 1);
  const maxima = new Float64Array(count);
  let j = -1;
  previous = -1;
  for (let p = 0; p < docs.length; p++) {
    const block = docs[p]! >>> shift;
    if (block !== previous) {
      j++;
      blocks[j] = block;
      starts[j] = p;
      previous = block;
    }
    if (impacts[p]! > maxima[j]!) maxima[j] = impacts[p]!;
  }
  starts[count] = docs.length;
  if (count * DENSE_TABLE_SHARE <= blockCount) return { blocks, starts, maxima };
  const denseStarts = new Uint32Array(blockCount + 1);
  let block = 0;
  for (let p = 0; p < docs.length; p++) {
    const at = docs[p]! >>> shift;
    while (block < at) denseStarts[++block] = p;
  }
  while (block < blockCount) denseStarts[++block] = docs.length;
  return { blocks, starts, maxima, denseStarts };
}

/** Bytes a block table holds, so a cache of impacts can count it. */
export function blockTableBytes(table: BlockTable): number {
  return table.blocks.byteLength + table.starts.byteLength + table.maxima.byteLength + (table.denseStarts?.byteLength ?? 0);
}

/** Position of `block` in an ascending table, or -1. */
function findBlock(blocks: Uint32Array, block: number): number {
  let lo = 0;
  let hi = blocks.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = blocks[mid]!;
    if (at === block) return mid;
    if (at < block) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Blocks whose bounds seed the floor before the pass in id order (see takeTopKBlocks). */
const SEED_BLOCKS = 16;

/**
 * Query-time buffers sized to the corpus's blocks, made once per index, so a query allocates
 * nothing proportional to the corpus.
 */
export class BlockSearch {
  readonly #shift: number;
  readonly #count: number;
  readonly #bounds: Float64Array;
  readonly #seeded: Uint8Array;

  /** For `count` chunks in blocks of `1 << shift`. */
  constructor(count: number, shift: number) {
    this.#shift = shift;
    this.#count = count;
    const blockCount = count === 0 ? 0 : ((count - 1) >>> shift) + 1;
    this.#bounds = new Float64Array(blockCount);
    this.#seeded = new Uint8Array(blockCount);
  }

  get shift(): number {
    return this.#shift;
  }

  /** Blocks of the corpus. */
  get blockCount(): number {
    return this.#bounds.length;
  }

  /**
   * The best `k` chunks (score descending, ties to the lower id) of the weighted sum of
   * `lists`, equal — ids and scores, bit for bit — to summing every posting.
   *
   * A block's bound is Σ_t w_t · (the term's largest impact in it), added in query-term
   * order: a chunk's score is the same sum over smaller or equal products (a missing term
   * adds exactly 0), and floating-point multiplication and addition are monotonic, so no
   * score exceeds its block's bound. A block is summed only while its bound is at least the
   * weakest kept score (an equal score may still win on a lower id). To raise that floor
   * early, the blocks with the best bounds are summed first; then every other block in id
   * order, so the lists are read forward. Within a block the additions are the exhaustive
   * loop's, in its order. `scores` (one per chunk) must be zero on entry and is zero on return.
   * With `scope`, only its chunks are kept (the bounds stay bounds: a scope only removes
   * candidates).
   */
  topK(lists: readonly BlockedList[], weights: readonly number[], scores: Float64Array, k: number, stats?: PruningStats, scope?: Uint8Array): Hit[] {
    const count = this.#count;
    const capacity = Math.min(k, count);
    if (capacity <= 0 || lists.length === 0) return [];
    const shift = this.#shift;
    const bounds = this.#bounds;
    const seeded = this.#seeded;
    const termCount = lists.length;
    // Plain arrays of typed arrays, so the loops below see one shape each.
    const docLists: Uint32Array[] = [];
    const impactLists: Float64Array[] = [];
    const blockLists: Uint32Array[] = [];
    const startLists: Uint32Array[] = [];
    // A term's start for every block, or an empty array when it has only the compact table.
    const denseLists: Uint32Array[] = [];
    const termWeights = new Float64Array(termCount);
    const cursors = new Uint32Array(termCount);
    bounds.fill(0);
    for (let t = 0; t < termCount; t++) {
      const { docs, impacts, table } = lists[t]!;
      docLists.push(docs);
      impactLists.push(impacts);
      blockLists.push(table.blocks);
      startLists.push(table.starts);
      denseLists.push(table.denseStarts ?? NO_DENSE_STARTS);
      const weight = weights[t]!;
      termWeights[t] = weight;
      const { blocks, maxima } = table;
      for (let j = 0; j < blocks.length; j++) bounds[blocks[j]!]! += weight * maxima[j]!;
    }
    const heap: Heap = newHeap(capacity);
    let size = 0;
    let postingsVisited = 0;
    let blocksVisited = 0;
    const seeds = bestBlocks(bounds, SEED_BLOCKS);
    for (let i = 0; i < seeds.length; i++) {
      const block = seeds[i]!;
      seeded[block] = 1;
      for (let t = 0; t < termCount; t++) {
        const dense = denseLists[t]!;
        if (dense.length > 0) {
          postingsVisited += sumPostings(docLists[t]!, impactLists[t]!, dense, block, termWeights[t]!, scores);
          continue;
        }
        const j = findBlock(blockLists[t]!, block);
        if (j >= 0) postingsVisited += sumPostings(docLists[t]!, impactLists[t]!, startLists[t]!, j, termWeights[t]!, scores);
      }
      size = takeBlock(scores, block << shift, Math.min(count, (block + 1) << shift), heap, size, capacity, scope);
      blocksVisited++;
    }
    for (let block = 0; block < bounds.length; block++) {
      if (seeded[block] === 1) {
        seeded[block] = 0;
        continue;
      }
      const bound = bounds[block]!;
      if (!(bound > 0) || (size === capacity && heap.values[0]! > bound)) continue;
      for (let t = 0; t < termCount; t++) {
        const dense = denseLists[t]!;
        if (dense.length > 0) {
          postingsVisited += sumPostings(docLists[t]!, impactLists[t]!, dense, block, termWeights[t]!, scores);
          continue;
        }
        const blocks = blockLists[t]!;
        let j = cursors[t]!;
        while (j < blocks.length && blocks[j]! < block) j++;
        cursors[t] = j;
        if (j < blocks.length && blocks[j] === block) postingsVisited += sumPostings(docLists[t]!, impactLists[t]!, startLists[t]!, j, termWeights[t]!, scores);
      }
      size = takeBlock(scores, block << shift, Math.min(count, (block + 1) << shift), heap, size, capacity, scope);
      blocksVisited++;
    }
    if (stats) {
      stats.postingsVisited += postingsVisited;
      stats.blocksVisited = (stats.blocksVisited ?? 0) + blocksVisited;
    }
    return drainHeap(heap, size);
  }
}

const NO_DENSE_STARTS = new Uint32Array(0);

/** Adds the postings of the `j`-th block of one term's list to `scores`; returns how many. */
function sumPostings(docs: Uint32Array, impacts: Float64Array, starts: Uint32Array, j: number, weight: number, scores: Float64Array): number {
  const end = starts[j + 1]!;
  const begin = starts[j]!;
  for (let p = begin; p < end; p++) scores[docs[p]!]! += weight * impacts[p]!;
  return end - begin;
}

/**
 * Offers the chunks `first … last − 1` (those in `scope`, when one is given) to a heap of
 * `size` entries and clears their scores; returns the heap's new size.
 */
function takeBlock(scores: Float64Array, first: number, last: number, heap: Heap, size: number, capacity: number, scope: Uint8Array | undefined): number {
  // A chunk outside the scope scores 0 here: it never enters, and the loop below stays the one unscoped searches run.
  if (scope !== undefined) for (let id = first; id < last; id++) if (scope[id] !== 1) scores[id] = 0;
  // Below the weakest kept score (0 until the heap is full) a chunk costs one comparison.
  let floor = size === capacity ? heap.values[0]! : 0;
  for (let id = first; id < last; id++) {
    const score = scores[id]!;
    scores[id] = 0;
    if (score < floor || score === 0) continue;
    size = offerToHeap(heap, size, capacity, id, score);
    if (size === capacity) floor = heap.values[0]!;
  }
  return size;
}

/** The `count` blocks with the highest positive bounds (ties: the lower block), in no particular order. */
function bestBlocks(bounds: Float64Array, count: number): Uint32Array {
  // The hits' heap, over blocks and their bounds: the same order and tie rule.
  const heap = newHeap(count);
  let size = 0;
  for (let block = 0; block < bounds.length; block++) size = offerToHeap(heap, size, count, block, bounds[block]!);
  return heap.ids.subarray(0, size);
}
