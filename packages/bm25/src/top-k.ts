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

/** {@link selectTopK} over every id below `count` (ids 0 … count − 1 are the candidates). */
export function selectTopKDense(scores: Float64Array, count: number, k: number): Hit[] {
  const capacity = Math.min(k, count);
  if (capacity <= 0) return [];
  const heap = new Uint32Array(capacity);
  let size = 0;
  // Ids come in ascending order, so a later id with the root's score ranks below the root:
  // only a strictly higher score enters once the heap is full, one comparison per chunk (and
  // before that, only a positive one: see selectFrom).
  let floor = 0;
  for (let id = 0; id < count; id++) {
    const score = scores[id]!;
    if (!(score > floor)) continue;
    if (size < capacity) {
      heap[size] = id;
      siftUp(heap, size, scores);
      size++;
      if (size === capacity) floor = scores[heap[0]!]!;
    } else {
      heap[0] = id;
      siftDown(heap, size, scores);
      floor = scores[heap[0]!]!;
    }
  }
  return drain(heap, size, scores);
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
