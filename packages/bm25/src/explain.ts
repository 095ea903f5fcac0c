import type { Explanation } from '@rag/core';
import type { Bm25Index } from './bm25-index.js';
import { FIELD_NAMES } from './options.js';
import { fieldTermWeight, inverseDocumentFrequency, lengthNorm, termContribution } from './scoring.js';
import type { QueryTerm } from '@rag/text';

/** A query term found in the dictionary, with everything its score needs. */
export interface ResolvedQueryTerm {
  term: string;
  id: number;
  /** From the query: `1 + ln(count)`, times `subwordWeight` for a sub-word. */
  queryWeight: number;
  docFrequency: number;
  idf: number;
  /** queryWeight · idf. */
  weight: number;
}

function round(value: number): string {
  return String(Number(value.toPrecision(6)));
}

function explainTerm(index: Bm25Index, queryTerm: QueryTerm, doc: number): Explanation {
  const { data } = index;
  const id = data.dictionary.lookup(queryTerm.term);
  if (id < 0) return { value: 0, description: `term "${queryTerm.term}": not in the index` };
  const docFrequency = data.docFrequencies[id]!;
  const idf = inverseDocumentFrequency(data.docCount, docFrequency);
  const weight = queryTerm.weight * idf;
  const { k1 } = data.options;
  const fieldDetails: Explanation[] = [];
  // Same fields, order and arithmetic as Bm25Index.search, so the sums agree to the last bit.
  let combined = 0;
  for (let f = 0; f < FIELD_NAMES.length; f++) {
    const name = FIELD_NAMES[f]!;
    const { weight: fieldWeight, b } = data.options.fields[name];
    if (fieldWeight === 0) continue;
    const tf = index.termFrequency(f, id, doc);
    if (tf === 0) continue;
    const share = fieldTermWeight(fieldWeight, tf, index.inverseNorm(f, doc));
    combined += share;
    const length = data.fields[f]!.lengths[doc]!;
    const average = index.averageFieldLengths[f]!;
    fieldDetails.push({
      value: share,
      description: `field ${name}: weight ${round(fieldWeight)} · tf / B`,
      details: [
        { value: tf, description: `tf: occurrences of "${queryTerm.term}" in ${name}` },
        {
          value: lengthNorm(b, length, average),
          description: `B = 1 − b + b · len / avglen with b=${round(b)}, len=${length}, avglen=${round(average)}`,
        },
      ],
    });
  }
  if (combined === 0) return { value: 0, description: `term "${queryTerm.term}": not in this chunk (in ${docFrequency} others)` };
  return {
    value: termContribution(weight, combined, k1),
    description: `term "${queryTerm.term}": qw · idf · (k1 + 1) · tf̃ / (k1 + tf̃) with k1=${round(k1)}`,
    details: [
      { value: queryTerm.weight, description: 'qw: query weight, 1 + ln(count) (× subwordWeight for a sub-word)' },
      { value: idf, description: `idf = ln(1 + (N − df + 0.5) / (df + 0.5)) with N=${data.docCount}, df=${docFrequency}` },
      { value: combined, description: 'tf̃: Σ over fields of weight · tf / B', details: fieldDetails },
    ],
  };
}

/** The explanation tree of one chunk's score; its `value` is the search score, exactly. */
export function explainChunk(index: Bm25Index, queryTerms: readonly QueryTerm[], doc: number): Explanation {
  const details = queryTerms.map((term) => explainTerm(index, term, doc));
  let total = 0;
  for (const detail of details) total += detail.value;
  return {
    value: total,
    description: `BM25F score of chunk ${doc}: sum over ${queryTerms.length} query term(s)`,
    details,
  };
}
