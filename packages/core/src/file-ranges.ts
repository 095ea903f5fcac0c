import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { RagError } from './errors.js';
import { decodePageChecksums, indexDamagedError, type FileChecksum } from './index-integrity.js';
import type { ByteRange, FileRanges } from './retriever.js';

/**
 * The pages (of `pageBytes`) that `ranges` of a file of `size` bytes cover, ascending, each
 * once; a range outside the file is `INVALID_ARGUMENT` naming `file`.
 */
export function pagesCovering(ranges: readonly ByteRange[], size: number, pageBytes: number, file: string): number[] {
  const wanted = new Set<number>();
  for (const { offset, length } of ranges) {
    if (!Number.isInteger(offset) || !Number.isInteger(length) || offset < 0 || length < 0 || offset + length > size) {
      throw new RagError('INVALID_ARGUMENT', `Bytes ${offset}..${offset + length} are outside ${file} (${size} bytes).`, { hint: 'Read ranges inside the file.' });
    }
    if (length === 0) continue;
    for (let page = Math.floor(offset / pageBytes); page <= Math.floor((offset + length - 1) / pageBytes); page++) wanted.add(page);
  }
  return [...wanted].sort((a, b) => a - b);
}

/**
 * The bytes of each range cut from `pages` (page number → its bytes): a view when the pages
 * it spans lie one after another in one buffer (one page, or pages read in one run), else a copy.
 */
export function cutRanges(ranges: readonly ByteRange[], pages: ReadonlyMap<number, Uint8Array>, pageBytes: number): Uint8Array[] {
  return ranges.map(({ offset, length }) => {
    if (length === 0) return new Uint8Array(0);
    const first = Math.floor(offset / pageBytes);
    const within = offset - first * pageBytes;
    const start = pages.get(first)!;
    if (within + length <= pageBytes) return start.subarray(within, within + length);
    const last = pages.get(Math.floor((offset + length - 1) / pageBytes))!;
    if (last.buffer === start.buffer && last.byteOffset - start.byteOffset === (Math.floor((offset + length - 1) / pageBytes) - first) * pageBytes) {
      return new Uint8Array(start.buffer, start.byteOffset + within, length);
    }
    const out = new Uint8Array(length);
    for (let at = 0; at < length; ) {
      const page = Math.floor((offset + at) / pageBytes);
      const from = offset + at - page * pageBytes;
      const piece = pages.get(page)!.subarray(from, Math.min(pageBytes, from + length - at));
      out.set(piece, at);
      at += piece.byteLength;
    }
    return out;
  });
}

/**
 * Byte ranges of an index file on disk, each read checking every page it covers against the
 * CRC-32 the manifest records (see `FileChecksum.pages`): a damaged page is `INDEX_CORRUPT`
 * naming the file and page, a file of another size too. `file` names it in errors (its path
 * inside the generation); undefined when the manifest records no page checksums for it.
 */
export function fileRangesOnDisk(indexDir: string, file: string, path: string, checksum: FileChecksum): FileRanges | undefined {
  if (!checksum.pages) return undefined;
  const pageBytes = checksum.pages.bytes;
  const size = checksum.size;
  const sums = decodePageChecksums(checksum.pages);
  if (!Number.isInteger(pageBytes) || pageBytes < 1 || sums.length !== Math.max(1, Math.ceil(size / pageBytes))) return undefined;
  return {
    size,
    async read(ranges: readonly ByteRange[]): Promise<Uint8Array[]> {
      // The pages the ranges cover, read once each in runs of consecutive pages.
      const sorted = pagesCovering(ranges, size, pageBytes, file);
      const pages = new Map<number, Uint8Array>();
      if (sorted.length > 0) {
        // Synchronous reads: a search waits for these bytes anyway, and each asynchronous call
        // (open, stat, read, close) is a round trip through the thread pool.
        let fd: number;
        try {
          fd = openSync(path, 'r');
        } catch (error) {
          throw indexDamagedError(indexDir, file, 'is missing', error);
        }
        try {
          const actual = fstatSync(fd).size;
          if (actual !== size) throw indexDamagedError(indexDir, file, `has ${actual} bytes where ${size} were written`);
          for (let i = 0; i < sorted.length; ) {
            let j = i + 1;
            while (j < sorted.length && sorted[j] === sorted[j - 1]! + 1) j++;
            const first = sorted[i]!;
            const start = first * pageBytes;
            const run = Buffer.allocUnsafe(Math.min(size, sorted[j - 1]! * pageBytes + pageBytes) - start);
            let filled = 0;
            while (filled < run.byteLength) {
              const bytesRead = readSync(fd, run, filled, run.byteLength - filled, start + filled);
              if (bytesRead === 0) throw indexDamagedError(indexDir, file, `ends before byte ${start + filled}`);
              filled += bytesRead;
            }
            for (let page = first; page < first + (j - i); page++) {
              const bytes = run.subarray((page - first) * pageBytes, Math.min(run.byteLength, (page - first + 1) * pageBytes));
              if (crc32(bytes) !== sums[page]) throw indexDamagedError(indexDir, `${file} (page ${page})`, 'does not match its checksum');
              pages.set(page, bytes);
            }
            i = j;
          }
        } finally {
          closeSync(fd);
        }
      }
      return cutRanges(ranges, pages, pageBytes);
    },
  };
}
