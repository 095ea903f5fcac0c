import { checkChunkFeatures } from './chunk-features.js';
import { countBelow, keptFromRuns, NOT_KEPT } from './composite.js';
import { TermDictionary } from './dictionary.js';
import { FIELD_NAMES } from './options.js';
import type { OverlayData } from './overlay.js';
import { BM25_FORMAT_VERSION, corrupt, encodeSectionParts, parseHeader, SectionReader, type SectionArray, type SectionLayout } from './persist.js';
import { RagError } from '@rag/core';
import { TERM_ID_MASK } from './term-interner.js';

/**
 * On-disk layout of `bm25-overlay.bin`: the container of `bm25.bin` (magic, JSON header,
 * sections aligned to 8 bytes, an FNV-1a checksum of the payload; see `persist.ts`) with its
 * own magic and header. The header names the base it goes with (chunk and term counts, the
 * base file's payload checksum) and the `bm25.bin` format version its terms were analysed
 * with; the sections are `OverlayData`'s arrays.
 */
export const OVERLAY_FORMAT = 'rag-bm25-overlay';
/**
 * Bumped when the overlay's layout or the meaning of a stored number changes: 2 = only what
 * differs from the base is stored; 3 = its own chunks' mentions are stored (`AnchorMentions`);
 * 4 = and the names they define (`AnchorMentions.defined`).
 */
export const OVERLAY_FORMAT_VERSION = 4;
/** File names inside a retriever directory: an index written whole is `bm25.bin`; one written as an overlay is these two. */
export const BASE_FILE_NAME = 'bm25-base.bin';
export const OVERLAY_FILE_NAME = 'bm25-overlay.bin';

const MAGIC = new TextEncoder().encode('RAGBMOV\n');

export interface OverlayFileHeader extends SectionLayout {
  format: typeof OVERLAY_FORMAT;
  version: number;
  /** The `bm25.bin` format version (the analysis of text) the overlay's terms come from. */
  bm25Version: number;
  littleEndian: true;
  base: OverlayData['base'];
  docCount: number;
  termCount: number;
  fields: readonly string[];
  chunkFingerprint: string;
}

function namedSections(overlay: OverlayData): [string, SectionArray][] {
  const { features } = overlay;
  const sections: [string, SectionArray][] = [
    ['runs', overlay.runs],
    ['fresh.vocabulary', overlay.fresh.bytes],
    ['fresh.termOffsets', overlay.fresh.offsets],
    ['frequencies.terms', overlay.frequencies.terms],
    ['frequencies.values', overlay.frequencies.values],
    ['touched', overlay.touched],
  ];
  FIELD_NAMES.forEach((name, f) => {
    const field = overlay.fields[f]!;
    const list = overlay.lists[f]!;
    sections.push([`${name}.terms`, field.terms], [`${name}.deltas`, field.deltas], [`${name}.ownLengths`, field.ownLengths]);
    sections.push([`${name}.list.offsets`, list.offsets], [`${name}.list.docs`, list.docs], [`${name}.list.tfs`, list.tfs]);
  });
  sections.push(['sequences.offsets', overlay.sequences.offsets], ['sequences.terms', overlay.sequences.terms]);
  sections.push(['features.docs', features.docs], ['features.evidence', features.evidence], ['features.types', features.types], ['features.descriptions', features.descriptions]);
  sections.push(['features.nameOffsets', features.nameOffsets], ['features.names', features.names], ['anchors.hashes', overlay.anchorHashes]);
  sections.push(['anchors.mentionOffsets', overlay.anchorMentions.offsets], ['anchors.mentions', overlay.anchorMentions.hashes], ['anchors.defined', overlay.anchorMentions.defined]);
  return sections;
}

/** The overlay file's bytes, as consecutive parts (see `encodeSectionParts`). */
export function encodeOverlayParts(overlay: OverlayData): Uint8Array[] {
  return encodeSectionParts(
    MAGIC,
    {
      format: OVERLAY_FORMAT,
      version: OVERLAY_FORMAT_VERSION,
      bm25Version: BM25_FORMAT_VERSION,
      littleEndian: true,
      base: overlay.base,
      docCount: overlay.docCount,
      termCount: overlay.base.termCount + overlay.fresh.size,
      fields: FIELD_NAMES,
      chunkFingerprint: overlay.chunkFingerprint,
    },
    namedSections(overlay),
  );
}

