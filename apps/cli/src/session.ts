import { readIndex, retrieverDir, RagError, type Chunk, type IndexManifest, type Retriever, type Source } from '@rag/core';
import { createRetrieverRegistry, type RetrieverWiring } from './retrievers.js';
import { createOutputPathMapper } from './paths.js';

/** An opened index with its retriever, ready to answer queries. */
export interface SearchSession {
  manifest: IndexManifest;
  chunks: Chunk[];
  retriever: Retriever;
  /** Maps a path inside the corpus to the `file_path` written in outputs. */
  outputPath: (fileInCorpus: string) => string;
  loadSeconds: number;
}

/** Loads the index in `indexDir` and the retriever `name` (default: the one it was built with). */
export async function openSearchSession(indexDir: string, name?: string, wiring: RetrieverWiring = {}): Promise<SearchSession> {
  const started = performance.now();
  const registry = createRetrieverRegistry(wiring);
  if (name !== undefined) registry.get(name); // unknown names fail before any IO
  const index = await readIndex(indexDir);
  const entries = index.manifest.retrievers;
  const chosen = name ?? entries[0]?.name;
  if (!chosen) {
    throw new RagError('INDEX_CORRUPT', `The index in ${indexDir} records no retriever.`, {
      hint: 'Rebuild it with `rag index --corpus_dir <dir>`.',
    });
  }
  if (!entries.some((e) => e.name === chosen)) {
    throw new RagError('INVALID_ARGUMENT', `The index in ${indexDir} was not built with the "${chosen}" retriever (it has: ${entries.map((e) => e.name).join(', ')}).`, {
      hint: `Rebuild it with \`rag index --corpus_dir <dir> --retriever ${chosen}\`, or pick one of those with --retriever.`,
    });
  }
  const retriever = await registry.get(chosen).load(retrieverDir(indexDir, chosen), index.chunks);
  return {
    manifest: index.manifest,
    chunks: index.chunks,
    retriever,
    outputPath: createOutputPathMapper(index.manifest.corpusDir),
    loadSeconds: (performance.now() - started) / 1000,
  };
}

export interface RankedSource extends Source {
  rank: number;
  score: number;
  start_line: number;
  end_line: number;
  symbol: string;
  kind: string;
}

/** Runs one query and maps hits to cited sources in output paths. */
export async function searchSources(session: SearchSession, query: string, k: number): Promise<RankedSource[]> {
  const hits = await session.retriever.search(query, { k });
  return hits.map((hit, i) => {
    const chunk = session.chunks[hit.chunkId]!;
    return {
      file_path: session.outputPath(chunk.file_path),
      first_character_index: chunk.first_character_index,
      last_character_index: chunk.last_character_index,
      rank: i + 1,
      score: hit.score,
      start_line: chunk.start_line,
      end_line: chunk.end_line,
      symbol: chunk.symbol,
      kind: chunk.kind,
    };
  });
}

/** Only the three benchmark fields, in their fixed order. */
export function toMinimalSource(source: Source): Source {
  return {
    file_path: source.file_path,
    first_character_index: source.first_character_index,
    last_character_index: source.last_character_index,
  };
}
