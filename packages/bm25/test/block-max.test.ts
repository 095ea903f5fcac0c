import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BlockSearch, tabulateBlocks, type BlockedList } from '../src/block-max.js';
import { Bm25Index } from '../src/bm25-index.js';
import { resolveBm25Options } from '../src/options.js';
import { makeChunks } from './helpers.js';

describe('block tables', () => {
  it('list only the blocks a term occurs in, with where each starts and its largest impact', () => {
    // Blocks of 4 chunk ids: 1 and 3 fall in block 0, 9 and 10 in block 2, 17 in block 4.
    const docs = Uint32Array.from([1, 3, 9, 10, 17]);
    const impacts = Float64Array.from([0.5, 0.75, 2, 1, 0.25]);
    const table = tabulateBlocks(docs, impacts, 2, 100);
    expect([...table.blocks]).toEqual([0, 2, 4]);
    expect([...table.starts]).toEqual([0, 2, 4, 5]);
    expect([...table.maxima]).toEqual([0.75, 2, 0.25]);
    // In 3 of 100 blocks: no start for every block.
    expect(table.denseStarts).toBeUndefined();
  });

  it('of a term in many of the blocks also give a start for every block', () => {
    // The same list in 5 blocks: blocks 1 and 3 are empty (their start is the next block's).
    const table = tabulateBlocks(Uint32Array.from([1, 3, 9, 10, 17]), Float64Array.from([0.5, 0.75, 2, 1, 0.25]), 2, 5);
    expect([...table.blocks]).toEqual([0, 2, 4]);
    expect([...table.denseStarts!]).toEqual([0, 2, 2, 4, 4, 5]);
  });

  it('of an empty list are empty', () => {
    const table = tabulateBlocks(new Uint32Array(0), new Float64Array(0), 5, 1);
    expect(table.blocks.length).toBe(0);
    expect([...table.starts]).toEqual([0]);
  });
});

/** Sums every posting and sorts: what the block search must equal, bit for bit. */
function bruteForce(lists: readonly Pick<BlockedList, 'docs' | 'impacts'>[], weights: readonly number[], count: number, k: number) {
  const scores = new Float64Array(count);
  lists.forEach((list, t) => list.docs.forEach((d, p) => (scores[d]! += weights[t]! * list.impacts[p]!)));
  return [...scores]
    .map((score, chunkId) => ({ chunkId, score }))
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score || a.chunkId - b.chunkId)
    .slice(0, k);
}

// Impacts from a few values and small weights, so equal scores in different blocks are common:
// an equal score in a later block must still win on a lower id, whatever order blocks are summed in.
const postingList = (count: number, values: number[]) =>
  fc.uniqueArray(fc.integer({ min: 0, max: count - 1 }), { maxLength: count }).chain((docs) =>
    fc.array(fc.constantFrom(...values), { minLength: docs.length, maxLength: docs.length }).map((impacts) => ({
      docs: Uint32Array.from([...docs].sort((a, b) => a - b)),
      impacts: Float64Array.from(impacts),
    })),
  );

describe('the block-max first stage', () => {
  // Two regimes: varied impacts and weights, and every impact and weight 1, where a score is
  // the number of terms a chunk has and nearly every hit ties with another in some other block.
  it.each([
    ['varied impacts', [0.25, 0.5, 1, 1, 2], [0.5, 1, 1.5, 3], 6],
    ['every score a count of terms', [1], [1], 3],
  ])('returns what summing every posting returns (%s), for any lists, block size and k, and leaves the scores zero', (_, values, weightValues, maxShift) => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }).chain((count) =>
          fc.record({
            count: fc.constant(count),
            lists: fc.array(postingList(count, values), { minLength: 1, maxLength: 6 }),
            weights: fc.array(fc.constantFrom(...weightValues), { minLength: 6, maxLength: 6 }),
            shift: fc.integer({ min: 0, max: maxShift }),
            k: fc.integer({ min: 1, max: 40 }),
          }),
        ),
        ({ count, lists, weights, shift, k }) => {
          const blocked = lists.map((list) => ({ ...list, table: tabulateBlocks(list.docs, list.impacts, shift, ((count - 1) >>> shift) + 1) }));
          const scores = new Float64Array(count);
          const stats = { postingsVisited: 0, blocksVisited: 0 };
          const search = new BlockSearch(count, shift);
          expect(search.topK(blocked, weights, scores, k, stats)).toEqual(bruteForce(lists, weights, count, k));
          expect(scores.every((score) => score === 0)).toBe(true);
          // The buffers are reused: a second query over the same search sees no leftovers.
          expect(search.topK(blocked, weights, scores, k)).toEqual(bruteForce(lists, weights, count, k));
          const postings = lists.reduce((sum, list) => sum + list.docs.length, 0);
          expect(stats.postingsVisited).toBeLessThanOrEqual(postings);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('in the index: the same hits with and without skipping blocks, on corpora with many equal scores', () => {
    const words = ['cache', 'kv', 'block', 'max_num_seqs', 'seq', 'scheduler', 'port', 'default'];
    const spec = fc.record({
      text: fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 12 }).map((w) => w.join(' ')),
      file: fc.constantFrom('vllm/config.py', 'docs/usage.md'),
      copies: fc.integer({ min: 1, max: 4 }),
    });
    fc.assert(
      fc.property(fc.array(spec, { minLength: 1, maxLength: 120 }), fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 60 }), (specs, query, k) => {
        // Identical chunks (copies) tie exactly, in blocks far apart.
        const chunks = makeChunks(specs.flatMap((s) => Array.from({ length: s.copies }, () => ({ text: s.text, file_path: s.file }))));
        const index = Bm25Index.build(chunks, resolveBm25Options({}));
        const terms = index.resolveQuery(query.join(' '));
        const every = index.searchTerms(terms, k, { dense: true, blocks: false });
        expect(index.searchTerms(terms, k, { dense: true })).toEqual(every);
        expect(index.searchTerms(terms, k, { dense: true, blocks: false })).toEqual(every);
      }),
      { numRuns: 200 },
    );
  });

  it('skips the blocks that cannot hold a hit: fewer postings summed, same hits, on a larger corpus', () => {
    // A rare term in 1 chunk of 500 and two common ones: once the chunks with the rare term
    // are in the top 10, blocks without it are bounded by the common terms alone and skipped.
    const chunks = makeChunks(
      Array.from({ length: 20000 }, (_, i) => ({
        text: `cache block filler${i % 50} ${i % 500 === 0 ? 'rare_term' : 'common'}`,
        file_path: `pkg/m${i % 40}.py`,
      })),
    );
    const index = Bm25Index.build(chunks, resolveBm25Options({}));
    const terms = index.resolveQuery('rare_term cache block');
    const blocked = { postingsVisited: 0, blocksVisited: 0 };
    const exhaustive = { postingsVisited: 0 };
    const hits = index.searchTerms(terms, 10, { dense: true, stats: blocked });
    expect(hits).toEqual(index.searchTerms(terms, 10, { dense: true, blocks: false, stats: exhaustive }));
    expect(hits.map((hit) => chunks[hit.chunkId]!.text)).toEqual(Array(10).fill(expect.stringContaining('rare_term')));
    expect(blocked.postingsVisited).toBeLessThan(exhaustive.postingsVisited / 4);
    expect(blocked.blocksVisited).toBeLessThan(20000 / 32 / 4);
  });
});
