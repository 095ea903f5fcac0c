import { endianness } from 'node:os';
import { RagError } from './errors.js';
import type { TextStore } from './index-texts.js';
import type { Chunk, ChunkKind, FileRecord } from './types.js';

/**
 * Chunk metadata on disk (`chunks.bin`): every field a column, so opening an index reads
 * the metadata of every chunk as typed-array views instead of decoding and parsing text.
 *
 * Layout, little-endian, every section starting on a 4-byte boundary:
 * - `RAGC`, format version (u32), chunk count n (u32), byte length of the kinds list (u32),
 *   the kinds list (JSON array of the chunk kinds the file uses), zero-padded;
 * - six u32 columns of n values: file id (index into the manifest's files), first and last
 *   code point, first and last line, and the end of each symbol in the symbol bytes (so a
 *   symbol is decoded when its chunk is read, not every symbol when the index opens);
 * - n u8 kind ids (index into the kinds list), zero-padded;
 * - the symbol text: every symbol, UTF-8, one after another.
 */
export const CHUNKS_FILE = 'chunks.bin';

const MAGIC = 0x43474152; // 'RAGC' read as a little-endian u32
const TABLE_VERSION = 2;
const HEADER_BYTES = 16;
const U32_COLUMNS = 6;
const MAX_U32 = 0xffff_ffff;

/** The decoded columns of {@link CHUNKS_FILE}. */
export interface ChunkTable {
  readonly count: number;
  readonly file: Uint32Array;
  readonly start: Uint32Array;
  readonly end: Uint32Array;
  readonly startLine: Uint32Array;
  readonly endLine: Uint32Array;
  /** Kind of chunk i: `kinds[kindIds[i]]`. */
  readonly kindIds: Uint8Array;
  readonly kinds: readonly ChunkKind[];
  /** The symbol of chunk i. */
  symbol(i: number): string;
  /** Every symbol's UTF-8 bytes, one after another (not decoded). */
  readonly symbolBytes: Uint8Array;
  /** Where chunk i's symbol ends in {@link symbolBytes} (it starts where chunk i - 1's ends). */
  readonly symbolEnds: Uint32Array;
}

/**
 * Where {@link encodeChunkTable} may take a chunk's symbol from: chunk i copies chunk
 * `sourceOf(i)` of `table` (-1 for none), whose symbol bytes are then copied as they are
 * instead of the symbol being decoded and encoded again (an update copies most chunks).
 */
export interface ChunkTableSource {
  table: ChunkTable;
  sourceOf: (i: number) => number;
}

const KNOWN_KINDS: ReadonlySet<string> = new Set<ChunkKind>(['module', 'function', 'class', 'method', 'block', 'section', 'code', 'text']);
const littleEndian = endianness() === 'LE';

function padded(n: number): number {
  return (n + 3) & ~3;
}

function u32(value: number, what: string, chunk: Chunk): number {
  if (!Number.isInteger(value) || value < 0 || value > MAX_U32) {
    throw new RagError('INVALID_ARGUMENT', `Chunk ${chunk.id} (${chunk.file_path}) has ${what} ${value}, not a whole number from 0 to ${MAX_U32}.`);
  }
  return value;
}

/**
 * The bytes of {@link CHUNKS_FILE} for `chunks`, whose files are `files` (ids are their
 * positions); `from`: the table the chunks an update copies come from, whose symbols are
 * copied as bytes (a copied chunk has its source's symbol).
 */
