import { isDeepStrictEqual } from 'node:util';
import { RagError } from '@rag/core';
import { TERM_ID_MASK, type Bm25IndexData, type FieldPostings, type TermSequences } from './build.js';
import { CHECKSUM_SEED, checksumWords } from './checksum.js';
import { sampleTerms, TermDictionary } from './dictionary.js';
import { UNREAD_MENTIONS, type AnchorMentions } from './anchors.js';
import { checkChunkFeatures, type ChunkFeatures } from './chunk-features.js';
import { DEFAULT_BM25_OPTIONS, FIELD_NAMES, resolveBm25Options, type Bm25Options } from './options.js';

/**
 * On-disk layout of `bm25.bin` (all integers little-endian):
 *
 *   0   8 bytes   magic "RAGBM25\n"
 *   8   u32       byte length H of the header
 *   12  H bytes   header, UTF-8 JSON (`Bm25FileHeader`), then zero padding to 8 bytes
 *   …             sections, each starting at a multiple of 8 so it loads as a typed-array
 *                 view with no copy: the vocabulary (all terms joined, UTF-8), term start
 *                 byte offsets, every 64th term again (its bytes and offsets), document
 *                 frequencies, per field its posting offsets,
 *                 chunk ids, term frequencies and field lengths, and the chunks' term
 *                 sequences (offsets and entries) and features (evidence bits, answer-
 *                 type bits, description marks, name offsets and name term ids) that the second stage
 *                 reads, two hashes
 *                 of each chunk's anchor text and the hashes of the names its paragraphs
 *                 mention (offsets and hashes; both for a re-index).
 *
 * The header carries a format version (a mismatch is refused with INDEX_INCOMPATIBLE),
 * the complete options (so a loaded index tokenizes queries exactly as it was built),
 * the fingerprint of the chunks it was built over, and a checksum of everything after it.
 */
export const BM25_FORMAT = 'rag-bm25';
/**
 * Bumped whenever the layout or the meaning of a stored number changes, and when the
 * analysis of text changes (the stored terms would no longer meet the query's):
 * 5 = the stemmer folds British spellings, -ical and -eed / -ied words;
 * 6 = each chunk's evidence kinds and defined or explained names are stored (`ChunkFeatures`);
 * 7 = each chunk's anchor-text hashes are stored (a re-index tells which anchors changed);
 * 8 = term offsets count bytes of the UTF-8 vocabulary, not UTF-16 code units (the
 *     dictionary is searched as bytes, never decoded whole);
 * 9 = each chunk's answer types are stored (`ChunkFeatures.types`);
 * 10 = whether each code chunk reads as a description is stored (`ChunkFeatures.descriptions`);
 * 11 = every 64th term is stored again on its own (`vocabulary.samples`), so a reader can find
 *      a term's block of the dictionary without holding the dictionary;
 * 12 = a class's summary line is indexed with its methods (`ContextOptions.classSummaries`);
 * 13 = a call that only forwards its parameters under their own names carries no default
 *      (`isPassThrough` of @rag/text: the stored evidence kinds may differ);
 * 14 = a prose chunk of titles and markup only is marked (`STUB_MARK` in
 *      `ChunkFeatures.descriptions`, for `RerankOptions.stubFactor`);
 * 15 = the anchor hashes cover the docs' anchor text only, not the class summary (which
 *      comes from the chunk's own file: see `anchorField`);
 * 16 = what each chunk's paragraphs mention is stored (`AnchorMentions`), so an update finds
 *      the anchor texts an edit can change without reading every docs page; the chunk
 *      fingerprint hashes each path once per file (`fingerprintChunks`);
 * 17 = the last part of the name each chunk defines is stored (`AnchorMentions.defined`), so
 *      an update finds the definitions an edit's names can lend anchor text to without
 *      reading every chunk's symbol; a name hash is never 0 (`hashName`).
 */
export const BM25_FORMAT_VERSION = 17;
/** Terms per block of the dictionary that `vocabulary.samples` indexes (its first term is the sample). */
export const VOCABULARY_BLOCK = 64;
/** File name of the index inside a retriever directory. */
export const BM25_FILE_NAME = 'bm25.bin';

