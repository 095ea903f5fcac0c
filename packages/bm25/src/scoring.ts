/**
 * The BM25F arithmetic as pure functions of explicit statistics; the index, the brute
 * force in the tests and `explain()` all call these, so their numbers agree exactly.
 *
 * score(q, d) = Σ_t w_q(t) · idf(t) · (k1 + 1) · tf̃ / (k1 + tf̃)
 * tf̃(t, d)    = Σ_f weight_f · tf_f(t, d) / B_f(d)
 * B_f(d)      = 1 − b_f + b_f · len_f(d) / avglen_f
 */

/** Lucene's BM25 idf: ln(1 + (N − df + 0.5) / (df + 0.5)); always > 0, unlike Robertson's original. */
export function inverseDocumentFrequency(docCount: number, docFrequency: number): number {
  return Math.log(1 + (docCount - docFrequency + 0.5) / (docFrequency + 0.5));
}

/** B_f(d): how much longer than average a field is, softened by b. An empty corpus field counts as average. */
export function lengthNorm(b: number, length: number, averageLength: number): number {
  return averageLength > 0 ? 1 - b + (b * length) / averageLength : 1;
}

/**
 * 1 / B: the inverse of {@link lengthNorm} in one expression — the same operations in the
 * same order, so the same number wherever and whenever it is computed.
 */
export function inverseLengthNorm(b: number, length: number, averageLength: number): number {
  return averageLength > 0 ? 1 / (1 - b + (b * length) / averageLength) : 1;
}

/** One field's share of tf̃: weight · tf / B. */
export function fieldTermWeight(weight: number, tf: number, inverseNorm: number): number {
  return weight * tf * inverseNorm;
}

/**
 * The saturated frequency (k1 + 1) · tf̃ / (k1 + tf̃): it does not depend on the query, so
 * the index computes it once per posting and a query only multiplies it by its weight.
 */
export function saturate(combinedTf: number, k1: number): number {
  return ((k1 + 1) * combinedTf) / (k1 + combinedTf);
}

/** A term's contribution once its combined frequency is known: w · (k1 + 1) · tf̃ / (k1 + tf̃). */
export function termContribution(queryIdfWeight: number, combinedTf: number, k1: number): number {
  return queryIdfWeight * saturate(combinedTf, k1);
}
