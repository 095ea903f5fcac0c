import { RagError, type ByteRange, type FileRanges } from '@rag/core';
import { TERM_ID_MASK, type Bm25IndexData } from './build.js';
import { checkChunkNames } from './chunk-features.js';
import { TermDictionary } from './dictionary.js';
import { FIELD_NAMES } from './options.js';
import { allBelow, assembleIndexData, BYTES, corrupt, HEADER_PROBE_BYTES, MAGIC, readHeader, sectionEntry, VOCABULARY_BLOCK, type Bm25FileHeader, type SectionSource, type SectionType } from './persist.js';
import type { PostingSource, TermPostings } from './postings.js';

/**
 * Bytes of posting lists and term sequences a paged index keeps after the searches that
 * fetched them, in [0, 2^31): the terms and chunks asked about most recently stay. Lists
 * in use by a search in flight are kept whatever the size. A server searching the vLLM
 * corpus (23 MB of lists and sequences) keeps every list it was asked about.
 */
export const DEFAULT_PAGED_CACHE_BYTES = 32 << 20;

const EMPTY_DOCS = new Uint32Array(0);
const EMPTY_TFS = new Uint16Array(0);
const EMPTY_LIST: TermPostings = Object.freeze({ docs: EMPTY_DOCS, tfs: EMPTY_TFS });

/** Where one field's postings lie in the file. */
interface FieldLayout {
  offsets: Uint32Array;
  /** Byte offsets of the field's `docs` and `tfs` sections. */
  docsAt: number;
  tfsAt: number;
}

/**
 * Where the entries read on demand lie: the dictionary's blocks (offsets and bytes); a
 * term's document frequency and, per field, the bounds of its list; a chunk's names. Their
 * sections are held as arrays of full length whose entries arrive as searches ask for them
 * (a one-shot search reads a dozen terms' entries, not the 4 MB of the sections whole).
 */
interface DeferredLayout {
  dictionary: PagedTermDictionary;
  /** Byte offsets of the `termOffsets` and `vocabulary` sections. */
  termOffsetsAt: number;
  vocabularyAt: number;
  docFrequencies: Uint32Array;
  docFrequenciesAt: number;
  /** Byte offset of each field's `offsets` section, in `FIELD_NAMES` order. */
  offsetsAt: readonly number[];
  nameOffsets: Uint32Array;
  names: Uint32Array;
  namesAt: number;
}

/** What `openPagedIndex` gives: the resident part of the index, and its source of lists. */
export interface PagedIndex {
  /** The index with empty `docs`, `tfs` and `sequences.terms`: those are read through `postings`. */
  data: Bm25IndexData;
  postings: PagedPostings;
  /** The file's payload checksum (what an overlay names its base by). */
  payloadChecksum: number;
}

/** Figures of a paged index, for benchmarks and logs. */
export interface PagedPostingsStats {
  /** Bytes of lists and sequences held now. */
  cachedBytes: number;
  /** Bytes of lists and sequences fetched since it was opened. */
  fetchedBytes: number;
  /** Calls to the store's `read`. */
  reads: number;
}

/** A cached term (all its fields' lists) or chunk sequence, with the searches using it. */
interface Entry {
  lists: TermPostings[] | undefined;
  sequence: Uint32Array | undefined;
  bytes: number;
  pins: number;
}

function copyAs(bytes: Uint8Array, type: SectionType): Uint8Array | Uint16Array | Uint32Array {
  // A fresh buffer: the store's bytes may be an unaligned view of a larger one.
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  if (type === 'u8') return copy;
  return type === 'u16' ? new Uint16Array(copy.buffer) : new Uint32Array(copy.buffer);
}

/** `bytes` viewed as `type` where aligned (no copy: what a store hands back is the caller's), else copied. */
export function viewAs(bytes: Uint8Array, type: SectionType): Uint8Array | Uint16Array | Uint32Array {
  if (bytes.byteOffset % BYTES[type] !== 0) return copyAs(bytes, type);
  if (type === 'u8') return bytes;
  const length = bytes.byteLength / BYTES[type];
  return type === 'u16' ? new Uint16Array(bytes.buffer, bytes.byteOffset, length) : new Uint32Array(bytes.buffer, bytes.byteOffset, length);
}

