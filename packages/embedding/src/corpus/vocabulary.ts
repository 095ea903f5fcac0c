/** A tokenized corpus restricted to its vocabulary, as flat typed arrays. */
export interface EncodedCorpus {
  /** The vocabulary; a term's id is its index. Ordered by document frequency, descending. */
  terms: string[];
  /** Number of documents each term occurs in. */
  documentFrequency: Uint32Array;
  docCount: number;
  /** Every document's in-vocabulary term ids, in text order, concatenated. */
  tokens: Uint32Array;
  /** Document d's tokens are `tokens[docStart[d] .. docStart[d + 1])`; length docCount + 1. */
  docStart: Uint32Array;
}

export interface VocabularyOptions {
  /** Fewest documents a term must occur in to get a vector. */
  minCount: number;
  /** Most terms kept (the most widespread win). */
  maxVocabulary: number;
}

function grow(array: Uint32Array, needed: number): Uint32Array {
  if (needed <= array.length) return array;
  const bigger = new Uint32Array(Math.max(needed, array.length * 2));
  bigger.set(array);
  return bigger;
}

/**
 * Interns every term once (one Map lookup per token), counts document frequencies as it
 * goes, then keeps the vocabulary and rewrites the token stream in its ids.
 */
export function encodeCorpus(documents: Iterable<readonly string[]>, options: VocabularyOptions): EncodedCorpus {
  const provisional = new Map<string, number>();
  let termCount = 0;
  let frequency: Uint32Array = new Uint32Array(1024);
  let lastDocument: Uint32Array = new Uint32Array(1024);
  let stream: Uint32Array = new Uint32Array(1 << 16);
  let streamLength = 0;
  const starts: number[] = [0];
  let doc = 0;
  for (const terms of documents) {
    doc++;
    stream = grow(stream, streamLength + terms.length);
    for (const term of terms) {
      let id = provisional.get(term);
      if (id === undefined) {
        id = termCount++;
        provisional.set(term, id);
        frequency = grow(frequency, termCount);
        lastDocument = grow(lastDocument, termCount);
      }
      if (lastDocument[id] !== doc) {
        lastDocument[id] = doc;
        frequency[id]!++;
      }
      stream[streamLength++] = id;
    }
    starts.push(streamLength);
  }
  const names = new Array<string>(termCount);
  for (const [term, id] of provisional) names[id] = term;
  const kept: number[] = [];
  for (let id = 0; id < termCount; id++) if (frequency[id]! >= options.minCount) kept.push(id);
  kept.sort((a, b) => frequency[b]! - frequency[a]! || (names[a]! < names[b]! ? -1 : 1));
  kept.length = Math.min(kept.length, options.maxVocabulary);
  const remap = new Int32Array(termCount).fill(-1);
  kept.forEach((id, index) => (remap[id] = index));
  const tokens = new Uint32Array(streamLength);
  const docStart = new Uint32Array(starts.length);
  let out = 0;
  for (let d = 0; d + 1 < starts.length; d++) {
    docStart[d] = out;
    for (let p = starts[d]!; p < starts[d + 1]!; p++) {
      const id = remap[stream[p]!]!;
      if (id >= 0) tokens[out++] = id;
    }
  }
  docStart[starts.length - 1] = out;
  return {
    terms: kept.map((id) => names[id]!),
    documentFrequency: Uint32Array.from(kept, (id) => frequency[id]!),
    docCount: doc,
    tokens: tokens.slice(0, out),
    docStart,
  };
}
