import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { gram, orthonormalizeColumns, choleskyOrthonormalize, symmetricEigen, multiplySmall } from '../src/corpus/linear-algebra.js';
import { csrFromTriples, multiplyDense, multiplyTransposeDense, transpose } from '../src/corpus/sparse.js';
import { randomizedSvd } from '../src/corpus/svd.js';

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296 - 0.5;
  };
}

function randomMatrix(rows: number, cols: number, seed: number): Float64Array {
  const next = seeded(seed);
  return Float64Array.from({ length: rows * cols }, next);
}

function denseToCsr(dense: Float64Array, rows: number, cols: number) {
  const r: number[] = [];
  const c: number[] = [];
  const v: number[] = [];
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) if (dense[i * cols + j] !== 0) (r.push(i), c.push(j), v.push(dense[i * cols + j]!));
  return csrFromTriples(rows, cols, Uint32Array.from(r), Uint32Array.from(c), Float32Array.from(v), r.length);
}

function expectOrthonormalColumns(q: Float64Array, rows: number, width: number, tolerance = 1e-8): void {
  const g = gram(q, rows, width);
  for (let a = 0; a < width; a++) for (let b = 0; b < width; b++) expect(Math.abs(g[a * width + b]! - (a === b ? 1 : 0))).toBeLessThan(tolerance);
}

/** A rows × cols matrix of exact rank `rank` with singular values `values`, as float32-representable dense data. */
function lowRank(rows: number, cols: number, values: number[], seed: number): Float64Array {
  const u = orthonormalizeColumns(randomMatrix(rows, values.length, seed), rows, values.length);
  const v = orthonormalizeColumns(randomMatrix(cols, values.length, seed + 1), cols, values.length);
  const out = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++)
    for (let j = 0; j < cols; j++) {
      let s = 0;
      values.forEach((sigma, k) => (s += u[i * values.length + k]! * sigma * v[j * values.length + k]!));
      out[i * cols + j] = Math.fround(s);
    }
  return out;
}

describe('dense kernels', () => {
  test('symmetricEigen: A·v = λ·v with orthonormal vectors, values descending', () => {
    const n = 12;
    const x = randomMatrix(20, n, 7);
    const a = gram(x, 20, n);
    const { values, vectors } = symmetricEigen(a, n);
    for (let c = 0; c < n; c++) {
      for (let i = 0; i < n; i++) {
        let av = 0;
        for (let k = 0; k < n; k++) av += a[i * n + k]! * vectors[k * n + c]!;
        expect(av).toBeCloseTo(values[c]! * vectors[i * n + c]!, 9);
      }
      if (c > 0) expect(values[c - 1]!).toBeGreaterThanOrEqual(values[c]!);
    }
    expectOrthonormalColumns(vectors, n, n);
  });

  test('both orthonormalisations span the input columns', () => {
    const x = randomMatrix(50, 6, 3);
    for (const q of [orthonormalizeColumns(x, 50, 6), choleskyOrthonormalize(x, 50, 6)!]) {
      expectOrthonormalColumns(q, 50, 6);
      // Projecting X onto span(Q) gives X back.
      const qtx = new Float64Array(36);
      for (let r = 0; r < 50; r++) for (let a = 0; a < 6; a++) for (let b = 0; b < 6; b++) qtx[a * 6 + b]! += q[r * 6 + a]! * x[r * 6 + b]!;
      const back = multiplySmall(q, 50, 6, qtx, 6);
      for (let i = 0; i < x.length; i++) expect(back[i]).toBeCloseTo(x[i]!, 9);
    }
  });

  test('Cholesky QR declines a rank-deficient input; the eigen route zeroes the missing direction', () => {
    const x = randomMatrix(30, 4, 5);
    for (let r = 0; r < 30; r++) x[r * 4 + 3] = x[r * 4]! * 2; // column 3 = 2 × column 0
    expect(choleskyOrthonormalize(x, 30, 4)).toBeNull();
    const q = orthonormalizeColumns(x, 30, 4);
    const norms = [0, 1, 2, 3].map((c) => Math.hypot(...Array.from({ length: 30 }, (_, r) => q[r * 4 + c]!)));
    expect(norms.filter((n) => Math.abs(n - 1) < 1e-8)).toHaveLength(3);
    expect(norms.filter((n) => n < 1e-8)).toHaveLength(1);
  });

  test('sparse products and transpose agree with dense arithmetic', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 4 }), fc.nat(1000), (rows, cols, width, seed) => {
        const dense = randomMatrix(rows, cols, seed).map((v) => (v > 0.1 ? Math.fround(v) : 0));
        const a = denseToCsr(dense, rows, cols);
        const x = randomMatrix(cols, width, seed + 9);
        const y = multiplyDense(a, x, width);
        const yt = multiplyTransposeDense(transpose(a), x, width);
        for (let i = 0; i < rows; i++)
          for (let c = 0; c < width; c++) {
            let s = 0;
            for (let j = 0; j < cols; j++) s += dense[i * cols + j]! * x[j * width + c]!;
            expect(y[i * width + c]).toBeCloseTo(s, 9);
            expect(yt[i * width + c]).toBeCloseTo(s, 9);
          }
      }),
      { numRuns: 60 },
    );
  });
});

describe('randomizedSvd', () => {
  test.each([
    ['wide', 30, 80],
    ['tall (through the transpose)', 80, 30],
  ])('recovers the singular values and vectors of an exactly low-rank %s matrix', (_, rows, cols) => {
    const values = [9, 5, 3, 1.5];
    const dense = lowRank(rows, cols, values, 11);
    const svd = randomizedSvd(denseToCsr(dense, rows, cols), { rank: 4, oversampling: 4, powerIterations: 1, seed: 1 });
    expect(svd.rank).toBe(4);
    values.forEach((sigma, k) => expect(svd.singularValues[k]).toBeCloseTo(sigma, 4));
    expectOrthonormalColumns(svd.u, rows, 4, 1e-5);
    // A·Aᵀ·u = σ²·u for each returned left vector.
    for (let k = 0; k < 4; k++) {
      const u = Array.from({ length: rows }, (_, i) => svd.u[i * 4 + k]!);
      const atu = Array.from({ length: cols }, (_, j) => u.reduce((s, ui, i) => s + dense[i * cols + j]! * ui, 0));
      for (let i = 0; i < rows; i++) {
        const aatu = atu.reduce((s, v, j) => s + dense[i * cols + j]! * v, 0);
        expect(aatu).toBeCloseTo(values[k]! ** 2 * u[i]!, 3);
      }
    }
  });

  test('asks for no more directions than the matrix has', () => {
    const dense = lowRank(5, 7, [2, 1], 3);
    const svd = randomizedSvd(denseToCsr(dense, 5, 7), { rank: 10, oversampling: 10, powerIterations: 1, seed: 1 });
    expect(svd.rank).toBe(5);
    expect(svd.singularValues[0]).toBeCloseTo(2, 4);
    expect(svd.singularValues[1]).toBeCloseTo(1, 4);
    expect(svd.singularValues[2]).toBeLessThan(1e-3);
  });
});
