import { closeSync, openSync, readSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { endianness } from 'node:os';
import { join, relative, sep } from 'node:path';
import { crc32 } from 'node:zlib';
import { combineCrc32 } from './crc32-combine.js';
import { nodeCrypto, sha256Hex } from './crypto.js';
import { RagError } from './errors.js';
import type { IndexFileReader } from './shared-files.js';

/**
 * Bytes per checked page of a large retriever file: a search that reads a file in parts
 * (see `FileRanges`) reads and checks whole pages, so small pages waste little of a read
 * (a posting list or a chunk's terms is often a few hundred bytes). Divides `READ_BLOCK`.
 */
export const FILE_PAGE_BYTES = 8192;
/** Retriever files at least this large get page checksums (smaller ones are always read whole). */
export const PAGED_FILE_MIN_BYTES = 1 << 20;

/** A file's CRC-32 per page of `bytes` (the last page may be short), as the manifest records them. */
export interface PageChecksums {
  bytes: number;
  /** Base64 of one little-endian uint32 per page. */
  crc32: string;
}

/** Size and sha256 of one file of an index, as the manifest records them. */
export interface FileChecksum {
  size: number;
  sha256: string;
  /**
   * CRC-32 of the whole file (unsigned), what opening an index checks a file it reads whole
   * against: it catches every burst of damage up to 32 bits long and all but one in 2^32 of
   * any other (a sum for damage, not for tampering), without loading `node:crypto` (see
   * `nodeCrypto`). Absent in indexes written before it was added; those are checked by
   * their sha256. `rag verify` checks both.
   */
  crc32?: number;
  /** For large retriever files: a checksum per page, so that a part can be read and checked alone. */
  pages?: PageChecksums;
}

/** Stored sums are little-endian: on such a machine they are copied, not read one by one. */
const LITTLE_ENDIAN = endianness() === 'LE';

/** The CRC-32 of each page, in order. */
export function decodePageChecksums(pages: PageChecksums): Uint32Array {
  const bytes = Buffer.from(pages.crc32, 'base64');
  const sums = new Uint32Array(bytes.byteLength >>> 2);
  // One copy of the bytes on a little-endian machine (a read per sum, cold, boxes each one above 2^30).
  if (LITTLE_ENDIAN) new Uint8Array(sums.buffer).set(bytes.subarray(0, sums.byteLength));
  else for (let i = 0; i < sums.length; i++) sums[i] = bytes.readUInt32LE(i * 4);
  return sums;
}

function encodePageChecksums(sums: readonly number[]): PageChecksums {
  const bytes = Buffer.alloc(sums.length * 4);
  sums.forEach((sum, i) => bytes.writeUInt32LE(sum, i * 4));
  return { bytes: FILE_PAGE_BYTES, crc32: bytes.toString('base64') };
}

/** Every file of an index generation but the manifest, by path relative to the generation (with `/`). */
export type IndexChecksums = Record<string, FileChecksum>;

/** Bytes hashed per read: large enough to stream at disk speed, small enough to keep memory flat. */
const READ_BLOCK = 1 << 20;

/**
 * Size, sha256 and CRC-32 of a file, streamed; with `pages`, also a CRC-32 per
 * `FILE_PAGE_BYTES` (same pass). With `sha256: false` the sha256 is left out (`''`): what a
 * quick check that compares CRC-32s needs, at about a third of the cost.
 */
export async function checksumFile(path: string, pages = false, { sha256 = true }: { sha256?: boolean } = {}): Promise<FileChecksum> {
  const hash = sha256 ? nodeCrypto().createHash('sha256') : undefined;
  // Synchronous reads into one buffer: a thread-pool round trip per block would be most of the cost.
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(READ_BLOCK);
    const sums: number[] = [];
    let size = 0;
    let whole = 0;
    for (;;) {
      // Whole blocks (short only at the end), so pages never straddle two reads.
      let filled = 0;
      while (filled < READ_BLOCK) {
        const bytesRead = readSync(fd, buffer, filled, READ_BLOCK - filled, null);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      if (filled === 0) break;
      const block = buffer.subarray(0, filled);
      hash?.update(block);
      if (pages) {
        // The whole file's sum from its pages' (one pass over the bytes, not two).
        for (let at = 0; at < filled; at += FILE_PAGE_BYTES) {
          const end = Math.min(filled, at + FILE_PAGE_BYTES);
          const sum = crc32(block.subarray(at, end));
          sums.push(sum);
          whole = combineCrc32(whole, sum, end - at);
        }
      } else {
        whole = crc32(block, whole);
      }
      size += filled;
      if (filled < READ_BLOCK) break;
    }
    return { size, sha256: hash?.digest('hex') ?? '', crc32: whole, ...(pages ? { pages: encodePageChecksums(sums) } : {}) };
  } finally {
    closeSync(fd);
  }
}

/** sha256 of a string or bytes already in memory. */
export function sha256Of(data: string | Uint8Array): string {
  return sha256Hex(data);
}

/** Whether `data` (a string as UTF-8, or bytes) is what `expected` records: its CRC-32 when recorded, else its sha256. */
export function matchesChecksum(data: string | Uint8Array, expected: { sha256: string; crc32?: number | undefined }): boolean {
  return expected.crc32 !== undefined ? crc32(data) === expected.crc32 : sha256Of(data) === expected.sha256;
}

/** Every file below `root`, as sorted paths relative to it with `/` separators. */
export async function listFiles(root: string, dir = root): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(root, path)));
    else out.push(relative(root, path).split(sep).join('/'));
  }
  return out.sort();
}