export const MAGIC = new TextEncoder().encode('RAGBM25\n');
/** Bytes read first to find a file's header: the header of every index seen here fits (the rest is read if not). */
export const HEADER_PROBE_BYTES = 16 << 10;
const ALIGN = 8;

export type SectionType = 'u8' | 'u16' | 'u32';
export type SectionArray = Uint8Array | Uint16Array | Uint32Array;

export interface SectionEntry {
  type: SectionType;
  /** Byte offset from the start of the file. */
  offset: number;
  /** Number of elements. */
  length: number;
}

export interface Bm25FileHeader extends SectionLayout {
  format: typeof BM25_FORMAT;
  version: number;
  littleEndian: true;
  options: Bm25Options;
  docCount: number;
  termCount: number;
  fields: readonly string[];
  chunkFingerprint: string;
}

export const BYTES: Record<SectionType, number> = { u8: 1, u16: 2, u32: 4 };

function typeOf(array: SectionArray): SectionType {
  if (array instanceof Uint8Array) return 'u8';
  if (array instanceof Uint16Array) return 'u16';
  return 'u32';
}

const alignUp = (n: number): number => Math.ceil(n / ALIGN) * ALIGN;

function namedSections(data: Bm25IndexData): [string, SectionArray][] {
  const samples = sampleTerms(data.dictionary, VOCABULARY_BLOCK);
  const sections: [string, SectionArray][] = [
    ['vocabulary', data.dictionary.bytes],
    ['termOffsets', data.dictionary.offsets],
    ['vocabulary.samples', samples.bytes],
    ['vocabulary.sampleOffsets', samples.offsets],
    ['docFrequencies', data.docFrequencies],
  ];
  data.fields.forEach((field, f) => {
    const name = FIELD_NAMES[f]!;
    sections.push([`${name}.offsets`, field.offsets], [`${name}.docs`, field.docs], [`${name}.tfs`, field.tfs], [`${name}.lengths`, field.lengths]);
  });
  sections.push(['sequences.offsets', data.sequences.offsets], ['sequences.terms', data.sequences.terms]);
  sections.push(['features.evidence', data.features.evidence], ['features.types', data.features.types], ['features.descriptions', data.features.descriptions], ['features.nameOffsets', data.features.nameOffsets], ['features.names', data.features.names]);
  sections.push(['anchors.hashes', data.anchorHashes], ['anchors.mentionOffsets', data.anchorMentions.offsets], ['anchors.mentions', data.anchorMentions.hashes], ['anchors.defined', data.anchorMentions.defined]);
  return sections;
}

/** Serialises an index into the single-file format above. */
export function encodeIndex(data: Bm25IndexData): Uint8Array {
  return joinParts(encodeIndexParts(data));
}

/** `parts` copied one after another into one buffer. */
export function joinParts(parts: readonly Uint8Array[]): Uint8Array {
  const file = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    file.set(part, at);
    at += part.byteLength;
  }
  return file;
}

/**
 * The bytes of `encodeIndex` as consecutive parts: the magic and header (padded to the
 * payload), then each section viewed in place (not copied) followed by its zero padding.
 * Writing them in turn gives the same file without one buffer holding it all.
 */
export function encodeIndexParts(data: Bm25IndexData): Uint8Array[] {
  if (data.composite) {
    throw new RagError('INVALID_ARGUMENT', 'An index made of a base file and an overlay is saved as the two files, not as one.', {
      hint: 'Save it through Bm25Retriever.save, which writes the overlay next to its base.',
    });
  }
  return encodeSectionParts(
    MAGIC,
    {
      format: BM25_FORMAT,
      version: BM25_FORMAT_VERSION,
      littleEndian: true,
      options: data.options,
      docCount: data.docCount,
      termCount: data.dictionary.size,
      fields: FIELD_NAMES,
      chunkFingerprint: data.chunkFingerprint,
    },
    namedSections(data),
  );
}

/**
 * A file of this module's layout: `magic`, the byte length of the header, the header
 * (`fields`, then `payloadBytes`, `payloadOffset`, `payloadChecksum` and where each section
 * lies) padded to 8 bytes, then the sections in order, each padded to 8 bytes, as parts.
 */
