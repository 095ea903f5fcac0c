import { createHash } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '@rag/core';
import { decodeContainer, encodeContainer } from './binary-file.js';

const MAGIC = 'RAGCKP1\n';

/** A stable key for one embedding job: the model, the batch size and every text, in order. */
export function checkpointKey(embedderId: string, batchSize: number, texts: readonly string[]): string {
  const hash = createHash('sha256');
  hash.update(`${embedderId}\n${batchSize}\n`);
  for (const text of texts) {
    hash.update(`${text.length}:`);
    hash.update(text);
  }
  return hash.digest('hex').slice(0, 32);
}

/**
 * Finished batches of an embedding job, one file per batch under
 * `<root>/<key>/batch-<n>.bin`, each written atomically: a crash loses at most the batch
 * in flight, and a rerun of the same job (same model, batch size and texts, hence the
 * same key) reads the finished ones back instead of recomputing them.
 */
export class EmbeddingCheckpoint {
  readonly dir: string;

  constructor(root: string, readonly key: string, readonly embedderId: string, readonly dimension: number) {
    this.dir = join(root, key);
  }

  /** Batches already on disk: batch index → (row ids, vectors). Unreadable files are skipped. */
  async readFinished(): Promise<Map<number, { rows: Uint32Array; vectors: Float32Array }>> {
    const finished = new Map<number, { rows: Uint32Array; vectors: Float32Array }>();
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return finished;
    }
    for (const name of names) {
      const match = /^batch-(\d+)\.bin$/.exec(name);
      if (!match) continue;
      try {
        const { header, sections } = decodeContainer(await readFile(join(this.dir, name)), MAGIC, name);
        if (header.embedderId !== this.embedderId || header.dimension !== this.dimension) continue;
        const rows = sections.rows as Uint32Array;
        const vectors = sections.vectors as Float32Array;
        if (vectors.length !== rows.length * this.dimension) continue;
        finished.set(Number(match[1]), { rows, vectors });
      } catch {
        // A damaged batch is simply embedded again.
      }
    }
    return finished;
  }

  async writeBatch(index: number, rows: Uint32Array, vectors: Float32Array): Promise<void> {
    const bytes = encodeContainer(MAGIC, { embedderId: this.embedderId, dimension: this.dimension, batch: index }, { rows, vectors });
    await writeFileAtomic(join(this.dir, `batch-${index}.bin`), bytes);
  }

  /** Removes the checkpoint once its vectors are safely in an index. */
  async discard(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}
