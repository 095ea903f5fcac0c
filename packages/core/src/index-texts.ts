import { closeSync, fstatSync, openSync, readSync, writeFileSync, writeSync } from 'node:fs';
import { endianness } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { RagError } from './errors.js';

/**
 * Chunk texts on disk: `texts.bin` holds every text as UTF-8, one after another;
 * `text-offsets.bin` holds n + 1 byte offsets (float64, little-endian: exact far past any
 * corpus) so text i is bytes [offset[i], offset[i + 1]), then n CRC-32s (uint32,
 * little-endian), one per text. Nothing needs all texts in one string or buffer, so the
 * format has no size limit short of the file system's; a search reads only the texts it
 * shows, and checks each against its CRC as it reads it instead of hashing the whole file.
 */
export const TEXTS_FILE = 'texts.bin';
export const TEXT_OFFSETS_FILE = 'text-offsets.bin';

/** Bytes buffered before a write: large writes, flat memory. */
const WRITE_BATCH = 1 << 22;
/** Bytes read at once from a texts file when texts are read in order. */
const READ_BLOCK = 1 << 20;
/** Largest gap between two texts read one after the other that still counts as reading in order. */
const NEAR = 1 << 16;

/**
 * Writes `texts` into `dir` as {@link TEXTS_FILE} and {@link TEXT_OFFSETS_FILE}, streaming. A
 * text may come as its UTF-8 bytes (a re-index copies those of unchanged chunks from the
 * previous generation instead of decoding and encoding them again); they are copied at once,
 * so the caller may reuse their memory for the next text.
 */
export async function writeTexts(dir: string, texts: Iterable<string | Uint8Array>): Promise<void> {
  const offsets: number[] = [0];
  const sums: number[] = [];
  // Texts are gathered in one batch buffer, reused: fresh memory costs a page fault per 4 KiB
  // on first touch, which on some machines is most of the cost of copying a corpus's texts.
  // Synchronous writes: this thread has nothing else to do meanwhile, and each asynchronous
  // write would be a thread-pool round trip.
  const fd = openSync(join(dir, TEXTS_FILE), 'w');
  try {
    let batch = Buffer.allocUnsafe(WRITE_BATCH);
    let used = 0;
    let total = 0;
    const flush = (): void => {
      let done = 0;
      while (done < used) done += writeSync(fd, batch, done, used - done);
      used = 0;
    };
    for (const text of texts) {
      // A string takes at most 3 bytes per UTF-16 unit.
      const most = typeof text === 'string' ? text.length * 3 : text.length;
      if (used + most > batch.length) {
        flush();
        if (most > batch.length) batch = Buffer.allocUnsafe(most);
      }
      const start = used;
      if (typeof text === 'string') used += batch.write(text, used, 'utf8');
      else {
        batch.set(text, used);
        used += text.length;
      }
      sums.push(crc32(batch.subarray(start, used)));
      total += used - start;
      offsets.push(total);
    }
    flush();
  } finally {
    closeSync(fd);
  }
  const table = Buffer.alloc(offsets.length * 8 + sums.length * 4);
  offsets.forEach((offset, i) => table.writeDoubleLE(offset, i * 8));
  sums.forEach((sum, i) => table.writeUInt32LE(sum, offsets.length * 8 + i * 4));
  writeFileSync(join(dir, TEXT_OFFSETS_FILE), table);
}

/** Random access to the texts of an index generation: reads one text per call, from an open file. */
export interface TextStore {
  readonly count: number;
  /** Text `i`, decoded from its bytes (read now, not cached). */
  text(i: number): string;
  /**
   * Text `i` as the UTF-8 bytes it is stored as, checked like `text(i)`; where the store
   * keeps files, reading the texts in order reads the file in large blocks. The bytes may be
   * a view of memory the next call reuses: copy them to keep them. Absent where the store
   * does not keep bytes (use `text`).
   */
  bytes?(i: number): Uint8Array;
  /**
   * Makes texts `ids` readable by `text()` without waiting: a store that reads texts over
   * the network (PostgreSQL) fetches them in one round trip and `text()` of any other id
   * then throws; the file store reads synchronously and needs none (undefined).
   */
  prefetch?(ids: readonly number[]): Promise<void>;
  /** Closes the file; texts can no longer be read. */
  close(): void;
}

const littleEndian = endianness() === 'LE';

/** `n` float64s at byte `at`: a view of the bytes where they can be read in place, else a copy. */
function readFloat64s(bytes: Uint8Array, at: number, n: number): Float64Array {
  if (littleEndian && (bytes.byteOffset + at) % 8 === 0) return new Float64Array(bytes.buffer, bytes.byteOffset + at, n);
  const view = new DataView(bytes.buffer, bytes.byteOffset + at, n * 8);
  return Float64Array.from({ length: n }, (_, i) => view.getFloat64(i * 8, true));
}