export function encodeChunkTable(chunks: readonly Chunk[], files: readonly FileRecord[], from?: ChunkTableSource): Buffer {
  const count = chunks.length;
  const fileIds = new Map(files.map((f, i) => [f.file_path, i]));
  const kinds: ChunkKind[] = [];
  const kindIdOf = new Map<ChunkKind, number>();
  const columns = Array.from({ length: U32_COLUMNS }, () => new Uint32Array(count));
  const kindIds = new Uint8Array(count);
  let symbolEnd = 0;
  for (let i = 0; i < count; i++) {
    const chunk = chunks[i]!;
    const fileId = fileIds.get(chunk.file_path);
    if (fileId === undefined) throw new RagError('INVALID_ARGUMENT', `Chunk ${chunk.id} names unknown file ${chunk.file_path}.`);
    let kindId = kindIdOf.get(chunk.kind);
    if (kindId === undefined) {
      kindId = kinds.push(chunk.kind) - 1;
      kindIdOf.set(chunk.kind, kindId);
    }
    // Sizes now, bytes later straight into the table: no buffer per symbol.
    const source = from ? from.sourceOf(i) : -1;
    symbolEnd += source >= 0 ? symbolLength(from!.table, source) : Buffer.byteLength(chunk.symbol, 'utf8');
    columns[0]![i] = fileId;
    columns[1]![i] = u32(chunk.first_character_index, 'first_character_index', chunk);
    columns[2]![i] = u32(chunk.last_character_index, 'last_character_index', chunk);
    columns[3]![i] = u32(chunk.start_line, 'start_line', chunk);
    columns[4]![i] = u32(chunk.end_line, 'end_line', chunk);
    columns[5]![i] = u32(symbolEnd, 'symbols longer in all than', chunk);
    kindIds[i] = kindId;
  }
  const kindsJson = Buffer.from(JSON.stringify(kinds), 'utf8');
  const columnsAt = HEADER_BYTES + padded(kindsJson.length);
  const kindsAt = columnsAt + U32_COLUMNS * count * 4;
  const symbolsAt = kindsAt + padded(count);
  const out = Buffer.alloc(symbolsAt + symbolEnd);
  out.writeUInt32LE(MAGIC, 0);
  out.writeUInt32LE(TABLE_VERSION, 4);
  out.writeUInt32LE(count, 8);
  out.writeUInt32LE(kindsJson.length, 12);
  kindsJson.copy(out, HEADER_BYTES);
  for (let c = 0; c < U32_COLUMNS; c++) writeColumn(out, columnsAt + c * count * 4, columns[c]!);
  out.set(kindIds, kindsAt);
  let at = symbolsAt;
  for (let i = 0; i < count; ) {
    const source = from ? from.sourceOf(i) : -1;
    if (source < 0) {
      at += out.write(chunks[i++]!.symbol, at, 'utf8');
      continue;
    }
    // A run of chunks that copy consecutive old chunks (most of an update's): one copy.
    let last = source;
    while (++i < count && from!.sourceOf(i) === last + 1) last++;
    const { symbolBytes, symbolEnds } = from!.table;
    const first = source === 0 ? 0 : symbolEnds[source - 1]!;
    out.set(symbolBytes.subarray(first, symbolEnds[last]!), at);
    at += symbolEnds[last]! - first;
  }
  return out;
}

/** The byte length of chunk i's symbol in `table`. */
function symbolLength(table: ChunkTable, i: number): number {
  return table.symbolEnds[i]! - (i === 0 ? 0 : table.symbolEnds[i - 1]!);
}

/** Writes `column` little-endian at `at` of `out`: one copy when the machine's order is that and `at` is aligned. */
function writeColumn(out: Buffer, at: number, column: Uint32Array): void {
  if (littleEndian && (out.byteOffset + at) % 4 === 0) {
    new Uint32Array(out.buffer, out.byteOffset + at, column.length).set(column);
    return;
  }
  for (let i = 0; i < column.length; i++) out.writeUInt32LE(column[i]!, at + i * 4);
}

/** A u32 column: a view of the bytes when they can be read in place, else a copy. */
function readColumn(bytes: Uint8Array, at: number, count: number): Uint32Array {
  if (littleEndian && (bytes.byteOffset + at) % 4 === 0) return new Uint32Array(bytes.buffer, bytes.byteOffset + at, count);
  const view = new DataView(bytes.buffer, bytes.byteOffset + at, count * 4);
  const column = new Uint32Array(count);
  for (let i = 0; i < count; i++) column[i] = view.getUint32(i * 4, true);
  return column;
}

