import { multiplyDense, multiplyTransposeDense, transpose, type CsrMatrix } from './sparse.js';
import { choleskyOrthonormalize, gram, multiplySmall, orthonormalizeColumns, symmetricEigen } from './linear-algebra.js';

export interface TruncatedSvd {
  /** Left singular vectors as columns of a row-major (A.rows × rank) matrix. */
  u: Float64Array;
  /** Singular values, descending; length rank. */
  singularValues: Float64Array;
  rank: number;
}

export interface RandomizedSvdOptions {
  rank: number;
  /** Extra random directions beyond `rank`, which sharpen the top ones. */
  oversampling: number;
  /** Rounds of multiplying by A·Aᵀ; each one separates the spectrum further. */
  powerIterations: number;
  seed: number;
}

/** Standard normal numbers from a seeded generator (mulberry32 + Box–Muller). */
function gaussianMatrix(rows: number, cols: number, seed: number): Float64Array {
  let state = seed >>> 0;
  const uniform = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 1) / 4294967297;
  };
  const out = new Float64Array(rows * cols);
  for (let i = 0; i < out.length; i += 2) {
    const radius = Math.sqrt(-2 * Math.log(uniform()));
    const angle = 2 * Math.PI * uniform();
    out[i] = radius * Math.cos(angle);
    if (i + 1 < out.length) out[i + 1] = radius * Math.sin(angle);
  }
  return out;
}

/** Cholesky QR twice (accurate to rounding), or the eigen route when X is rank-deficient. */
function orthonormalize(x: Float64Array, rows: number, width: number): Float64Array {
  const once = choleskyOrthonormalize(x, rows, width);
  const twice = once && choleskyOrthonormalize(once, rows, width);
  return twice ?? orthonormalizeColumns(orthonormalizeColumns(x, rows, width), rows, width);
}

/**
 * The top `rank` left singular vectors and values of a sparse matrix by the randomized
 * range finder of Halko, Martinsson and Tropp (2011): sketch the range of A with a
 * Gaussian test matrix, sharpen it with power iterations, then solve the small
 * problem exactly. Cost: (2q + 2) sparse products with (rank + oversampling) columns.
 */
export function randomizedSvd(a: CsrMatrix, options: RandomizedSvdOptions): TruncatedSvd {
  if (a.rows <= a.cols) return leftSingularVectors(a, options);
  // Orthonormalising costs rows × width², so work on the shorter side: the left vectors
  // of Aᵀ are A's right vectors V, and U = A·V·Σ⁻¹ is one more sparse product.
  const right = leftSingularVectors(transpose(a), options);
  const u = multiplyDense(a, right.u, right.rank);
  for (let r = 0; r < a.rows; r++) {
    for (let c = 0; c < right.rank; c++) {
      const sigma = right.singularValues[c]!;
      u[r * right.rank + c] = sigma > 0 ? u[r * right.rank + c]! / sigma : 0;
    }
  }
  return { u, singularValues: right.singularValues, rank: right.rank };
}

function leftSingularVectors(a: CsrMatrix, options: RandomizedSvdOptions): TruncatedSvd {
  const width = Math.min(options.rank + options.oversampling, a.rows, a.cols);
  const rank = Math.min(options.rank, width);
  const omega = gaussianMatrix(a.cols, width, options.seed);
  let q = orthonormalize(multiplyDense(a, omega, width), a.rows, width);
  for (let i = 0; i < options.powerIterations; i++) {
    // One step of A·Aᵀ between orthonormalisations of the row side only: the column side
    // (one row per chunk) is the larger one, and a single step squares the condition
    // number at most, which double precision absorbs.
    q = orthonormalize(multiplyDense(a, multiplyTransposeDense(a, q, width), width), a.rows, width);
  }
  // B = Qᵀ A is width × cols; B Bᵀ = (Aᵀ Q)ᵀ (Aᵀ Q) is small, and its eigenvectors rotate Q
  // onto A's left singular vectors.
  const bt = multiplyTransposeDense(a, q, width);
  const { values, vectors } = symmetricEigen(gram(bt, a.cols, width), width);
  const rotation = new Float64Array(width * rank);
  for (let k = 0; k < width; k++) for (let c = 0; c < rank; c++) rotation[k * rank + c] = vectors[k * width + c]!;
  const u = multiplySmall(q, a.rows, width, rotation, rank);
  const singularValues = new Float64Array(rank);
  for (let c = 0; c < rank; c++) singularValues[c] = Math.sqrt(Math.max(values[c]!, 0));
  return { u, singularValues, rank };
}
