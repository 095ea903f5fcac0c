import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isRagError, type ByteRange, type Chunk, type FileRanges } from '@rag/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { Bm25Retriever, createBm25Retriever } from '../src/index.js';
import { Bm25Index } from '../src/bm25-index.js';
import { openPagedIndex } from '../src/paged.js';
import { encodeIndex, readHeader, VOCABULARY_BLOCK } from '../src/persist.js';
import { loadBm25Retriever } from '../src/retriever.js';
import { miniChunks } from './mini-corpus.js';

const QUESTIONS = fileURLToPath(new URL('../../../datasets/mini/questions.json', import.meta.url));

/** Ranges over bytes in memory, counting what is read; `damage` alters bytes as a broken store would. */
function rangesOver(bytes: Uint8Array, damage?: (range: ByteRange, part: Uint8Array) => void): FileRanges & { readBytes: number; reads: number } {
  const ranges = {
    size: bytes.byteLength,
    readBytes: 0,
    reads: 0,
    async read(list: readonly ByteRange[]): Promise<Uint8Array[]> {
      ranges.reads++;
      // Yield, as a database round trip does, so concurrent searches interleave.
      await new Promise((resolve) => setImmediate(resolve));
      return list.map((range) => {
        if (range.offset < 0 || range.offset + range.length > bytes.byteLength) throw new Error('range outside the file');
        ranges.readBytes += range.length;
        // A copy at an odd offset of a larger buffer: what a database driver may hand back.
        const holder = new Uint8Array(range.length + 1);
        holder.set(bytes.subarray(range.offset, range.offset + range.length), 1);
        const part = holder.subarray(1);
        damage?.(range, part);
        return part;
      });
    },
  };
  return ranges;
}