export function encodeSectionParts(magic: Uint8Array, fields: Record<string, unknown>, sections: readonly [string, SectionArray][]): Uint8Array[] {
  const relative: Record<string, SectionEntry> = {};
  let payloadBytes = 0;
  for (const [name, array] of sections) {
    relative[name] = { type: typeOf(array), offset: payloadBytes, length: array.length };
    payloadBytes = alignUp(payloadBytes + array.byteLength);
  }
  const header = { ...fields, payloadBytes };
  // The checksum is taken section by section, so the payload is assembled once, in the file.
  const payloadChecksum = checksumSections(sections);
  // The header's own length moves the payload, and the payload offsets live in the
  // header: iterate until the padded header size is stable (twice at most in practice).
  let payloadOffset = alignUp(magic.length + 4);
  let headerBytes: Uint8Array;
  for (;;) {
    const absolute: Record<string, SectionEntry> = {};
    for (const [name, entry] of Object.entries(relative)) absolute[name] = { ...entry, offset: entry.offset + payloadOffset };
    headerBytes = new TextEncoder().encode(JSON.stringify({ ...header, payloadOffset, payloadChecksum, sections: absolute }));
    const needed = alignUp(magic.length + 4 + headerBytes.length);
    if (needed === payloadOffset) break;
    payloadOffset = needed;
  }
  const prefix = new Uint8Array(payloadOffset);
  prefix.set(magic, 0);
  new DataView(prefix.buffer).setUint32(magic.length, headerBytes.length, true);
  prefix.set(headerBytes, magic.length + 4);
  const parts: Uint8Array[] = [prefix];
  for (const [, array] of sections) {
    parts.push(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
    const padding = alignUp(array.byteLength) - array.byteLength;
    if (padding > 0) parts.push(new Uint8Array(padding));
  }
  return parts;
}

/**
 * The payload checksum (FNV-1a over its 32-bit words) computed from the sections as laid
 * out one after another, each padded with zeros to a multiple of 8 bytes: the same value as
 * over the assembled payload, without assembling it.
 */
function checksumSections(sections: readonly [string, SectionArray][]): number {
  let hash = CHECKSUM_SEED;
  for (const [, array] of sections) {
    const whole = array.byteLength >>> 2;
    const aligned = array.byteOffset % 4 === 0;
    const words = aligned ? new Uint32Array(array.buffer, array.byteOffset, whole) : new Uint32Array(new Uint8Array(array.buffer, array.byteOffset, whole * 4).slice().buffer);
    hash = checksumWords(words, hash);
    const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    const tail = new Uint8Array(alignUp(array.byteLength) - whole * 4);
    tail.set(bytes.subarray(whole * 4));
    hash = checksumWords(new Uint32Array(tail.buffer), hash);
  }
  return hash;
}

export function corrupt(label: string, what: string, cause?: unknown): RagError {
  return new RagError('INDEX_CORRUPT', `The bm25 index ${label} is damaged: ${what}.`, {
    hint: 'Rebuild the index with `rag index --corpus_dir <dir>`.',
    cause,
  });
}

/** Where a file of this module's layout keeps its sections (see `encodeSectionParts`). */
export interface SectionLayout {
  /** First byte after the header padding; the checksum covers [payloadOffset, end). */
  payloadOffset: number;
  payloadBytes: number;
  payloadChecksum: number;
  sections: Record<string, SectionEntry>;
}

/** The JSON header of a file that starts with `magic` (a `what` in errors), its fields unchecked. */
export function parseHeader<T>(bytes: Uint8Array, magic: Uint8Array, label: string, what: string): Partial<T> {
  if (bytes.length < magic.length + 4 || magic.some((byte, i) => bytes[i] !== byte)) {
    throw corrupt(label, `it does not start with the ${what} signature`);
  }
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(magic.length, true);
  if (magic.length + 4 + headerLength > bytes.length) throw corrupt(label, 'its header is cut short');
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(magic.length + 4, magic.length + 4 + headerLength)));
  } catch (error) {
    throw corrupt(label, 'its header is not valid JSON', error);
  }
  if (typeof header !== 'object' || header === null) throw corrupt(label, 'its header is not a JSON object');
  return header as Partial<T>;
}

