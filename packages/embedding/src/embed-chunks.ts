import type { ProgressFn } from '@rag/core';
import { checkpointKey, EmbeddingCheckpoint } from './checkpoint.js';
import type { Embedder } from './embedder.js';

export interface EmbedTextsOptions {
  /** Texts per batch: the unit of progress and of the checkpoint. */
  batchSize: number;
  /** Root folder of checkpoints, or null to keep nothing (a rerun starts over). */
  checkpointRoot: string | null;
  /** Called after each batch with phase `embed`, done = texts embedded so far. */
  onProgress?: ProgressFn;
}

export interface EmbeddedTexts {
  /** Row-major texts.length × embedder.dimension. */
  vectors: Float32Array;
  /** Batches read back from the checkpoint instead of computed. */
  resumedBatches: number;
  computedBatches: number;
  /** The checkpoint that holds these batches (discard it once they are saved elsewhere). */
  checkpoint: EmbeddingCheckpoint | null;
}

/**
 * Embeds many texts in batches of similar length (less padding), writing each finished
 * batch to a checkpoint so an interrupted run resumes without recomputing it. Memory
 * stays bounded by one batch plus the output matrix.
 */
export async function embedTexts(embedder: Embedder, texts: readonly string[], options: EmbedTextsOptions): Promise<EmbeddedTexts> {
  const dimension = embedder.dimension;
  const vectors = new Float32Array(texts.length * dimension);
  const order = texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length || a - b);
  const batchCount = Math.ceil(order.length / options.batchSize);
  const checkpoint =
    options.checkpointRoot === null
      ? null
      : new EmbeddingCheckpoint(options.checkpointRoot, checkpointKey(embedder.id, options.batchSize, texts), embedder.id, dimension);
  const finished = checkpoint ? await checkpoint.readFinished() : new Map();
  let done = 0;
  let resumedBatches = 0;
  let computedBatches = 0;
  for (let batch = 0; batch < batchCount; batch++) {
    const rows = Uint32Array.from(order.slice(batch * options.batchSize, (batch + 1) * options.batchSize));
    const saved = finished.get(batch);
    let batchVectors: Float32Array;
    if (saved && saved.rows.length === rows.length && saved.rows.every((r: number, i: number) => r === rows[i])) {
      batchVectors = saved.vectors;
      resumedBatches++;
    } else {
      batchVectors = await embedder.embedDocuments(Array.from(rows, (r) => texts[r]!));
      await checkpoint?.writeBatch(batch, rows, batchVectors);
      computedBatches++;
    }
    rows.forEach((row, i) => vectors.set(batchVectors.subarray(i * dimension, (i + 1) * dimension), row * dimension));
    done += rows.length;
    options.onProgress?.({ phase: 'embed', done, total: texts.length });
  }
  return { vectors, resumedBatches, computedBatches, checkpoint };
}
