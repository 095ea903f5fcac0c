import type { Hit } from '@rag/core';

/**
 * The best `k` hits are kept in a bounded min-heap whose root is the weakest kept one. The
 * heap holds ids and their scores side by side (`ids[i]`, `values[i]`), so it never reads the
 * corpus-sized score array again once a score is in it.
 */
export interface Heap {
  ids: Uint32Array;
  values: Float64Array;
}

export function newHeap(capacity: number): Heap {
  return { ids: new Uint32Array(capacity), values: new Float64Array(capacity) };
}

/** Whether (a, sa) ranks below (b, sb): a lower score, or the same score and a higher id. */
function ranksBelow(a: number, sa: number, b: number, sb: number): boolean {
  return sa < sb || (sa === sb && a > b);
}

/** Puts (id, score) at position `at` of a heap of `at` entries and restores the order upward. */
function siftUp({ ids, values }: Heap, at: number, id: number, score: number): void {
  let i = at;
  while (i > 0) {
    const parent = (i - 1) >>> 1;
    if (!ranksBelow(id, score, ids[parent]!, values[parent]!)) break;
    ids[i] = ids[parent]!;
    values[i] = values[parent]!;
    i = parent;
  }
  ids[i] = id;
  values[i] = score;
}

/** Replaces the root of a heap of `size` entries with (id, score) and restores the order downward. */
function siftDown({ ids, values }: Heap, size: number, id: number, score: number): void {
  let i = 0;
  for (;;) {
    const left = 2 * i + 1;
    if (left >= size) break;
    const right = left + 1;
    let worst = left;
    if (right < size && ranksBelow(ids[right]!, values[right]!, ids[left]!, values[left]!)) worst = right;
    if (!ranksBelow(ids[worst]!, values[worst]!, id, score)) break;
    ids[i] = ids[worst]!;
    values[i] = values[worst]!;
    i = worst;
  }
  ids[i] = id;
  values[i] = score;
}

/**
 * Offers (id, score) to a heap of `size` entries that keeps the best `capacity`, in any order
 * of ids; returns the new size. Only positive scores enter (see selectTopK).
 */
export function offerToHeap(heap: Heap, size: number, capacity: number, id: number, score: number): number {
  if (size < capacity) {
    if (!(score > 0)) return size;
    siftUp(heap, size, id, score);
    return size + 1;
  }
  if (ranksBelow(heap.ids[0]!, heap.values[0]!, id, score)) siftDown(heap, size, id, score);
  return size;
}

/** The heap's entries best first, as hits (the heap is consumed). */
export function drainHeap(heap: Heap, size: number): Hit[] {
  const hits: Hit[] = new Array(size);
  for (let out = size - 1; out >= 0; out--) {
    hits[out] = { chunkId: heap.ids[0]!, score: heap.values[0]! };
    siftDown(heap, out, heap.ids[out]!, heap.values[out]!);
  }
  return hits;
}

/**
 * The best `k` of the first `count` ids in `candidates` with a positive score, best first
 * (score descending, ties to the lower id so results are deterministic), only ids in
 * `scope` when one is given (see `SearchOptions.scope`). A bounded heap whose root is the
 * weakest kept candidate: O(count · log k), and only the touched ids are visited.
 */
export function selectTopK(candidates: Uint32Array, count: number, scores: Float64Array, k: number, scope?: Uint8Array): Hit[] {
  // The ids in scope first (a copy): the loop below stays the one unscoped searches run.
  if (scope !== undefined) {
    const kept = idsInScope(candidates, count, scope);
    return selectTopK(kept, kept.length, scores, k);
  }
  const capacity = Math.min(k, count);
  if (capacity <= 0) return [];
  const heap = newHeap(capacity);
  let size = 0;
  // The weakest kept score, once the heap is full: most candidates fall below it and cost
  // one comparison (ties still go through ranksBelow, which orders them by id).
  let floor = 0;
  for (let i = 0; i < count; i++) {
    const id = candidates[i]!;
    const score = scores[id]!;
    // A candidate whose contributions all underflowed to 0 (a field weight of 5e-324) matched
    // nothing, and may even be listed twice (first-touch is detected by a zero score).
    if (!(score > 0) || score < floor) continue;
    if (size < capacity) {
      siftUp(heap, size, id, score);
      size++;
      if (size === capacity) floor = heap.values[0]!;
    } else if (ranksBelow(heap.ids[0]!, heap.values[0]!, id, score)) {
      siftDown(heap, size, id, score);
      floor = heap.values[0]!;
    }
  }
  return drainHeap(heap, size);
}

/**
 * {@link selectTopK} over every id below `count` (ids 0 … count − 1 are the candidates), which
 * also leaves `scores[0 … count − 1]` zero for the next query: each score is cleared as it is
 * read, in the one pass the selection makes anyway (a separate `fill` was a second sweep over a
 * corpus-sized array).
 */
export function takeTopKDense(scores: Float64Array, count: number, k: number, scope?: Uint8Array): Hit[] {
  // A chunk outside the scope scores 0 here: it never enters, and the loop below stays the
  // one unscoped searches run.
  if (scope !== undefined) for (let id = 0; id < count; id++) if (scope[id] !== 1) scores[id] = 0;
  const capacity = Math.min(k, count);
  if (capacity <= 0) {
    scores.fill(0, 0, count);
    return [];
  }
  const heap = newHeap(capacity);
  let size = 0;
  // Ids come in ascending order, so a later id with the root's score ranks below the root:
  // only a strictly higher score enters once the heap is full, one comparison per chunk (and
  // before that, only a positive one: see selectTopK).
  let floor = 0;
  for (let id = 0; id < count; id++) {
    const score = scores[id]!;
    scores[id] = 0;
    if (!(score > floor)) continue;
    if (size < capacity) {
      siftUp(heap, size, id, score);
      size++;
      if (size === capacity) floor = heap.values[0]!;
    } else {
      siftDown(heap, size, id, score);
      floor = heap.values[0]!;
    }
  }
  return drainHeap(heap, size);
}

/** The first `count` of `candidates` that `scope` holds, as a new array. */
function idsInScope(candidates: Uint32Array, count: number, scope: Uint8Array): Uint32Array {
  const kept = new Uint32Array(count);
  let n = 0;
  for (let i = 0; i < count; i++) if (scope[candidates[i]!] === 1) kept[n++] = candidates[i]!;
  return kept.subarray(0, n);
}
