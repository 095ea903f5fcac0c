import { RagError, sha256Of, type Hit, type VectorSearch, type VectorSet } from '@rag/core';
import type pg from 'pg';
import type { PostgresStoreOptions } from './options.js';
import { tables } from './schema.js';

/** Rows of vectors sent per INSERT. */
const VECTOR_BATCH_ROWS = 1000;
/** pgvector's largest `hnsw.ef_search`, and so the most hits one HNSW search returns. */
const MAX_EF_SEARCH = 1000;

type Queryable = Pick<pg.PoolClient, 'query' | 'escapeLiteral'>;

/** pgvector's text form of one row: `[x,y,…]`. A float32 printed by JS reads back as the same float32. */
function vectorLiteral(vectors: Float32Array, row: number, dimension: number): string {
  return `[${Array.prototype.join.call(vectors.subarray(row * dimension, (row + 1) * dimension), ',')}]`;
}

/** The name of the partial HNSW index over one set (unqualified: it lives in the table's schema). */
function indexNameOf(generation: string, path: string): string {
  return `vectors_hnsw_${sha256Of(`${generation}/${path}`).slice(0, 16)}`;
}

/**
 * Makes the `vector` extension and the vectors table ready inside the writer's transaction.
 * True when vectors can be stored; false (with `auto`) when the server has no pgvector or
 * the writer may not create it; with `pgvector`, those cases are errors.
 */
export async function prepareVectorTable(client: Queryable, options: PostgresStoreOptions, location: string): Promise<boolean> {
  const found = (
    await client.query<{ installed: boolean; available: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') AS installed,
              EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS available`,
    )
  ).rows[0]!;
  const missing = (why: string): false => {
    if (options.vectors === 'pgvector') {
      throw new RagError('STORE_UNAVAILABLE', `Cannot keep vectors in ${location}: ${why}.`, {
        hint: 'Install pgvector on the server and run `CREATE EXTENSION vector` as a superuser (or the database owner), or index with `?vectors=auto` / `?vectors=files` to search vectors in memory.',
      });
    }
    return false;
  };
  if (!found.installed) {
    if (!found.available) return missing('the server has no `vector` extension (pgvector) installed');
    // A failed CREATE EXTENSION (no privilege) must not abort the index write with `auto`.
    await client.query('SAVEPOINT rag_vector_extension');
    try {
      await client.query('CREATE EXTENSION IF NOT EXISTS vector');
      await client.query('RELEASE SAVEPOINT rag_vector_extension');
    } catch (error) {
      await client.query('ROLLBACK TO SAVEPOINT rag_vector_extension');
      return missing(`creating the \`vector\` extension failed (${(error as Error).message})`);
    }
  }
  const t = tables(options.schema);
  // `vector` without a dimension: sets of any dimension share the table; each set's
  // HNSW index casts to its own dimension.
  await client.query(`
    CREATE TABLE IF NOT EXISTS ${t.vectors} (
      generation text NOT NULL REFERENCES ${t.generations} (generation) ON DELETE CASCADE,
      path text NOT NULL,
      chunk_id integer NOT NULL,
      embedding vector NOT NULL,
      PRIMARY KEY (generation, path, chunk_id)
    )`);
  return true;
}

/** Inserts one set's vectors and builds its partial HNSW index (inner product: the vectors are unit length). */
export async function writeVectorSet(client: Queryable, options: PostgresStoreOptions, generation: string, path: string, set: VectorSet): Promise<void> {
  const t = tables(options.schema);
  const { dimension, vectors } = set;
  const count = dimension === 0 ? 0 : Math.floor(vectors.length / dimension);
  for (let from = 0; from < count; from += VECTOR_BATCH_ROWS) {
    const ids: number[] = [];
    const rows: string[] = [];
    for (let row = from; row < Math.min(count, from + VECTOR_BATCH_ROWS); row++) {
      ids.push(row);
      rows.push(vectorLiteral(vectors, row, dimension));
    }
    await client.query(`INSERT INTO ${t.vectors} (generation, path, chunk_id, embedding) SELECT $1, $2, u.id, u.v::vector FROM unnest($3::int[], $4::text[]) AS u(id, v)`, [generation, path, ids, rows]);
  }
  const indexName = indexNameOf(generation, path);
  // DDL takes no parameters: the literals are escaped by the driver; the numbers are checked integers.
  await client.query(
    `CREATE INDEX ${indexName} ON ${t.vectors} USING hnsw ((embedding::vector(${dimension})) vector_ip_ops) WITH (m = ${options.hnswM}, ef_construction = ${options.hnswEfConstruction}) WHERE generation = ${client.escapeLiteral(generation)} AND path = ${client.escapeLiteral(path)}`,
  );
  await client.query(`INSERT INTO ${t.vectorSets} (generation, path, dimension, count, index_name) VALUES ($1, $2, $3, $4, $5)`, [generation, path, dimension, count, indexName]);
}

