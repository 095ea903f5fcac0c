import { hasInnerSeparator, isIdentifierSpelling, type QueryOptions, type TokenizerOptions } from '@rag/text';
import { forEachSegment, SegmentExpander } from '@rag/text/internals';

/** What the second stage needs to know about a query beyond its bag of terms. */
export interface QueryShape {
  /**
   * The query's words in order, each as the terms it expands to (the whole identifier
   * first, then its sub-words); words that are all stopwords are left out, so they do not
   * count as distance either, exactly as in the indexed sequences.
   */
  words: string[][];
  /**
   * The spellings of the identifiers the query names (`max_num_seqs`, `--max-num-seqs`,
   * `OvisConfig`, each part of a dotted name), as written: what a definition would spell.
   */
  identifiers: string[];
  /** The identifiers among them spelled with `_` or `-`: variables, parameters, functions, settings and flags. */
  separatedIdentifiers: string[];
}

/** Analyses queries under one index's tokenizer and query options. */
export function createQueryShaper(tokenizer: TokenizerOptions, query: QueryOptions): (text: string) => QueryShape {
  const expander = new SegmentExpander(tokenizer, { extraStopwords: query.questionWords });
  return (text) => {
    const words: string[][] = [];
    const identifiers = new Set<string>();
    forEachSegment(text, (segment) => {
      for (const part of segment.split('.')) {
        const trimmed = part.replace(/^[-_]+|[-_]+$/g, '');
        if (isIdentifierSpelling(trimmed)) identifiers.add(trimmed);
      }
      const terms: string[] = [];
      expander.expand(segment, (term) => terms.push(term));
      if (terms.length > 0) words.push(terms);
    });
    const all = [...identifiers];
    return { words, identifiers: all, separatedIdentifiers: all.filter(hasInnerSeparator) };
  };
}
