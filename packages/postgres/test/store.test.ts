import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRagError, retrieverDir, type Chunk, type FileRecord, type RagError, type WriteIndexInput } from '@rag/core';
import { createPostgresStore, SCHEMA_VERSION, type PostgresStore } from '../src/index.js';
import { startTestCluster, type TestCluster } from '../src/testing.js';
import { postgresAvailable } from './require-postgres.js';

const files: FileRecord[] = [
  { file_path: 'a.py', sha256: 'a'.repeat(64), bytes: 10, length: 10, language: 'python' },
  { file_path: 'docs/b.md', sha256: 'b'.repeat(64), bytes: 10, length: 10, language: 'markdown' },
];

function chunksOf(version: string, count = 5): Chunk[] {
  return Array.from({ length: count }, (_, id) => ({
    id,
    file_path: files[id % 2]!.file_path,
    first_character_index: id * 10,
    last_character_index: id * 10 + 9,
    start_line: id + 1,
    end_line: id + 1,
    kind: id % 2 ? 'section' : 'function',
    symbol: `s${id}`,
    language: files[id % 2]!.language,
    // Multi-byte characters and a NUL: texts are stored as bytes, whatever they hold.
    text: `${version} chunk ${id} — ünïcødé 🚀 \u0000 end`,
  }));
}

/** A generation whose one retriever writes `state` (bytes) as its file. */
function inputOf(version: string, state: Uint8Array, count = 5): WriteIndexInput {
  return {
    manifest: { toolVersion: 'test', createdAt: new Date().toISOString(), corpusDir: '/corpus', corpusDirAsGiven: 'corpus', chunking: {}, files },
    chunks: chunksOf(version, count),
    retrievers: [
      {
        entry: { name: 'fake', settings: { version }, builtAt: new Date().toISOString() },
        save: async (dir) => {
          await mkdir(dir, { recursive: true });
          await writeFile(join(dir, 'state.bin'), state);
        },
      },
    ],
  };
}

async function errorOf(promise: Promise<unknown>): Promise<RagError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isRagError(error), String(error)).toBe(true);
  return error as RagError;
}

