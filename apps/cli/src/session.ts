import { openSearchSession, type SearchSession } from '@rag/service/search';
import type { ParsedFlags } from './args.js';
import { indexDirFrom, invocationDir } from './paths.js';
import { createRetrieverRegistry } from './retrievers.js';

/**
 * The index named by `--index_dir` opened with `--retriever` / `--embedding_model`, paths
 * relative to the invocation directory. `oneQuestion`: the command asks one question, so a
 * large bm25 index is read in the parts it needs (checked page by page) rather than whole,
 * and a chunk's object is made only when the chunk is read.
 */
export async function openSessionFromFlags(flags: ParsedFlags, { oneQuestion = false } = {}): Promise<{ indexDir: string; session: SearchSession }> {
  const indexDir = indexDirFrom(flags);
  const session = await openSearchSession(indexDir, {
    retriever: flags.retriever as string | undefined,
    retrievers: createRetrieverRegistry(flags.embedding_model as string | undefined),
    pathBase: invocationDir(),
    ...(oneQuestion ? { pagedFromBytes: 0, lazyChunks: true } : {}),
  });
  return { indexDir, session };
}
