import { openIndexSession } from '@rag/core';
import { createDefaultRetrieverRegistry } from './retrievers.js';
import { openStore } from './stores.js';

/** The retriever that can tell which words an index holds: the lexical one. */
const LEXICAL_RETRIEVER = 'bm25';

export interface UnindexedWordsReader {
  /** See `Retriever.unindexedWords`. */
  unindexedWords(question: string): Promise<string[]>;
  /** See `Retriever.rareWords` (none when the retriever cannot tell). */
  rareWords(question: string): Promise<string[]>;
  /** Closes the index and its store. */
  close(): Promise<void>;
}

/**
 * `Retriever.unindexedWords` (and `rareWords`) of the index in `indexDir`, for callers that answer from a
 * search-results file rather than a search of their own (`rag answer_dataset`): read through
 * the index's bm25 retriever in pages, so only the dictionary blocks of the questions' words
 * are read. Undefined when the index has no bm25 retriever (an embedding-only index
 * cannot tell).
 */
export async function createUnindexedWordsReader(indexDir: string): Promise<UnindexedWordsReader | undefined> {
  const store = openStore(indexDir, { pagedFromBytes: 0 });
  const close = async (): Promise<void> => {
    await store.close?.();
  };
  try {
    const session = await openIndexSession(store, {
      retrievers: createDefaultRetrieverRegistry(),
      lazyChunks: true,
      // Nothing is loaded until the lexical retriever is asked for: the index's default may be a model's.
      deferLoad: true,
    });
    const retriever = session.retrieverNames.includes(LEXICAL_RETRIEVER) ? await session.retriever(LEXICAL_RETRIEVER) : undefined;
    const read = retriever?.unindexedWords?.bind(retriever);
    const readRare = retriever?.rareWords?.bind(retriever);
    if (!read) {
      session.close();
      await close();
      return undefined;
    }
    return {
      unindexedWords: read,
      rareWords: async (question) => (readRare ? readRare(question) : []),
      async close() {
        session.close();
        await close();
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}