/** `n` uint32s at byte `at`, as {@link readFloat64s}. */
function readUint32s(bytes: Uint8Array, at: number, n: number): Uint32Array {
  if (littleEndian && (bytes.byteOffset + at) % 4 === 0) return new Uint32Array(bytes.buffer, bytes.byteOffset + at, n);
  const view = new DataView(bytes.buffer, bytes.byteOffset + at, n * 4);
  return Uint32Array.from({ length: n }, (_, i) => view.getUint32(i * 4, true));
}

function corrupt(indexDir: string, file: string, what: string, cause?: unknown): RagError {
  return new RagError('INDEX_CORRUPT', `The index in ${indexDir} is damaged: ${file} ${what}.`, {
    hint: 'Rebuild it with `rag index --corpus_dir <dir>` (`rag verify` checks every file).',
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * Opens the texts of the generation in `dir`, given the bytes of its {@link TEXT_OFFSETS_FILE}
 * (already verified by the caller). The file stays open, so texts read later come from this
 * generation even after a newer one is published and this one removed.
 */
export function openTexts(indexDir: string, dir: string, count: number, table: Uint8Array): TextStore {
  if (table.length !== (count + 1) * 8 + count * 4) throw corrupt(indexDir, TEXT_OFFSETS_FILE, `is ${table.length} bytes long, not the ${(count + 1) * 8 + count * 4} that ${count} chunks take`);
  const offsets = readFloat64s(table, 0, count + 1);
  const sums = readUint32s(table, (count + 1) * 8, count);
  let fd: number;
  try {
    fd = openSync(join(dir, TEXTS_FILE), 'r');
  } catch (error) {
    throw corrupt(indexDir, TEXTS_FILE, 'is missing or unreadable', error);
  }
  const size = fstatSync(fd).size;
  // Each text's bounds are checked when it is read (a one-shot search reads a few dozen of
  // the table's entries; a pass over all of them, cold, costs more than the search).
  if (offsets[0] !== 0 || offsets[count] !== size) {
    closeSync(fd);
    throw corrupt(indexDir, TEXT_OFFSETS_FILE, `does not span ${TEXTS_FILE}`);
  }
  let open = true;
  /** Reads `length` bytes at `start` into `buffer` (from its beginning). */
  const readInto = (buffer: Buffer, start: number, length: number): Buffer => {
    if (!open) throw new RagError('INVALID_ARGUMENT', 'The index texts were closed.', { hint: 'Open the index again.' });
    let done = 0;
    while (done < length) {
      const read = readSync(fd, buffer, done, length - done, start + done);
      if (read === 0) throw corrupt(indexDir, TEXTS_FILE, 'is shorter than its offsets say');
      done += read;
    }
    return buffer.subarray(0, length);
  };
  const checked = (i: number, bytes: Buffer): Buffer => {
    if (crc32(bytes) !== sums[i]) throw corrupt(indexDir, TEXTS_FILE, `does not match its checksum (the text of chunk ${i})`);
    return bytes;
  };
  // The last block read: texts read in order are served from it, a block read at a time into
  // the same memory (fresh memory costs a page fault per 4 KiB on first touch).
  let block: Buffer = Buffer.alloc(0);
  let blockStart = 0;
  let blockLength = 0;
  let lastEnd = -Infinity;
  /**
   * Text i's bytes, unchecked: from the block when it holds them; from a new block when the
   * reads go forward through the file in small steps (a build reading the texts in order, or
   * those of one kind); else alone (a search reading its candidates).
   */
  const rangeOf = (i: number): Buffer => {
    const start = offsets[i]!;
    const end = offsets[i + 1]!;
    if (!(start <= end && end <= size)) throw corrupt(indexDir, TEXT_OFFSETS_FILE, `is out of order at chunk ${i}`);
    const sequential = start >= lastEnd && start - lastEnd < NEAR;
    lastEnd = end;
    if (start >= blockStart && end <= blockStart + blockLength) return block.subarray(start - blockStart, end - blockStart);
    if (!sequential) return readInto(Buffer.allocUnsafe(end - start), start, end - start);
    const length = Math.max(end, Math.min(size, start + READ_BLOCK)) - start;
    if (block.length < length) block = Buffer.allocUnsafe(length);
    readInto(block, start, length);
    blockStart = start;
    blockLength = length;
    return block.subarray(0, end - start);
  };
  return {
    count,
    text(i) {
      return checked(i, rangeOf(i)).toString('utf8');
    },
    bytes(i) {
      return checked(i, rangeOf(i));
    },
    close() {
      if (open) closeSync(fd);
      open = false;
    },
  };
}
