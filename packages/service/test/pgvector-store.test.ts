import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { chunkCorpus } from '@rag/chunking';
import { KEPT_GENERATIONS, openIndexSession, writeIndex, type Chunk, type FileRecord, type Retriever, type WriteIndexInput } from '@rag/core';
import type { EmbeddingRetriever } from '@rag/embedding';
import { createPostgresStore } from '@rag/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDefaultRetrieverRegistry } from '../src/index.js';

// pgvector is not packaged for Debian 12, so this suite runs against PGlite (PostgreSQL
// compiled to WebAssembly) with its pgvector build, served over a loopback socket: the store
// talks to it with `pg` exactly as to a PostgreSQL server.
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const CORPUS = join(REPO_ROOT, 'datasets', 'mini', 'corpus');
const DENSE = ['embedding', 'hybrid'];

describe('dense vectors searched in PostgreSQL with pgvector (PGlite over a socket)', () => {
  let db: PGlite;
  let server: PGLiteSocketServer;
  let base: string;
  let work: string;
  let fileIndex: string;
  let input: WriteIndexInput;
  let questions: string[];
  const registry = createDefaultRetrieverRegistry();
  // PGlite is one session: one connection at a time keeps transactions apart.
  const storeAt = (query: string) => createPostgresStore(`${base}?${query}`, { maxConnections: 1 });

  beforeAll(async () => {
    db = await PGlite.create({ extensions: { vector } });
    server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: 4 });
    await server.start();
    base = `postgresql://postgres@${server.getServerConn()}/postgres`;
    work = await mkdtemp(join(tmpdir(), 'rag-pgvector-'));
    fileIndex = join(work, 'index');
    const corpus: { files: FileRecord[]; chunks: Chunk[] } = await chunkCorpus(CORPUS);
    questions = (JSON.parse(await readFile(join(REPO_ROOT, 'datasets', 'mini', 'questions.json'), 'utf8')) as { rag_questions: { question: string }[] }).rag_questions.map((q) => q.question);
    const built = await Promise.all(DENSE.map((name) => registry.get(name).build(corpus.chunks)));
    input = {
      manifest: { toolVersion: 'test', createdAt: new Date().toISOString(), corpusDir: CORPUS, corpusDirAsGiven: CORPUS, chunking: {}, files: corpus.files },
      chunks: corpus.chunks,
      retrievers: DENSE.map((name, i) => ({ entry: { name, settings: {}, builtAt: new Date().toISOString() }, save: (dir, context) => built[i]!.save(dir, context) })),
    };
    await writeIndex(fileIndex, input);
    const store = storeAt('schema=dense&vectors=pgvector');
    await store.write(input);
    await store.close();
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await db?.close();
    await rm(work, { recursive: true, force: true });
  });

  /** The embedding retriever inside `retriever` (itself, or hybrid's dense component). */
  const denseOf = (retriever: Retriever): EmbeddingRetriever =>
    (retriever.name === 'embedding' ? retriever : (retriever as unknown as { components: Retriever[] }).components.find((c) => c.name === 'embedding')!) as EmbeddingRetriever;

  it('writes one vector set per dense retriever folder, each with its own HNSW index', async () => {
    const store = storeAt('schema=dense');
    try {
      const sets = (await store.pool.query<{ path: string; dimension: number; count: number; index_name: string }>('SELECT path, dimension, count, index_name FROM dense.vector_sets ORDER BY path')).rows;
      expect(sets.map((s) => s.path)).toEqual(['retrievers/embedding', 'retrievers/hybrid/embedding']);
      for (const set of sets) {
        expect(set.count).toBe(input.chunks.length);
        const rows = await store.pool.query<{ n: string }>('SELECT count(*) AS n FROM dense.vectors WHERE path = $1', [set.path]);
        expect(Number(rows.rows[0]!.n)).toBe(input.chunks.length);
        expect((await store.pool.query("SELECT indexdef FROM pg_indexes WHERE schemaname = 'dense' AND indexname = $1", [set.index_name])).rows[0]?.indexdef).toMatch(/USING hnsw .*vector_ip_ops/);
      }
    } finally {
      await store.close();
    }
  });

  it('ranks every question as the in-memory search of the file index does, reading no vectors into memory', async () => {
    const fromFile = await openIndexSession(fileIndex, { retrievers: registry });
    const store = storeAt('schema=dense');
    const fromDatabase = await openIndexSession(store, { retrievers: registry });
    try {
      for (const name of DENSE) {
        const a = await fromFile.retriever(name);
        const b = await fromDatabase.retriever(name);
        expect(denseOf(b).store?.description).toMatch(/^pgvector HNSW in postgresql:/);
        expect(denseOf(b).vectors.length).toBe(0);
        expect(denseOf(a).store).toBeNull();
        for (const query of questions) {
          const memory = await a.search(query, { k: 10 });
          const database = await b.search(query, { k: 10 });
          // Same chunks in the same order; pgvector sums in float32, so scores agree to ~1e-6.
          expect(database.map((h) => h.chunkId)).toEqual(memory.map((h) => h.chunkId));
          database.forEach((hit, i) => expect(hit.score).toBeCloseTo(memory[i]!.score, 5));
          // explain() gives the score the search gave.
          const top = database[0]!;
          expect(b.explain?.(query, top.chunkId).value).toBe(top.score);
        }
      }
    } finally {
      fromFile.close();
      fromDatabase.close();
      await store.close();
    }
  });

  it('searches within a scope as the in-memory search does: the same chunks, all of them in the scope', async () => {
    const fromFile = await openIndexSession(fileIndex, { retrievers: registry });
    const store = storeAt('schema=dense');
    const fromDatabase = await openIndexSession(store, { retrievers: registry });
    try {
      const scope = fromFile.scopeOf(['*.py']);
      expect([...scope]).toEqual([...fromDatabase.scopeOf(['*.py'])]);
      for (const name of DENSE) {
        const a = await fromFile.retriever(name);
        const b = await fromDatabase.retriever(name);
        for (const query of questions.slice(0, 5)) {
          const memory = await a.search(query, { k: 5, scope });
          const database = await b.search(query, { k: 5, scope });
          expect(memory.length).toBeGreaterThan(0);
          expect(database.map((h) => h.chunkId)).toEqual(memory.map((h) => h.chunkId));
          for (const hit of database) expect(scope[hit.chunkId]).toBe(1);
        }
      }
    } finally {
      fromFile.close();
      fromDatabase.close();
      await store.close();
    }
  });

  it('the search goes through the set’s HNSW index', async () => {
    const store = storeAt('schema=dense');
    try {
      const set = (await store.pool.query<{ generation: string; index_name: string }>("SELECT generation, index_name FROM dense.vector_sets WHERE path = 'retrievers/embedding'")).rows[0]!;
      const client = await store.pool.connect();
      try {
        // With 37 rows a sequential scan is cheaper; forbid it to see the index is usable.
        await client.query('SET enable_seqscan = off');
        const plan = await client.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN SELECT chunk_id FROM dense.vectors WHERE generation = $1 AND path = 'retrievers/embedding' ORDER BY embedding::vector(128) <#> $2::vector LIMIT 5`,
          [set.generation, `[${new Array(128).fill(0.1).join(',')}]`],
        );
        expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain(`Index Scan using ${set.index_name}`);
      } finally {
        await client.query('RESET enable_seqscan');
        client.release();
      }
    } finally {
      await store.close();
    }
  });

  it('a reader with ?vectors=files searches the files in memory, with the same ranking', async () => {
    const store = storeAt('schema=dense&vectors=files');
    const session = await openIndexSession(store, { retrievers: registry });
    const fromFile = await openIndexSession(fileIndex, { retrievers: registry });
    try {
      const inMemory = await session.retriever('embedding');
      expect(denseOf(inMemory).store).toBeNull();
      const reference = await fromFile.retriever('embedding');
      for (const query of questions) expect(await inMemory.search(query, { k: 5 })).toEqual(await reference.search(query, { k: 5 }));
    } finally {
      session.close();
      fromFile.close();
      await store.close();
    }
  });

  it('verify counts every stored vector: a missing row is INDEX_CORRUPT naming its set', async () => {
    const store = storeAt('schema=checked');
    try {
      await store.write(input);
      const report = await store.verify();
      expect(report.files).toBeGreaterThan(1);
      await store.pool.query("DELETE FROM checked.vectors WHERE path = 'retrievers/embedding' AND chunk_id = 3");
      await expect(store.verify()).rejects.toMatchObject({ code: 'INDEX_CORRUPT', message: expect.stringContaining('retrievers/embedding') });
    } finally {
      await store.close();
    }
  });

  it('drops the vectors and HNSW indexes of generations it no longer keeps', async () => {
    const store = storeAt('schema=rolling');
    try {
      for (let i = 0; i < KEPT_GENERATIONS + 2; i++) await store.write(input);
      const sets = await store.pool.query<{ generation: string; index_name: string }>('SELECT generation, index_name FROM rolling.vector_sets');
      const generations = await store.pool.query<{ generation: string }>('SELECT generation FROM rolling.generations');
      expect(generations.rows).toHaveLength(KEPT_GENERATIONS);
      expect(new Set(sets.rows.map((s) => s.generation))).toEqual(new Set(generations.rows.map((g) => g.generation)));
      const indexes = await store.pool.query<{ indexname: string }>("SELECT indexname FROM pg_indexes WHERE schemaname = 'rolling' AND indexname LIKE 'vectors_hnsw_%'");
      expect(indexes.rows.map((r) => r.indexname).sort()).toEqual(sets.rows.map((s) => s.index_name).sort());
      const vectors = await store.pool.query<{ n: string }>('SELECT count(DISTINCT generation) AS n FROM rolling.vectors');
      expect(Number(vectors.rows[0]!.n)).toBe(KEPT_GENERATIONS);
    } finally {
      await store.close();
    }
  });
});
