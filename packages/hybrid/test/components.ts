import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Chunk, Explanation, Hit, Retriever, RetrieverFactory, SearchOptions } from '@rag/core';

/**
 * Two small real retrievers to fuse: `words` scores a chunk by how many query words it
 * contains (0 when none, like BM25), `letters` by the share of the query's letters
 * found in the chunk (never 0 for a non-empty chunk, like a cosine). Both persist their
 * settings and record every k they are asked for.
 */
export class CountingRetriever implements Retriever {
  readonly requestedK: number[] = [];
  /** The scope of every search, in order (undefined for none). */
  readonly requestedScopes: (Uint8Array | undefined)[] = [];

  constructor(
    readonly name: string,
    readonly chunks: readonly Chunk[],
    readonly settings: Record<string, unknown>,
    readonly score: (query: string, text: string) => number,
  ) {}

  async search(query: string, options: SearchOptions): Promise<Hit[]> {
    this.requestedK.push(options.k);
    this.requestedScopes.push(options.scope);
    return this.chunks
      .filter((c) => options.scope === undefined || options.scope[c.id] === 1)
      .map((c) => ({ chunkId: c.id, score: this.score(query, c.text) }))
      .sort((a, b) => b.score - a.score || a.chunkId - b.chunkId)
      .slice(0, options.k);
  }

  explain(query: string, chunkId: number): Explanation {
    return { value: this.score(query, this.chunks[chunkId]!.text), description: `${this.name} score` };
  }

  async save(dir: string): Promise<void> {
    await writeFile(join(dir, 'state.json'), JSON.stringify({ name: this.name, settings: this.settings }));
  }
}

const words = (text: string) => text.toLowerCase().split(/\W+/).filter(Boolean);

export const countWords = (query: string, text: string): number => {
  const present = new Set(words(text));
  return words(query).filter((w) => present.has(w)).length;
};

export const shareLetters = (query: string, text: string): number => {
  const letters = [...new Set(query.toLowerCase().replace(/[^a-z]/g, ''))];
  const present = new Set(text.toLowerCase());
  return letters.length === 0 ? 0 : letters.filter((l) => present.has(l)).length / letters.length;
};

export function countingFactory(name: string, score: (query: string, text: string) => number): RetrieverFactory & { built: CountingRetriever[] } {
  const built: CountingRetriever[] = [];
  return {
    name,
    description: `test retriever ${name}`,
    built,
    async build(chunks, context = {}) {
      const retriever = new CountingRetriever(name, chunks, context.settings ?? {}, score);
      built.push(retriever);
      context.onProgress?.({ phase: name, done: 1, total: 1 });
      return retriever;
    },
    async load(dir, chunks) {
      const state = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8')) as { name: string; settings: Record<string, unknown> };
      const retriever = new CountingRetriever(state.name, chunks, state.settings, score);
      built.push(retriever);
      return retriever;
    },
  };
}

/** A retriever that returns fixed hit lists, for hand-computed fusion. */
export function fixedRetriever(name: string, lists: Record<string, Hit[]>): Retriever {
  return {
    name,
    async search(query, { k }) {
      return (lists[query] ?? []).slice(0, k);
    },
    explain: (_query, chunkId) => ({ value: chunkId, description: `${name} explains ${chunkId}` }),
    async save() {},
  };
}

export function chunksOf(texts: readonly string[]): Chunk[] {
  return texts.map((text, id) => ({
    id,
    file_path: `doc${id}.md`,
    first_character_index: 0,
    last_character_index: text.length,
    start_line: 1,
    end_line: 1,
    kind: 'text',
    symbol: '',
    language: 'text',
    text,
  }));
}
