import { RagError, type Chunk, type ChunkKind, type Language } from '@rag/core';
import { createBm25Retriever, type Bm25Retriever } from '../src/index.js';
import { encodeIndex } from '../src/persist.js';
import { loadBm25Retriever } from '../src/retriever.js';
import { expect } from 'vitest';

/** Runs `run` and returns the RagError it throws (failing the test otherwise). */
export async function rejection(run: () => unknown): Promise<RagError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(RagError);
    return error as RagError;
  }
  throw new Error('expected a RagError, nothing was thrown');
}

export interface ChunkSpec {
  text: string;
  file_path?: string;
  symbol?: string;
  kind?: ChunkKind;
  language?: Language;
}

/** Hand-made chunks with dense ids and made-up but consistent offsets. */
export function makeChunks(specs: readonly ChunkSpec[]): Chunk[] {
  return specs.map((spec, id) => ({
    id,
    file_path: spec.file_path ?? `file${id}.txt`,
    first_character_index: 0,
    last_character_index: spec.text.length,
    start_line: 1,
    end_line: spec.text.split('\n').length,
    kind: spec.kind ?? 'text',
    symbol: spec.symbol ?? '',
    language: spec.language ?? 'text',
    text: spec.text,
  }));
}

/** Settings that switch off everything but plain BM25 on the body, for hand computation. */
export const PLAIN_BM25 = {
  fields: { path: { weight: 0 }, symbol: { weight: 0 }, anchor: { weight: 0 } },
  tokenizer: { stem: false, splitIdentifiers: false, dottedNames: false },
  query: { questionWords: [] },
};

/**
 * The symbols of the Python chunks among the best `k` hits for `query` over `chunks`, best
 * first: what a golden ranking of code against docs compares.
 */
export function codeRanking(chunks: readonly Chunk[], query: string, settings: object = {}, k = chunks.length): string[] {
  return createBm25Retriever(chunks, settings)
    .searchSync(query, { k })
    .filter((hit) => chunks[hit.chunkId]!.language === 'python')
    .map((hit) => chunks[hit.chunkId]!.symbol);
}

/** `retriever`'s index read in pages, as a store that fetches parts of the file gives it (each read a plain copy). */
export async function pagedCopy(retriever: Bm25Retriever, chunks: readonly Chunk[]): Promise<Bm25Retriever> {
  const bytes = encodeIndex(retriever.index.data);
  const ranges = {
    size: bytes.byteLength,
    async read(list: readonly { offset: number; length: number }[]) {
      return list.map((range) => bytes.slice(range.offset, range.offset + range.length));
    },
  };
  return loadBm25Retriever('/idx/bm25', [...chunks], { verified: true, openRanges: () => ranges });
}
