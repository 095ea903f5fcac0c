import { RetrieverRegistry } from '@rag/core';
import { bm25RetrieverFactory } from '@rag/bm25';

/** Every retriever the CLI can build or load, by name. Adding one here is all it takes. */
export function createRetrieverRegistry(): RetrieverRegistry {
  return new RetrieverRegistry([bm25RetrieverFactory]);
}

export const DEFAULT_RETRIEVER = 'bm25';
