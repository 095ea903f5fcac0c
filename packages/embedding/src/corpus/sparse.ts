/** A sparse matrix in compressed-row form: row r's entries are `[rowStart[r], rowStart[r + 1])`. */
export interface CsrMatrix {
  rows: number;
  cols: number;
  rowStart: Uint32Array;
  colIndex: Uint32Array;
  values: Float32Array;
}

/** `out = A · X`, X dense row-major (A.cols × width); `out` is A.rows × width. */
export function multiplyDense(a: CsrMatrix, x: Float64Array, width: number, out = new Float64Array(a.rows * width)): Float64Array {
  out.fill(0);
  for (let r = 0; r < a.rows; r++) {
    const base = r * width;
    const end = a.rowStart[r + 1]!;
    let p = a.rowStart[r]!;
    // Two nonzeros per pass halve the loads and stores of the output row.
    for (; p + 1 < end; p += 2) {
      const v0 = a.values[p]!;
      const v1 = a.values[p + 1]!;
      const x0 = a.colIndex[p]! * width;
      const x1 = a.colIndex[p + 1]! * width;
      for (let c = 0; c < width; c++) out[base + c] = out[base + c]! + v0 * x[x0 + c]! + v1 * x[x1 + c]!;
    }
    if (p < end) {
      const v = a.values[p]!;
      const xBase = a.colIndex[p]! * width;
      for (let c = 0; c < width; c++) out[base + c] = out[base + c]! + v * x[xBase + c]!;
    }
  }
  return out;
}

/** `out = Aᵀ · Y`, Y dense row-major (A.rows × width); `out` is A.cols × width. */
export function multiplyTransposeDense(a: CsrMatrix, y: Float64Array, width: number, out = new Float64Array(a.cols * width)): Float64Array {
  out.fill(0);
  for (let r = 0; r < a.rows; r++) {
    const yBase = r * width;
    for (let p = a.rowStart[r]!; p < a.rowStart[r + 1]!; p++) {
      const v = a.values[p]!;
      const base = a.colIndex[p]! * width;
      for (let c = 0; c < width; c++) out[base + c] = out[base + c]! + v * y[yBase + c]!;
    }
  }
  return out;
}

/**
 * Builds a CSR matrix from (row, col, value) triples given as parallel arrays in any
 * order; duplicate coordinates are summed.
 */
export function csrFromTriples(rows: number, cols: number, rowOf: Uint32Array, colOf: Uint32Array, valueOf: Float32Array, count: number): CsrMatrix {
  const rowStart = new Uint32Array(rows + 1);
  for (let i = 0; i < count; i++) rowStart[rowOf[i]! + 1]!++;
  for (let r = 0; r < rows; r++) rowStart[r + 1]! += rowStart[r]!;
  const cursor = rowStart.slice(0, rows);
  const colIndex = new Uint32Array(count);
  const values = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    const at = cursor[rowOf[i]!]!++;
    colIndex[at] = colOf[i]!;
    values[at] = valueOf[i]!;
  }
  return { rows, cols, rowStart, colIndex, values };
}

/** The transpose of a CSR matrix (a counting sort on column index). */
export function transpose(a: CsrMatrix): CsrMatrix {
  const rowStart = new Uint32Array(a.cols + 1);
  for (let p = 0; p < a.colIndex.length; p++) rowStart[a.colIndex[p]! + 1]!++;
  for (let c = 0; c < a.cols; c++) rowStart[c + 1]! += rowStart[c]!;
  const cursor = rowStart.slice(0, a.cols);
  const colIndex = new Uint32Array(a.colIndex.length);
  const values = new Float32Array(a.values.length);
  for (let r = 0; r < a.rows; r++) {
    for (let p = a.rowStart[r]!; p < a.rowStart[r + 1]!; p++) {
      const at = cursor[a.colIndex[p]!]!++;
      colIndex[at] = r;
      values[at] = a.values[p]!;
    }
  }
  return { rows: a.cols, cols: a.rows, rowStart, colIndex, values };
}
