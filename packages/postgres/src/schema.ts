import { RagError } from '@rag/core';
import type { PoolClient } from 'pg';

/**
 * The version of the tables this code reads and writes. `MIGRATIONS[v]` takes a schema from
 * version v to v + 1; a writer applies the ones a database lacks, in one transaction with
 * the write, and a reader refuses any other version (it never writes, so it works on a replica).
 */
export const SCHEMA_VERSION = 3;

/** Table names inside the store's schema. */
export function tables(schema: string) {
  return {
    version: `${schema}.schema_version`,
    generations: `${schema}.generations`,
    current: `${schema}.current_generation`,
    files: `${schema}.file_parts`,
    texts: `${schema}.texts`,
    vectorSets: `${schema}.vector_sets`,
    vectors: `${schema}.vectors`,
  };
}

const MIGRATIONS: readonly ((schema: string) => string)[] = [
  // 0 → 1. A generation is a complete index: its manifest (sha256 kept beside it, checked on
  // every open), its files (chunk metadata, each retriever's state) cut into parts so no
  // value nears PostgreSQL's 1 GB limit, and one row per chunk text with its CRC-32.
  // `current_generation` has one row: replacing it publishes a generation.
  (schema) => {
    const t = tables(schema);
    return `
      CREATE TABLE ${t.generations} (
        generation text PRIMARY KEY,
        manifest text NOT NULL,
        manifest_sha256 text NOT NULL,
        published_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE ${t.current} (
        id boolean PRIMARY KEY DEFAULT true CHECK (id),
        generation text NOT NULL REFERENCES ${t.generations} (generation)
      );
      CREATE TABLE ${t.files} (
        generation text NOT NULL REFERENCES ${t.generations} (generation) ON DELETE CASCADE,
        path text NOT NULL,
        part integer NOT NULL,
        bytes bytea NOT NULL,
        PRIMARY KEY (generation, path, part)
      );
      CREATE TABLE ${t.texts} (
        generation text NOT NULL REFERENCES ${t.generations} (generation) ON DELETE CASCADE,
        chunk_id integer NOT NULL,
        text bytea NOT NULL,
        crc32 bigint NOT NULL,
        PRIMARY KEY (generation, chunk_id)
      );`;
  },
  // 1 → 2. Vectors a retriever saved that the database searches itself (pgvector): one row
  // per set (a retriever's folder in a generation) naming its partial HNSW index, which is
  // dropped with the generation. The vectors table needs the `vector` type, so it is created
  // when vectors are first written to a server that has the extension (see vectors.ts).
  (schema) => {
    const t = tables(schema);
    return `
      CREATE TABLE ${t.vectorSets} (
        generation text NOT NULL REFERENCES ${t.generations} (generation) ON DELETE CASCADE,
        path text NOT NULL,
        dimension integer NOT NULL,
        count integer NOT NULL,
        index_name text NOT NULL,
        PRIMARY KEY (generation, path)
      );`;
  },
  // 2 → 3. Files are cut into small pages, each with its CRC-32, so a reader can fetch and
  // check only the pages a search needs (see `fileRanges`); `page_bytes` records the page
  // size a generation was written with (NULL: written before, read whole only).
  (schema) => {
    const t = tables(schema);
    return `
      ALTER TABLE ${t.files} ADD COLUMN crc32 bigint;
      ALTER TABLE ${t.generations} ADD COLUMN page_bytes integer;`;
  },
];

function otherVersion(location: string, found: number): RagError {
  return new RagError('INDEX_INCOMPATIBLE', `The index tables in ${location} have schema version ${found}; this version of rag uses version ${SCHEMA_VERSION}.`, {
    hint:
      found > SCHEMA_VERSION
        ? 'Use the rag version that wrote them, or index into another schema (`?schema=` in the connection string).'
        : 'Re-index with `rag index --store <URL>` (it migrates the tables), or index into another schema.',
  });
}

/** The schema version a database holds: 0 when the store's tables were never created. */
export async function readSchemaVersion(client: Pick<PoolClient, 'query'>, schema: string): Promise<number> {
  const exists = await client.query<{ found: boolean }>('SELECT to_regclass($1) IS NOT NULL AS found', [tables(schema).version]);
  if (!exists.rows[0]?.found) return 0;
  const row = await client.query<{ version: number }>(`SELECT version FROM ${tables(schema).version}`);
  return row.rows[0]?.version ?? 0;
}

/** Refuses a database whose tables are of another version than this code reads. */
export async function checkSchemaVersion(client: Pick<PoolClient, 'query'>, schema: string, location: string): Promise<void> {
  const found = await readSchemaVersion(client, schema);
  if (found === 0) {
    throw new RagError('INDEX_NOT_FOUND', `No index found in ${location} (schema "${schema}").`, {
      hint: 'Build one with `rag index --corpus_dir <dir> --store <URL>`.',
    });
  }
  if (found !== SCHEMA_VERSION) throw otherVersion(location, found);
}

/**
 * Brings the tables to {@link SCHEMA_VERSION} inside the caller's transaction (which holds
 * the writer lock): creates the schema on first use, applies each missing step, records the
 * version. A newer schema is refused, never downgraded.
 */
export async function migrate(client: PoolClient, schema: string, location: string): Promise<void> {
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  await client.query(`CREATE TABLE IF NOT EXISTS ${tables(schema).version} (id boolean PRIMARY KEY DEFAULT true CHECK (id), version integer NOT NULL)`);
  const found = await readSchemaVersion(client, schema);
  if (found > SCHEMA_VERSION) throw otherVersion(location, found);
  for (let version = found; version < SCHEMA_VERSION; version++) await client.query(MIGRATIONS[version]!(schema));
  await client.query(`INSERT INTO ${tables(schema).version} (id, version) VALUES (true, $1) ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version`, [SCHEMA_VERSION]);
}
