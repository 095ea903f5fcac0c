import { crc32 } from 'node:zlib';
import { cutRanges, indexDamagedError, pagesCovering, RagError, type ByteRange, type FileRanges } from '@rag/core';
import type pg from 'pg';

/** Bytes of pages sent per INSERT. */
const WRITE_BATCH_BYTES = 4 << 20;

type Query = <R extends pg.QueryResultRow>(text: string, values?: unknown[]) => Promise<pg.QueryResult<R>>;

/** Where a file's pages are: its table, generation, path inside the generation, size and page size. */
export interface StoredFile {
  table: string;
  /** The generations table: a page that is gone may be of a generation removed since it was opened. */
  generations: string;
  generation: string;
  path: string;
  size: number;
  /** Bytes per page; every page but the last is full. */
  pageBytes: number;
}

/** Writes `bytes` as pages of `pageBytes`, each with its CRC-32, a few megabytes per statement. */
export async function writePages(client: pg.PoolClient, table: string, generation: string, path: string, bytes: Uint8Array, pageBytes: number): Promise<void> {
  let parts: number[] = [];
  let pages: Buffer[] = [];
  let sums: number[] = [];
  const flush = async (): Promise<void> => {
    if (parts.length === 0) return;
    await client.query(`INSERT INTO ${table} (generation, path, part, bytes, crc32) SELECT $1, $2, * FROM unnest($3::int[], $4::bytea[], $5::bigint[])`, [generation, path, parts, pages, sums]);
    parts = [];
    pages = [];
    sums = [];
  };
  // An empty file is one empty page, so that every file has a row.
  for (let part = 0, at = 0; part === 0 || at < bytes.byteLength; part++, at += pageBytes) {
    const page = Buffer.from(bytes.buffer, bytes.byteOffset + at, Math.min(pageBytes, bytes.byteLength - at));
    parts.push(part);
    pages.push(page);
    sums.push(crc32(page));
    if (parts.length * pageBytes >= WRITE_BATCH_BYTES) await flush();
  }
  await flush();
}

/** The bytes page `part` of `file` must have. */
function pageLength(file: StoredFile, part: number): number {
  return Math.max(0, Math.min(file.pageBytes, file.size - part * file.pageBytes));
}

/**
 * Fetches pages `parts` of `file` in one query and checks each against its CRC-32 and the
 * length it must have: a missing or altered page is INDEX_CORRUPT naming the file.
 */
export async function readPages(query: Query, location: string, file: StoredFile, parts: readonly number[]): Promise<Map<number, Uint8Array>> {
  const rows = (await query<{ part: number; bytes: Buffer; crc32: string | null }>(`SELECT part, bytes, crc32 FROM ${file.table} WHERE generation = $1 AND path = $2 AND part = ANY($3::int[])`, [file.generation, file.path, parts])).rows;
  const pages = new Map<number, Uint8Array>();
  for (const row of rows) {
    if (row.bytes.byteLength !== pageLength(file, row.part)) throw indexDamagedError(location, `${file.path} (page ${row.part})`, `has ${row.bytes.byteLength} bytes where ${pageLength(file, row.part)} were written`);
    if (row.crc32 === null || crc32(row.bytes) !== Number(row.crc32)) throw indexDamagedError(location, `${file.path} (page ${row.part})`, 'does not match its checksum');
    pages.set(row.part, row.bytes);
  }
  const lost = parts.find((part) => !pages.has(part));
  if (lost !== undefined) {
    const exists = await query(`SELECT 1 FROM ${file.generations} WHERE generation = $1`, [file.generation]).then(
      (r) => r.rowCount === 1,
      () => true,
    );
    if (exists) throw indexDamagedError(location, file.path, `lacks page ${lost}`);
    throw new RagError('INDEX_NOT_FOUND', `Generation ${file.generation} of the index in ${location} has been removed (newer ones were published since it was opened).`, {
      hint: 'Open the index again (restart the server) to read the published generation.',
    });
  }
  return pages;
}

/**
 * Byte ranges of a stored file, served from its pages: each `read` fetches the pages its
 * ranges cover (each once) in one query and checks them (see `readPages`).
 */
export function fileRangesOf(query: Query, location: string, file: StoredFile): FileRanges {
  return {
    size: file.size,
    async read(ranges: readonly ByteRange[]): Promise<Uint8Array[]> {
      const wanted = pagesCovering(ranges, file.size, file.pageBytes, file.path);
      const pages = wanted.length > 0 ? await readPages(query, location, file, wanted) : new Map<number, Uint8Array>();
      return cutRanges(ranges, pages, file.pageBytes);
    },
  };
}