/** Drops the HNSW indexes of the generations about to be deleted (their rows go with the generation). */
export async function dropVectorIndexes(client: Queryable, schema: string, keptGenerations: number): Promise<void> {
  const t = tables(schema);
  const doomed = await client.query<{ index_name: string }>(
    `SELECT index_name FROM ${t.vectorSets} WHERE generation NOT IN (SELECT generation FROM ${t.generations} ORDER BY generation DESC LIMIT $1)`,
    [keptGenerations],
  );
  for (const row of doomed.rows) await client.query(`DROP INDEX IF EXISTS ${schema}.${row.index_name}`);
}

/** The sets a generation keeps in the database: path inside the generation → dimension. */
export async function readVectorSets(pool: pg.Pool, schema: string, generation: string): Promise<Map<string, number>> {
  const rows = await pool.query<{ path: string; dimension: number }>(`SELECT path, dimension FROM ${tables(schema).vectorSets} WHERE generation = $1`, [generation]);
  return new Map(rows.rows.map((r) => [r.path, r.dimension]));
}

/**
 * Nearest-vector search over one set with its HNSW index: `ORDER BY <#>` (negative inner
 * product) under the partial index's own predicate, `hnsw.ef_search` raised to k for the
 * one transaction. Scores are inner products, as the in-memory search gives.
 */
/** The chunk ids `scope` holds (see `SearchOptions.scope`), ascending. */
function idsInScope(scope: Uint8Array): number[] {
  const ids: number[] = [];
  for (let id = 0; id < scope.length; id++) if (scope[id] === 1) ids.push(id);
  return ids;
}

export function createVectorSearch(
  pool: pg.Pool,
  options: PostgresStoreOptions,
  location: string,
  set: { generation: string; path: string; dimension: number },
  toError: (error: unknown) => Error,
): VectorSearch {
  const t = tables(options.schema);
  const cast = `embedding::vector(${set.dimension})`;
  return {
    description: `pgvector HNSW in ${location}`,
    async search(query: Float32Array, k: number, scope?: Uint8Array): Promise<Hit[]> {
      if (query.length !== set.dimension) {
        throw new RagError('INVALID_ARGUMENT', `A ${query.length}-dimensional query cannot search ${set.dimension}-dimensional vectors.`, { hint: 'Embed the query with the model the index was built with.' });
      }
      const limit = Math.min(k, MAX_EF_SEARCH);
      if (limit <= 0) return [];
      let client: pg.PoolClient | undefined;
      try {
        client = await pool.connect();
        await client.query('BEGIN READ ONLY');
        await client.query(`SELECT set_config('hnsw.ef_search', $1, true)`, [String(Math.min(MAX_EF_SEARCH, Math.max(limit, options.hnswEfSearch)))]);
        // The predicate is written as literals so the planner matches the partial index.
        // A scope is a list of chunk ids the rows must have; the planner chooses between the
        // HNSW index and an exact scan of those rows.
        const inScope = scope === undefined ? undefined : idsInScope(scope);
        const rows = await client.query<{ chunk_id: number; distance: number }>(
          `SELECT chunk_id, ${cast} <#> $1::vector AS distance FROM ${t.vectors}
            WHERE generation = ${client.escapeLiteral(set.generation)} AND path = ${client.escapeLiteral(set.path)}${inScope ? ' AND chunk_id = ANY($3::int[])' : ''}
            ORDER BY ${cast} <#> $1::vector LIMIT $2`,
          inScope ? [`[${Array.prototype.join.call(query, ',')}]`, limit, inScope] : [`[${Array.prototype.join.call(query, ',')}]`, limit],
        );
        await client.query('COMMIT');
        // Equal scores go to the lower id, as in memory.
        return rows.rows.map((r) => ({ chunkId: r.chunk_id, score: -r.distance })).sort((a, b) => b.score - a.score || a.chunkId - b.chunkId);
      } catch (error) {
        await client?.query('ROLLBACK').catch(() => {});
        throw toError(error);
      } finally {
        client?.release();
      }
    },
  };
}
