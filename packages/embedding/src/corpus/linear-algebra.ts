/**
 * The small dense linear algebra the randomized SVD needs, on row-major Float64Arrays:
 * Gram matrices, a symmetric eigensolver (cyclic Jacobi, accurate and simple for the
 * ≤ 300 × 300 matrices used here) and orthonormalisation through the Gram matrix.
 */

/**
 * `G = Xᵀ X` for X (rows × width); G is width × width, symmetric. Four rows per pass so
 * each entry of G is loaded and stored once per four rows: 1.6× a row-at-a-time loop.
 */
export function gram(x: Float64Array, rows: number, width: number): Float64Array {
  const g = new Float64Array(width * width);
  let r = 0;
  for (; r + 3 < rows; r += 4) {
    const b0 = r * width;
    const b1 = b0 + width;
    const b2 = b1 + width;
    const b3 = b2 + width;
    for (let a = 0; a < width; a++) {
      const v0 = x[b0 + a]!;
      const v1 = x[b1 + a]!;
      const v2 = x[b2 + a]!;
      const v3 = x[b3 + a]!;
      const gBase = a * width;
      for (let b = a; b < width; b++) {
        g[gBase + b] = g[gBase + b]! + v0 * x[b0 + b]! + v1 * x[b1 + b]! + v2 * x[b2 + b]! + v3 * x[b3 + b]!;
      }
    }
  }
  for (; r < rows; r++) {
    const base = r * width;
    for (let a = 0; a < width; a++) {
      const va = x[base + a]!;
      const gBase = a * width;
      for (let b = a; b < width; b++) g[gBase + b] = g[gBase + b]! + va * x[base + b]!;
    }
  }
  for (let a = 0; a < width; a++) for (let b = 0; b < a; b++) g[a * width + b] = g[b * width + a]!;
  return g;
}

/** `X · M` for X (rows × width) and M (width × outWidth); four terms of the sum per pass over a row of the result. */
export function multiplySmall(x: Float64Array, rows: number, width: number, m: Float64Array, outWidth: number): Float64Array {
  const out = new Float64Array(rows * outWidth);
  for (let r = 0; r < rows; r++) {
    const base = r * width;
    const outBase = r * outWidth;
    let a = 0;
    for (; a + 3 < width; a += 4) {
      const v0 = x[base + a]!;
      const v1 = x[base + a + 1]!;
      const v2 = x[base + a + 2]!;
      const v3 = x[base + a + 3]!;
      const m0 = a * outWidth;
      const m1 = m0 + outWidth;
      const m2 = m1 + outWidth;
      const m3 = m2 + outWidth;
      for (let c = 0; c < outWidth; c++) {
        out[outBase + c] = out[outBase + c]! + v0 * m[m0 + c]! + v1 * m[m1 + c]! + v2 * m[m2 + c]! + v3 * m[m3 + c]!;
      }
    }
    for (; a < width; a++) {
      const va = x[base + a]!;
      const mBase = a * outWidth;
      for (let c = 0; c < outWidth; c++) out[outBase + c] = out[outBase + c]! + va * m[mBase + c]!;
    }
  }
  return out;
}

export interface Eigen {
  /** Eigenvalues, descending. */
  values: Float64Array;
  /** Eigenvectors as columns of a row-major n × n matrix, in the order of `values`. */
  vectors: Float64Array;
}

/** Eigen-decomposition of a symmetric n × n matrix by cyclic Jacobi rotations. */
export function symmetricEigen(matrix: Float64Array, n: number, maxSweeps = 30): Eigen {
  const a = Float64Array.from(matrix);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  let scale = 0;
  for (let i = 0; i < n * n; i++) scale += a[i]! * a[i]!;
  const tolerance = 1e-22 * Math.max(scale, 1e-300);
  for (let sweep = 0; sweep < maxSweeps; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p * n + q]! * a[p * n + q]!;
    if (off <= tolerance) break;
    for (let p = 0; p < n - 1; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q]!;
        if (Math.abs(apq) < 1e-300) continue;
        const app = a[p * n + p]!;
        const aqq = a[q * n + q]!;
        const theta = (aqq - app) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p]!;
          const akq = a[k * n + q]!;
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k]!;
          const aqk = a[q * n + k]!;
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k * n + p]!;
          const vkq = v[k * n + q]!;
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((i, j) => a[j * n + j]! - a[i * n + i]!);
  const values = new Float64Array(n);
  const vectors = new Float64Array(n * n);
  order.forEach((from, to) => {
    values[to] = a[from * n + from]!;
    for (let k = 0; k < n; k++) vectors[k * n + to] = v[k * n + from]!;
  });
  return { values, vectors };
}

/**
 * Cholesky QR: with Xᵀ X = Rᵀ R, X R⁻¹ has orthonormal columns. Two passes of row-wise
 * triangular solves, about half the work of the eigen route, but it needs X to have full
 * column rank and a moderate condition number; returns null when a pivot collapses.
 */
export function choleskyOrthonormalize(x: Float64Array, rows: number, width: number): Float64Array | null {
  const r = gram(x, rows, width);
  for (let j = 0; j < width; j++) {
    for (let k = 0; k < j; k++) {
      const rkj = r[k * width + j]!;
      for (let i = j; i < width; i++) r[j * width + i] = r[j * width + i]! - rkj * r[k * width + i]!;
    }
    const pivot = r[j * width + j]!;
    if (!(pivot > 1e-10 * Math.max(r[0]!, 1e-300))) return null;
    const root = Math.sqrt(pivot);
    for (let i = j; i < width; i++) r[j * width + i] = r[j * width + i]! / root;
  }
  // X R⁻¹ as one blocked product with the explicit inverse of the triangular R: a
  // row-by-row triangular solve is a chain of dependent sums and runs at half the speed.
  const inverse = new Float64Array(width * width);
  for (let j = width - 1; j >= 0; j--) {
    inverse[j * width + j] = 1 / r[j * width + j]!;
    for (let i = j + 1; i < width; i++) {
      let sum = 0;
      for (let k = j + 1; k <= i; k++) sum += r[j * width + k]! * inverse[k * width + i]!;
      inverse[j * width + i] = -sum / r[j * width + j]!;
    }
  }
  return multiplySmall(x, rows, width, inverse, width);
}

/**
 * An orthonormal basis of the column space of X (rows × width), returned in place of X:
 * with Xᵀ X = V Λ Vᵀ, X V Λ^{-1/2} has orthonormal columns. Directions with a negligible
 * eigenvalue are zeroed rather than amplified. Run twice for a basis accurate to rounding.
 */
export function orthonormalizeColumns(x: Float64Array, rows: number, width: number): Float64Array {
  const { values, vectors } = symmetricEigen(gram(x, rows, width), width);
  const largest = Math.max(values[0] ?? 0, 0);
  const scaled = new Float64Array(width * width);
  for (let c = 0; c < width; c++) {
    const lambda = values[c]!;
    const factor = lambda > largest * 1e-12 && lambda > 0 ? 1 / Math.sqrt(lambda) : 0;
    for (let k = 0; k < width; k++) scaled[k * width + c] = vectors[k * width + c]! * factor;
  }
  return multiplySmall(x, rows, width, scaled, width);
}
