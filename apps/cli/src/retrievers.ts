import { existsSync } from 'node:fs';
import { RetrieverRegistry } from '@rag/core';
import { bm25RetrieverFactory } from '@rag/bm25';
import { createEmbeddingRetrieverFactory, type EmbeddingSettings } from '@rag/embedding';
import { createHybridRetrieverFactory, LEXICAL_DENSE_SETTINGS } from '@rag/hybrid';
import { resolveUserPath } from './paths.js';

export interface RetrieverWiring {
  /**
   * Sentence-embedding model for `embedding`/`hybrid`: a hub id (`Xenova/all-MiniLM-L6-v2`)
   * or a local model folder. Default: the zero-download embedder learned from the corpus.
   */
  embeddingModel?: string;
}

function embeddingSettings(model: string | undefined): Partial<EmbeddingSettings> {
  if (model === undefined) return {};
  const path = resolveUserPath(model);
  const isFolder = model.startsWith('.') || model.startsWith('/') || existsSync(path);
  return isFolder ? { modelDir: path } : { model };
}

/** Every retriever the CLI can build or load, by name. Adding one here is all it takes. */
export function createRetrieverRegistry(wiring: RetrieverWiring = {}): RetrieverRegistry {
  const embedding = createEmbeddingRetrieverFactory(embeddingSettings(wiring.embeddingModel) as EmbeddingSettings);
  return new RetrieverRegistry([
    bm25RetrieverFactory,
    embedding,
    createHybridRetrieverFactory([bm25RetrieverFactory, embedding], LEXICAL_DENSE_SETTINGS),
  ]);
}

export const DEFAULT_RETRIEVER = 'bm25';

export const EMBEDDING_MODEL_FLAG = {
  name: 'embedding_model',
  type: 'string',
  metavar: 'NAME|DIR',
  description: 'Embedding model for the embedding/hybrid retrievers: a hub id or a local model folder',
  defaultLabel: 'the zero-download corpus embedder',
} as const;
