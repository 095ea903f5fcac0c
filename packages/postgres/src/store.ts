import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix, sep } from 'node:path';
import { crc32 } from 'node:zlib';
import {
  assembleChunks,
  CHUNKS_FILE,
  decodeChunkTable,
  encodeChunkTable,
  indexDamagedError,
  INDEX_FORMAT,
  INDEX_FORMAT_VERSION,
  KEPT_GENERATIONS,
  listFiles,
  newGenerationName,
  RagError,
  retrieverDir,
  sha256Of,
  verifyChecksums,
  type GenerationPin,
  type IndexChecksums,
  type IndexManifest,
  type ReadIndexOptions,
  type FileRanges,
  type IndexStore,
  type LoadedIndex,
  type OpenedIndex,
  type VectorSearch,
  type VectorSet,
  type WriteIndexInput,
  type WriteIndexOptions,
  type TextStore,
  type Chunk,
} from '@rag/core';
import pg from 'pg';
import { isMissingTable, toStoreError } from './errors.js';
import { resolvePostgresStoreOptions, settingsInUrl, splitConnectionString, type PostgresStoreOptions } from './options.js';
import { checkSchemaVersion, migrate, tables } from './schema.js';
import { fileRangesOf, writePages } from './pages.js';
import { openDatabaseTexts } from './texts.js';
import { createVectorSearch, dropVectorIndexes, prepareVectorTable, readVectorSets, writeVectorSet } from './vectors.js';

/** Where a generation's files seem to live: `join(dir, path)` names a row, never a file on disk. */
const VIRTUAL_ROOT = '/postgresql-store';
/** Bytes of chunk text sent per INSERT. */
const TEXT_BATCH_BYTES = 4 << 20;
/** Rows of text read per query when verifying. */
const VERIFY_BATCH = 5000;

/** The store behind `createPostgresStore`, with what only a database has. */
export interface PostgresStore extends IndexStore {
  readonly kind: 'postgresql';
  readonly schema: string;
  /** The pool's client, for tests and operators (e.g. `SELECT pg_is_in_recovery()`). */
  readonly pool: pg.Pool;
  /** See `IndexStore.fileRanges`: files of at least `pagedFromBytes` in a generation written with pages. */
  fileRanges(path: string): FileRanges | undefined;
}

/** A stable 64-bit key for the writer lock of one schema (pg_advisory locks take a bigint). */
function lockKey(schema: string): string {
  return BigInt.asIntN(64, BigInt(`0x${sha256Of(`rag-index-writer:${schema}`).slice(0, 16)}`)).toString();
}

/**
 * An index kept in PostgreSQL at `url` (`postgresql://user:password@host:port/db?schema=name`).
 * Every generation is written and published in one transaction under a writer lock, so
 * readers on any server (or read replica) see the old corpus or the new one, whole. Readers
 * load the chunk metadata and each retriever's state once, and fetch chunk texts as searches
 * need them. A reader never writes, so it works on a hot standby.
 */