/**
 * The dictionary of an index read in pages: every term's bytes and offsets have their place,
 * but only the blocks of {@link VOCABULARY_BLOCK} terms that searches asked for are there. The
 * stored samples (each block's first term) say which block a term would be in; a lookup in a
 * block not fetched is refused, never answered "not in the dictionary".
 */
export class PagedTermDictionary extends TermDictionary {
  readonly #samples: TermDictionary;
  /** 1 for a block whose offsets and bytes are in (they never leave). */
  readonly #loaded: Uint8Array;
  readonly #notFetched: (what: string) => RagError;

  constructor(bytes: Uint8Array, offsets: Uint32Array, samples: TermDictionary, notFetched: (what: string) => RagError) {
    super(bytes, offsets);
    this.#samples = samples;
    this.#loaded = new Uint8Array(samples.size);
    this.#notFetched = notFetched;
  }

  /** Terms of block `block`: ids `block · VOCABULARY_BLOCK` … before the next block's first. */
  blockRange(block: number): { first: number; end: number } {
    const first = block * VOCABULARY_BLOCK;
    return { first, end: Math.min(this.size, first + VOCABULARY_BLOCK) };
  }

  /** The block `term` is in if the dictionary holds it: the last whose first term is not above it. */
  blockOf(term: string): number {
    const at = this.#samples.lowerBound(term);
    if (at < this.#samples.size && this.#samples.lookupWithin(term, at, at + 1) === at) return at;
    return Math.max(0, at - 1);
  }

  /** The blocks of `terms` not fetched yet, ascending. */
  missingBlocks(terms: Iterable<string>): number[] {
    const blocks = new Set<number>();
    for (const term of terms) {
      const block = this.blockOf(term);
      if (this.#loaded[block] !== 1) blocks.add(block);
    }
    return [...blocks].sort((a, b) => a - b);
  }

  /**
   * Puts block `block` in: `offsets` are its terms' offsets and the one after its last (into
   * the whole vocabulary), `bytes` the vocabulary between the first and the last of them.
   * False, and nothing put in, when they are not such a block: offsets out of order or past
   * the vocabulary, or a first term that is not the block's stored sample.
   */
  fill(block: number, offsets: Uint32Array, bytes: Uint8Array): boolean {
    const { first, end } = this.blockRange(block);
    if (offsets.length !== end - first + 1 || offsets[offsets.length - 1]! - offsets[0]! !== bytes.byteLength || offsets[offsets.length - 1]! > this.bytes.byteLength) return false;
    for (let i = 1; i < offsets.length; i++) if (offsets[i]! < offsets[i - 1]!) return false;
    const sample = this.#samples.bytes.subarray(this.#samples.offsets[block]!, this.#samples.offsets[block + 1]!);
    const head = bytes.subarray(0, offsets[1]! - offsets[0]!);
    if (sample.byteLength !== head.byteLength || sample.some((byte, i) => byte !== head[i])) return false;
    this.offsets.set(offsets, first);
    this.bytes.set(bytes, offsets[0]!);
    this.#loaded[block] = 1;
    return true;
  }

  override lookup(term: string): number {
    const block = this.blockOf(term);
    if (this.#loaded[block] !== 1) throw this.#notFetched(`the dictionary block of "${term}"`);
    const { first, end } = this.blockRange(block);
    return this.lookupWithin(term, first, end);
  }

  override termAt(id: number): string {
    if (this.#loaded[Math.floor(id / VOCABULARY_BLOCK)] !== 1) throw this.#notFetched(`the dictionary block of term ${id}`);
    return super.termAt(id);
  }

  override lowerBound(): number {
    throw this.#notFetched('the whole dictionary');
  }
}

/** A key per cached item in one LRU map: term ids as they are, chunk ids below zero. */
const chunkKey = (doc: number): number => -1 - doc;

/**
 * The posting lists and term sequences of an index read in pages (see `openPagedIndex`):
 * `prefetch` fetches what a search needs in one read of the store, and the search then
 * reads it synchronously. What is fetched stays, least recently used first out, within
 * `cacheBytes`; what a search in flight uses stays until it releases it.
 */
export class PagedPostings implements PostingSource {
  readonly #ranges: FileRanges;
  readonly #label: string;
  readonly #docCount: number;
  readonly #termCount: number;
  readonly #fields: readonly FieldLayout[];
  readonly #sequenceOffsets: Uint32Array;
  readonly #sequencesAt: number;
  readonly #deferred: DeferredLayout;
  /** Each field's per-chunk lengths (resident): a chunk's sequence is as long as their sum. */
  readonly #fieldLengths: readonly Uint32Array[];
  /** 1 for a term whose document frequency and list bounds are in (they never leave). */
  readonly #termKnown: Uint8Array;
  /** 1 for a chunk whose names are in (they never leave). */
  readonly #namesKnown: Uint8Array;
  readonly #cacheBytes: number;
  /** Insertion order is recency: a hit is moved to the end. */
  readonly #entries = new Map<number, Entry>();
  #cachedBytes = 0;
  #fetchedBytes = 0;
  #reads = 0;

  constructor(
    ranges: FileRanges,
    label: string,
    layout: { docCount: number; termCount: number; fields: readonly FieldLayout[]; sequenceOffsets: Uint32Array; sequencesAt: number; deferred: DeferredLayout; fieldLengths: readonly Uint32Array[] },
    cacheBytes: number,
  ) {
    this.#ranges = ranges;
    this.#label = label;
    this.#docCount = layout.docCount;
    this.#termCount = layout.termCount;
    this.#fields = layout.fields;
    this.#sequenceOffsets = layout.sequenceOffsets;
    this.#sequencesAt = layout.sequencesAt;
    this.#deferred = layout.deferred;
    this.#fieldLengths = layout.fieldLengths;
    this.#termKnown = new Uint8Array(layout.termCount);
    this.#namesKnown = new Uint8Array(layout.docCount);
    this.#cacheBytes = cacheBytes;
  }

  postings(field: number, term: number): TermPostings {
    if (this.#termKnown[term] !== 1) throw this.#notFetched(`the list bounds of term ${term}`);
    const { offsets } = this.#fields[field]!;
    if (offsets[term + 1] === offsets[term]) return EMPTY_LIST;
    const lists = this.#entries.get(term)?.lists;
    if (!lists) throw this.#notFetched(`the postings of term ${term}`);
    return lists[field]!;
  }

  sequence(doc: number): Uint32Array {
    if (this.#sequenceOffsets[doc + 1] === this.#sequenceOffsets[doc]) return EMPTY_DOCS;
    const sequence = this.#entries.get(chunkKey(doc))?.sequence;
    if (!sequence) throw this.#notFetched(`the term sequence of chunk ${doc}`);
    return sequence;
  }

  /**
   * Makes `terms` (strings, as a query tokenizes them) resolvable by the dictionary: fetches
   * the blocks they fall in, their offsets in one read and their bytes in a second.
   */
  async prefetchVocabulary(terms: Iterable<string>): Promise<void> {
    const { dictionary, termOffsetsAt, vocabularyAt } = this.#deferred;
    const blocks = dictionary.missingBlocks(terms);
    if (blocks.length === 0) return;
    const offsetParts = await this.#ranges.read(
      blocks.map((block) => {
        const { first, end } = dictionary.blockRange(block);
        return { offset: termOffsetsAt + first * 4, length: (end - first + 1) * 4 };
      }),
    );
    const offsets = offsetParts.map((part) => copyAs(part, 'u32') as Uint32Array);
    const vocabularyBytes = dictionary.bytes.byteLength;
    for (const [i, slice] of offsets.entries()) {
      if (!(slice[0]! <= slice[slice.length - 1]! && slice[slice.length - 1]! <= vocabularyBytes)) throw corrupt(this.#label, `block ${blocks[i]} of its dictionary is inconsistent`);
    }
    const byteParts = await this.#ranges.read(offsets.map((slice) => ({ offset: vocabularyAt + slice[0]!, length: slice[slice.length - 1]! - slice[0]! })));
    this.#reads += 2;
    blocks.forEach((block, i) => {
      if (!dictionary.fill(block, offsets[i]!, byteParts[i]!)) throw corrupt(this.#label, `block ${block} of its dictionary is inconsistent`);
      this.#fetchedBytes += offsets[i]!.byteLength + byteParts[i]!.byteLength;
    });
  }

  /** The document frequencies (and list bounds) of `terms`, without their lists: what `rareWords` reads. */
  async prefetchStatistics(terms: readonly number[]): Promise<void> {
    await this.#fetchEntries(terms.filter((t) => t >= 0 && t < this.#termCount), []);
  }

  async prefetch(terms: readonly number[], chunks: readonly number[]): Promise<() => void> {
    const wantedTerms = terms.filter((t) => t >= 0 && t < this.#termCount);
    const wantedChunks = chunks.filter((d) => d >= 0 && d < this.#docCount);
    // First what says where the lists lie (the lists' ranges depend on it), with the chunks' names.
    await this.#fetchEntries(wantedTerms, wantedChunks);
    const keys = [...new Set([...wantedTerms, ...wantedChunks.map(chunkKey)])];
    const missing: number[] = [];
    // Pinned as soon as present, so no other search's eviction takes them meanwhile.
    const pinned: number[] = [];
    for (const key of keys) {
      const entry = this.#entries.get(key);
      if (!entry) {
        missing.push(key);
        continue;
      }
      entry.pins++;
      pinned.push(key);
      this.#entries.delete(key);
      this.#entries.set(key, entry);
    }
    try {
      if (missing.length > 0) {
        const ranges: ByteRange[] = [];
        for (const key of missing) this.#rangesOf(key, ranges);
        const parts = ranges.length > 0 ? await this.#ranges.read(ranges) : [];
        this.#reads++;
        let next = 0;
        for (const key of missing) {
          const made = key >= 0 ? this.#decodeTerm(key, parts, next) : this.#decodeSequence(-1 - key, parts[next]);
          next += made.used;
          this.#fetchedBytes += made.entry.bytes;
          // A search that fetched the same item meanwhile put it in first: share that one.
          const present = this.#entries.get(key);
          if (present) present.pins++;
          else {
            this.#entries.set(key, made.entry);
            this.#cachedBytes += made.entry.bytes;
          }
          pinned.push(key);
        }
      }
    } catch (error) {
      this.#unpin(pinned);
      this.#evict();
      throw error;
    }
    this.#evict();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#unpin(keys);
      this.#evict();
    };
  }

  /**
   * Reads, in one read of the store, the document frequency and list bounds of each term of
   * `terms` and the names of each chunk of `chunks` not yet in, checking each as it arrives:
   * bounds within the field's lists, a frequency within the corpus, names that are term ids in
   * order. Once in, they stay (a few bytes each).
   */
  async #fetchEntries(terms: readonly number[], chunks: readonly number[]): Promise<void> {
    const { docFrequencies, docFrequenciesAt, offsetsAt, nameOffsets, names, namesAt } = this.#deferred;
    const newTerms = [...new Set(terms.filter((t) => this.#termKnown[t] !== 1))];
    const newChunks = [...new Set(chunks.filter((d) => this.#namesKnown[d] !== 1 && nameOffsets[d + 1]! > nameOffsets[d]!))];
    if (newTerms.length === 0 && newChunks.length === 0) return;
    const ranges: ByteRange[] = [];
    for (const term of newTerms) {
      ranges.push({ offset: docFrequenciesAt + term * 4, length: 4 });
      for (const at of offsetsAt) ranges.push({ offset: at + term * 4, length: 8 });
    }
    for (const doc of newChunks) ranges.push({ offset: namesAt + nameOffsets[doc]! * 4, length: (nameOffsets[doc + 1]! - nameOffsets[doc]!) * 4 });
    const parts = await this.#ranges.read(ranges);
    this.#reads++;
    let next = 0;
    const word = (part: Uint8Array | undefined, index: number): number => {
      if (!part || part.byteLength < (index + 1) * 4) throw corrupt(this.#label, 'a read came back short');
      return new DataView(part.buffer, part.byteOffset, part.byteLength).getUint32(index * 4, true);
    };
    for (const term of newTerms) {
      const docFrequency = word(parts[next++], 0);
      const bounds = this.#fields.map(({ offsets }) => {
        const part = parts[next++];
        return [word(part, 0), word(part, 1), offsets[offsets.length - 1]!] as const;
      });
      if (docFrequency > this.#docCount || bounds.some(([start, end, total]) => start > end || end > total || (term === 0 && start !== 0))) {
        throw corrupt(this.#label, `the list bounds of term ${term} are inconsistent`);
      }
      docFrequencies[term] = docFrequency;
      bounds.forEach(([start, end], f) => {
        const { offsets } = this.#fields[f]!;
        offsets[term] = start;
        offsets[term + 1] = end;
      });
      this.#fetchedBytes += 4 + 8 * bounds.length;
      this.#termKnown[term] = 1;
    }
    for (const doc of newChunks) {
      const part = parts[next++]!;
      const count = nameOffsets[doc + 1]! - nameOffsets[doc]!;
      const ids = copyAs(part, 'u32') as Uint32Array;
      if (ids.length !== count || !checkChunkNames(ids, this.#termCount)) throw corrupt(this.#label, `the names of chunk ${doc} are out of range or order`);
      names.set(ids, nameOffsets[doc]!);
      this.#fetchedBytes += ids.byteLength;
      this.#namesKnown[doc] = 1;
    }
  }

  stats(): PagedPostingsStats {
    return { cachedBytes: this.#cachedBytes, fetchedBytes: this.#fetchedBytes, reads: this.#reads };
  }

  #unpin(keys: readonly number[]): void {
    for (const key of keys) {
      const entry = this.#entries.get(key);
      if (entry) entry.pins--;
    }
  }

  #evict(): void {
    if (this.#cachedBytes <= this.#cacheBytes) return;
    for (const [key, entry] of this.#entries) {
      if (this.#cachedBytes <= this.#cacheBytes) break;
      if (entry.pins > 0) continue;
      this.#entries.delete(key);
      this.#cachedBytes -= entry.bytes;
    }
  }

  /** Appends the byte ranges of a term's lists (docs then tfs, per field with postings) or a chunk's sequence. */
  #rangesOf(key: number, out: ByteRange[]): void {
    if (key < 0) {
      const doc = -1 - key;
      const start = this.#sequenceOffsets[doc]!;
      const length = this.#sequenceOffsets[doc + 1]! - start;
      if (length > 0) out.push({ offset: this.#sequencesAt + start * 4, length: length * 4 });
      return;
    }
    for (const { offsets, docsAt, tfsAt } of this.#fields) {
      const start = offsets[key]!;
      const count = offsets[key + 1]! - start;
      if (count === 0) continue;
      out.push({ offset: docsAt + start * 4, length: count * 4 }, { offset: tfsAt + start * 2, length: count * 2 });
    }
  }

  #decodeTerm(term: number, parts: readonly Uint8Array[], from: number): { entry: Entry; used: number } {
    let next = from;
    let bytes = 0;
    const lists = this.#fields.map(({ offsets }) => {
      const count = offsets[term + 1]! - offsets[term]!;
      if (count === 0) return EMPTY_LIST;
      const docs = copyAs(parts[next++]!, 'u32') as Uint32Array;
      const tfs = copyAs(parts[next++]!, 'u16') as Uint16Array;
      bytes += docs.byteLength + tfs.byteLength;
      if (docs.length !== count || tfs.length !== count || !isStrictlyAscending(docs) || !allBelow(docs, this.#docCount)) {
        throw corrupt(this.#label, `the postings of term ${term} are inconsistent`);
      }
      return { docs, tfs };
    });
    return { entry: { lists, sequence: undefined, bytes, pins: 1 }, used: next - from };
  }

  #decodeSequence(doc: number, part: Uint8Array | undefined): { entry: Entry; used: number } {
    const length = this.#sequenceOffsets[doc + 1]! - this.#sequenceOffsets[doc]!;
    // A sequence holds the chunk's terms of every field (what `assembleIndexData` checks for
    // every chunk of a file held whole, checked here for the chunks a search reads).
    let fieldsLength = 0;
    for (let f = 0; f < this.#fieldLengths.length; f++) fieldsLength += this.#fieldLengths[f]![doc]!;
    if (length !== fieldsLength) throw corrupt(this.#label, `the term sequence of chunk ${doc} is inconsistent`);
    if (length === 0) return { entry: { lists: undefined, sequence: EMPTY_DOCS, bytes: 0, pins: 1 }, used: 0 };
    const sequence = copyAs(part!, 'u32') as Uint32Array;
    let consistent = sequence.length === length;
    for (let i = 0; consistent && i < sequence.length; i++) consistent = (sequence[i]! & TERM_ID_MASK) < this.#termCount;
    if (!consistent) throw corrupt(this.#label, `the term sequence of chunk ${doc} is inconsistent`);
    return { entry: { lists: undefined, sequence, bytes: sequence.byteLength, pins: 1 }, used: 1 };
  }

  #notFetched(what: string): RagError {
    return notFetchedError(this.#label, what);
  }
}

/** What reading a part of a paged index that no search fetched is: refused, with what to do. */
function notFetchedError(label: string, what: string): RagError {
  return new RagError('INVALID_ARGUMENT', `The bm25 index ${label} is read in pages, and ${what} was not fetched.`, {
    hint: '`explain` reads what recent searches fetched: run `search` with the same query first.',
  });
}

function isStrictlyAscending(docs: Uint32Array): boolean {
  for (let i = 1; i < docs.length; i++) if (docs[i]! <= docs[i - 1]!) return false;
  return true;
}

/**
 * Sections held in memory once opened: the dictionary, the chunks' lengths and features.
 * Posting lists (`*.docs`, `*.tfs`) and `sequences.terms` are read per search and cached;
 * the {@link DEFERRED_SECTIONS} entry by entry.
 */
function residentSections(): [string, SectionType][] {
  const sections: [string, SectionType][] = [
    ['vocabulary.samples', 'u8'],
    ['vocabulary.sampleOffsets', 'u32'],
  ];
  for (const name of FIELD_NAMES) sections.push([`${name}.lengths`, 'u32']);
  sections.push(['sequences.offsets', 'u32'], ['features.evidence', 'u8'], ['features.types', 'u8'], ['features.descriptions', 'u8'], ['features.nameOffsets', 'u32']);
  return sections;
}

/** Sections whose entries are read when a search first needs them (see `DeferredLayout`). */
const DEFERRED_SECTIONS: ReadonlyMap<string, SectionType> = new Map<string, SectionType>([
  ['vocabulary', 'u8'],
  ['termOffsets', 'u32'],
  ['docFrequencies', 'u32'],
  ...FIELD_NAMES.map((name): [string, SectionType] => [`${name}.offsets`, 'u32']),
  ['features.names', 'u32'],
]);

const EMPTY: Record<SectionType, Uint8Array | Uint16Array | Uint32Array> = { u8: new Uint8Array(0), u16: EMPTY_TFS, u32: EMPTY_DOCS };

/**
 * The header of a `bm25.bin` served in parts, and the sections `wanted` of it, read in one
 * read of the store (each viewed in place where aligned).
 */
export async function readSectionsInParts(
  ranges: FileRanges,
  label: string,
  wanted: readonly [string, SectionType][],
): Promise<{ header: Bm25FileHeader; sections: Map<string, Uint8Array | Uint16Array | Uint32Array> }> {
  const size = ranges.size;
  let head = (await ranges.read([{ offset: 0, length: Math.min(size, HEADER_PROBE_BYTES) }]))[0]!;
  if (head.byteLength >= MAGIC.length + 4) {
    const needed = MAGIC.length + 4 + new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(MAGIC.length, true);
    if (needed > head.byteLength && needed <= size) head = (await ranges.read([{ offset: 0, length: needed }]))[0]!;
  }
  const header = readHeader(head, label);
  if (header.payloadOffset + header.payloadBytes !== size) throw corrupt(label, `it is ${size} bytes long, not ${header.payloadOffset + header.payloadBytes}`);
  const entries = wanted.map(([name, type]) => sectionEntry(header, name, type, size, label));
  const parts = await ranges.read(entries.map((entry, i) => ({ offset: entry.offset, length: entry.length * BYTES[wanted[i]![1]] })));
  return { header, sections: new Map(wanted.map(([name, type], i) => [name, viewAs(parts[i]!, type)])) };
}

/**
 * Opens a `bm25.bin` that a store serves in parts (see `FileRanges`): reads its header and
 * the sections every search needs (under a thirtieth of the file), and leaves the posting
 * lists, term sequences and {@link DEFERRED_SECTIONS} to be fetched as searches ask for them.
 * The structure is checked as `decodeIndex` checks it (`assembleIndexData`), each list and
 * entry when it arrives; the bytes are
 * checked by the store's page checksums, not by the file's own checksum (which covers the
 * whole file).
 */
export async function openPagedIndex(ranges: FileRanges, label: string, cacheBytes: number = DEFAULT_PAGED_CACHE_BYTES): Promise<PagedIndex> {
  const { header, sections: resident } = await readSectionsInParts(ranges, label, residentSections());
  const size = ranges.size;
  // Deferred sections start as zeros the size of the section (memory not touched until an
  // entry arrives); a field's last list bound is the length of its lists, known now.
  for (const [name, type] of DEFERRED_SECTIONS) {
    const length = sectionEntry(header, name, type, size, label).length;
    const array = type === 'u8' ? new Uint8Array(length) : new Uint32Array(length);
    if (name.endsWith('.offsets') && array.length > 0) array[array.length - 1] = sectionEntry(header, name.replace(/\.offsets$/, '.docs'), 'u32', size, label).length;
    if (name === 'termOffsets' && array.length > 0) array[array.length - 1] = sectionEntry(header, 'vocabulary', 'u8', size, label).length;
    resident.set(name, array);
  }
  const source = {
    read(name: string, type: SectionType) {
      return resident.get(name) ?? (sectionEntry(header, name, type, size, label), EMPTY[type]);
    },
    length: (name: string, type: SectionType) => sectionEntry(header, name, type, size, label).length,
    deferred: (name: string) => DEFERRED_SECTIONS.has(name),
    checkedOnUse: true,
  } as SectionSource;
  const assembled = assembleIndexData(header, source, label);
  const notFetched = (what: string): RagError => notFetchedError(label, what);
  const samples = new TermDictionary(resident.get('vocabulary.samples') as Uint8Array, resident.get('vocabulary.sampleOffsets') as Uint32Array);
  const dictionary = new PagedTermDictionary(assembled.dictionary.bytes, assembled.dictionary.offsets, samples, notFetched);
  const data: Bm25IndexData = { ...assembled, dictionary };
  const layouts: FieldLayout[] = FIELD_NAMES.map((name, f) => ({
    offsets: data.fields[f]!.offsets,
    docsAt: sectionEntry(header, `${name}.docs`, 'u32', size, label).offset,
    tfsAt: sectionEntry(header, `${name}.tfs`, 'u16', size, label).offset,
  }));
  const sequencesAt = sectionEntry(header, 'sequences.terms', 'u32', size, label).offset;
  const deferred: DeferredLayout = {
    dictionary,
    termOffsetsAt: sectionEntry(header, 'termOffsets', 'u32', size, label).offset,
    vocabularyAt: sectionEntry(header, 'vocabulary', 'u8', size, label).offset,
    docFrequencies: data.docFrequencies,
    docFrequenciesAt: sectionEntry(header, 'docFrequencies', 'u32', size, label).offset,
    offsetsAt: FIELD_NAMES.map((name) => sectionEntry(header, `${name}.offsets`, 'u32', size, label).offset),
    nameOffsets: data.features.nameOffsets,
    names: data.features.names,
    namesAt: sectionEntry(header, 'features.names', 'u32', size, label).offset,
  };
  const postings = new PagedPostings(ranges, label, { docCount: data.docCount, termCount: data.dictionary.size, fields: layouts, sequenceOffsets: data.sequences.offsets, sequencesAt, deferred, fieldLengths: data.fields.map((field) => field.lengths) }, cacheBytes);
  return { data, postings, payloadChecksum: header.payloadChecksum };
}