export function readHeader(bytes: Uint8Array, label: string): Bm25FileHeader {
  const header = parseHeader<Bm25FileHeader>(bytes, MAGIC, label, 'bm25 file');
  if (header.format !== BM25_FORMAT) {
    throw corrupt(label, `its header does not say "format": "${BM25_FORMAT}"`);
  }
  if (header.version !== BM25_FORMAT_VERSION) {
    throw new RagError(
      'INDEX_INCOMPATIBLE',
      `The bm25 index ${label} has format version ${String(header.version)}; this version of @rag/bm25 reads version ${BM25_FORMAT_VERSION}.`,
      { hint: 'Rebuild the index with `rag index --corpus_dir <dir>`.' },
    );
  }
  if (header.littleEndian !== true || new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) {
    throw new RagError('INDEX_INCOMPATIBLE', `The bm25 index ${label} is little-endian and this machine is not.`, {
      hint: 'Rebuild the index on this machine.',
    });
  }
  return header as Bm25FileHeader;
}

/**
 * Where `assembleIndexData` reads an index's sections: each section as a typed array, and
 * its element count as the header records it. A source that fetches posting lists and
 * term sequences later (a paged index) returns them empty: the checks that read their
 * elements then pass vacuously, and the lists are checked as they arrive instead.
 */
export interface SectionSource {
  read(name: string, type: 'u8'): Uint8Array;
  read(name: string, type: 'u16'): Uint16Array;
  read(name: string, type: 'u32'): Uint32Array;
  /** Elements in section `name` (its header entry checked as `read` checks it). */
  length(name: string, type: SectionType): number;
  /**
   * True for a section whose entries are read later, each when a search first needs it (a
   * paged index: the dictionary's blocks, a term's document frequency and list bounds, a
   * chunk's names): `read` gives
   * an array of the right length whose entries are not there yet, so only its length and the
   * entries `read` did fill are checked now; the rest are checked as they arrive.
   */
  deferred?(name: string): boolean;
  /**
   * True when the checks of the whole file's structure that cost a pass over every entry (a
   * vocabulary's offsets in order, every chunk's sequence length against its field lengths)
   * are left to the reads that use the entries: a paged index, whose pages carry checksums and
   * whose one-shot searches read a few dozen entries. A term found in the dictionary is its
   * own bytes whatever the order of the rest; a sequence is checked when it is fetched.
   */
  checkedOnUse?: boolean;
}

/** Typed-array views of the sections, checked against the file's bounds and checksum. */
export class SectionReader implements SectionSource {
  readonly #bytes: Uint8Array;
  readonly #header: SectionLayout;
  readonly #label: string;

