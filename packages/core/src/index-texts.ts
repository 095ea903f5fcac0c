import { closeSync, fstatSync, openSync, readSync, writeFileSync, writeSync } from 'node:fs';
import { endianness } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { RagError } from './errors.js';

/**
 * Chunk texts on disk: segment files hold texts as UTF-8, one after another; the table,
 * `text-offsets.bin`, says where each text lies (its segment, first byte and length) and
 * holds its CRC-32. A build writes one segment, {@link TEXTS_FILE}; an update links the
 * previous generation's segments into the new one (they never change once written) and
 * writes only the texts of changed files into a segment of its own, until too much of the
 * linked bytes belong to texts no chunk holds any more (see {@link TEXT_SEGMENT_LIMITS}): then
 * it writes every text into one segment again. Nothing needs all texts in one string or
 * buffer, so the format has no size limit short of the file system's; a search reads only
 * the texts it shows, and checks each against its CRC as it reads it.
 *
 * Table layout (little-endian): u32 S; S times (f64 size, u32 name length, name as UTF-8);
 * zero bytes up to a multiple of 8; then for n texts f64 starts[n], u32 lengths[n], u32
 * CRC-32s[n], u16 segments[n].
 */
export const TEXTS_FILE = 'texts.bin';
export const TEXT_OFFSETS_FILE = 'text-offsets.bin';

/** When an update links the previous generation's text segments instead of copying their texts. */
export interface TextSegmentLimits {
  /**
   * Most segments a generation may have, its own included; one more and the update writes
   * every text into one segment. A search opens them all. Whole number 1–65535; default 8.
   */
  maxSegments: number;
  /**
   * Largest share of the linked segments' bytes that may belong to texts no chunk holds any
   * more (edited or removed files): the disk space an index may waste. 0–1; default 0.25,
   * so texts take at most 4/3 of their size on disk.
   */
  maxDeadShare: number;
}

export const TEXT_SEGMENT_LIMITS: Readonly<TextSegmentLimits> = Object.freeze({ maxSegments: 8, maxDeadShare: 0.25 });

/** Where a text's bytes lie: a range of one segment file of a generation, with their CRC-32. */
export interface TextLocation {
  segment: string;
  start: number;
  length: number;
  crc32: number;
}

/** How a file store's generation keeps its texts: its folder, its segments and where each text lies. */
export interface TextLayout {
  dir: string;
  segments: readonly { name: string; size: number }[];
  locate(i: number): TextLocation;
  /**
   * The same as `locate` gives, column by column (text i lies in `segments[segmentOf[i]]`,
   * `lengths[i]` bytes from `starts[i]`, with CRC-32 `sums[i]`): what an update reads for
   * every text it keeps, without an object per text.
   */
  columns?: { segmentOf: ArrayLike<number>; starts: ArrayLike<number>; lengths: ArrayLike<number>; sums: ArrayLike<number> };
}

/** Bytes buffered before a write: large writes, flat memory. */
const WRITE_BATCH = 1 << 22;
/** Bytes read at once from a segment when texts are read in order. */
const READ_BLOCK = 1 << 20;
/** Largest gap between two texts read one after the other that still counts as reading in order. */
const NEAR = 1 << 16;

function isLocation(text: string | Uint8Array | TextLocation): text is TextLocation {
  return typeof text === 'object' && !(text instanceof Uint8Array);
}

/**
 * Writes `texts` into `dir`: the table {@link TEXT_OFFSETS_FILE} and, streaming, a segment
 * named `segment` (default {@link TEXTS_FILE}) with every text given as a string or as its
 * UTF-8 bytes (a re-index hands over those of unchanged chunks instead of decoding and
 * encoding them again; they are copied at once, so the caller may reuse their memory). A
 * text given as a {@link TextLocation} stays where it lies: its segment must already be in
 * `dir` (linked there from an older generation, see {@link planTextReuse}), as does a text
 * given as a number j: text j of `from` (an update's kept texts, one number each instead of
 * an object). The own segment is left out when every text lies in a linked one.
 */