/**
 * The columns of a {@link CHUNKS_FILE}'s bytes (already checked against its checksum), for
 * `count` chunks over `fileCount` files. `damaged(what)` makes the error for a file that does
 * not hold what its header says.
 */
export function decodeChunkTable(bytes: Uint8Array, count: number, fileCount: number, damaged: (what: string) => Error): ChunkTable {
  if (bytes.length < HEADER_BYTES) throw damaged(`is ${bytes.length} bytes long, shorter than its header`);
  const header = new DataView(bytes.buffer, bytes.byteOffset, HEADER_BYTES);
  if (header.getUint32(0, true) !== MAGIC) throw damaged('does not start with its signature');
  if (header.getUint32(4, true) !== TABLE_VERSION) throw damaged(`has table version ${header.getUint32(4, true)}, not ${TABLE_VERSION}`);
  if (header.getUint32(8, true) !== count) throw damaged(`holds ${header.getUint32(8, true)} chunks, not the ${count} of the manifest`);
  const kindsBytes = header.getUint32(12, true);
  const columnsAt = HEADER_BYTES + padded(kindsBytes);
  const kindsAt = columnsAt + U32_COLUMNS * count * 4;
  const symbolsAt = kindsAt + padded(count);
  if (bytes.length < symbolsAt) throw damaged(`is ${bytes.length} bytes long, shorter than the ${symbolsAt} its columns take`);
  let kinds: ChunkKind[];
  try {
    kinds = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(HEADER_BYTES, HEADER_BYTES + kindsBytes))) as ChunkKind[];
  } catch {
    throw damaged('has an unreadable list of chunk kinds');
  }
  if (!Array.isArray(kinds) || kinds.some((k) => !KNOWN_KINDS.has(k))) throw damaged('names an unknown chunk kind');
  const columns = Array.from({ length: U32_COLUMNS }, (_, c) => readColumn(bytes, columnsAt + c * count * 4, count));
  const [file, start, end, startLine, endLine, symbolEnds] = columns as [Uint32Array, Uint32Array, Uint32Array, Uint32Array, Uint32Array, Uint32Array];
  const kindIds = bytes.slice(kindsAt, kindsAt + count);
  const symbolBytes = bytes.subarray(symbolsAt);
  let previous = 0;
  for (let i = 0; i < count; i++) {
    if (file[i]! >= fileCount) throw damaged(`names file ${file[i]} for chunk ${i}, past the manifest's ${fileCount} files`);
    if (start[i]! > end[i]! || startLine[i]! > endLine[i]!) throw damaged(`gives chunk ${i} an end before its start`);
    if (kindIds[i]! >= kinds.length) throw damaged(`gives chunk ${i} an unknown kind`);
    if (symbolEnds[i]! < previous) throw damaged(`has symbols out of order at chunk ${i}`);
    previous = symbolEnds[i]!;
  }
  if (previous !== symbolBytes.length) throw damaged('holds symbol bytes of another length than its symbols');
  return {
    count,
    file,
    start,
    end,
    startLine,
    endLine,
    kindIds,
    kinds,
    symbol: symbolReader(symbolBytes, symbolEnds),
    symbolBytes,
    symbolEnds,
  };
}

/**
 * Symbols read one at a time before this many are asked for: a search reads those of its
 * hits, an update or a session those of most chunks, and then decoding the whole symbol area
 * once and slicing it costs a tenth of decoding each.
 */
export const SYMBOLS_READ_ONE_BY_ONE = 64;

