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

  it('writes a generation and reads back the same manifest, chunks, texts and files (a file over one page included)', async () => {
    const store = storeAt(cluster.url, 'roundtrip');
    // 1 MB and a bit: stored in 129 pages of 8 KB, read back whole.
    const state = randomBytes((1 << 20) + 17);
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

  it('an update copies the texts it takes over inside the database and sends only the new ones', async () => {
    const store = storeAt(cluster.url, 'copies');
    await store.write(inputOf('v1', randomBytes(64)));
    const previous = await store.read();
    const next = inputOf('v2', randomBytes(64));
    // Chunks 0, 2 and 4 take over the texts of chunks 0, 2 and 4 before: their rows are
    // copied, so the stand-in texts given here never reach the database.
    const sourceOf = [0, -1, 2, -1, 4];
    next.chunks = next.chunks.map((chunk, i) => (sourceOf[i]! >= 0 ? { ...chunk, text: 'not sent' } : chunk));
    next.previousTexts = { texts: previous.texts, sourceOf: (i) => sourceOf[i]!, checksums: previous.manifest.checksums };
    await store.write(next);
    const index = await store.read();
    await index.texts.prefetch!([0, 1, 2, 3, 4]);
    const [before, after] = [chunksOf('v1'), chunksOf('v2')];
    expect(index.chunks.map((c) => c.text)).toEqual([before[0]!.text, after[1]!.text, before[2]!.text, after[3]!.text, before[4]!.text]);
    expect((await store.verify()).generation).toBe(index.manifest.generation);

    // Rows the previous generation lacks (a damaged table): INDEX_CORRUPT, which makes an update rebuild.
    const damagedFrom = await store.read();
    await store.pool.query('DELETE FROM copies.texts WHERE generation = $1 AND chunk_id = 2', [damagedFrom.manifest.generation]);
    const again = inputOf('v3', randomBytes(64));
    again.previousTexts = { texts: damagedFrom.texts, sourceOf: (i) => i, checksums: damagedFrom.manifest.checksums };
    const error = await errorOf(store.write(again));
    expect(error.code).toBe('INDEX_CORRUPT');
    expect(error.message).toMatch(/lacks 1 texts/);
    expect((await store.read()).manifest.generation).toBe(damagedFrom.manifest.generation);
  });

  it('serves any byte ranges of a large file from its pages, each page checked, and only files at least `pagedFromBytes` long', async () => {
    const store = createPostgresStore(`${cluster.url}?schema=ranges&paged_from=1000`, { pageBytes: 1024 });
    stores.push(store);
    const state = randomBytes(10_000);
    await store.write(inputOf('v1', state));
    const index = await store.read();
    const path = join(retrieverDir(index.dir, 'fake'), 'state.bin');
    const ranges = store.fileRanges(path)!;
    expect(ranges.size).toBe(state.length);
    // Within a page, across two and many pages, at both ends, empty, the whole file.
    const wanted = [
      { offset: 0, length: 10 },
      { offset: 1000, length: 100 },
      { offset: 1023, length: 2 },
      { offset: 500, length: 5000 },
      { offset: 9990, length: 10 },
      { offset: 4096, length: 0 },
      { offset: 0, length: 10_000 },
    ];
    const parts = await ranges.read(wanted);
    wanted.forEach(({ offset, length }, i) => expect(Buffer.from(parts[i]!).equals(state.subarray(offset, offset + length)), `${offset}+${length}`).toBe(true));
    expect((await errorOf(ranges.read([{ offset: 9999, length: 2 }]))).code).toBe('INVALID_ARGUMENT');
    // Smaller files, files of other stores' defaults, and paths outside a generation are read whole.
    await store.write(inputOf('v2', randomBytes(999)));
    const small = await store.read();
    expect(store.fileRanges(join(retrieverDir(small.dir, 'fake'), 'state.bin'))).toBeUndefined();
    expect(store.fileRanges('/elsewhere/state.bin')).toBeUndefined();
    expect(storeAt(cluster.url, 'ranges').fileRanges(path)).toBeUndefined();

    // An altered page, a page cut short and a lost page are INDEX_CORRUPT naming the file and page.
    const g = index.pin.generation;
    await store.pool.query("UPDATE ranges.file_parts SET bytes = set_byte(bytes, 3, (get_byte(bytes, 3) + 1) % 256) WHERE generation = $1 AND path = 'retrievers/fake/state.bin' AND part = 2", [g]);
    const altered = await errorOf(ranges.read([{ offset: 2048 + 10, length: 4 }]));
    expect([altered.code, altered.message]).toEqual(['INDEX_CORRUPT', expect.stringMatching(/state\.bin \(page 2\).*checksum/)]);
    expect(Buffer.from((await ranges.read([{ offset: 3072, length: 8 }]))[0]!).equals(state.subarray(3072, 3080))).toBe(true);
    await store.pool.query("UPDATE ranges.file_parts SET bytes = substring(bytes from 1 for 100) WHERE generation = $1 AND path = 'retrievers/fake/state.bin' AND part = 5", [g]);
    expect((await errorOf(ranges.read([{ offset: 5 * 1024, length: 1 }]))).message).toMatch(/page 5.*100 bytes where 1024/);
    await store.pool.query("DELETE FROM ranges.file_parts WHERE generation = $1 AND path = 'retrievers/fake/state.bin' AND part = 7", [g]);
    expect((await errorOf(ranges.read([{ offset: 7 * 1024, length: 1 }]))).message).toMatch(/lacks page 7/);
    // Reading the file whole checks each page's checksum too.
    expect((await errorOf(store.readFile(path))).code).toBe('INDEX_CORRUPT');
    // Pages of a generation removed since it was opened (two newer ones published): say so, not "damaged".
    await store.write(inputOf('v3', randomBytes(10)));
    await store.write(inputOf('v4', randomBytes(10)));
    const removed = await errorOf(ranges.read([{ offset: 9 * 1024, length: 1 }]));
    expect([removed.code, removed.hint]).toEqual(['INDEX_NOT_FOUND', expect.stringMatching(/Open the index again/)]);
    expect(() => createPostgresStore(`${cluster.url}?paged_from=lots`)).toThrow(/pagedFromBytes/);
  });

  it('migrates tables of version 2 (files in parts without checksums) when writing, and reads such a generation whole', async () => {
    const store = storeAt(cluster.url, 'older');
    await store.write(inputOf('v1', randomBytes(5000)));
    // Make it look as version 2 wrote it: one part without a checksum, no page size.
    const pin = (await store.open()).pin;
    const g = pin.generation;
    await store.pool.query("DELETE FROM older.file_parts WHERE generation = $1 AND path = 'retrievers/fake/state.bin' AND part > 0", [g]);
    const whole = randomBytes(5000);
    await store.pool.query("UPDATE older.file_parts SET bytes = $2, crc32 = NULL WHERE generation = $1 AND path = 'retrievers/fake/state.bin'", [g, whole]);
    await store.pool.query('ALTER TABLE older.file_parts DROP COLUMN crc32; ALTER TABLE older.generations DROP COLUMN page_bytes; UPDATE older.schema_version SET version = 2');
    expect((await errorOf(store.read())).code).toBe('INDEX_INCOMPATIBLE');
    const written = await store.write(inputOf('v2', randomBytes(20_000)));
    const reopened = createPostgresStore(`${cluster.url}?schema=older&paged_from=0`);
    stores.push(reopened);
    const current = await reopened.read();
    expect(current.manifest.generation).toBe(written.generation);
    expect(reopened.fileRanges(join(retrieverDir(current.dir, 'fake'), 'state.bin'))?.size).toBe(20_000);
    // The generation version 2 wrote has no page size: its files are read whole, as then.
    const old = await reopened.read(pin);
    const oldPath = join(retrieverDir(old.dir, 'fake'), 'state.bin');
    expect(reopened.fileRanges(oldPath)).toBeUndefined();
    expect(Buffer.from(await reopened.readFile(oldPath)).equals(whole)).toBe(true);
    const columns = await store.pool.query("SELECT count(*)::int AS n FROM information_schema.columns WHERE table_schema = 'older' AND (table_name, column_name) IN (('file_parts', 'crc32'), ('generations', 'page_bytes'))");
    expect(columns.rows[0].n).toBe(2);
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
