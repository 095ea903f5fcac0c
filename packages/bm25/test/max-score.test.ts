import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Bm25Index } from '../src/bm25-index.js';
import { resolveBm25Options } from '../src/options.js';
import { makeChunks } from './helpers.js';

// Small vocabularies make many chunks share terms and many scores tie, which is where a
// pruned search could go wrong (ties broken by id, bounds equal to the k-th score).
const WORDS = ['cache', 'kv', 'block', 'max_num_seqs', 'seq', 'scheduler', 'lora', 'adapter', 'port', 'default', 'gpu', 'memory'];

const corpus = fc.array(
  fc.record({
    text: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 30 }).map((words) => words.join(' ')),
    file: fc.constantFrom('vllm/config.py', 'vllm/core/scheduler.py', 'docs/usage.md', 'tests/test_cache.py'),
    symbol: fc.constantFrom('', 'Scheduler', 'CacheConfig.block_size', 'Usage > Ports'),
  }),
  { minLength: 1, maxLength: 120 },
);
const query = fc.array(fc.constantFrom(...WORDS, 'absent'), { minLength: 1, maxLength: 6 }).map((words) => words.join(' '));

describe('dynamic pruning (MaxScore) in the first stage', () => {
  it('returns exactly what scoring every posting returns: ids, scores and order, for any k', () => {
    fc.assert(
      fc.property(corpus, fc.array(query, { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 60 }), fc.boolean(), (specs, queries, k, plain) => {
        const chunks = makeChunks(specs.map((s) => ({ text: s.text, file_path: s.file, symbol: s.symbol })));
        const settings = plain ? { fields: { path: { weight: 0 } } } : {};
        const index = Bm25Index.build(chunks, resolveBm25Options(settings));
        for (const q of queries) {
          const terms = index.resolveQuery(q);
          expect(index.searchTerms(terms, k, { pruning: true })).toEqual(index.searchTerms(terms, k));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('scores the same whether it tracks the touched chunks or scans them all (dense accumulation)', () => {
    fc.assert(
      fc.property(corpus, fc.array(query, { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 60 }), (specs, queries, k) => {
        const chunks = makeChunks(specs.map((s) => ({ text: s.text, file_path: s.file, symbol: s.symbol })));
        const index = Bm25Index.build(chunks, resolveBm25Options({}));
        for (const q of queries) {
          const terms = index.resolveQuery(q);
          const sparse = index.searchTerms(terms, k, { dense: false });
          expect(index.searchTerms(terms, k, { dense: true })).toEqual(sparse);
          // The accumulator is cleared after either path: a second search sees no leftovers.
          expect(index.searchTerms(terms, k)).toEqual(sparse);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("scores the same without the impacts cache (an index's first search) as with it, dense or sparse", () => {
    fc.assert(
      // Symbols and paths share the words, so many terms have postings in several fields.
      fc.property(corpus, fc.array(query, { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 60 }), fc.boolean(), (specs, queries, k, plain) => {
        const chunks = makeChunks(specs.map((s) => ({ text: s.text, file_path: s.file, symbol: s.symbol })));
        const settings = plain ? { fields: { path: { weight: 0 } } } : {};
        const fresh = Bm25Index.build(chunks, resolveBm25Options(settings));
        const cached = Bm25Index.build(chunks, resolveBm25Options(settings));
        const first = fresh.searchTerms(fresh.resolveQuery(queries[0]!), k, { stats: { postingsVisited: 0 } });
        expect(first).toEqual(cached.searchTerms(cached.resolveQuery(queries[0]!), k, { cache: true }));
        // The first search kept nothing.
        expect(fresh.stats().cachedImpactBytes).toBe(0);
        for (const q of queries) {
          const terms = cached.resolveQuery(q);
          const expected = cached.searchTerms(terms, k, { cache: true });
          expect(fresh.searchTerms(terms, k, { cache: false, dense: false })).toEqual(expected);
          expect(fresh.searchTerms(terms, k, { cache: false, dense: true })).toEqual(expected);
          // Nothing is left in the accumulators after either.
          expect(fresh.searchTerms(terms, k)).toEqual(expected);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("keeps no impacts for an index's first search, and keeps them from the second on", () => {
    const chunks = makeChunks(WORDS.map((word, i) => ({ text: `${word} ${WORDS[(i + 1) % WORDS.length]}`, file_path: `pkg/m${i}.py` })));
    const index = Bm25Index.build(chunks, resolveBm25Options({}));
    const first = index.search('cache block', 5);
    expect(index.stats().cachedImpactBytes).toBe(0);
    expect(index.search('cache block', 5)).toEqual(first);
    expect(index.stats().cachedImpactBytes).toBeGreaterThan(0);
  });

  it('reads fewer postings than exhaustive scoring once the top k fills, on a larger corpus', () => {
    const chunks = makeChunks(
      Array.from({ length: 20000 }, (_, i) => ({
        text: `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} filler${i % 50} ${i % 997 === 0 ? 'rare_term' : 'common'}`,
        file_path: `pkg/m${i % 40}.py`,
      })),
    );
    const index = Bm25Index.build(chunks, resolveBm25Options({}));
    const terms = index.resolveQuery('rare_term common cache');
    const pruned = { postingsVisited: 0 };
    const exhaustive = { postingsVisited: 0 };
    const hits = index.searchTerms(terms, 10, { pruning: true, stats: pruned });
    expect(hits).toEqual(index.searchTerms(terms, 10, { blocks: false, stats: exhaustive }));
    expect(hits.length).toBe(10);
    expect(pruned.postingsVisited).toBeLessThan(exhaustive.postingsVisited / 2);
  });
});
