import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
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

/** Writes `texts` into `dir` as {@link TEXTS_FILE} and {@link TEXT_OFFSETS_FILE}, streaming. */
export async function writeTexts(dir: string, texts: Iterable<string>): Promise<void> {
  const offsets: number[] = [0];
  const sums: number[] = [];
  const handle = await open(join(dir, TEXTS_FILE), 'w');
  try {
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let total = 0;
    for (const text of texts) {
      const bytes = Buffer.from(text, 'utf8');
      sums.push(crc32(bytes));
      pending.push(bytes);
      pendingBytes += bytes.length;
      total += bytes.length;
      offsets.push(total);
      if (pendingBytes >= WRITE_BATCH) {
        await handle.write(Buffer.concat(pending, pendingBytes));
        pending = [];
        pendingBytes = 0;
      }
    }
    if (pendingBytes > 0) await handle.write(Buffer.concat(pending, pendingBytes));
  } finally {
    await handle.close();
  }
  const table = Buffer.alloc(offsets.length * 8 + sums.length * 4);
  offsets.forEach((offset, i) => table.writeDoubleLE(offset, i * 8));
  sums.forEach((sum, i) => table.writeUInt32LE(sum, offsets.length * 8 + i * 4));
  const out = await open(join(dir, TEXT_OFFSETS_FILE), 'w');
  try {
    await out.write(table);
  } finally {
    await out.close();
  }
}

/** Random access to the texts of an index generation: reads one text per call, from an open file. */
export interface TextStore {
  readonly count: number;
  /** Text `i`, decoded from its bytes (read now, not cached). */
  text(i: number): string;
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
  for (let i = 0; i < count; i++) {
    if (!(offsets[i]! <= offsets[i + 1]!)) throw corrupt(indexDir, TEXT_OFFSETS_FILE, `is out of order at chunk ${i}`);
  }
  if (offsets[0] !== 0 || offsets[count] !== size) {
    closeSync(fd);
    throw corrupt(indexDir, TEXT_OFFSETS_FILE, `does not span ${TEXTS_FILE}`);
  }
  let open = true;
  return {
    count,
    text(i) {
      if (!open) throw new RagError('INVALID_ARGUMENT', 'The index texts were closed.', { hint: 'Open the index again.' });
      const start = offsets[i]!;
      const length = offsets[i + 1]! - start;
      const buffer = Buffer.allocUnsafe(length);
      let done = 0;
      while (done < length) done += readSync(fd, buffer, done, length - done, start + done);
      if (crc32(buffer) !== sums[i]) throw corrupt(indexDir, TEXTS_FILE, `does not match its checksum (the text of chunk ${i})`);
      return buffer.toString('utf8');
    },
    close() {
      if (open) closeSync(fd);
      open = false;
    },
  };
}
