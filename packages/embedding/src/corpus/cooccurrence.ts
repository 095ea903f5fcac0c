import { csrFromTriples, type CsrMatrix } from './sparse.js';
import type { EncodedCorpus } from './vocabulary.js';

/**
 * Term × term co-occurrence counts within `window` tokens of each other, both directions
 * (a symmetric matrix with an empty diagonal). Each pair is encoded as one 32-bit code
 * (`low · V + high`, so V must not exceed 65,536), the codes are sorted once and runs
 * counted: far cheaper in JavaScript than a hash map of pairs. Pairs seen fewer than
 * `minPairCount` times are dropped, which removes most noise and most of the matrix.
 */
export function windowCooccurrence(corpus: EncodedCorpus, window: number, minPairCount: number): CsrMatrix {
  const vocabulary = corpus.terms.length;
  if (vocabulary > 65_536) throw new Error('windowCooccurrence needs a vocabulary of at most 65,536 terms');
  const codes = new Uint32Array(corpus.tokens.length * window);
  let count = 0;
  const { tokens, docStart } = corpus;
  for (let d = 0; d < corpus.docCount; d++) {
    const end = docStart[d + 1]!;
    for (let i = docStart[d]!; i < end; i++) {
      const a = tokens[i]!;
      const last = Math.min(end, i + window + 1);
      for (let j = i + 1; j < last; j++) {
        const b = tokens[j]!;
        if (a === b) continue;
        codes[count++] = a < b ? a * vocabulary + b : b * vocabulary + a;
      }
    }
  }
  const sorted = codes.subarray(0, count).sort();
  let distinct = 0;
  for (let i = 0; i < count; ) {
    let j = i + 1;
    while (j < count && sorted[j] === sorted[i]) j++;
    if (j - i >= minPairCount) distinct++;
    i = j;
  }
  const rows = new Uint32Array(distinct * 2);
  const cols = new Uint32Array(distinct * 2);
  const values = new Float32Array(distinct * 2);
  let out = 0;
  for (let i = 0; i < count; ) {
    let j = i + 1;
    while (j < count && sorted[j] === sorted[i]) j++;
    if (j - i >= minPairCount) {
      const code = sorted[i]!;
      const low = Math.floor(code / vocabulary);
      const high = code - low * vocabulary;
      rows[out] = low;
      cols[out] = high;
      values[out++] = j - i;
      rows[out] = high;
      cols[out] = low;
      values[out++] = j - i;
    }
    i = j;
  }
  return csrFromTriples(vocabulary, vocabulary, rows, cols, values, out);
}

/** Term × document occurrence counts: row t holds the documents term t occurs in. */
export function documentCooccurrence(corpus: EncodedCorpus): CsrMatrix {
  const rows: number[] = [];
  const cols: number[] = [];
  const values: number[] = [];
  const counts = new Map<number, number>();
  for (let d = 0; d < corpus.docCount; d++) {
    counts.clear();
    for (let p = corpus.docStart[d]!; p < corpus.docStart[d + 1]!; p++) {
      const t = corpus.tokens[p]!;
      counts.set(t, (counts.get(t) ?? 0) + 1);
    }
    for (const [t, c] of counts) {
      rows.push(t);
      cols.push(d);
      values.push(c);
    }
  }
  return csrFromTriples(corpus.terms.length, corpus.docCount, Uint32Array.from(rows), Uint32Array.from(cols), Float32Array.from(values), rows.length);
}

/**
 * Positive pointwise mutual information in place of counts, with the context
 * distribution raised to `smoothing` (Levy, Goldberg & Dagan 2015: 0.75 stops rare
 * contexts from inflating PMI). Entries that fall to zero are removed.
 */
export function toPpmi(m: CsrMatrix, smoothing: number): CsrMatrix {
  const rowSum = new Float64Array(m.rows);
  const colSum = new Float64Array(m.cols);
  for (let r = 0; r < m.rows; r++) {
    for (let p = m.rowStart[r]!; p < m.rowStart[r + 1]!; p++) {
      rowSum[r]! += m.values[p]!;
      colSum[m.colIndex[p]!]! += m.values[p]!;
    }
  }
  const colSmoothed = Float64Array.from(colSum, (s) => Math.pow(s, smoothing));
  let smoothedTotal = 0;
  for (const s of colSmoothed) smoothedTotal += s;
  const rowStart = new Uint32Array(m.rows + 1);
  const colIndex = new Uint32Array(m.colIndex.length);
  const values = new Float32Array(m.values.length);
  let out = 0;
  for (let r = 0; r < m.rows; r++) {
    rowStart[r] = out;
    for (let p = m.rowStart[r]!; p < m.rowStart[r + 1]!; p++) {
      const c = m.colIndex[p]!;
      const pmi = Math.log((m.values[p]! * smoothedTotal) / (rowSum[r]! * colSmoothed[c]!));
      if (pmi > 0) {
        colIndex[out] = c;
        values[out++] = pmi;
      }
    }
  }
  rowStart[m.rows] = out;
  return { rows: m.rows, cols: m.cols, rowStart, colIndex: colIndex.slice(0, out), values: values.slice(0, out) };
}
