import fc from 'fast-check';
import { scopeOfFiles, type Chunk } from '@rag/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { BlockSearch, tabulateBlocks } from '../src/block-max.js';
import { Bm25Index } from '../src/bm25-index.js';
import { createBm25Retriever, type Bm25Retriever } from '../src/index.js';
import { resolveBm25Options } from '../src/options.js';
import { makeChunks, pagedCopy } from './helpers.js';
import { miniChunks } from './mini-corpus.js';

const WORDS = ['cache', 'kv', 'block', 'max_num_seqs', 'seq', 'scheduler', 'port', 'default'];

/** Random chunks over a small vocabulary, some repeated (exact ties), and a random scope over them. */
const corpusAndScope = fc
  .array(
    fc.record({
      text: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 10 }).map((words) => words.join(' ')),
      copies: fc.integer({ min: 1, max: 3 }),
    }),
    { minLength: 1, maxLength: 90 },
  )
  .chain((specs) => {
    const count = specs.reduce((sum, spec) => sum + spec.copies, 0);
    return fc.record({
      specs: fc.constant(specs),
      scope: fc.array(fc.constantFrom(0, 1, 1), { minLength: count, maxLength: count }).map((bits) => Uint8Array.from(bits)),
      query: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((words) => words.join(' ')),
      k: fc.integer({ min: 1, max: 40 }),
    });
  });

describe('a scoped first stage', () => {
  it('returns, in every way it can sum, the unscoped ranking of every chunk with the chunks outside the scope taken out', () => {
    fc.assert(
      fc.property(corpusAndScope, ({ specs, scope, query, k }) => {
        const chunks = makeChunks(specs.flatMap((spec) => Array.from({ length: spec.copies }, () => ({ text: spec.text }))));
        const index = Bm25Index.build(chunks, resolveBm25Options({}));
        const terms = index.resolveQuery(query);
        // Every chunk ranked without a scope, then the ones outside it dropped: what a scope means.
        const expected = index
          .searchTerms(terms, chunks.length, { dense: true, blocks: false })
          .filter((hit) => scope[hit.chunkId] === 1)
          .slice(0, k);
        const ways = [
          { dense: true },
          { dense: true, blocks: false },
          { dense: false },
          { cache: false, dense: true },
          { cache: false, dense: false },
          // MaxScore takes no scope: the search sums by blocks instead, with the same result.
          { pruning: true },
        ];
        for (const way of ways) expect(index.searchTerms(terms, k, { ...way, scope }), JSON.stringify(way)).toEqual(expected);
        // A scope of every chunk changes nothing.
        expect(index.searchTerms(terms, k, { scope: new Uint8Array(chunks.length).fill(1) })).toEqual(index.searchTerms(terms, k));
      }),
      { numRuns: 300 },
    );
  });

  it('skips blocks as before: a scoped block search equals summing every posting and filtering', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }).chain((count) =>
          fc.record({
            count: fc.constant(count),
            docs: fc.uniqueArray(fc.integer({ min: 0, max: count - 1 }), { minLength: 1, maxLength: count }),
            scope: fc.array(fc.constantFrom(0, 1), { minLength: count, maxLength: count }),
            shift: fc.integer({ min: 0, max: 4 }),
            k: fc.integer({ min: 1, max: 20 }),
          }),
        ),
        ({ count, docs, scope, shift, k }) => {
          const sorted = Uint32Array.from([...docs].sort((a, b) => a - b));
          // Impacts that fall with the id: the best chunks are early, so later blocks are skipped once k are held.
          const impacts = Float64Array.from(sorted, (d) => 1 + (count - d) / count);
          const list = { docs: sorted, impacts, table: tabulateBlocks(sorted, impacts, shift, ((count - 1) >>> shift) + 1) };
          const mask = Uint8Array.from(scope);
          const expected = [...sorted]
            .map((chunkId, p) => ({ chunkId, score: impacts[p]! }))
            .filter((hit) => mask[hit.chunkId] === 1)
            .sort((a, b) => b.score - a.score || a.chunkId - b.chunkId)
            .slice(0, k);
          const scores = new Float64Array(count);
          expect(new BlockSearch(count, shift).topK([list], [1], scores, k, undefined, mask)).toEqual(expected);
          expect(scores.every((score) => score === 0)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('a scoped bm25 retriever', () => {
  let chunks: Chunk[];
  let retriever: Bm25Retriever;
  beforeAll(async () => {
    chunks = await miniChunks();
    retriever = createBm25Retriever(chunks);
  }, 60_000);

  it('returns only chunks in the scope, all of them when the scope is every chunk, and nothing for an empty scope', async () => {
    const query = 'What port does the server listen on by default?';
    const markdown = scopeOfFiles(chunks, (path) => path.endsWith('.md'));
    const code = scopeOfFiles(chunks, (path) => path.endsWith('.py'));
    // The mini corpus speaks of the port in its Markdown pages and in its code, so both scopes have hits.
    const inMarkdown = await retriever.search(query, { k: 5, scope: markdown });
    const inCode = await retriever.search(query, { k: 5, scope: code });
    expect(inMarkdown.length).toBeGreaterThan(0);
    expect(inCode.length).toBeGreaterThan(0);
    for (const hit of inMarkdown) expect(chunks[hit.chunkId]!.file_path).toMatch(/\.md$/);
    for (const hit of inCode) expect(chunks[hit.chunkId]!.file_path).toMatch(/\.py$/);
    const every = new Uint8Array(chunks.length).fill(1);
    expect(await retriever.search(query, { k: 10, scope: every })).toEqual(await retriever.search(query, { k: 10 }));
    expect(await retriever.search(query, { k: 10, scope: new Uint8Array(chunks.length) })).toEqual([]);
    expect(retriever.searchSync(query, { k: 5, scope: markdown })).toEqual(inMarkdown);
  });

  it('read in pages, returns what the index held whole returns for the same scope', async () => {
    const paged = await pagedCopy(retriever, chunks);
    const scope = scopeOfFiles(chunks, (path) => path.endsWith('.py'));
    for (const query of ['retry backoff', 'What port does the server listen on by default?', 'cache size']) {
      expect(await paged.search(query, { k: 5, scope })).toEqual(retriever.searchSync(query, { k: 5, scope }));
    }
  });
});