/**
 * Symbol i of a table (`symbolEnds[i]` is where its UTF-8 bytes end in `bytes`): decoded one
 * by one at first; from the {@link SYMBOLS_READ_ONE_BY_ONE}th read on, sliced from the whole
 * area decoded once, at the UTF-16 offsets of the symbols' ends (the byte offsets themselves
 * where the area is ASCII). The writer encodes every symbol as UTF-8 and the file matched
 * its checksum, so there is nothing to check.
 */
function symbolReader(bytes: Uint8Array, symbolEnds: Uint32Array): (i: number) => string {
  const decoder = new TextDecoder();
  let reads = 0;
  let whole: string | undefined;
  let ends: Uint32Array = symbolEnds;
  return (i) => {
    if (whole === undefined && ++reads < SYMBOLS_READ_ONE_BY_ONE) return decoder.decode(bytes.subarray(i === 0 ? 0 : symbolEnds[i - 1]!, symbolEnds[i]!));
    if (whole === undefined) {
      whole = decoder.decode(bytes);
      // As many UTF-16 units as bytes: every byte is ASCII, and a byte offset is a unit offset.
      if (whole.length !== bytes.length) ends = utf16Ends(bytes, symbolEnds);
    }
    return whole.slice(i === 0 ? 0 : ends[i - 1]!, ends[i]!);
  };
}

/**
 * The UTF-16 offsets, in the decoded text of valid UTF-8 `bytes`, of the byte offsets
 * `byteEnds` (ascending, each at a character boundary): a character of four bytes is two
 * units, any other one; a continuation byte (10xxxxxx) starts none.
 */
function utf16Ends(bytes: Uint8Array, byteEnds: Uint32Array): Uint32Array {
  const ends = new Uint32Array(byteEnds.length);
  let units = 0;
  let at = 0;
  for (let i = 0; i < byteEnds.length; i++) {
    for (const end = byteEnds[i]!; at < end; at++) {
      const byte = bytes[at]!;
      if ((byte & 0xc0) !== 0x80) units += byte >= 0xf0 ? 2 : 1;
    }
    ends[i] = units;
  }
  return ends;
}

/** What a chunk array made from a table reads from, so file-level facts need no chunk objects. */
const storedSources = new WeakMap<readonly Chunk[], { files: readonly FileRecord[]; table: ChunkTable }>();

/** Makes chunk `i` of `table` as a plain object whose `text` is read through `texts` on access. */
function chunkMaker(files: readonly FileRecord[], table: ChunkTable, texts: TextStore): (i: number) => Chunk {
  const { file, start, end, startLine, endLine, kindIds, kinds } = table;
  // One getter for the whole index (the chunk's id says which text), not a closure per chunk.
  const text: PropertyDescriptor = {
    enumerable: true,
    get(this: Chunk): string {
      return texts.text(this.id);
    },
  };
  return (i) => {
    const record = files[file[i]!]!;
    const chunk = {
      id: i,
      file_path: record.file_path,
      first_character_index: start[i]!,
      last_character_index: end[i]!,
      start_line: startLine[i]!,
      end_line: endLine[i]!,
      kind: kinds[kindIds[i]!]!,
      symbol: table.symbol(i),
      language: record.language,
    } as Chunk;
    Object.defineProperty(chunk, 'text', text);
    return chunk;
  };
}

/**
 * Every chunk of `table`, made now, in a plain array: what a session that answers many
 * questions holds (indexing a plain array is what the searches do most).
 */
export function chunkArrayOf(files: readonly FileRecord[], table: ChunkTable, texts: TextStore): Chunk[] {
  const make = chunkMaker(files, table, texts);
  const chunks: Chunk[] = new Array(table.count);
  for (let i = 0; i < table.count; i++) chunks[i] = make(i);
  storedSources.set(chunks, { files, table });
  return chunks;
}

/**
 * The chunks of an opened index as an array whose elements are made when first read: plain
 * chunk objects, each made once and kept. A single question reads the metadata of its
 * candidates and hits only, so it no longer builds (and garbage-collects its way through)
 * one object per chunk first. It is an `Array` to `Array.isArray`, indexing, `length`,
 * iteration and the array methods; listing its keys (`Object.keys`) or copying it whole
 * makes every element. Each index goes through a proxy trap, so a session that searches
 * many times holds {@link chunkArrayOf}'s plain array instead.
 */
