import type { Hit } from '@rag/core';

/** True when candidate `a` ranks below `b`: lower score, or the same score and a higher id. */
function ranksBelow(a: number, b: number, scores: Float64Array): boolean {
  const sa = scores[a]!;
  const sb = scores[b]!;
  return sa < sb || (sa === sb && a > b);
}

function siftDown(heap: Uint32Array, size: number, scores: Float64Array): void {
  let i = 0;
  for (;;) {
    const left = 2 * i + 1;
    if (left >= size) return;
    const right = left + 1;
    let worst = left;
    if (right < size && ranksBelow(heap[right]!, heap[left]!, scores)) worst = right;
    if (!ranksBelow(heap[worst]!, heap[i]!, scores)) return;
    const swap = heap[i]!;
    heap[i] = heap[worst]!;
    heap[worst] = swap;
    i = worst;
  }
}

function siftUp(heap: Uint32Array, index: number, scores: Float64Array): void {
  let i = index;
  while (i > 0) {
    const parent = (i - 1) >>> 1;
    if (!ranksBelow(heap[i]!, heap[parent]!, scores)) return;
    const swap = heap[i]!;
    heap[i] = heap[parent]!;
    heap[parent] = swap;
    i = parent;
  }
}

/**
 * The best `k` of the first `count` ids in `candidates` with a positive score, best first
 * (score descending, ties to the lower id so results are deterministic). A bounded heap whose root is the
 * weakest kept candidate: O(count · log k), and only the touched ids are visited.
 */
export function selectTopK(candidates: Uint32Array, count: number, scores: Float64Array, k: number): Hit[] {
  return selectFrom(candidates, count, scores, k);
}

/**
 * {@link selectTopK} over every id below `count` (ids 0 … count − 1 are the candidates), which
 * also leaves `scores[0 … count − 1]` zero for the next query: each score is cleared as it is
 * read, in the one pass the selection makes anyway (a separate `fill` was a second sweep over a
 * corpus-sized array). The heap keeps its own copy of the scores it holds.
 */
export function takeTopKDense(scores: Float64Array, count: number, k: number): Hit[] {
  const capacity = Math.min(k, count);
  if (capacity <= 0) {
    scores.fill(0, 0, count);
    return [];
  }
  const ids = new Uint32Array(capacity);
  const values = new Float64Array(capacity);
  let size = 0;
  // Ids come in ascending order, so a later id with the root's score ranks below the root:
  // only a strictly higher score enters once the heap is full, one comparison per chunk (and
  // before that, only a positive one: see selectFrom).
  let floor = 0;
  for (let id = 0; id < count; id++) {
    const score = scores[id]!;
    scores[id] = 0;
    if (!(score > floor)) continue;
    if (size < capacity) {
      siftUpPair(ids, values, size, id, score);
      size++;
      if (size === capacity) floor = values[0]!;
    } else {
      siftDownPair(ids, values, size, id, score);
      floor = values[0]!;
    }
  }
  const hits: Hit[] = new Array(size);
  for (let out = size - 1; out >= 0; out--) {
    hits[out] = { chunkId: ids[0]!, score: values[0]! };
    siftDownPair(ids, values, out, ids[out]!, values[out]!);
  }
  return hits;
}

/** Whether (a, sa) ranks below (b, sb): a lower score, or the same score and a higher id. */
function pairBelow(a: number, sa: number, b: number, sb: number): boolean {
  return sa < sb || (sa === sb && a > b);
}

/** Puts (id, score) at `at` of a min-heap of `at` entries and restores the order upward. */
function siftUpPair(ids: Uint32Array, values: Float64Array, at: number, id: number, score: number): void {
  let i = at;
  while (i > 0) {
    const parent = (i - 1) >>> 1;
    if (!pairBelow(id, score, ids[parent]!, values[parent]!)) break;
    ids[i] = ids[parent]!;
    values[i] = values[parent]!;
    i = parent;
  }
  ids[i] = id;
  values[i] = score;
}

/** Replaces the root of a min-heap of `size` entries with (id, score) and restores the order downward. */
function siftDownPair(ids: Uint32Array, values: Float64Array, size: number, id: number, score: number): void {
  let i = 0;
  for (;;) {
    const left = 2 * i + 1;
    if (left >= size) break;
    const right = left + 1;
    let worst = left;
    if (right < size && pairBelow(ids[right]!, values[right]!, ids[left]!, values[left]!)) worst = right;
    if (!pairBelow(ids[worst]!, values[worst]!, id, score)) break;
    ids[i] = ids[worst]!;
    values[i] = values[worst]!;
    i = worst;
  }
  ids[i] = id;
  values[i] = score;
}

function selectFrom(candidates: Uint32Array, count: number, scores: Float64Array, k: number): Hit[] {
  const capacity = Math.min(k, count);
  if (capacity <= 0) return [];
  const heap = new Uint32Array(capacity);
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
      heap[size] = id;
      siftUp(heap, size, scores);
      size++;
      if (size === capacity) floor = scores[heap[0]!]!;
    } else if (ranksBelow(heap[0]!, id, scores)) {
      heap[0] = id;
      siftDown(heap, size, scores);
      floor = scores[heap[0]!]!;
    }
  }
  return drain(heap, size, scores);
}

/** The heap's ids best first, as hits (the heap is consumed). */
function drain(heap: Uint32Array, size: number, scores: Float64Array): Hit[] {
  const hits: Hit[] = new Array(size);
  for (let out = size - 1; out >= 0; out--) {
    const id = heap[0]!;
    hits[out] = { chunkId: id, score: scores[id]! };
    heap[0] = heap[out]!;
    siftDown(heap, out, scores);
  }
  return hits;
}
