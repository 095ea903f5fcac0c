import { integerIn, parseOptions, v } from '@rag/core';

/** How a PostgreSQL store connects and what it keeps in memory. */
export interface PostgresStoreOptions {
  /**
   * The PostgreSQL schema (namespace) the index's tables live in, so one database can hold
   * several indexes. Lower-case letters, digits and `_`, starting with a letter or `_`, at
   * most 63 characters. Default {@link DEFAULT_POSTGRES_STORE_OPTIONS}.schema (`rag`); a
   * connection string's `?schema=` sets it too.
   */
  schema: string;
  /** Connections the pool opens at most, in [1, 100]. Default 4: a search uses one at a time. */
  maxConnections: number;
  /** Milliseconds to wait for a connection before `STORE_UNAVAILABLE`, in [100, 600000]. Default 10000. */
  connectTimeoutMs: number;
  /**
   * Chunk texts kept in memory after a search fetched them, in [256, 10000000]. A search
   * fetches its candidates' texts (about 50) in one round trip and reads them from here;
   * searches in flight at once must fit (64 × 50 by default, with room). Default 8192.
   */
  textCacheSize: number;
  /**
   * Where the vectors of dense retrievers (`embedding`, and `hybrid`'s dense part) are
   * searched. `auto`: in PostgreSQL with pgvector's HNSW index when the server has the
   * `vector` extension (created on first write if available and permitted), else in each
   * reader's memory from the retriever's files. `pgvector`: in PostgreSQL, and an index
   * write fails when the extension is missing. `files`: always in the reader's memory (a
   * reader with `files` ignores vectors written to PostgreSQL). The retriever's files are
   * written either way. Default `auto`; a connection string's `?vectors=` sets it too.
   */
  vectors: 'auto' | 'pgvector' | 'files';
  /** pgvector HNSW: links per node (`m`), in [2, 100]. Default 16 (pgvector's own). */
  hnswM: number;
  /** pgvector HNSW: candidate list while building (`ef_construction`), in [4, 1000], at least 2 × hnswM. Default 64 (pgvector's own). */
  hnswEfConstruction: number;
  /**
   * pgvector HNSW: candidate list while searching (`hnsw.ef_search`), in [1, 1000]; a search
   * for k hits uses max(k, this), and returns at most 1000. Default 100.
   */
  hnswEfSearch: number;
  /**
   * Bytes per stored page of an index file, in [1024, 16777216]: each page carries its own
   * CRC-32, so a reader can fetch and check a part of a file. Smaller pages waste less of
   * what a search fetches (a posting list or a chunk's terms is often a few hundred bytes);
   * larger ones make fewer rows. Used when writing. Default 8192.
   */
  pageBytes: number;
  /**
   * Retriever files at least this many bytes are searched from pages fetched as searches
   * need them instead of being loaded whole (when the retriever can: bm25 can), in [0, 2^53).
   * 0 pages every such file; a reader then holds the term dictionary and per-chunk norms,
   * and the corpus need not fit in its memory. Default 67108864 (64 MiB: a corpus under
   * about twice vLLM's size loads whole, which searches fastest); a connection string's
   * `?paged_from=` sets it too.
   */
  pagedFromBytes: number;
}

export const DEFAULT_POSTGRES_STORE_OPTIONS: Readonly<PostgresStoreOptions> = Object.freeze({
  schema: 'rag',
  maxConnections: 4,
  connectTimeoutMs: 10_000,
  textCacheSize: 8192,
  vectors: 'auto',
  hnswM: 16,
  hnswEfConstruction: 64,
  hnswEfSearch: 100,
  pageBytes: 8192,
  pagedFromBytes: 64 << 20,
});

const schema = v
  .strictObject({
    schema: v.string().check(v.regex(/^[a-z_][a-z0-9_]{0,62}$/, 'a lower-case PostgreSQL identifier (letters, digits, _; at most 63)')),
    maxConnections: integerIn(1, 100),
    connectTimeoutMs: integerIn(100, 600_000),
    textCacheSize: integerIn(256, 10_000_000),
    vectors: v.enum(['auto', 'pgvector', 'files']),
    hnswM: integerIn(2, 100),
    hnswEfConstruction: integerIn(4, 1000),
    hnswEfSearch: integerIn(1, 1000),
    pageBytes: integerIn(1024, 16 << 20),
    pagedFromBytes: integerIn(0, Number.MAX_SAFE_INTEGER),
  })
  .check(v.refine((o) => o.hnswEfConstruction >= 2 * o.hnswM, { message: 'hnswEfConstruction must be at least 2 × hnswM', path: ['hnswEfConstruction'] }));

export function resolvePostgresStoreOptions(settings: Partial<PostgresStoreOptions> = {}): PostgresStoreOptions {
  return parseOptions(schema, { ...DEFAULT_POSTGRES_STORE_OPTIONS, ...settings }, { subject: 'postgres store', root: 'options' });
}

/** The options a connection string sets (`?schema=`, `?vectors=`, `?paged_from=`), before the caller's own. */
export function settingsInUrl(url: string): Partial<PostgresStoreOptions> {
  const split = splitConnectionString(url);
  return {
    ...(split.schema !== undefined ? { schema: split.schema } : {}),
    ...(split.vectors !== undefined ? { vectors: split.vectors as PostgresStoreOptions['vectors'] } : {}),
    // Not a number is NaN, which the range check refuses, naming the option.
    ...(split.pagedFrom !== undefined ? { pagedFromBytes: split.pagedFrom.trim() === '' ? Number.NaN : Number(split.pagedFrom) } : {}),
  };
}

/** True for a `postgresql://` or `postgres://` connection string. */
export function isPostgresUrl(address: string): boolean {
  return /^postgres(ql)?:\/\//i.test(address);
}

/** A connection string split into what `pg` connects with, the schema it names, and a password-free form for messages. */
export function splitConnectionString(url: string): { connectionString: string; schema: string | undefined; vectors: string | undefined; pagedFrom: string | undefined; location: string } {
  const parsed = new URL(url);
  const schemaName = parsed.searchParams.get('schema') ?? undefined;
  const vectors = parsed.searchParams.get('vectors') ?? undefined;
  const pagedFrom = parsed.searchParams.get('paged_from') ?? undefined;
  parsed.searchParams.delete('schema');
  parsed.searchParams.delete('vectors');
  parsed.searchParams.delete('paged_from');
  const connectionString = parsed.toString();
  if (parsed.password) parsed.password = '***';
  return { connectionString, schema: schemaName, vectors, pagedFrom, location: parsed.toString() };
}