/** The header of an overlay file, its format and version checked. */
export function readOverlayHeader(bytes: Uint8Array, label: string): OverlayFileHeader {
  const header = parseHeader<OverlayFileHeader>(bytes, MAGIC, label, 'bm25 overlay');
  if (header.format !== OVERLAY_FORMAT) throw corrupt(label, `its header does not say "format": "${OVERLAY_FORMAT}"`);
  if (header.version !== OVERLAY_FORMAT_VERSION || header.bm25Version !== BM25_FORMAT_VERSION) {
    throw new RagError('INDEX_INCOMPATIBLE', `The bm25 overlay ${label} has format version ${String(header.version)} (terms of version ${String(header.bm25Version)}); this version of @rag/bm25 reads ${OVERLAY_FORMAT_VERSION} (${BM25_FORMAT_VERSION}).`, {
      hint: 'Rebuild the index with `rag index --corpus_dir <dir> --full`.',
    });
  }
  if (header.littleEndian !== true || new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) {
    throw new RagError('INDEX_INCOMPATIBLE', `The bm25 overlay ${label} is little-endian and this machine is not.`, { hint: 'Rebuild the index on this machine.' });
  }
  const counts = [header.docCount, header.termCount, header.base?.docCount, header.base?.termCount, header.base?.payloadChecksum];
  if (!counts.every((n) => Number.isInteger(n) && n! >= 0) || JSON.stringify(header.fields) !== JSON.stringify(FIELD_NAMES)) {
    throw corrupt(label, 'its header has invalid counts or fields');
  }
  return header as OverlayFileHeader;
}

function ascending(values: Uint32Array): boolean {
  for (let i = 1; i < values.length; i++) if (values[i - 1]! > values[i]!) return false;
  return true;
}

function strictlyAscendingBelow(values: Uint32Array, limit: number): boolean {
  for (let i = 0; i < values.length; i++) if (values[i]! >= limit || (i > 0 && values[i - 1]! >= values[i]!)) return false;
  return true;
}

/** How `decodeOverlay` checks what it reads. */
export interface OverlayDecodeOptions {
  /** Verify the payload checksum. Default `true`; `false` only where the store has just verified the file another way. */
  checksum?: boolean;
  /**
   * Leave the checks that pass over every entry of the overlay's own lists, sequences and
   * names to the reads that use them (`CompositePostings` checks each list and sequence it
   * hands out), as a base read in pages does: for a one-shot search, which reads a few dozen
   * entries of a file whose bytes the store's checksums vouch for. Default `false`.
   */
  checkedOnUse?: boolean;
}

/**
 * Reads an overlay written by `encodeOverlayParts`, every structural check made: counts, runs
 * of kept chunks in order and inside both indexes, changed terms in order and in range, every
 * new term's frequency, the overlay's own chunks' lists (in chunk order, inside its own
 * chunks), sequences (as long as their chunks' fields) and features (every own chunk's
 * among them), names and terms in range (the per-entry ones on use with `checkedOnUse`).
 */
