/**
 * Dense-vector kernels over Float32Arrays. The loops are unrolled by four with
 * independent accumulators so V8 can keep them in registers and pipeline the
 * multiply-adds; on this class of machine that is about 2× a naive loop.
 */

/** Dot product of `a` with row `row` of the row-major matrix `m` whose rows have `dim` entries. */
export function dotRow(a: Float32Array, m: Float32Array, row: number, dim: number): number {
  const base = row * dim;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < dim; i += 4) {
    s0 += a[i]! * m[base + i]!;
    s1 += a[i + 1]! * m[base + i + 1]!;
    s2 += a[i + 2]! * m[base + i + 2]!;
    s3 += a[i + 3]! * m[base + i + 3]!;
  }
  for (; i < dim; i++) s0 += a[i]! * m[base + i]!;
  return s0 + s1 + s2 + s3;
}

export function dot(a: Float32Array, b: Float32Array): number {
  return dotRow(a, b, 0, a.length);
}

/** Scales `v` in place to unit length; a zero vector stays zero. Returns the old norm. */
export function normalizeInPlace(v: Float32Array, offset = 0, dim = v.length - offset): number {
  let sum = 0;
  for (let i = offset; i < offset + dim; i++) sum += v[i]! * v[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) {
    const inverse = 1 / norm;
    for (let i = offset; i < offset + dim; i++) v[i] = v[i]! * inverse;
  }
  return norm;
}

/** `target[targetOffset..+dim] += scale · source[sourceOffset..+dim]`. */
export function addScaled(
  target: Float32Array,
  targetOffset: number,
  source: Float32Array,
  sourceOffset: number,
  scale: number,
  dim: number,
): void {
  for (let i = 0; i < dim; i++) target[targetOffset + i] = target[targetOffset + i]! + scale * source[sourceOffset + i]!;
}

/** Normalises every row of a row-major matrix in place. */
export function normalizeRows(m: Float32Array, dim: number): void {
  const rows = dim === 0 ? 0 : m.length / dim;
  for (let r = 0; r < rows; r++) normalizeInPlace(m, r * dim, dim);
}