export async function writeTexts(dir: string, texts: Iterable<string | Uint8Array | TextLocation | number>, segment = TEXTS_FILE, from?: TextLayout): Promise<void> {
  const starts: number[] = [];
  const lengths: number[] = [];
  const sums: number[] = [];
  const segmentOf: number[] = [];
  const segments: { name: string; size: number }[] = [];
  const segmentIds = new Map<string, number>();
  const segmentId = (name: string): number => {
    let id = segmentIds.get(name);
    if (id === undefined) {
      id = segments.length;
      segmentIds.set(name, id);
      segments.push({ name, size: name === segment ? 0 : fstatOf(join(dir, name)) });
    }
    return id;
  };
  // Texts are gathered in one batch buffer, reused: fresh memory costs a page fault per 4 KiB
  // on first touch, which on some machines is most of the cost of copying a corpus's texts.
  // Synchronous writes: this thread has nothing else to do meanwhile, and each asynchronous
  // write would be a thread-pool round trip.
  let fd: number | undefined;
  let batch = Buffer.allocUnsafe(0);
  let used = 0;
  let total = 0;
  const flush = (): void => {
    let done = 0;
    while (done < used) done += writeSync(fd!, batch, done, used - done);
    used = 0;
  };
  /** Records a text that stays in linked segment `id` (named `name`). */
  const addAt = (id: number, name: string, start: number, length: number, crc: number): void => {
    // A location the previous generation's table gave: outside its segment, that table is damaged (an update then rebuilds).
    if (name === segment || !(start >= 0 && start + length <= segments[id]!.size)) throw corrupt(dir, name, `holds no text at ${start}–${start + length}`);
    starts.push(start);
    lengths.push(length);
    sums.push(crc >>> 0);
    segmentOf.push(id);
  };
  const addLocation = (name: string, start: number, length: number, crc: number): void => addAt(segmentId(name), name, start, length, crc);
  // Own segment ids of `from`'s segments, found when first used.
  const fromIds = new Int32Array(from?.segments.length ?? 0).fill(-1);
  try {
    for (const text of texts) {
      if (typeof text === 'number') {
        if (!from) throw new RagError('INVALID_ARGUMENT', `Text ${text} of no previous generation was given.`, { hint: 'Pass the layout the kept texts come from.' });
        const columns = from.columns;
        if (!columns) {
          const at = from.locate(text);
          addLocation(at.segment, at.start, at.length, at.crc32);
          continue;
        }
        const s = columns.segmentOf[text]!;
        if (fromIds[s] === -1) fromIds[s] = segmentId(from.segments[s]!.name);
        addAt(fromIds[s]!, from.segments[s]!.name, columns.starts[text]!, columns.lengths[text]!, columns.sums[text]!);
        continue;
      }
      if (isLocation(text)) {
        addLocation(text.segment, text.start, text.length, text.crc32);
        continue;
      }
      if (fd === undefined) {
        fd = openSync(join(dir, segment), 'w');
        batch = Buffer.allocUnsafe(WRITE_BATCH);
      }
      const own = segmentId(segment);
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
      starts.push(total);
      lengths.push(used - start);
      segmentOf.push(own);
      total += used - start;
      segments[own]!.size = total;
    }
    // No texts at all: an empty own segment, so that every generation has one.
    if (segments.length === 0) {
      fd = openSync(join(dir, segment), 'w');
      segmentId(segment);
    }
    if (fd !== undefined) flush();
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  writeFileSync(join(dir, TEXT_OFFSETS_FILE), encodeTable(segments, starts, lengths, sums, segmentOf));
}

function fstatOf(path: string): number {
  const fd = openSync(path, 'r');
  try {
    return fstatSync(fd).size;
  } finally {
    closeSync(fd);
  }
}

function encodeTable(segments: readonly { name: string; size: number }[], starts: number[], lengths: number[], sums: number[], segmentOf: number[]): Buffer {
  const names = segments.map((s) => Buffer.from(s.name, 'utf8'));
  const head = align8(4 + names.reduce((sum, name) => sum + 12 + name.length, 0));
  const n = starts.length;
  const table = Buffer.alloc(head + n * 18);
  let at = table.writeUInt32LE(segments.length, 0);
  segments.forEach((s, i) => {
    at = table.writeDoubleLE(s.size, at);
    at = table.writeUInt32LE(names[i]!.length, at);
    at += names[i]!.copy(table, at);
  });
  // The columns are copied whole where this machine's byte order is the file's.
  if (littleEndian) {
    table.set(new Uint8Array(Float64Array.from(starts).buffer), head);
    table.set(new Uint8Array(Uint32Array.from(lengths).buffer), head + n * 8);
    table.set(new Uint8Array(Uint32Array.from(sums).buffer), head + n * 12);
    table.set(new Uint8Array(Uint16Array.from(segmentOf).buffer), head + n * 16);
    return table;
  }
  at = head;
  for (const start of starts) at = table.writeDoubleLE(start, at);
  for (const length of lengths) at = table.writeUInt32LE(length, at);
  for (const sum of sums) at = table.writeUInt32LE(sum, at);
  for (const s of segmentOf) at = table.writeUInt16LE(s, at);
  return table;
}

function align8(n: number): number {
  return Math.ceil(n / 8) * 8;
}

/**
 * The segments of `layout` an update whose chunk i copies previous chunk `sourceOf(i)` (or
 * is new, -1) should link rather than copy the texts of: those that still hold a copied
 * text; undefined (copy every text into one new segment) when that would exceed
 * `limits.maxSegments` with the update's own, or leave more than `limits.maxDeadShare` of
 * the linked bytes dead.
 */
export function planTextReuse(layout: TextLayout, sourceOf: (i: number) => number, count: number, limits: TextSegmentLimits = TEXT_SEGMENT_LIMITS): string[] | undefined {
  const live = new Map<string, number>();
  const columns = layout.columns;
  if (columns) {
    // Bytes per segment by its index: no location object per kept text.
    const bytes = new Float64Array(layout.segments.length);
    const seen = new Uint8Array(layout.segments.length);
    for (let i = 0; i < count; i++) {
      const j = sourceOf(i);
      if (j < 0) continue;
      const s = columns.segmentOf[j]!;
      bytes[s]! += columns.lengths[j]!;
      seen[s] = 1;
    }
    layout.segments.forEach((segment, s) => {
      if (seen[s]) live.set(segment.name, bytes[s]!);
    });
  } else {
    for (let i = 0; i < count; i++) {
      const j = sourceOf(i);
      if (j < 0) continue;
      const at = layout.locate(j);
      live.set(at.segment, (live.get(at.segment) ?? 0) + at.length);
    }
  }
  const linked = layout.segments.filter((s) => live.has(s.name));
  if (linked.length === 0 || linked.length + 1 > limits.maxSegments) return undefined;
  const size = linked.reduce((sum, s) => sum + s.size, 0);
  const used = [...live.values()].reduce((sum, n) => sum + n, 0);
  if (size > 0 && 1 - used / size > limits.maxDeadShare) return undefined;
  return linked.map((s) => s.name);
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
  /** Where a file store keeps the texts (an update links its segments, see {@link planTextReuse}); absent elsewhere. */
  readonly layout?: TextLayout;
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

/** `n` uint16s at byte `at`, as {@link readFloat64s}. */
function readUint16s(bytes: Uint8Array, at: number, n: number): Uint16Array {
  if (littleEndian && (bytes.byteOffset + at) % 2 === 0) return new Uint16Array(bytes.buffer, bytes.byteOffset + at, n);
  const view = new DataView(bytes.buffer, bytes.byteOffset + at, n * 2);
  return Uint16Array.from({ length: n }, (_, i) => view.getUint16(i * 2, true));
}

function corrupt(indexDir: string, file: string, what: string, cause?: unknown): RagError {
  return new RagError('INDEX_CORRUPT', `The index in ${indexDir} is damaged: ${file} ${what}.`, {
    hint: 'Rebuild it with `rag index --corpus_dir <dir>` (`rag verify` checks every file).',
    ...(cause === undefined ? {} : { cause }),
  });
}

/** The segments and columns of a table (see {@link TEXTS_FILE}), or a description of what is wrong with it. */
function decodeTable(table: Uint8Array, count: number): { segments: { name: string; size: number }[]; starts: Float64Array; lengths: Uint32Array; sums: Uint32Array; segmentOf: Uint16Array } | string {
  const bytes = Buffer.from(table.buffer, table.byteOffset, table.byteLength);
  if (bytes.length < 4) return `is ${bytes.length} bytes long`;
  const segmentCount = bytes.readUInt32LE(0);
  const segments: { name: string; size: number }[] = [];
  let at = 4;
  for (let s = 0; s < segmentCount; s++) {
    if (at + 12 > bytes.length) return 'ends inside its list of segments';
    const size = bytes.readDoubleLE(at);
    const length = bytes.readUInt32LE(at + 8);
    at += 12;
    if (at + length > bytes.length) return 'ends inside its list of segments';
    const name = bytes.toString('utf8', at, at + length);
    at += length;
    // A segment is a plain file beside the table: no separator, no way out of the folder.
    if (!/^texts(-[\w.-]+)?\.bin$/.test(name) || !Number.isSafeInteger(size) || size < 0) return `names a segment it should not (${JSON.stringify(name)})`;
    segments.push({ name, size });
  }
  const head = align8(at);
  if (bytes.length !== head + count * 18) return `is ${bytes.length} bytes long, not the ${head + count * 18} that ${count} chunks take`;
  const starts = readFloat64s(bytes, head, count);
  const lengths = readUint32s(bytes, head + count * 8, count);
  const sums = readUint32s(bytes, head + count * 12, count);
  const segmentOf = readUint16s(bytes, head + count * 16, count);
  return { segments, starts, lengths, sums, segmentOf };
}

/**
 * Opens the texts of the generation in `dir`, given the bytes of its {@link TEXT_OFFSETS_FILE}
 * (already verified by the caller). Its segments stay open, so texts read later come from
 * this generation even after a newer one is published and this one removed.
 */
export function openTexts(indexDir: string, dir: string, count: number, table: Uint8Array): TextStore & { layout: TextLayout } {
  const decoded = decodeTable(table, count);
  if (typeof decoded === 'string') throw corrupt(indexDir, TEXT_OFFSETS_FILE, decoded);
  const { segments, starts, lengths, sums, segmentOf } = decoded;
  const fds: number[] = [];
  const closeAll = (): void => {
    for (const fd of fds) closeSync(fd);
    fds.length = 0;
  };
  for (const segment of segments) {
    try {
      fds.push(openSync(join(dir, segment.name), 'r'));
    } catch (error) {
      closeAll();
      throw corrupt(indexDir, segment.name, 'is missing or unreadable', error);
    }
    // Each text's bounds are checked when it is read (a one-shot search reads a few dozen of
    // the table's entries; a pass over all of them, cold, costs more than the search).
    const size = fstatSync(fds.at(-1)!).size;
    if (size !== segment.size) {
      closeAll();
      throw corrupt(indexDir, segment.name, `has ${size} bytes where ${segment.size} were written`);
    }
  }
  let open = true;
  /** Reads `length` bytes at `start` of segment `s` into `buffer` (from its beginning). */
  const readInto = (buffer: Buffer, s: number, start: number, length: number): Buffer => {
    if (!open) throw new RagError('INVALID_ARGUMENT', 'The index texts were closed.', { hint: 'Open the index again.' });
    let done = 0;
    while (done < length) {
      const read = readSync(fds[s]!, buffer, done, length - done, start + done);
      if (read === 0) throw corrupt(indexDir, segments[s]!.name, 'is shorter than its offsets say');
      done += read;
    }
    return buffer.subarray(0, length);
  };
  const checked = (i: number, bytes: Buffer): Buffer => {
    if (crc32(bytes) !== sums[i]) throw corrupt(indexDir, segments[segmentOf[i]!]!.name, `does not match its checksum (the text of chunk ${i})`);
    return bytes;
  };
  // The last block read: texts read in order are served from it, a block read at a time into
  // the same memory (fresh memory costs a page fault per 4 KiB on first touch).
  let block: Buffer = Buffer.alloc(0);
  let blockSegment = -1;
  let blockStart = 0;
  let blockLength = 0;
  let lastSegment = -1;
  let lastEnd = -Infinity;
  /**
   * Text i's bytes, unchecked: from the block when it holds them; from a new block when the
   * reads go forward through a segment in small steps (a build reading the texts in order,
   * or those of one kind); else alone (a search reading its candidates).
   */
  const rangeOf = (i: number): Buffer => {
    if (!(i >= 0 && i < count)) throw new RagError('INVALID_ARGUMENT', `There is no chunk ${i} (the index has ${count}).`, { hint: 'Ask for a chunk id the index holds.' });
    const s = segmentOf[i]!;
    const start = starts[i]!;
    const end = start + lengths[i]!;
    if (s >= segments.length || !(start >= 0 && end <= segments[s]!.size)) throw corrupt(indexDir, TEXT_OFFSETS_FILE, `points outside its segments at chunk ${i}`);
    const sequential = s === lastSegment && start >= lastEnd && start - lastEnd < NEAR;
    lastSegment = s;
    lastEnd = end;
    if (s === blockSegment && start >= blockStart && end <= blockStart + blockLength) return block.subarray(start - blockStart, end - blockStart);
    if (!sequential) return readInto(Buffer.allocUnsafe(end - start), s, start, end - start);
    const length = Math.max(end, Math.min(segments[s]!.size, start + READ_BLOCK)) - start;
    if (block.length < length) block = Buffer.allocUnsafe(length);
    readInto(block, s, start, length);
    blockSegment = s;
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
    layout: {
      dir,
      segments,
      locate: (i) => ({ segment: segments[segmentOf[i]!]!.name, start: starts[i]!, length: lengths[i]!, crc32: sums[i]! }),
      columns: { segmentOf, starts, lengths, sums },
    },
    close() {
      if (open) closeAll();
      open = false;
    },
  };
}
