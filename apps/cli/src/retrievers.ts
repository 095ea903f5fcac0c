import type { RetrieverRegistry } from '@rag/core';
import { createDefaultRetrieverRegistry, embeddingSettingsFor, type RetrieverRegistryOptions } from '@rag/service/search';
import { invocationDir } from './paths.js';

/** The service's registry of every built-in retriever, with `--embedding_model` applied. */
export function createRetrieverRegistry(embeddingModel: string | undefined): RetrieverRegistry {
  return createDefaultRetrieverRegistry({ embedding: embeddingSettingsFor(embeddingModel, invocationDir()) });
}

/** The same as plain data, for the server: its search workers build the registry themselves. */
export function retrieverSettingsFor(embeddingModel: string | undefined): RetrieverRegistryOptions {
  return { embedding: embeddingSettingsFor(embeddingModel, invocationDir()) };
}

export const EMBEDDING_MODEL_FLAG = {
  name: 'embedding_model',
  type: 'string',
  metavar: 'NAME|DIR',
  description: 'Embedding model for the embedding/hybrid retrievers: a hub id or a local model folder',
  defaultLabel: 'the zero-download corpus embedder',
} as const;