export function createPostgresStore(url: string, settings: Partial<PostgresStoreOptions> = {}): PostgresStore {
  const split = splitConnectionString(url);
  const options = resolvePostgresStoreOptions({ ...settingsInUrl(url), ...settings });
  const { schema } = options;
  const location = split.location;
  const t = tables(schema);
  const pool = new pg.Pool({
    connectionString: split.connectionString,
    max: options.maxConnections,
    connectionTimeoutMillis: options.connectTimeoutMs,
    // A one-shot command ends when its work does, not when idle connections time out.
    allowExitOnIdle: true,
  });
  // An idle connection the server drops (restart, failover) is an error on the pool, not a crash.
  pool.on('error', () => {});
  const query = async <R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>> => {
    try {
      return await pool.query<R>(text, values);
    } catch (error) {
      throw toStoreError(error, location);
    }
  };

  const readFileRows = async (generation: string, path: string): Promise<Uint8Array> => {
    const rows = (await query<{ bytes: Buffer; crc32: string | null }>(`SELECT bytes, crc32 FROM ${t.files} WHERE generation = $1 AND path = $2 ORDER BY part`, [generation, path])).rows;
    if (rows.length === 0) throw Object.assign(new Error(`No file ${path} in generation ${generation}`), { code: 'ENOENT' });
    // Pages written with a CRC-32 are checked one by one too (the whole file's sha256 is checked by the caller).
    rows.forEach((row, part) => {
      if (row.crc32 !== null && crc32(row.bytes) !== Number(row.crc32)) throw indexDamagedError(location, `${path} (page ${part})`, 'does not match its checksum');
    });
    return rows.length === 1 ? rows[0]!.bytes : Buffer.concat(rows.map((r) => r.bytes));
  };

  // Per generation opened: its page size (undefined: written before pages had checksums) and file sizes.
  const layouts = new Map<string, { pageBytes: number | undefined; checksums: IndexChecksums }>();

  const open = async (pin?: GenerationPin): Promise<OpenedIndex> => {
    let row: { generation: string; manifest: string; manifest_sha256: string; page_bytes: number | null } | undefined;
    try {
      await checkSchemaVersion(pool, schema, location);
      row = pin
        ? (await pool.query(`SELECT generation, manifest, manifest_sha256, page_bytes FROM ${t.generations} WHERE generation = $1`, [pin.generation])).rows[0]
        : (await pool.query(`SELECT g.generation, g.manifest, g.manifest_sha256, g.page_bytes FROM ${t.current} c JOIN ${t.generations} g ON g.generation = c.generation`)).rows[0];
    } catch (error) {
      if (isMissingTable(error)) throw new RagError('INDEX_NOT_FOUND', `No index found in ${location} (schema "${schema}").`, { hint: 'Build one with `rag index --corpus_dir <dir> --store <URL>`.' });
      throw toStoreError(error, location);
    }
    if (!row) {
      if (pin) {
        throw new RagError('INDEX_NOT_FOUND', `Generation ${pin.generation} of the index in ${location} has been removed (newer ones were published since it was opened).`, {
          hint: 'Open the index again to read the published generation.',
        });
      }
      throw new RagError('INDEX_NOT_FOUND', `No index found in ${location} (schema "${schema}").`, { hint: 'Build one with `rag index --corpus_dir <dir> --store <URL>`.' });
    }
    if (sha256Of(row.manifest) !== row.manifest_sha256 || (pin && pin.manifestSha256 !== row.manifest_sha256)) {
      throw indexDamagedError(location, `the manifest of generation ${row.generation}`, 'does not match its checksum');
    }
    const manifest = JSON.parse(row.manifest) as IndexManifest;
    if (manifest.format !== INDEX_FORMAT || manifest.formatVersion !== INDEX_FORMAT_VERSION) {
      throw new RagError('INDEX_INCOMPATIBLE', `The index in ${location} has format version ${String(manifest.formatVersion)}; this version reads version ${INDEX_FORMAT_VERSION}.`, {
        hint: 'Rebuild it with `rag index --corpus_dir <dir> --store <URL>`.',
      });
    }
    layouts.set(row.generation, { pageBytes: row.page_bytes ?? undefined, checksums: manifest.checksums });
    return { indexDir: location, dir: posix.join(VIRTUAL_ROOT, row.generation), manifest, pin: { generation: row.generation, manifestSha256: row.manifest_sha256 } };
  };

  /** A path under a generation's virtual folder as (generation, path inside it); undefined outside. */
  const locate = (path: string): { generation: string; inside: string } | undefined => {
    const inside = posix.relative(VIRTUAL_ROOT, path.split(sep).join('/'));
    const slash = inside.indexOf('/');
    if (inside.startsWith('..') || slash < 0) return undefined;
    return { generation: inside.slice(0, slash), inside: inside.slice(slash + 1) };
  };

  const readStoredFile = async (path: string): Promise<Uint8Array> => {
    const at = locate(path);
    if (!at) throw Object.assign(new Error(`${path} is not a file of ${location}`), { code: 'ENOENT' });
    return readFileRows(at.generation, at.inside);
  };

  const fileRanges = (path: string): FileRanges | undefined => {
    const at = locate(path);
    const layout = at && layouts.get(at.generation);
    const size = at && layout?.checksums[at.inside]?.size;
    if (!at || layout?.pageBytes === undefined || size === undefined || size < options.pagedFromBytes) return undefined;
    return fileRangesOf(query, location, { table: t.files, generations: t.generations, generation: at.generation, path: at.inside, size, pageBytes: layout.pageBytes });
  };

  // The vector sets of each generation read so far (path inside it → dimension).
  const vectorSets = new Map<string, Map<string, number>>();
  const vectorSearch = (dir: string): VectorSearch | undefined => {
    const at = locate(dir);
    const dimension = at && vectorSets.get(at.generation)?.get(at.inside);
    if (!at || dimension === undefined) return undefined;
    return createVectorSearch(pool, options, location, { generation: at.generation, path: at.inside, dimension }, (error) => toStoreError(error, location));
  };

  // The generation each text store this store opened reads: an update whose previous texts
  // come from one copies their rows inside the database (see `copyTexts`).
  const textGenerations = new WeakMap<TextStore, string>();

  const read = async (pin?: GenerationPin, readOptions: ReadIndexOptions = {}): Promise<LoadedIndex> => {
    const opened = await open(pin);
    const sum = opened.manifest.checksums[CHUNKS_FILE];
    if (!sum) throw indexDamagedError(location, 'the manifest', `records no checksum for ${CHUNKS_FILE}`);
    let bytes: Uint8Array | undefined;
    await verifyChecksums(location, opened.dir, { [CHUNKS_FILE]: sum }, '', async (path) => (bytes = await readStoredFile(path)));
    const { counts, files } = opened.manifest;
    const table = decodeChunkTable(bytes!, counts.chunks, files.length, (what) => indexDamagedError(location, CHUNKS_FILE, what));
    if (options.vectors !== 'files') vectorSets.set(opened.pin.generation, await readVectorSets(pool, schema, opened.pin.generation).catch((error: unknown) => Promise.reject(toStoreError(error, location))));
    const texts = openDatabaseTexts({ pool, schema, location, generation: opened.pin.generation, count: opened.manifest.counts.chunks, cacheSize: options.textCacheSize });
    textGenerations.set(texts, opened.pin.generation);
    return { ...opened, ...assembleChunks(location, opened.manifest, table, texts, readOptions) };
  };

  /**
   * `SaveContext.linkFile` for a write that starts from `previous`: a file the previous
   * generation records, written in pages of this store's size, is taken over by reference
   * (`linked`, by its path in the new generation) and copied row by row inside the database
   * when the generation is written, its checksums carried over; nothing crosses the
   * connection. (Its pages keep their CRC-32s, checked as they are read, as copied texts' are.)
   */
  const linkFromGeneration = (
    previous: WriteIndexInput['previousGeneration'],
    scratch: string,
    linked: Map<string, { generation: string; path: string }>,
  ): ((source: string, target: string) => Promise<boolean>) | undefined => {
    if (!previous) return undefined;
    return async (source, target) => {
      const from = locate(source);
      const layout = from && layouts.get(from.generation);
      const placed = posix.relative(scratch.split(sep).join('/'), target.split(sep).join('/'));
      if (!from || !layout || layout.pageBytes !== options.pageBytes || !previous.checksums[from.inside] || placed.startsWith('..')) return false;
      linked.set(placed, { generation: from.generation, path: from.inside });
      return true;
    };
  };

  const write = async (input: WriteIndexInput, writeOptions: WriteIndexOptions = {}): Promise<IndexManifest> => {
    const step = async (name: Parameters<NonNullable<WriteIndexOptions['onStep']>>[0]): Promise<void> => {
      await writeOptions.onStep?.(name);
    };
    // Retrievers save into folders; their files are what the database stores.
    const scratch = await mkdtemp(join(tmpdir(), 'rag-pg-'));
    let client: pg.PoolClient | undefined;
    try {
      const generation = newGenerationName();
      // Vectors offered by the retrievers, by their folder inside the generation.
      const offered = new Map<string, VectorSet>();
      const takeVectors = options.vectors === 'files' ? {} : { vectors: (dir: string, set: VectorSet) => offered.set(posix.relative(scratch.split(sep).join('/'), dir.split(sep).join('/')), set) };
      // A retriever's file taken over from the generation before is copied page by page inside
      // the database (see `linkFile`): by its path in the new generation, where it comes from.
      const linked = new Map<string, { generation: string; path: string }>();
      const linkFile = linkFromGeneration(input.previousGeneration, scratch, linked);
      for (const retriever of input.retrievers) {
        const target = retrieverDir(scratch, retriever.entry.name);
        await mkdir(target, { recursive: true });
        await retriever.save(target, { ...takeVectors, ...(linkFile ? { linkFile } : {}) });
      }
      const files = new Map<string, Uint8Array>([[CHUNKS_FILE, encodeChunkTable(input.chunks, input.manifest.files, input.previousChunks)]]);
      for (const file of await listFiles(scratch)) files.set(file, await readFile(join(scratch, file)));
      const checksums: IndexChecksums = {};
      for (const [file, bytes] of files) checksums[file] = { size: bytes.byteLength, sha256: sha256Of(bytes) };
      for (const [file, from] of linked) checksums[file] = input.previousGeneration!.checksums[from.path]!;
      const manifest: IndexManifest = {
        format: INDEX_FORMAT,
        formatVersion: INDEX_FORMAT_VERSION,
        ...input.manifest,
        retrievers: input.retrievers.map((r) => r.entry),
        counts: { files: input.manifest.files.length, chunks: input.chunks.length },
        generation,
        checksums,
      };
      const manifestText = JSON.stringify(manifest, null, 1);

      try {
        client = await pool.connect();
      } catch (error) {
        throw toStoreError(error, location);
      }
      const c = client;
      try {
        await c.query('BEGIN');
        const locked = await c.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1::bigint) AS locked', [lockKey(schema)]);
        if (!locked.rows[0]?.locked) {
          throw new RagError('INDEX_BUSY', `Another \`rag index\` is writing the index in ${location}.`, { hint: 'Run one `rag index` at a time; retry when it has finished.' });
        }
        await step('locked');
        await migrate(c, schema, location);
        await c.query(`INSERT INTO ${t.generations} (generation, manifest, manifest_sha256, page_bytes) VALUES ($1, $2, $3, $4)`, [generation, manifestText, sha256Of(manifestText), options.pageBytes]);
        for (const [file, bytes] of files) await writePages(c, t.files, generation, file, bytes, options.pageBytes);
        for (const [file, from] of linked) {
          const copied = await c.query(`INSERT INTO ${t.files} (generation, path, part, bytes, crc32) SELECT $1, $2, part, bytes, crc32 FROM ${t.files} WHERE generation = $3 AND path = $4`, [generation, file, from.generation, from.path]);
          const size = checksums[file]!.size;
          if (copied.rowCount !== Math.max(1, Math.ceil(size / options.pageBytes))) throw indexDamagedError(location, `${from.path} of generation ${from.generation}`, `has ${copied.rowCount ?? 0} pages where ${size} bytes were written`);
        }
        let ids: number[] = [];
        let texts: Buffer[] = [];
        let sums: number[] = [];
        let pending = 0;
        const flush = async (): Promise<void> => {
          if (ids.length === 0) return;
          await c.query(`INSERT INTO ${t.texts} (generation, chunk_id, text, crc32) SELECT $1, * FROM unnest($2::int[], $3::bytea[], $4::bigint[])`, [generation, ids, texts, sums]);
          ids = [];
          texts = [];
          sums = [];
          pending = 0;
        };
        // An update's unchanged texts are copied row to row by the server (none crosses the
        // connection); only the changed files' texts are sent.
        const previous = input.previousTexts && textGenerations.get(input.previousTexts.texts);
        const copied = previous === undefined ? 0 : await copyTexts(c, t.texts, previous, generation, input.chunks, input.previousTexts!.sourceOf, location);
        for (const [i, chunk] of input.chunks.entries()) {
          if (copied > 0 && input.previousTexts!.sourceOf(i) >= 0) continue;
          const bytes = Buffer.from(chunk.text, 'utf8');
          ids.push(chunk.id);
          texts.push(bytes);
          sums.push(crc32(bytes));
          pending += bytes.length;
          if (pending >= TEXT_BATCH_BYTES) await flush();
        }
        await flush();
        if (offered.size > 0 && (await prepareVectorTable(c, options, location))) {
          for (const [path, set] of offered) await writeVectorSet(c, options, generation, path, set);
        }
        await step('staged');
        await c.query(`INSERT INTO ${t.current} (id, generation) VALUES (true, $1) ON CONFLICT (id) DO UPDATE SET generation = EXCLUDED.generation`, [generation]);
        // Generation names start with their time: keep the newest few, as the file store does.
        await dropVectorIndexes(c, schema, KEPT_GENERATIONS);
        await c.query(`DELETE FROM ${t.generations} WHERE generation NOT IN (SELECT generation FROM ${t.generations} ORDER BY generation DESC LIMIT $1)`, [KEPT_GENERATIONS]);
        await c.query('COMMIT');
        await step('published');
        return manifest;
      } catch (error) {
        await c.query('ROLLBACK').catch(() => {});
        throw toStoreError(error, location);
      }
    } finally {
      client?.release();
      await rm(scratch, { recursive: true, force: true });
    }
  };

  const verify = async (): Promise<{ generation: string; files: number; bytes: number }> => {
    const opened = await open();
    const checked = await verifyChecksums(location, opened.dir, opened.manifest.checksums, '', readStoredFile);
    let bytes = checked.bytes;
    let seen = 0;
    for (let from = 0; from < opened.manifest.counts.chunks; from += VERIFY_BATCH) {
      const rows = (await query<{ chunk_id: number; text: Buffer; crc32: string }>(`SELECT chunk_id, text, crc32 FROM ${t.texts} WHERE generation = $1 AND chunk_id >= $2 AND chunk_id < $3`, [opened.pin.generation, from, from + VERIFY_BATCH])).rows;
      for (const row of rows) {
        if (crc32(row.text) !== Number(row.crc32)) throw indexDamagedError(location, `the text of chunk ${row.chunk_id}`, 'does not match its checksum');
        bytes += row.text.byteLength;
      }
      seen += rows.length;
    }
    if (seen !== opened.manifest.counts.chunks) throw indexDamagedError(location, 'the texts table', `holds ${seen} texts where ${opened.manifest.counts.chunks} were written`);
    // Vectors kept for pgvector: every row of every set is there (their bytes were checked as the retriever's files).
    const sets = (await query<{ path: string; count: number }>(`SELECT path, count FROM ${t.vectorSets} WHERE generation = $1`, [opened.pin.generation])).rows;
    for (const set of sets) {
      const rows = (await query<{ n: number }>(`SELECT count(*)::int AS n FROM ${t.vectors} WHERE generation = $1 AND path = $2`, [opened.pin.generation, set.path])).rows[0]?.n ?? 0;
      if (rows !== set.count) throw indexDamagedError(location, `the vectors of ${set.path}`, `number ${rows} where ${set.count} were written`);
    }
    return { generation: opened.pin.generation, files: checked.files + 1, bytes };
  };

  return {
    kind: 'postgresql',
    location,
    address: url,
    schema,
    pool,
    open,
    read,
    readFile: readStoredFile,
    write,
    verify,
    vectorSearch,
    fileRanges,
    close: async () => {
      if (!pool.ended && !pool.ending) await pool.end();
    },
  };
}