describe('a bm25 index read in pages', () => {
  let chunks: Chunk[];
  let whole: Bm25Retriever;
  let bytes: Uint8Array;
  let queries: string[];

  beforeAll(async () => {
    chunks = await miniChunks();
    whole = createBm25Retriever(chunks);
    bytes = encodeIndex(whole.index.data);
    const questions = (JSON.parse(readFileSync(QUESTIONS, 'utf8')) as { rag_questions: { question: string }[] }).rag_questions;
    // The dataset's questions plus ones that name no indexed term, one term, and a project.
    queries = [...questions.map((q) => q.question), 'zzqx unknownword', 'retry', 'In tinyserve, where is the port set?', ''];
  }, 60_000);

  it('ranks every question exactly as the index held whole, reading a fraction of the file', async () => {
    const ranges = rangesOver(bytes);
    const paged = await loadBm25Retriever('/idx/bm25', chunks, { verified: true, openRanges: () => ranges });
    const opened = ranges.readBytes;
    // A first read for the header (16 KB at most), then the dictionary, lengths and chunk
    // features: not one byte of the lists or sequences, nor of the entries read per term
    // (document frequencies, list bounds) or per chunk (names).
    const { fields, sequences, docFrequencies, features } = whole.index.data;
    const bulk = fields.reduce((sum, field) => sum + field.docs.byteLength + field.tfs.byteLength, 0) + sequences.terms.byteLength;
    const { dictionary } = whole.index.data;
    const perEntry =
      dictionary.bytes.byteLength + dictionary.offsets.byteLength + docFrequencies.byteLength + fields.reduce((sum, field) => sum + field.offsets.byteLength, 0) + features.names.byteLength;
    expect(bulk).toBeGreaterThan(0);
    expect(features.names.length).toBeGreaterThan(0);
    expect(opened - Math.min(bytes.byteLength, 16 << 10)).toBeLessThanOrEqual(bytes.byteLength - bulk - perEntry);
    for (const query of queries) {
      for (const k of [1, 5, 10]) expect(await paged.search(query, { k }), `${query} @${k}`).toEqual(whole.searchSync(query, { k }));
    }
    expect(ranges.readBytes).toBeGreaterThan(opened);
  });

  it('explains what it just searched with the same tree as the index held whole, and says what to do otherwise', async () => {
    const paged = await loadBm25Retriever('/idx/bm25', chunks, { verified: true, openRanges: () => rangesOver(bytes) });
    const query = queries[0]!;
    const before = (() => {
      try {
        paged.explain(query, 0);
      } catch (error) {
        return error;
      }
    })();
    expect(isRagError(before) && [before.code, before.hint]).toEqual(['INVALID_ARGUMENT', expect.stringMatching(/run `search` with the same query first/)]);
    const hits = await paged.search(query, { k: 5 });
    for (const hit of hits) {
      const tree = paged.explain(query, hit.chunkId);
      expect(tree).toEqual(whole.explain(query, hit.chunkId));
      expect(tree.value).toBe(hit.score);
    }
  });

  it('gives the same hits with no cache, many searches at once, every list fetched again', async () => {
    const ranges = rangesOver(bytes);
    const opened = await openPagedIndex(ranges, 'bm25.bin', 0);
    const paged = new Bm25Retriever(new Bm25Index(opened.data, opened.postings), chunks);
    const results = await Promise.all(queries.map((query) => paged.search(query, { k: 5 })));
    results.forEach((hits, i) => expect(hits, queries[i]).toEqual(whole.searchSync(queries[i]!, { k: 5 })));
    // Only the last few searches' lists stay pinned (for explain); the rest left the empty cache.
    const held = opened.postings.stats().cachedBytes;
    for (const query of queries.slice(0, 8)) await paged.search(query, { k: 5 });
    expect(opened.postings.stats().cachedBytes).toBeLessThanOrEqual(Math.max(held, opened.postings.stats().cachedBytes));
    expect(opened.postings.stats().fetchedBytes).toBeGreaterThan(held);
  });

  it('keeps what it fetched within its cache size once searches release it', async () => {
    const opened = await openPagedIndex(rangesOver(bytes), 'bm25.bin', 4096);
    const release = await opened.postings.prefetch(
      Array.from({ length: 200 }, (_, t) => t),
      Array.from({ length: 50 }, (_, d) => d),
    );
    const pinned = opened.postings.stats().cachedBytes;
    expect(pinned).toBeGreaterThan(4096); // in use: kept whatever the size
    release();
    expect(opened.postings.stats().cachedBytes).toBeLessThanOrEqual(4096);
    release(); // twice is harmless
    expect(opened.postings.stats().cachedBytes).toBeLessThanOrEqual(4096);
    // A term or chunk's entries stay once fetched (a few bytes each); a term never fetched is refused, not read as empty.
    expect(whole.index.data.dictionary.size).toBeGreaterThan(200);
    expect(() => opened.postings.postings(0, whole.index.data.dictionary.size - 1)).toThrow(/was not fetched/);
    // Fetched again, each list is the one the index holds whole.
    const again = await opened.postings.prefetch([3, 7], []);
    for (const term of [3, 7]) {
      for (let f = 0; f < whole.index.data.fields.length; f++) expect(opened.postings.postings(f, term)).toEqual(whole.index.postings.postings(f, term));
    }
    again();
  });

  it('finds every term its dictionary holds once the block of the term is fetched, and refuses a lookup in a block it has not', async () => {
    const { data, postings } = await openPagedIndex(rangesOver(bytes), 'bm25.bin');
    const held = whole.index.data.dictionary;
    const known = [...held.terms()];
    expect(known.length).toBeGreaterThan(2 * VOCABULARY_BLOCK);
    expect(() => data.dictionary.lookup(known[0]!)).toThrow(/was not fetched/);
    const term = fc.oneof(fc.constantFrom(...known), fc.string({ maxLength: 12 }), fc.constantFrom('', '\u{10FFFF}', 'zzzz', known.at(-1)! + 'z'));
    await fc.assert(
      fc.asyncProperty(fc.array(term, { minLength: 1, maxLength: 8 }), async (terms) => {
        await postings.prefetchVocabulary(terms);
        for (const t of terms) expect(data.dictionary.lookup(t), t).toBe(held.lookup(t));
        for (const t of terms) if (held.lookup(t) >= 0) expect(data.dictionary.termAt(held.lookup(t))).toBe(t);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a damaged term bound or chunk name as INDEX_CORRUPT, naming what it read', async () => {
    const header = readHeader(bytes, 'bm25.bin');
    const within = (name: string, range: ByteRange) => range.offset >= header.sections[name]!.offset && range.offset < header.sections[name]!.offset + header.sections[name]!.length * 4;
    for (const [name, message] of [
      ['body.offsets', /list bounds of term \d+ are inconsistent/],
      ['features.names', /names of chunk \d+ are out of range or order/],
    ] as const) {
      const broken = rangesOver(bytes, (range, part) => {
        if (within(name, range)) part.fill(0xff);
      });
      const paged = await loadBm25Retriever('/idx/bm25', chunks, { verified: true, openRanges: () => broken });
      const errors = await Promise.all(queries.map((query) => paged.search(query, { k: 5 }).then(() => undefined, (error: unknown) => error)));
      const error = errors.find((e) => e !== undefined);
      expect(isRagError(error) && [error.code, error.message], name).toEqual(['INDEX_CORRUPT', expect.stringMatching(message)]);
    }
  });

  it('refuses damaged lists and sequences as INDEX_CORRUPT, and never saves itself', async () => {
    const { data } = await openPagedIndex(rangesOver(bytes), 'bm25.bin');
    const body = data.fields[0]!;
    // Once opened, every posting list and sequence read has all bits set: chunk ids past the corpus.
    let armed = false;
    const broken = rangesOver(bytes, (_range, part) => {
      if (armed) part.fill(0xff);
    });
    const paged = await loadBm25Retriever('/idx/bm25', chunks, { verified: true, openRanges: () => broken });
    armed = true;
    const error = await paged.search(queries[0]!, { k: 5 }).catch((e: unknown) => e);
    expect(isRagError(error) && error.code).toBe('INDEX_CORRUPT');
    // The first bytes a search reads are its terms' dictionary blocks: offsets with all bits
    // set lie past the vocabulary.
    expect(isRagError(error) && error.message).toMatch(/block \d+ of its dictionary is inconsistent/);
    expect(body.offsets.length).toBe(data.dictionary.size + 1);
    await expect(paged.save('/nowhere')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    // A file cut short is refused when opened.
    await expect(openPagedIndex(rangesOver(bytes.subarray(0, bytes.byteLength - 8)), 'bm25.bin')).rejects.toMatchObject({ code: 'INDEX_CORRUPT' });
    await expect(openPagedIndex(rangesOver(bytes.subarray(0, 10)), 'bm25.bin')).rejects.toMatchObject({ code: 'INDEX_CORRUPT' });
  });
});
