import { RagError, type Explanation, type ProgressFn } from '@rag/core';
import { tokenize, tokenizeQuery } from '@rag/text';
import type { Embedder } from '../embedder.js';
import { decodeContainer, encodeContainer } from '../binary-file.js';
import { dotRow, normalizeInPlace } from '../vector-math.js';
import { documentCooccurrence, toPpmi, windowCooccurrence } from './cooccurrence.js';
import type { CorpusEmbedderOptions } from './options.js';
import { randomizedSvd } from './svd.js';
import { encodeCorpus, type EncodedCorpus } from './vocabulary.js';

/** File name of the learned model inside a retriever directory. */
export const CORPUS_MODEL_FILE = 'corpus-model.bin';
const MAGIC = 'RAGCEM1\n';
/** 2: terms from the stemmer that folds British spellings (its vocabulary is stored terms). */
const FORMAT_VERSION = 2;

/** Lucene's idf, as BM25 uses: always positive, near 0 for terms in every chunk. */
function idfOf(docCount: number, df: number): number {
  return Math.log(1 + (docCount - df + 0.5) / (df + 0.5));
}

function hashVectors(vectors: Float32Array): string {
  const words = new Uint32Array(vectors.buffer, vectors.byteOffset, vectors.length);
  let hash = 0x811c9dc5;
  for (let i = 0; i < words.length; i++) hash = Math.imul(hash ^ words[i]!, 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/** A query term's share of a corpus-embedder score, for `explain`. */
export interface TermContribution {
  term: string;
  /** Pooling weight: query weight × idf. */
  weight: number;
  /** This term's part of the final cosine. */
  contribution: number;
}

/**
 * The zero-download embedder: term vectors learned from the indexed corpus itself
 * (co-occurrence counts → PPMI → truncated SVD), and a text's vector the idf-weighted
 * mean of its terms' vectors, centred and normalised. Tokens are BM25's (identifiers
 * split into sub-words next to the whole name), so `max_num_seqs` lands near both
 * `max`/`num`/`seqs` and the prose around it.
 */
export class CorpusEmbedder implements Embedder {
  readonly id: string;
  readonly dimension: number;
  readonly settings: Readonly<Record<string, unknown>>;
  readonly #lookup: Map<string, number>;

  constructor(
    readonly options: Readonly<CorpusEmbedderOptions>,
    readonly terms: readonly string[],
    /** Per term, the idf its pooling weight carries. */
    readonly idf: Float32Array,
    /** Term vectors, row-major terms.length × dimension, unit rows. */
    readonly vectors: Float32Array,
    /** Mean of the pooled chunk vectors (subtracted when `center`); zeros otherwise. */
    readonly mean: Float32Array,
  ) {
    this.dimension = mean.length;
    this.#lookup = new Map(terms.map((t, i) => [t, i]));
    this.id = `corpus-ppmi-svd:${this.dimension}:${hashVectors(vectors)}`;
    this.settings = { embedder: 'corpus', corpus: { ...options } };
  }

  get vocabularySize(): number {
    return this.terms.length;
  }

  /** Id of `term` in the vocabulary, or -1. */
  termId(term: string): number {
    return this.#lookup.get(term) ?? -1;
  }

  /** Adds `weight ·` term vector `id` into `out`. */
  #accumulate(out: Float32Array, outOffset: number, id: number, weight: number): void {
    const d = this.dimension;
    const base = id * d;
    for (let i = 0; i < d; i++) out[outOffset + i] = out[outOffset + i]! + weight * this.vectors[base + i]!;
  }

  /** Normalise, centre, normalise again: the same steps for chunks and queries. */
  #finish(out: Float32Array, offset: number): void {
    if (normalizeInPlace(out, offset, this.dimension) === 0) return;
    if (!this.options.center) return;
    for (let i = 0; i < this.dimension; i++) out[offset + i] = out[offset + i]! - this.mean[i]!;
    normalizeInPlace(out, offset, this.dimension);
  }

  /** Chunk pooling weights: (1 + ln tf) · idf per distinct in-vocabulary term. */
  #poolTerms(termIds: ArrayLike<number>, out: Float32Array, offset: number, counts: Float32Array, touched: Uint32Array): void {
    let distinct = 0;
    for (let i = 0; i < termIds.length; i++) {
      const id = termIds[i]!;
      if (counts[id] === 0) touched[distinct++] = id;
      counts[id]!++;
    }
    for (let i = 0; i < distinct; i++) {
      const id = touched[i]!;
      this.#accumulate(out, offset, id, (1 + Math.log(counts[id]!)) * this.idf[id]!);
      counts[id] = 0;
    }
    this.#finish(out, offset);
  }

  /** Chunk vectors straight from an already encoded corpus (the fit reuses its tokens). */
  embedEncoded(corpus: EncodedCorpus, onProgress?: ProgressFn): Float32Array {
    const out = new Float32Array(corpus.docCount * this.dimension);
    const counts = new Float32Array(this.terms.length);
    const touched = new Uint32Array(this.terms.length);
    const step = Math.max(1, Math.ceil(corpus.docCount / 20));
    for (let d = 0; d < corpus.docCount; d++) {
      this.#poolTerms(corpus.tokens.subarray(corpus.docStart[d]!, corpus.docStart[d + 1]!), out, d * this.dimension, counts, touched);
      if (onProgress && ((d + 1) % step === 0 || d + 1 === corpus.docCount)) onProgress({ phase: 'embed', done: d + 1, total: corpus.docCount });
    }
    return out;
  }

  embedDocumentsSync(texts: readonly string[]): Float32Array {
    const out = new Float32Array(texts.length * this.dimension);
    const counts = new Float32Array(this.terms.length);
    const touched = new Uint32Array(this.terms.length);
    texts.forEach((text, index) => {
      const ids: number[] = [];
      for (const term of tokenize(text)) {
        const id = this.#lookup.get(term);
        if (id !== undefined) ids.push(id);
      }
      this.#poolTerms(ids, out, index * this.dimension, counts, touched);
    });
    return out;
  }

  async embedDocuments(texts: readonly string[]): Promise<Float32Array> {
    return this.embedDocumentsSync(texts);
  }

  /** In-vocabulary query terms with their pooling weights (query weight × idf). */
  queryTerms(text: string): { term: string; id: number; weight: number }[] {
    const out: { term: string; id: number; weight: number }[] = [];
    for (const { term, weight } of tokenizeQuery(text)) {
      const id = this.#lookup.get(term);
      if (id !== undefined) out.push({ term, id, weight: weight * this.idf[id]! });
    }
    return out;
  }

  embedQuerySync(text: string): Float32Array {
    const out = new Float32Array(this.dimension);
    for (const { id, weight } of this.queryTerms(text)) this.#accumulate(out, 0, id, weight);
    this.#finish(out, 0);
    return out;
  }

  async embedQuery(text: string): Promise<Float32Array> {
    return this.embedQuerySync(text);
  }

  /**
   * Splits the cosine of `text` with a chunk vector into one part per query term plus the
   * centring correction. With s = Σ wₜ·vₜ, r = s/|s| and e = (r − μ)/|r − μ|, the score
   * e·c = Σₜ wₜ (vₜ·c) / (|s|·|r − μ|) − (μ·c)/|r − μ|, and the parts sum to it exactly.
   */
  explainQuery(text: string, chunkVectors: Float32Array, chunkRow: number): Explanation {
    const d = this.dimension;
    const terms = this.queryTerms(text);
    const sum = new Float32Array(d);
    for (const { id, weight } of terms) this.#accumulate(sum, 0, id, weight);
    const sumNorm = Math.hypot(...sum);
    if (sumNorm === 0) return { value: 0, description: 'no query term has a vector in this corpus, so the query vector is zero' };
    let centredNorm = 1;
    if (this.options.center) {
      let squares = 0;
      for (let i = 0; i < d; i++) squares += (sum[i]! / sumNorm - this.mean[i]!) ** 2;
      centredNorm = Math.sqrt(squares);
    }
    const details: Explanation[] = terms.map(({ term, id, weight }) => {
      const similarity = dotRow(chunkVectors.subarray(chunkRow * d, chunkRow * d + d), this.vectors, id, d);
      const contribution = (weight * similarity) / (sumNorm * centredNorm);
      return {
        value: contribution,
        description: `term "${term}": weight ${weight.toFixed(3)} (query weight × idf), cosine with the chunk ${similarity.toFixed(3)}`,
      };
    });
    if (this.options.center) {
      const meanDot = dotRow(this.mean, chunkVectors, chunkRow, d);
      details.push({ value: -meanDot / centredNorm, description: 'centring: minus the chunk’s similarity to the mean chunk vector' });
    }
    const value = details.reduce((s, e) => s + e.value, 0);
    return { value, description: `cosine of the idf-weighted term-vector means (${this.id})`, details };
  }

  encode(): Uint8Array {
    const joined = new TextEncoder().encode(this.terms.join('\n'));
    return encodeContainer(
      MAGIC,
      { format: 'rag-corpus-embedder', version: FORMAT_VERSION, id: this.id, dimension: this.dimension, termCount: this.terms.length, options: this.options },
      { terms: joined, idf: this.idf, mean: this.mean, vectors: this.vectors },
    );
  }

  static decode(bytes: Uint8Array, label: string): CorpusEmbedder {
    const { header, sections } = decodeContainer(bytes, MAGIC, label);
    if (header.version !== FORMAT_VERSION) {
      throw new RagError('INDEX_INCOMPATIBLE', `${label} has corpus-embedder format version ${String(header.version)}; this version reads ${FORMAT_VERSION}.`, {
        hint: 'Rebuild the index with `rag index --corpus_dir <dir> --retriever embedding`.',
      });
    }
    const termText = new TextDecoder().decode(sections.terms as Uint8Array);
    const terms = termText.length === 0 ? [] : termText.split('\n');
    return new CorpusEmbedder(
      header.options as CorpusEmbedderOptions,
      terms,
      sections.idf as Float32Array,
      sections.vectors as Float32Array,
      sections.mean as Float32Array,
    );
  }
}