/** Pairs of chunk ids copied per statement. */
const COPY_BATCH = 10_000;

/**
 * Copies the texts rows of `from` that `chunks` of `generation` take over (chunk i copies
 * `sourceOf(i)`, or is new at -1) inside the database; returns how many. A row missing from
 * `from` is `INDEX_CORRUPT` (an update then rebuilds from the corpus).
 */
async function copyTexts(client: pg.PoolClient, table: string, from: string, generation: string, chunks: readonly Chunk[], sourceOf: (i: number) => number, location: string): Promise<number> {
  let copied = 0;
  let pairs: { to: number[]; from: number[] } = { to: [], from: [] };
  const flush = async (): Promise<void> => {
    if (pairs.to.length === 0) return;
    const result = await client.query(
      `INSERT INTO ${table} (generation, chunk_id, text, crc32) SELECT $1, n.to_id, o.text, o.crc32 FROM unnest($2::int[], $3::int[]) AS n(to_id, from_id) JOIN ${table} o ON o.generation = $4 AND o.chunk_id = n.from_id`,
      [generation, pairs.to, pairs.from, from],
    );
    if (result.rowCount !== pairs.to.length) throw indexDamagedError(location, 'the texts table', `lacks ${pairs.to.length - (result.rowCount ?? 0)} texts of generation ${from}`);
    copied += pairs.to.length;
    pairs = { to: [], from: [] };
  };
  for (let i = 0; i < chunks.length; i++) {
    const j = sourceOf(i);
    if (j < 0) continue;
    pairs.to.push(chunks[i]!.id);
    pairs.from.push(j);
    if (pairs.to.length >= COPY_BATCH) await flush();
  }
  await flush();
  return copied;
}
