import { RetrieverRegistry } from '@rag/core';
import { bm25RetrieverFactory } from '@rag/bm25';

// The session itself lives in @rag/core so the CLI and the server open indexes the same way.
export { createOutputPathMapper, openIndexSession } from '@rag/core';
export type { IndexSession, IndexSessionOptions, RetrieverSource, SessionHit } from '@rag/core';

/** The retrievers the server can load by itself when its caller passes no registry. */
export function createDefaultRetrieverRegistry(): RetrieverRegistry {
  return new RetrieverRegistry([bm25RetrieverFactory]);
}