describe.skipIf(!postgresAvailable())('PostgreSQL index store (real server on loopback)', () => {
  let cluster: TestCluster;
  const stores: PostgresStore[] = [];
  const storeAt = (url: string, schema?: string): PostgresStore => {
    const store = createPostgresStore(url, schema ? { schema } : {});
    stores.push(store);
    return store;
  };

  beforeAll(async () => {
    cluster = await startTestCluster();
  });
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await cluster?.stop();
  });

  it('writes a generation and reads back the same manifest, chunks, texts and files (a file over one part included)', async () => {
    const store = storeAt(cluster.url, 'roundtrip');
    // 17 MB: stored in two parts, read back whole.
    const state = randomBytes(17 << 20);
    const written = await store.write(inputOf('v1', state));
    const index = await store.read();
    expect(index.manifest).toEqual(written);
    expect(index.manifest.checksums['retrievers/fake/state.bin']?.size).toBe(state.length);
    const expected = chunksOf('v1');
    await index.texts.prefetch!(expected.map((c) => c.id));
    expect(index.chunks.map((c) => ({ ...c }))).toEqual(expected);
    expect(Buffer.from(await store.readFile(join(retrieverDir(index.dir, 'fake'), 'state.bin'))).equals(state)).toBe(true);
    const report = await store.verify();
    expect(report).toMatchObject({ generation: written.generation, files: 3 });
  });

  it('reads a text only after it was fetched, and says how to fetch it', async () => {
    const store = storeAt(cluster.url, 'prefetch');
    await store.write(inputOf('v1', new Uint8Array([1, 2, 3])));
    const index = await store.read();
    const error = (() => {
      try {
        return index.chunks[3]!.text;
      } catch (e) {
        return e as RagError;
      }
    })() as RagError;
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.hint).toMatch(/prefetch/);
    await index.texts.prefetch!([3]);
    expect(index.chunks[3]!.text).toBe(chunksOf('v1')[3]!.text);
  });

  it('publishes atomically: a pinned reader keeps its generation until two newer ones replace it', async () => {
    const store = storeAt(cluster.url, 'generations');
    const first = await store.write(inputOf('v1', new Uint8Array([1])));
    const pinned = await store.read();
    const second = await store.write(inputOf('v2', new Uint8Array([2]), 7));
    expect((await store.open()).manifest.generation).toBe(second.generation);
    // The first generation is still there (kept: the newest two), whole.
    await pinned.texts.prefetch!([0, 1, 2, 3, 4]);
    expect(pinned.chunks[4]!.text).toMatch(/^v1 /);
    expect((await store.read(pinned.pin)).manifest.generation).toBe(first.generation);
    await store.write(inputOf('v3', new Uint8Array([3])));
    const removed = await errorOf(store.read(pinned.pin));
    expect(removed.code).toBe('INDEX_NOT_FOUND');
    expect(removed.message).toMatch(/removed/);
    const counts = await store.pool.query('SELECT count(*)::int AS n FROM generations.generations');
    expect(counts.rows[0].n).toBe(2);
  });

  it('a writer that fails mid-write leaves the published generation as it was, and no rows behind', async () => {
    const store = storeAt(cluster.url, 'killed');
    const published = await store.write(inputOf('v1', new Uint8Array([1])));
    for (const step of ['locked', 'staged'] as const) {
      const error = await store
        .write(inputOf('v2', new Uint8Array([2])), {
          onStep: (at) => {
            if (at === step) throw new Error(`killed at ${step}`);
          },
        })
        .then(
          () => undefined,
          (e: unknown) => e as Error,
        );
      expect(error?.message).toMatch(`killed at ${step}`);
      const index = await store.read();
      expect(index.manifest.generation).toBe(published.generation);
      const rows = await store.pool.query('SELECT (SELECT count(*) FROM killed.generations)::int AS g, (SELECT count(*) FROM killed.texts)::int AS t');
      expect(rows.rows[0]).toEqual({ g: 1, t: 5 });
    }
  });

  it('a second writer while one holds the lock is refused with INDEX_BUSY; the first publishes', async () => {
    const store = storeAt(cluster.url, 'busy');
    let second: Promise<RagError> | undefined;
    const first = await store.write(inputOf('v1', new Uint8Array([1])), {
      onStep: async (at) => {
        if (at === 'locked') second = errorOf(store.write(inputOf('v2', new Uint8Array([2]))));
        if (at === 'locked') expect((await second!).code).toBe('INDEX_BUSY');
      },
    });
    expect((await store.open()).manifest.generation).toBe(first.generation);
  });

  it('detects every kind of damage: an altered text, file part or manifest', async () => {
    const store = storeAt(cluster.url, 'damage');
    const written = await store.write(inputOf('v1', new Uint8Array([1, 2, 3, 4])));
    const g = written.generation;
    await store.pool.query("UPDATE damage.texts SET text = convert_to('v1 chunk 2 altered', 'UTF8') WHERE generation = $1 AND chunk_id = 2", [g]);
    const index = await store.read();
    expect((await errorOf(index.texts.prefetch!([2]))).code).toBe('INDEX_CORRUPT');
    expect((await errorOf(store.verify())).code).toBe('INDEX_CORRUPT');
    await store.write(inputOf('v2', new Uint8Array([1, 2, 3, 4])));
    const next = (await store.open()).manifest.generation;
    await store.pool.query("UPDATE damage.file_parts SET bytes = '\\x01020309'::bytea WHERE generation = $1 AND path = 'retrievers/fake/state.bin'", [next]);
    const damagedFile = await errorOf(store.verify());
    expect(damagedFile.code).toBe('INDEX_CORRUPT');
    expect(damagedFile.message).toMatch(/state\.bin/);
    await store.pool.query("UPDATE damage.generations SET manifest = replace(manifest, '\"corpus\"', '\"elsewhere\"') WHERE generation = $1", [next]);
    expect((await errorOf(store.open())).code).toBe('INDEX_CORRUPT');
    await store.pool.query('DELETE FROM damage.texts WHERE generation = $1 AND chunk_id = 4', [g]);
    const lost = await errorOf(index.texts.prefetch!([4]));
    expect(lost.code).toBe('INDEX_CORRUPT');
    expect(lost.message).toMatch(/missing/);
  });

  it('says what is wrong: no index yet, tables of another version, a wrong password, no such database, no server', async () => {
    const empty = await errorOf(storeAt(cluster.url, 'nothing_here').read());
    expect(empty.code).toBe('INDEX_NOT_FOUND');
    expect(empty.hint).toMatch(/rag index .*--store/);

    const store = storeAt(cluster.url, 'versioned');
    await store.write(inputOf('v1', new Uint8Array([1])));
    await store.pool.query('UPDATE versioned.schema_version SET version = $1', [SCHEMA_VERSION + 1]);
    for (const attempt of [store.read(), store.write(inputOf('v2', new Uint8Array([2])))]) {
      const error = await errorOf(attempt);
      expect(error.code).toBe('INDEX_INCOMPATIBLE');
      expect(error.message).toMatch(`schema version ${SCHEMA_VERSION + 1}`);
    }

    const wrongPassword = await errorOf(storeAt(cluster.url.replace(encodeURIComponent(cluster.password), 'not-the-password')).read());
    expect(wrongPassword.code).toBe('STORE_UNAVAILABLE');
    expect(wrongPassword.message).toMatch(/credentials/);
    expect(wrongPassword.message).not.toMatch(/not-the-password/);

    const noDatabase = await errorOf(storeAt(cluster.url.replace(/\/rag$/, '/no_such_db')).read());
    expect(noDatabase.code).toBe('STORE_UNAVAILABLE');
    expect(noDatabase.hint).toMatch(/createdb/);

    const closed = await errorOf(storeAt(`postgresql://rag:x@127.0.0.1:1/rag`).read());
    expect(closed.code).toBe('STORE_UNAVAILABLE');
    expect(closed.message).toMatch(/Cannot reach/);
  });

  it('refuses options out of range with the valid range', () => {
    expect(() => createPostgresStore(cluster.url, { schema: 'Bad-Name' })).toThrow(/schema/);
    expect(() => createPostgresStore(cluster.url, { maxConnections: 0 })).toThrow(/maxConnections/);
  });

  it('serves reads from a streaming replica and refuses writes there with a hint', async () => {
    const store = storeAt(cluster.url, 'replicated');
    await store.write(inputOf('v1', new Uint8Array([1])));
    const replica = await startTestCluster({ replicaOf: cluster });
    try {
      const onReplica = storeAt(replica.url, 'replicated');
      expect((await onReplica.pool.query('SELECT pg_is_in_recovery() AS r')).rows[0].r).toBe(true);
      const published = await store.write(inputOf('v2', new Uint8Array([2])));
      // Replication is asynchronous: wait until the replica has replayed the publish.
      for (let i = 0; i < 600; i++) {
        const seen = await onReplica.open().catch(() => undefined);
        if (seen?.manifest.generation === published.generation) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const index = await onReplica.read();
      expect(index.manifest.generation).toBe(published.generation);
      await index.texts.prefetch!([0]);
      expect(index.chunks[0]!.text).toMatch(/^v2 /);
      const refused = await errorOf(onReplica.write(inputOf('v3', new Uint8Array([3]))));
      expect(refused.code).toBe('INVALID_ARGUMENT');
      expect(refused.hint).toMatch(/primary/);
    } finally {
      await replica.stop();
    }
  });
});
