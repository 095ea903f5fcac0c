import { endianness } from 'node:os';
import { RagError } from './errors.js';
import type { Chunk, ChunkKind, FileRecord } from './types.js';

/**
 * Chunk metadata on disk (`chunks.bin`): every field a column, so opening an index reads
 * the metadata of every chunk without parsing text (JSON columns of vLLM's 28,836 chunks took
 * longer to decode and parse than the rest of a one-shot search's loading together).
 *
 * Layout, little-endian, every section starting on a 4-byte boundary:
 * - `RAGC`, format version (u32), chunk count n (u32), byte length of the kinds list (u32),
 *   the kinds list (JSON array of the chunk kinds the file uses), zero-padded;
 * - six u32 columns of n values: file id (index into the manifest's files), first and last
 *   code point, first and last line, and the end of each symbol in the symbol text (UTF-16
 *   units, so a symbol is one `slice` of the text decoded once);
 * - n u8 kind ids (index into the kinds list), zero-padded;
 * - the symbol text: every symbol, UTF-8, one after another.
 */
export const CHUNKS_FILE = 'chunks.bin';

const MAGIC = 0x43474152; // 'RAGC' read as a little-endian u32
const TABLE_VERSION = 1;
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

/** The bytes of {@link CHUNKS_FILE} for `chunks`, whose files are `files` (ids are their positions). */
export function encodeChunkTable(chunks: readonly Chunk[], files: readonly FileRecord[]): Buffer {
  const count = chunks.length;
  const fileIds = new Map(files.map((f, i) => [f.file_path, i]));
  const kinds: ChunkKind[] = [];
  const kindIdOf = new Map<ChunkKind, number>();
  const symbols: string[] = new Array(count);
  const columns = Array.from({ length: U32_COLUMNS }, () => new Uint32Array(count));
  const kindIds = new Uint8Array(count);
  let symbolUnits = 0;
  for (let i = 0; i < count; i++) {
    const chunk = chunks[i]!;
    const fileId = fileIds.get(chunk.file_path);
    if (fileId === undefined) throw new RagError('INVALID_ARGUMENT', `Chunk ${chunk.id} names unknown file ${chunk.file_path}.`);
    let kindId = kindIdOf.get(chunk.kind);
    if (kindId === undefined) {
      kindId = kinds.push(chunk.kind) - 1;
      kindIdOf.set(chunk.kind, kindId);
    }
    symbolUnits += chunk.symbol.length;
    columns[0]![i] = fileId;
    columns[1]![i] = u32(chunk.first_character_index, 'first_character_index', chunk);
    columns[2]![i] = u32(chunk.last_character_index, 'last_character_index', chunk);
    columns[3]![i] = u32(chunk.start_line, 'start_line', chunk);
    columns[4]![i] = u32(chunk.end_line, 'end_line', chunk);
    columns[5]![i] = u32(symbolUnits, 'symbols longer in all than', chunk);
    kindIds[i] = kindId;
    symbols[i] = chunk.symbol;
  }
  // UTF-8 turns a lone surrogate into U+FFFD, also one UTF-16 unit: the ends stay true.
  const symbolText = symbols.join('');
  const kindsJson = Buffer.from(JSON.stringify(kinds), 'utf8');
  const symbolBytes = Buffer.from(symbolText, 'utf8');
  const columnsAt = HEADER_BYTES + padded(kindsJson.length);
  const kindsAt = columnsAt + U32_COLUMNS * count * 4;
  const symbolsAt = kindsAt + padded(count);
  const out = Buffer.alloc(symbolsAt + symbolBytes.length);
  out.writeUInt32LE(MAGIC, 0);
  out.writeUInt32LE(TABLE_VERSION, 4);
  out.writeUInt32LE(count, 8);
  out.writeUInt32LE(kindsJson.length, 12);
  kindsJson.copy(out, HEADER_BYTES);
  for (let c = 0; c < U32_COLUMNS; c++) {
    const column = columns[c]!;
    const at = columnsAt + c * count * 4;
    for (let i = 0; i < count; i++) out.writeUInt32LE(column[i]!, at + i * 4);
  }
  out.set(kindIds, kindsAt);
  symbolBytes.copy(out, symbolsAt);
  return out;
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
  let symbolText: string;
  try {
    symbolText = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(symbolsAt));
  } catch {
    throw damaged('holds symbols that are not UTF-8');
  }
  let previous = 0;
  for (let i = 0; i < count; i++) {
    if (file[i]! >= fileCount) throw damaged(`names file ${file[i]} for chunk ${i}, past the manifest's ${fileCount} files`);
    if (start[i]! > end[i]! || startLine[i]! > endLine[i]!) throw damaged(`gives chunk ${i} an end before its start`);
    if (kindIds[i]! >= kinds.length) throw damaged(`gives chunk ${i} an unknown kind`);
    if (symbolEnds[i]! < previous) throw damaged(`has symbols out of order at chunk ${i}`);
    previous = symbolEnds[i]!;
  }
  if (previous !== symbolText.length) throw damaged('holds symbol text of another length than its symbols');
  return {
    count,
    file,
    start,
    end,
    startLine,
    endLine,
    kindIds,
    kinds,
    symbol: (i) => symbolText.slice(i === 0 ? 0 : symbolEnds[i - 1]!, symbolEnds[i]!),
  };
}
