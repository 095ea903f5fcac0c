import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { deferRetrieverFactory, RetrieverRegistry } from '@rag/core';
import { bm25RetrieverFactory } from '@rag/bm25';
import type { EmbeddingSettings } from '@rag/embedding';

/** The retriever `rag index` builds when none is named: the strongest single one. */
export const DEFAULT_RETRIEVER = 'bm25';

export interface RetrieverRegistryOptions {
  /**
   * Settings of the `embedding` retriever, also used as `hybrid`'s dense component: a hub
   * id (`model`) or a local folder (`modelDir`). Default `{}`: the zero-download embedder
   * learned from the corpus.
   */
  embedding?: EmbeddingSettings;
}

/**
 * Every built-in retriever, by name, each with its measured defaults: `bm25`, `embedding`,
 * and `hybrid` (bm25 + embedding with `@rag/hybrid`'s `LEXICAL_DENSE_SETTINGS`, not the
 * library's generic equal-weight RRF). The one registry the CLI, the server and MCP all use,
 * so an index any of them built opens in all of them. `embedding` and `hybrid` are imported
 * when first used (`deferRetrieverFactory`): opening a bm25 index loads neither.
 */
export function createDefaultRetrieverRegistry(options: RetrieverRegistryOptions = {}): RetrieverRegistry {
  const embedding = deferRetrieverFactory('embedding', 'dense vectors: a zero-download embedder learned from the corpus, or a transformers.js model', async () => {
    const { createEmbeddingRetrieverFactory } = await import('@rag/embedding');
    return createEmbeddingRetrieverFactory(options.embedding ?? {});
  });
  const hybrid = deferRetrieverFactory('hybrid', 'fusion of bm25 + embedding', async () => {
    const { createHybridRetrieverFactory, LEXICAL_DENSE_SETTINGS } = await import('@rag/hybrid');
    return createHybridRetrieverFactory([bm25RetrieverFactory, embedding], LEXICAL_DENSE_SETTINGS);
  });
  return new RetrieverRegistry([bm25RetrieverFactory, embedding, hybrid]);
}

/**
 * Embedding settings for a user's `--embedding_model`: a local folder when it looks like a
 * path or exists (relative to `baseDir`), else a hub id. Undefined means the default embedder.
 */
export function embeddingSettingsFor(model: string | undefined, baseDir: string): EmbeddingSettings {
  if (model === undefined) return {};
  const path = resolve(baseDir, model);
  return model.startsWith('.') || model.startsWith('/') || existsSync(path) ? { modelDir: path } : { model };
}