export interface FittedCorpusEmbedder {
  embedder: CorpusEmbedder;
  /** The training texts' vectors (they come almost free from the fit). */
  vectors: Float32Array;
  stats: { vocabulary: number; tokens: number; nonZeros: number; seconds: Record<string, number> };
}

/**
 * Learns term vectors from `texts` and embeds them. Reports progress as phase `fit`
 * (steps of the factorisation) and then `embed` (texts pooled).
 */
export function fitCorpusEmbedder(texts: readonly string[], options: Readonly<CorpusEmbedderOptions>, onProgress?: ProgressFn): FittedCorpusEmbedder {
  const seconds: Record<string, number> = {};
  let clock = performance.now();
  const lap = (name: string): void => {
    const now = performance.now();
    seconds[name] = (now - clock) / 1000;
    clock = now;
  };
  const steps = 4;
  const report = (done: number): void => onProgress?.({ phase: 'fit', done, total: steps });
  report(0);
  const corpus = encodeCorpus(
    (function* () {
      for (const text of texts) yield tokenize(text);
    })(),
    { minCount: options.minCount, maxVocabulary: Math.min(options.maxVocabulary, 65_536) },
  );
  lap('tokenize');
  report(1);
  const counts = options.context === 'window' ? windowCooccurrence(corpus, options.window, options.minPairCount) : documentCooccurrence(corpus);
  lap('cooccurrence');
  const ppmi = toPpmi(counts, options.smoothing);
  lap('ppmi');
  report(2);
  const vocabulary = corpus.terms.length;
  const dimension = options.dimension;
  const vectors = new Float32Array(vocabulary * dimension);
  if (vocabulary > 0 && ppmi.values.length > 0) {
    const svd = randomizedSvd(ppmi, {
      rank: Math.min(dimension, vocabulary),
      oversampling: options.oversampling,
      powerIterations: options.powerIterations,
      seed: options.seed,
    });
    for (let t = 0; t < vocabulary; t++) {
      for (let c = 0; c < svd.rank; c++) vectors[t * dimension + c] = svd.u[t * svd.rank + c]! * Math.pow(svd.singularValues[c]!, options.eigenPower);
      normalizeInPlace(vectors, t * dimension, dimension);
    }
  }
  lap('svd');
  report(3);
  const idf = Float32Array.from(corpus.documentFrequency, (df) => idfOf(corpus.docCount, df));
  const uncentred = new CorpusEmbedder({ ...options, center: false }, corpus.terms, idf, vectors, new Float32Array(dimension));
  const pooled = uncentred.embedEncoded(corpus);
  const mean = new Float32Array(dimension);
  if (options.center && corpus.docCount > 0) {
    for (let d = 0; d < corpus.docCount; d++) for (let i = 0; i < dimension; i++) mean[i] = mean[i]! + pooled[d * dimension + i]!;
    for (let i = 0; i < dimension; i++) mean[i] = mean[i]! / corpus.docCount;
  }
  const embedder = new CorpusEmbedder(options, corpus.terms, idf, vectors, mean);
  if (options.center) {
    // Pooled rows are already unit length, so centring them finishes exactly as #finish would.
    for (let d = 0; d < corpus.docCount; d++) {
      const offset = d * dimension;
      let norm = 0;
      for (let i = 0; i < dimension; i++) norm += pooled[offset + i]! * pooled[offset + i]!;
      if (norm === 0) continue;
      for (let i = 0; i < dimension; i++) pooled[offset + i] = pooled[offset + i]! - mean[i]!;
      normalizeInPlace(pooled, offset, dimension);
    }
  }
  lap('pool');
  report(4);
  onProgress?.({ phase: 'embed', done: corpus.docCount, total: corpus.docCount });
  return { embedder, vectors: pooled, stats: { vocabulary, tokens: corpus.tokens.length, nonZeros: ppmi.values.length, seconds } };
}