/** Checksums of every file below `dir` except those named in `skip`. */
export async function checksumTree(dir: string, skip: readonly string[]): Promise<IndexChecksums> {
  const sums: IndexChecksums = {};
  for (const file of await listFiles(dir)) {
    if (skip.includes(file)) continue;
    // Large retriever files get page checksums too, so a search can read a part of one (see `fileRangesOnDisk`).
    const pages = file.startsWith('retrievers/') && (await stat(join(dir, file))).size >= PAGED_FILE_MIN_BYTES;
    sums[file] = await checksumFile(join(dir, file), pages);
  }
  return sums;
}

function damaged(indexDir: string, file: string, what: string, cause?: unknown): RagError {
  return new RagError('INDEX_CORRUPT', `The index in ${indexDir} is damaged: ${file} ${what}.`, {
    hint: 'Rebuild it with `rag index --corpus_dir <dir>` (`rag verify` checks every file).',
    cause,
  });
}

export interface VerifyOptions {
  /**
   * Compare each file's CRC-32 only where the manifest records one (what a reader checks of
   * a file it reads whole), not its sha256 too: for a check that runs often, such as an
   * update's look at whether the published generation is intact. Default `false`: both, as
   * `rag verify` checks.
   */
  quick?: boolean;
}

/**
 * Checks the files of `generationDir` named in `sums` (all of them, or those under
 * `prefix`) against their recorded size and checksums (both, or the CRC-32 alone with
 * `quick`). A missing, truncated or altered file is `INDEX_CORRUPT` naming it, so nothing
 * read from a damaged index reaches an output.
 */
export async function verifyChecksums(
  indexDir: string,
  generationDir: string,
  sums: IndexChecksums,
  prefix = '',
  read?: IndexFileReader,
  { quick = false }: VerifyOptions = {},
): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for (const [file, expected] of Object.entries(sums)) {
    if (!file.startsWith(prefix)) continue;
    const path = join(generationDir, file);
    if (read) {
      // Hash the very bytes the loader will be handed (read once, not streamed and read again).
      const data = await read(path).catch((error: unknown) => {
        throw damaged(indexDir, file, 'is missing', error);
      });
      if (data.byteLength !== expected.size) throw damaged(indexDir, file, `has ${data.byteLength} bytes where ${expected.size} were written`);
      if (!matchesChecksum(data, expected)) throw damaged(indexDir, file, 'does not match its checksum');
      files++;
      bytes += data.byteLength;
      continue;
    }
    const info = await stat(path).catch((error: unknown) => {
      throw damaged(indexDir, file, 'is missing', error);
    });
    if (info.size !== expected.size) throw damaged(indexDir, file, `has ${info.size} bytes where ${expected.size} were written`);
    // Quick: the recorded CRC-32 alone, as a reader checks what it reads whole.
    const crcOnly = quick && expected.crc32 !== undefined;
    const actual = await checksumFile(path, expected.pages !== undefined, { sha256: !crcOnly });
    if ((!crcOnly && actual.sha256 !== expected.sha256) || (expected.crc32 !== undefined && actual.crc32 !== expected.crc32)) throw damaged(indexDir, file, 'does not match its checksum');
    // Page checksums are what a search reading parts relies on: they must agree with the file.
    if (expected.pages && (expected.pages.bytes !== FILE_PAGE_BYTES || actual.pages?.crc32 !== expected.pages.crc32)) {
      throw damaged(indexDir, file, 'does not match its page checksums');
    }
    files++;
    bytes += actual.size;
  }
  return { files, bytes };
}

export { damaged as indexDamagedError };