export function storedChunkList(files: readonly FileRecord[], table: ChunkTable, texts: TextStore): Chunk[] {
  const count = table.count;
  const make = chunkMaker(files, table, texts);
  const made: Chunk[] = [];
  made.length = count;
  const at = (i: number): Chunk => (made[i] ??= make(i));
  const indexOf = (key: string | symbol): number => {
    if (typeof key !== 'string') return -1;
    const first = key.charCodeAt(0);
    if (first < 48 || first > 57) return -1;
    const i = Number(key);
    return Number.isInteger(i) && i < count && String(i) === key ? i : -1;
  };
  const list = new Proxy(made, {
    get(target, key, receiver) {
      const i = indexOf(key);
      return i >= 0 ? at(i) : Reflect.get(target, key, receiver);
    },
    has(target, key) {
      return indexOf(key) >= 0 || Reflect.has(target, key);
    },
    getOwnPropertyDescriptor(target, key) {
      const i = indexOf(key);
      if (i >= 0) at(i);
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
    ownKeys(target) {
      for (let i = 0; i < count; i++) at(i);
      return Reflect.ownKeys(target);
    },
  });
  storedSources.set(list, { files, table });
  return list;
}

/**
 * The table and file records an array from {@link chunkArrayOf} or {@link storedChunkList}
 * was made from (undefined for any other array): what reads a fact of every chunk (an
 * update copying the old chunks) reads instead of making each chunk object.
 */
export function chunkTableOf(chunks: readonly Chunk[]): { files: readonly FileRecord[]; table: ChunkTable } | undefined {
  return storedSources.get(chunks);
}

/** Consecutive chunks of one file: run r is chunks `starts[r]` .. `starts[r + 1]` − 1 of `files[r]`. */
export interface FileRuns {
  /** Length runs + 1; the last entry is the chunk count. */
  starts: Uint32Array;
  files: readonly Pick<FileRecord, 'file_path' | 'language'>[];
}

/**
 * The runs of chunks that share a file, in chunk order: what per-file facts (a path's
 * project, whether it is a test) are computed over. An array from {@link chunkArrayOf} or
 * {@link storedChunkList} answers from its file column without reading a chunk (and once:
 * later calls get the same runs, to be read, not changed); any other array is read chunk by
 * chunk.
 */
export function fileRunsOf(chunks: readonly Chunk[]): FileRuns {
  // Chunks read from an index never change, and a session asks for their runs more than once.
  const known = storedRuns.get(chunks);
  if (known) return known;
  const runs = computeFileRuns(chunks);
  if (storedSources.has(chunks)) storedRuns.set(chunks, runs);
  return runs;
}

/** The runs of stored chunk lists, made once each (see {@link fileRunsOf}). */
const storedRuns = new WeakMap<readonly Chunk[], FileRuns>();

function computeFileRuns(chunks: readonly Chunk[]): FileRuns {
  const stored = storedSources.get(chunks);
  const starts: number[] = [];
  const files: Pick<FileRecord, 'file_path' | 'language'>[] = [];
  if (stored) {
    const column = stored.table.file;
    for (let d = 0; d < column.length; d++) {
      if (d > 0 && column[d] === column[d - 1]) continue;
      starts.push(d);
      files.push(stored.files[column[d]!]!);
    }
  } else {
    let path: string | undefined;
    for (let d = 0; d < chunks.length; d++) {
      const chunk = chunks[d]!;
      if (chunk.file_path === path) continue;
      path = chunk.file_path;
      starts.push(d);
      files.push({ file_path: chunk.file_path, language: chunk.language });
    }
  }
  starts.push(chunks.length);
  return { starts: Uint32Array.from(starts), files };
}
