import type { Bm25IndexData } from './build.js';

/** One term's postings in one field: chunk ids ascending, with the term's frequency in each. */
export interface TermPostings {
  docs: Uint32Array;
  tfs: Uint16Array;
}

/**
 * Where a search reads the bulk of an index: posting lists and chunks' term sequences. The
 * rest (vocabulary, list offsets, field lengths, chunk features) is always in memory.
 * An index held whole answers from views of its arrays; an index read in pages from a
 * store (see `openPagedIndex`) answers from what `prefetch` fetched.
 */
export interface PostingSource {
  /** Term `term`'s postings in field `field` (`FIELD_NAMES` order). */
  postings(field: number, term: number): TermPostings;
  /** Chunk `doc`'s term-sequence entries (see `TermSequences`). */
  sequence(doc: number): Uint32Array;
  /**
   * Makes the postings of `terms` (every field) and the sequences of `chunks` readable
   * synchronously until the returned release is called; absent when everything always is.
   */
  prefetch?(terms: readonly number[], chunks: readonly number[]): Promise<() => void>;
  /** Makes the dictionary resolve `terms` (strings) synchronously; absent when it always can. */
  prefetchVocabulary?(terms: Iterable<string>): Promise<void>;
  /** Makes the document frequencies of `terms` readable, not their lists; absent when they always are. */
  prefetchStatistics?(terms: readonly number[]): Promise<void>;
}

/** Views of an index held whole: no copies, nothing to fetch. */
export function arrayPostings(data: Bm25IndexData): PostingSource {
  return {
    postings(field, term) {
      const { offsets, docs, tfs } = data.fields[field]!;
      const start = offsets[term]!;
      const end = offsets[term + 1]!;
      return { docs: docs.subarray(start, end), tfs: tfs.subarray(start, end) };
    },
    sequence(doc) {
      const { offsets, terms } = data.sequences;
      return terms.subarray(offsets[doc]!, offsets[doc + 1]!);
    },
  };
}
