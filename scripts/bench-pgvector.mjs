// Dense vectors searched in PostgreSQL (pgvector's HNSW index) against the same vectors
// searched in memory, side by side in one run, on the vLLM corpus with the zero-download
// corpus embedder:
//   - writing the generation (files, texts, vectors and the HNSW index) into the database;
//   - every public question searched both ways (k 10): identical top-10s, and the share of
//     the exact top-10 the HNSW search returns (its recall);
//   - latency per query in-process (the query embedded, then searched), p50/p99.
// The server is PGlite (PostgreSQL compiled to WebAssembly) with its pgvector build, over a
// loopback socket: Debian 12 packages no pgvector. Its figures are a WebAssembly server's,
// single-threaded and slower than a native PostgreSQL; they show that the path works and
// what it returns, not what a production server would sustain.
//
//   pnpm bench:pgvector [--hnsw_ef_search 100] [--json] [--check]
// --check exits 1 when the HNSW search returns less than 95 % of the exact top-10s' chunks.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATASETS, findSharedDir, formatTable, gitRevision, parseBenchArgs, REPO_ROOT } from './bench-lib.mjs';

const flags = parseBenchArgs(process.argv.slice(2));
const shared = findSharedDir();
const corpusDir = join(shared, 'data', 'raw');
const efSearch = Number(flags.hnsw_ef_search ?? 100);
const importPackage = (name) => import(join(REPO_ROOT, 'packages', name, 'dist', 'index.js'));
const [core, chunking, service, postgres] = await Promise.all(['core', 'chunking', 'service', 'postgres'].map(importPackage));
const { PGlite } = await import('@electric-sql/pglite');
const { vector } = await import('@electric-sql/pglite-pgvector');
const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');

const seconds = (since) => (performance.now() - since) / 1000;
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
};

const work = mkdtempSync(join(tmpdir(), 'rag-bench-pgvector-'));
const db = await PGlite.create({ extensions: { vector } });
const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: 2 });
await server.start();
try {
  let started = performance.now();
  const { chunks, files } = await chunking.chunkCorpus(corpusDir);
  const chunkSeconds = seconds(started);
  const registry = service.createDefaultRetrieverRegistry();
  started = performance.now();
  const built = await registry.get('embedding').build(chunks);
  const buildSeconds = seconds(started);
  const input = {
    manifest: { toolVersion: 'bench', createdAt: new Date().toISOString(), corpusDir, corpusDirAsGiven: 'data/raw', chunking: {}, files },
    chunks,
    retrievers: [{ entry: { name: 'embedding', settings: {}, builtAt: '' }, save: (dir, context) => built.save(dir, context) }],
  };
  const fileDir = join(work, 'index');
  started = performance.now();
  await core.writeIndex(fileDir, input);
  const fileWriteSeconds = seconds(started);
  // PGlite is one session: one connection keeps the writer's transaction its own.
  const store = postgres.createPostgresStore(`postgresql://postgres@${server.getServerConn()}/postgres?vectors=pgvector`, { maxConnections: 1, hnswEfSearch: efSearch });
  started = performance.now();
  await store.write(input);
  const databaseWriteSeconds = seconds(started);
  const versions = (await store.pool.query("SELECT version() AS postgres, (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS pgvector")).rows[0];

  const memory = await (await core.openIndexSession(fileDir, { retrievers: registry })).retriever('embedding');
  const session = await core.openIndexSession(store, { retrievers: registry });
  const database = await session.retriever('embedding');
  if (!database.store) throw new Error('the database session does not search with pgvector');

  const questions = DATASETS.flatMap((name) => JSON.parse(readFileSync(join(shared, 'data', 'datasets', 'AnsweredQuestions', `${name}.json`), 'utf8')).rag_questions.map((q) => q.question));
  let identical = 0;
  let found = 0;
  const latency = { memory: [], database: [] };
  for (const question of questions) {
    let t = performance.now();
    const exact = await memory.search(question, { k: 10 });
    latency.memory.push(performance.now() - t);
    t = performance.now();
    const approximate = await database.search(question, { k: 10 });
    latency.database.push(performance.now() - t);
    if (JSON.stringify(exact.map((h) => h.chunkId)) === JSON.stringify(approximate.map((h) => h.chunkId))) identical++;
    const returned = new Set(approximate.map((h) => h.chunkId));
    found += exact.filter((h) => returned.has(h.chunkId)).length / Math.max(1, exact.length);
  }
  session.close();
  await store.close();

  const result = {
    chunks: chunks.length,
    dimension: built.manifest.embedder.dimension,
    chunkSeconds,
    buildSeconds,
    fileWriteSeconds,
    databaseWriteSeconds,
    questions: questions.length,
    identicalTop10: identical,
    recallAt10: found / questions.length,
    latencyMs: Object.fromEntries(Object.entries(latency).map(([k, v]) => [k, { p50: percentile(v, 0.5), p99: percentile(v, 0.99) }])),
    efSearch,
    versions,
  };
  if (flags.json) {
    console.log(JSON.stringify(result));
  } else {
    console.log(`rag pgvector benchmark @ ${gitRevision()} — vLLM 0.10.1, ${result.chunks} chunks, corpus embedder (${result.dimension} dimensions), PGlite (${versions.postgres.split(' ').slice(0, 2).join(' ')}, pgvector ${versions.pgvector}) over loopback, hnsw.ef_search ${efSearch}`);
    console.log(
      formatTable(
        ['search', 'write (s)', 'identical top-10', 'recall@10 of exact', 'p50 ms', 'p99 ms'],
        [
          ['in memory (exact)', fileWriteSeconds.toFixed(1), `${questions.length}/${questions.length}`, '1.000', result.latencyMs.memory.p50.toFixed(2), result.latencyMs.memory.p99.toFixed(2)],
          ['pgvector HNSW', databaseWriteSeconds.toFixed(1), `${identical}/${questions.length}`, result.recallAt10.toFixed(3), result.latencyMs.database.p50.toFixed(2), result.latencyMs.database.p99.toFixed(2)],
        ],
      ),
    );
    console.log(`chunking ${chunkSeconds.toFixed(1)} s, embedding build ${buildSeconds.toFixed(1)} s (both once, shared by the two rows)`);
  }
  if (flags.check && result.recallAt10 < 0.95) {
    console.error(`check failed: pgvector HNSW recall@10 of the exact top-10 is ${result.recallAt10.toFixed(3)} (floor 0.95)`);
    process.exitCode = 1;
  }
} finally {
  await server.stop();
  await db.close();
  rmSync(work, { recursive: true, force: true });
}