export function decodeOverlay(bytes: Uint8Array, label: string, { checksum = true, checkedOnUse = false }: OverlayDecodeOptions = {}): OverlayData {
  const header = readOverlayHeader(bytes, label);
  const reader = new SectionReader(bytes, header, label, checksum);
  const { docCount, termCount } = header;
  const baseTerms = header.base.termCount;
  const bad = (what: string): RagError => corrupt(label, what);

  const runs = reader.read('runs', 'u32');
  let kept = 0;
  let nextChunk = 0;
  let nextBase = 0;
  for (let r = 0; r + 2 < runs.length; r += 3) {
    const [start, from, length] = [runs[r]!, runs[r + 1]!, runs[r + 2]!];
    if (length === 0 || start < nextChunk || from < nextBase || start + length > docCount || from + length > header.base.docCount) throw bad('its runs of kept chunks are out of order or range');
    nextChunk = start + length;
    nextBase = from + length;
    kept += length;
  }
  if (runs.length % 3 !== 0) throw bad('its runs of kept chunks are cut short');
  const own = docCount - kept;

  const freshOffsets = reader.read('fresh.termOffsets', 'u32');
  const freshBytes = reader.read('fresh.vocabulary', 'u8');
  const freshCount = freshOffsets.length - 1;
  if (freshCount < 0 || freshOffsets[0] !== 0 || freshOffsets[freshCount] !== freshBytes.length || !ascending(freshOffsets) || baseTerms + freshCount !== termCount) {
    throw bad('its new terms do not match their offsets or the term count');
  }
  const frequencies = { terms: reader.read('frequencies.terms', 'u32'), values: reader.read('frequencies.values', 'u32') };
  // Every new term is there (the base says nothing of it), the changed ones in order.
  if (frequencies.values.length !== frequencies.terms.length || !strictlyAscendingBelow(frequencies.terms, termCount) || frequencies.terms.length - countBelow(frequencies.terms, baseTerms) !== freshCount) {
    throw bad('its changed document frequencies are inconsistent');
  }
  const touched = reader.read('touched', 'u32');
  if (!strictlyAscendingBelow(touched, termCount)) throw bad('its list of held terms is out of range or order');

  const fields = FIELD_NAMES.map((name) => {
    const field = { terms: reader.read(`${name}.terms`, 'u32'), deltas: reader.read(`${name}.deltas`, 'u32'), ownLengths: reader.read(`${name}.ownLengths`, 'u32') };
    if (field.deltas.length !== field.terms.length || !strictlyAscendingBelow(field.terms, termCount) || field.ownLengths.length !== own) throw bad(`its changed ${name} list lengths are inconsistent`);
    return field;
  });
  const keptFrom = keptFromRuns(runs, docCount);
  const lists = FIELD_NAMES.map((name) => {
    const offsets = reader.read(`${name}.list.offsets`, 'u32');
    const docs = reader.read(`${name}.list.docs`, 'u32');
    const tfs = reader.read(`${name}.list.tfs`, 'u16');
    let consistent = offsets.length === touched.length + 1 && offsets[0] === 0 && offsets[touched.length] === docs.length && tfs.length === docs.length && ascending(offsets);
    for (let i = 0; consistent && !checkedOnUse && i < touched.length; i++) {
      for (let p = offsets[i]!; consistent && p < offsets[i + 1]!; p++) {
        const d = docs[p]!;
        consistent = d < docCount && keptFrom[d] === NOT_KEPT && (p === offsets[i] || docs[p - 1]! < d);
      }
    }
    if (!consistent) throw bad(`its own ${name} postings are inconsistent`);
    return { offsets, docs, tfs };
  });

  const sequences = { offsets: reader.read('sequences.offsets', 'u32'), terms: reader.read('sequences.terms', 'u32') };
  let consistent = sequences.offsets.length === own + 1 && sequences.offsets[0] === 0 && sequences.offsets[own] === sequences.terms.length;
  for (let local = 0; consistent && !checkedOnUse && local < own; local++) {
    let length = 0;
    for (const field of fields) length += field.ownLengths[local]!;
    consistent = sequences.offsets[local + 1]! - sequences.offsets[local]! === length;
  }
  for (let i = 0; consistent && !checkedOnUse && i < sequences.terms.length; i++) consistent = (sequences.terms[i]! & TERM_ID_MASK) < termCount;
  if (!consistent) throw bad('its term sequences are inconsistent');

  const changed = {
    docs: reader.read('features.docs', 'u32'),
    evidence: reader.read('features.evidence', 'u8'),
    types: reader.read('features.types', 'u8'),
    descriptions: reader.read('features.descriptions', 'u8'),
    nameOffsets: reader.read('features.nameOffsets', 'u32'),
    names: reader.read('features.names', 'u32'),
  };
  if (!strictlyAscendingBelow(changed.docs, docCount)) throw bad('its changed features are out of order or range');
  const broken = checkChunkFeatures(changed, changed.docs.length, termCount, checkedOnUse);
  if (broken !== undefined) throw bad(`its chunk features are inconsistent: ${broken}`);
  let described = 0;
  for (const d of changed.docs) if (keptFrom[d] === NOT_KEPT) described++;
  if (described !== own) throw bad('it lacks the features of some of its own chunks');
  const anchorHashes = reader.read('anchors.hashes', 'u32');
  if (anchorHashes.length !== own * 2) throw bad('its anchor hashes do not match its own chunks');
  const mentionOffsets = reader.read('anchors.mentionOffsets', 'u32');
  const mentions = reader.read('anchors.mentions', 'u32');
  const defined = reader.read('anchors.defined', 'u32');
  if (defined.length !== own || mentionOffsets.length !== own + 1 || mentionOffsets[0] !== 0 || mentionOffsets[own] !== mentions.length || !mentionOffsets.every((at, i) => i === 0 || at >= mentionOffsets[i - 1]!)) {
    throw bad('its anchor mentions do not match its own chunks');
  }
  return {
    base: { docCount: header.base.docCount, termCount: baseTerms, payloadChecksum: header.base.payloadChecksum },
    docCount,
    runs,
    fresh: new TermDictionary(freshBytes, freshOffsets),
    frequencies,
    fields,
    touched,
    lists,
    sequences,
    features: changed,
    anchorHashes,
    anchorMentions: { offsets: mentionOffsets, hashes: mentions, defined },
    chunkFingerprint: String(header.chunkFingerprint),
  };
}

/** INDEX_CORRUPT unless `overlay` was written against this base (its chunk and term counts and payload checksum). */
export function checkOverlayBase(overlay: OverlayData, base: { docCount: number; dictionary: { size: number } }, payloadChecksum: number, label: string): void {
  const expected = overlay.base;
  if (expected.docCount !== base.docCount || expected.termCount !== base.dictionary.size || expected.payloadChecksum !== payloadChecksum) {
    throw corrupt(label, 'it was written against another base file than the one beside it');
  }
}
