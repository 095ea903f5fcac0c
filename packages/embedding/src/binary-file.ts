import { RagError } from '@rag/core';

/**
 * The container every binary file of this package uses (little-endian):
 *
 *   0   8 bytes   magic, e.g. "RAGVEC1\n"
 *   8   u32       byte length H of the header
 *   12  H bytes   header, UTF-8 JSON, then zero padding to a multiple of 8
 *   …             sections, each starting at a multiple of 8 so it loads as a typed-array
 *                 view without copying
 *
 * The header lists each section (type, offset, length) and an FNV-1a checksum of the
 * payload, so truncation or corruption is reported instead of misread.
 */

export type SectionArray = Float32Array | Int8Array | Uint8Array | Uint32Array;
type SectionType = 'f32' | 'i8' | 'u8' | 'u32';

interface SectionEntry {
  type: SectionType;
  offset: number;
  length: number;
}

interface ContainerHeader {
  payloadOffset: number;
  payloadBytes: number;
  checksum: number;
  sections: Record<string, SectionEntry>;
  [key: string]: unknown;
}

function typeOf(array: SectionArray): SectionType {
  if (array instanceof Float32Array) return 'f32';
  if (array instanceof Int8Array) return 'i8';
  if (array instanceof Uint32Array) return 'u32';
  return 'u8';
}

function view(type: SectionType, buffer: ArrayBuffer, offset: number, length: number): SectionArray {
  switch (type) {
    case 'f32':
      return new Float32Array(buffer, offset, length);
    case 'i8':
      return new Int8Array(buffer, offset, length);
    case 'u32':
      return new Uint32Array(buffer, offset, length);
    default:
      return new Uint8Array(buffer, offset, length);
  }
}

const align8 = (n: number): number => (n + 7) & ~7;

/** FNV-1a over bytes, four at a time where aligned. */
function checksum(bytes: Uint8Array): number {
  let hash = 0x811c9dc5;
  const words = bytes.byteOffset % 4 === 0 ? new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >>> 2) : null;
  let i = 0;
  if (words) {
    for (let w = 0; w < words.length; w++) hash = Math.imul(hash ^ words[w]!, 0x01000193);
    i = words.length * 4;
  }
  for (; i < bytes.length; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
  return hash >>> 0;
}

export function encodeContainer(magic: string, header: Record<string, unknown>, sections: Record<string, SectionArray>): Uint8Array {
  const layout: Record<string, SectionEntry> = {};
  let payloadBytes = 0;
  for (const [name, array] of Object.entries(sections)) {
    layout[name] = { type: typeOf(array), offset: payloadBytes, length: array.length };
    payloadBytes = align8(payloadBytes + array.byteLength);
  }
  const payload = new Uint8Array(payloadBytes);
  for (const [name, array] of Object.entries(sections)) {
    payload.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), layout[name]!.offset);
  }
  const sum = checksum(payload);
  // The header's own length decides where the payload starts; iterate until it is stable.
  let payloadOffset = 0;
  let headerBytes = new Uint8Array();
  for (let attempt = 0; attempt < 4; attempt++) {
    const full: ContainerHeader = { ...header, payloadOffset, payloadBytes, checksum: sum, sections: {} };
    for (const [name, entry] of Object.entries(layout)) full.sections[name] = { ...entry, offset: payloadOffset + entry.offset };
    headerBytes = new TextEncoder().encode(JSON.stringify(full));
    const next = align8(12 + headerBytes.length);
    if (next === payloadOffset) break;
    payloadOffset = next;
  }
  const out = new Uint8Array(payloadOffset + payloadBytes);
  out.set(new TextEncoder().encode(magic.padEnd(8, '\0').slice(0, 8)), 0);
  new DataView(out.buffer).setUint32(8, headerBytes.length, true);
  out.set(headerBytes, 12);
  out.set(payload, payloadOffset);
  return out;
}

export interface DecodedContainer {
  header: Record<string, unknown>;
  sections: Record<string, SectionArray>;
}

function corrupt(label: string, why: string): RagError {
  return new RagError('INDEX_CORRUPT', `${label} is damaged: ${why}.`, {
    hint: 'Rebuild the index with `rag index --corpus_dir <dir>`.',
  });
}

export function decodeContainer(bytes: Uint8Array, magic: string, label: string): DecodedContainer {
  const expected = new TextEncoder().encode(magic.padEnd(8, '\0').slice(0, 8));
  if (bytes.length < 12 || expected.some((b, i) => bytes[i] !== b)) {
    throw new RagError('INDEX_INCOMPATIBLE', `${label} is not a file this version can read (bad magic).`, {
      hint: 'Rebuild the index with `rag index --corpus_dir <dir>`.',
    });
  }
  // Copy once into an aligned buffer so every section can be a typed-array view.
  const aligned = new Uint8Array(bytes.length);
  aligned.set(bytes);
  const headerLength = new DataView(aligned.buffer).getUint32(8, true);
  let header: ContainerHeader;
  try {
    header = JSON.parse(new TextDecoder().decode(aligned.subarray(12, 12 + headerLength))) as ContainerHeader;
  } catch {
    throw corrupt(label, 'its header is not valid JSON');
  }
  if (header.payloadOffset + header.payloadBytes !== aligned.length) throw corrupt(label, 'it is truncated or has trailing bytes');
  if (checksum(aligned.subarray(header.payloadOffset)) !== header.checksum) throw corrupt(label, 'its checksum does not match');
  const sections: Record<string, SectionArray> = {};
  for (const [name, entry] of Object.entries(header.sections)) {
    sections[name] = view(entry.type, aligned.buffer, entry.offset, entry.length);
  }
  return { header, sections };
}
