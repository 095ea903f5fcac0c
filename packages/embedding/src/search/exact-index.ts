import type { Hit } from '@rag/core';
import { TopK } from './top-k.js';

/** Dot product of `query` with the row starting at `base` (the tail rows of the blocked loop). */
function dotAt(query: Float32Array, vectors: Float32Array, base: number, dimension: number): number {
  let s0 = 0;
  let s1 = 0;
  let i = 0;
  for (; i + 1 < dimension; i += 2) {
    s0 += query[i]! * vectors[base + i]!;
    s1 += query[i + 1]! * vectors[base + i + 1]!;
  }
  if (i < dimension) s0 += query[i]! * vectors[base + i]!;
  return s0 + s1;
}

/**
 * Brute-force maximum inner product search over row-major vectors with a k-bounded heap.
 * Four rows per pass share every load of the query, and each row keeps two accumulators
 * (even and odd components), so the loop issues about 1.25 loads per multiply-add
 * instead of 2: 1.65× a plain loop here (2.5 ms for 28k × 128 on one core). Exact, no
 * build step, the default up to `exactLimit` vectors. With `scope`, only its rows are kept
 * (see `SearchOptions.scope`).
 */
export function searchExact(vectors: Float32Array, dimension: number, query: Float32Array, k: number, scope?: Uint8Array): Hit[] {
  const count = dimension === 0 ? 0 : Math.floor(vectors.length / dimension);
  const top = new TopK(Math.min(k, count));
  const even = dimension - (dimension % 2);
  let threshold = -Infinity;
  const offer = (row: number, score: number): void => {
    if (score >= threshold && (scope === undefined || scope[row] === 1)) {
      top.push(row, score);
      threshold = top.threshold;
    }
  };
  let row = 0;
  for (; row + 3 < count; row += 4) {
    const b0 = row * dimension;
    const b1 = b0 + dimension;
    const b2 = b1 + dimension;
    const b3 = b2 + dimension;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let t0 = 0;
    let t1 = 0;
    let t2 = 0;
    let t3 = 0;
    for (let i = 0; i < even; i += 2) {
      const x = query[i]!;
      const y = query[i + 1]!;
      s0 += x * vectors[b0 + i]!;
      s1 += x * vectors[b1 + i]!;
      s2 += x * vectors[b2 + i]!;
      s3 += x * vectors[b3 + i]!;
      t0 += y * vectors[b0 + i + 1]!;
      t1 += y * vectors[b1 + i + 1]!;
      t2 += y * vectors[b2 + i + 1]!;
      t3 += y * vectors[b3 + i + 1]!;
    }
    if (even < dimension) {
      const x = query[even]!;
      s0 += x * vectors[b0 + even]!;
      s1 += x * vectors[b1 + even]!;
      s2 += x * vectors[b2 + even]!;
      s3 += x * vectors[b3 + even]!;
    }
    offer(row, s0 + t0);
    offer(row + 1, s1 + t1);
    offer(row + 2, s2 + t2);
    offer(row + 3, s3 + t3);
  }
  for (; row < count; row++) offer(row, dotAt(query, vectors, row * dimension, dimension));
  return top.drain();
}