  constructor(bytes: Uint8Array, header: SectionLayout, label: string, verifyChecksum: boolean) {
    // Views need the buffer aligned; Node's pooled small buffers may not be.
    this.#bytes = bytes.byteOffset % ALIGN === 0 ? bytes : bytes.slice();
    this.#header = header;
    this.#label = label;
    const { payloadOffset, payloadBytes, payloadChecksum } = header;
    if (!Number.isInteger(payloadOffset) || !Number.isInteger(payloadBytes) || payloadOffset % ALIGN !== 0 || payloadBytes % 4 !== 0) {
      throw corrupt(label, 'its header has an invalid payload range');
    }
    if (payloadOffset + payloadBytes !== this.#bytes.length) throw corrupt(label, `it is ${this.#bytes.length} bytes long, not ${payloadOffset + payloadBytes}`);
    const words = new Uint32Array(this.#bytes.buffer, this.#bytes.byteOffset + payloadOffset, payloadBytes / 4);
    if (verifyChecksum && checksumWords(words) !== payloadChecksum) throw corrupt(label, 'its checksum does not match its contents');
  }

  read(name: string, type: 'u8'): Uint8Array;
  read(name: string, type: 'u16'): Uint16Array;
  read(name: string, type: 'u32'): Uint32Array;
  read(name: string, type: SectionType): SectionArray {
    const entry = sectionEntry(this.#header, name, type, this.#bytes.length, this.#label);
    const at = this.#bytes.byteOffset + entry.offset;
    if (type === 'u8') return new Uint8Array(this.#bytes.buffer, at, entry.length);
    if (type === 'u16') return new Uint16Array(this.#bytes.buffer, at, entry.length);
    return new Uint32Array(this.#bytes.buffer, at, entry.length);
  }

  length(name: string, type: SectionType): number {
    return sectionEntry(this.#header, name, type, this.#bytes.length, this.#label).length;
  }
}

/** Section `name`'s header entry, checked to be of `type`, aligned, and inside a file of `size` bytes. */
export function sectionEntry(header: SectionLayout, name: string, type: SectionType, size: number, label: string): SectionEntry {
  const entry = header.sections?.[name];
  if (!entry || entry.type !== type || !Number.isInteger(entry.offset) || !Number.isInteger(entry.length) || entry.length < 0 || entry.offset % ALIGN !== 0) {
    throw corrupt(label, `section ${name} is missing or malformed`);
  }
  if (entry.offset < header.payloadOffset || entry.offset + entry.length * BYTES[type] > size) throw corrupt(label, `section ${name} lies outside the file`);
  return entry;
}

function isAscending(offsets: Uint32Array): boolean {
  for (let i = 1; i < offsets.length; i++) if (offsets[i]! < offsets[i - 1]!) return false;
  return true;
}

export function allBelow(values: Uint32Array, limit: number): boolean {
  for (let i = 0; i < values.length; i++) if (values[i]! >= limit) return false;
  return true;
}

function readField(reader: SectionSource, name: string, termCount: number, docCount: number, label: string): FieldPostings {
  const field: FieldPostings = {
    offsets: reader.read(`${name}.offsets`, 'u32'),
    docs: reader.read(`${name}.docs`, 'u32'),
    tfs: reader.read(`${name}.tfs`, 'u16'),
    lengths: reader.read(`${name}.lengths`, 'u32'),
  };
  const postings = reader.length(`${name}.docs`, 'u32');
  const consistent =
    field.offsets.length === termCount + 1 &&
    field.offsets[0] === 0 &&
    field.offsets[termCount] === postings &&
    reader.length(`${name}.tfs`, 'u16') === postings &&
    field.lengths.length === docCount &&
    (reader.deferred?.(`${name}.offsets`) === true || isAscending(field.offsets)) &&
    allBelow(field.docs, docCount);
  if (!consistent) throw corrupt(label, `the ${name} postings are inconsistent`);
  return field;
}

function readSequences(reader: SectionSource, fields: readonly FieldPostings[], termCount: number, docCount: number, label: string): TermSequences {
  const sequences: TermSequences = { offsets: reader.read('sequences.offsets', 'u32'), terms: reader.read('sequences.terms', 'u32') };
  const { offsets, terms } = sequences;
  let consistent = offsets.length === docCount + 1 && offsets[0] === 0 && offsets[docCount] === reader.length('sequences.terms', 'u32');
  for (let d = 0; consistent && reader.checkedOnUse !== true && d < docCount; d++) {
    let length = 0;
    for (const field of fields) length += field.lengths[d]!;
    consistent = offsets[d + 1]! - offsets[d]! === length;
  }
  for (let i = 0; consistent && i < terms.length; i++) consistent = (terms[i]! & TERM_ID_MASK) < termCount;
  if (!consistent) throw corrupt(label, 'its term sequences are inconsistent');
  return sequences;
}

export interface DecodeOptions {
  /**
   * Verify the payload checksum. Default `true`; `false` only where the whole file was just
   * verified another way (the index store's sha256). Structure is checked either way.
   */
  checksum?: boolean;
}

/** Reads an index written by `encodeIndex`; `label` (usually the path) names it in errors. */
export function decodeIndex(bytes: Uint8Array, label: string, decode: DecodeOptions = {}): Bm25IndexData {
  const header = readHeader(bytes, label);
  return assembleIndexData(header, new SectionReader(bytes, header, label, decode.checksum ?? true), label);
}

/**
 * The index a header and its sections describe, every structural check made (counts,
 * fields, options, vocabulary against offsets, postings, sequences, chunk features): what
 * `decodeIndex` returns for a file held whole, and `openPagedIndex` for one read in pages.
 */
export function assembleIndexData(header: Bm25FileHeader, reader: SectionSource, label: string): Bm25IndexData {
  const { docCount, termCount } = header;
  if (!Number.isInteger(docCount) || !Number.isInteger(termCount) || docCount < 0 || termCount < 0) {
    throw corrupt(label, 'its header has invalid counts');
  }
  if (JSON.stringify(header.fields) !== JSON.stringify(FIELD_NAMES)) throw corrupt(label, `its fields are ${JSON.stringify(header.fields)}`);
  let options: Bm25Options;
  try {
    // Most indexes are built with the defaults: stored settings equal to them are them, and
    // need no pass through the validator (a one-shot search's slowest step to open them).
    options = isDeepStrictEqual(header.options, DEFAULT_BM25_OPTIONS) ? DEFAULT_BM25_OPTIONS : resolveBm25Options(header.options);
  } catch (error) {
    throw corrupt(label, 'its stored options are invalid', error);
  }
  const offsets = reader.read('termOffsets', 'u32');
  const vocabulary = reader.read('vocabulary', 'u8');
  if (offsets.length !== termCount + 1 || offsets[termCount] !== vocabulary.length || (reader.checkedOnUse !== true && !isAscending(offsets))) {
    throw corrupt(label, 'its vocabulary does not match its term offsets');
  }
  const sampleOffsets = reader.read('vocabulary.sampleOffsets', 'u32');
  if (sampleOffsets.length !== Math.ceil(termCount / VOCABULARY_BLOCK) + 1 || sampleOffsets[sampleOffsets.length - 1] !== reader.length('vocabulary.samples', 'u8')) {
    throw corrupt(label, 'its vocabulary samples do not match its vocabulary');
  }
  const docFrequencies = reader.read('docFrequencies', 'u32');
  if (docFrequencies.length !== termCount) throw corrupt(label, 'its document frequencies do not match its vocabulary');
  const fields = FIELD_NAMES.map((name) => readField(reader, name, termCount, docCount, label));
  return {
    options,
    docCount,
    dictionary: new TermDictionary(vocabulary, offsets),
    docFrequencies,
    fields,
    sequences: readSequences(reader, fields, termCount, docCount, label),
    features: readFeatures(reader, termCount, docCount, label),
    anchorHashes: readAnchorHashes(reader, docCount, label),
    anchorMentions: readAnchorMentions(reader, docCount, label),
    chunkFingerprint: String(header.chunkFingerprint),
  };
}

/** The anchor-text hashes (two per chunk); empty from a source that leaves them unread (a paged index). */
function readAnchorHashes(reader: SectionSource, docCount: number, label: string): Uint32Array {
  if (reader.length('anchors.hashes', 'u32') !== docCount * 2) throw corrupt(label, 'its anchor hashes do not match its chunks');
  return reader.read('anchors.hashes', 'u32');
}

/** What each chunk's paragraphs mention; unread (empty) from a source that leaves them unread (a paged index). */
function readAnchorMentions(reader: SectionSource, docCount: number, label: string): AnchorMentions {
  if (reader.length('anchors.mentionOffsets', 'u32') !== docCount + 1 || reader.length('anchors.defined', 'u32') !== docCount) throw corrupt(label, 'its anchor mentions do not match its chunks');
  const offsets = reader.read('anchors.mentionOffsets', 'u32') as Uint32Array;
  const hashes = reader.read('anchors.mentions', 'u32') as Uint32Array;
  const defined = reader.read('anchors.defined', 'u32') as Uint32Array;
  if (offsets.length === 0 || defined.length === 0) return UNREAD_MENTIONS;
  if (offsets[0] !== 0 || offsets[docCount] !== hashes.length || !isAscending(offsets)) throw corrupt(label, 'its anchor mentions are inconsistent');
  return { offsets, hashes, defined };
}

function readFeatures(reader: SectionSource, termCount: number, docCount: number, label: string): ChunkFeatures {
  const features: ChunkFeatures = {
    evidence: reader.read('features.evidence', 'u8'),
    types: reader.read('features.types', 'u8'),
    descriptions: reader.read('features.descriptions', 'u8'),
    nameOffsets: reader.read('features.nameOffsets', 'u32'),
    names: reader.read('features.names', 'u32'),
  };
  const broken = checkChunkFeatures(features, docCount, termCount, reader.deferred?.('features.names') === true);
  if (broken !== undefined) throw corrupt(label, `its chunk features are inconsistent: ${broken}`);
  return features;
}
