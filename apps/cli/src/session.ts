import { openSearchSession, type SearchSession } from '@rag/service';
import type { ParsedFlags } from './args.js';
import { indexDirFrom, invocationDir } from './paths.js';
import { createRetrieverRegistry } from './retrievers.js';

/** The index named by `--index_dir` opened with `--retriever` / `--embedding_model`, paths relative to the invocation directory. */
export async function openSessionFromFlags(flags: ParsedFlags): Promise<{ indexDir: string; session: SearchSession }> {
  const indexDir = indexDirFrom(flags);
  const session = await openSearchSession(indexDir, {
    retriever: flags.retriever as string | undefined,
    retrievers: createRetrieverRegistry(flags.embedding_model as string | undefined),
    pathBase: invocationDir(),
  });
  return { indexDir, session };
}
