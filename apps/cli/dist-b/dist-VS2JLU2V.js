#!/usr/bin/env node
import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);
import {
  DEFAULT_POSTGRES_STORE_OPTIONS,
  isPostgresUrl,
  resolvePostgresStoreOptions,
  splitConnectionString
} from "./chunk-T5TSCBZ7.js";
import {
  INDEX_FORMAT,
  INDEX_FORMAT_VERSION,
  KEPT_GENERATIONS,
  RagError,
  assembleChunks,
  chunkColumnsJson,
  damaged,
  isRagError,
  listFiles,
  newGenerationName,
  retrieverDir,
  sha256Of,
  verifyChecksums
} from "./chunk-4AD4YNFC.js";

// ../../packages/postgres/dist/index.js
import { mkdir, mkdtemp, readFile, rm } from "fs/promises";
import { tmpdir } from "os";
import { join, posix, sep } from "path";
import { crc32 as crc322 } from "zlib";
import pg from "pg";
import { crc32 } from "zlib";
var SQLSTATE = {
  invalidPassword: "28P01",
  invalidAuthorization: "28000",
  unknownDatabase: "3D000",
  insufficientPrivilege: "42501",
  readOnlyTransaction: "25006",
  undefinedTable: "42P01",
  undefinedSchema: "3F000",
  cannotConnectNow: "57P03"
};
var UNREACHABLE = /* @__PURE__ */ new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "EHOSTUNREACH", "ECONNRESET", "ENOENT"]);
function isMissingTable(error) {
  const code = error?.code;
  return code === SQLSTATE.undefinedTable || code === SQLSTATE.undefinedSchema;
}
function toStoreError(error, location) {
  if (isRagError(error)) return error;
  const code = error?.code;
  const message = error?.message ?? String(error);
  const fail = (what, hint) => new RagError("STORE_UNAVAILABLE", `${what} (${location}): ${message}`, { hint, cause: error });
  if (code === SQLSTATE.invalidPassword || code === SQLSTATE.invalidAuthorization) {
    return fail("PostgreSQL refused the credentials", "Check the user and password in the connection string (or PGUSER / PGPASSWORD) and the server\u2019s pg_hba.conf.");
  }
  if (code === SQLSTATE.unknownDatabase) return fail("The database does not exist", "Create it (`createdb <name>`) or name an existing one in the connection string.");
  if (code === SQLSTATE.insufficientPrivilege) {
    return fail("The user lacks a privilege the index needs", "Grant it USAGE and SELECT on the index schema to search, and CREATE on the database (or ownership of the schema) to index.");
  }
  if (code === SQLSTATE.cannotConnectNow) return fail("PostgreSQL is starting up or shutting down", "Retry in a moment.");
  if (code === SQLSTATE.readOnlyTransaction) {
    return new RagError("INVALID_ARGUMENT", `Cannot write the index to ${location}: the server is a read-only replica.`, {
      hint: "Index into the primary (`rag index --store <primary URL>`); replicas serve searches only.",
      cause: error
    });
  }
  if (typeof code === "string" && UNREACHABLE.has(code) || /timeout|terminated|ECONNREFUSED/i.test(message)) {
    return fail("Cannot reach PostgreSQL", "Start the server, or fix the host and port in the connection string.");
  }
  return new RagError("IO_ERROR", `PostgreSQL failed (${location}): ${message}`, { hint: "See the cause; check the server\u2019s log.", cause: error });
}
var SCHEMA_VERSION = 2;
function tables(schema) {
  return {
    version: `${schema}.schema_version`,
    generations: `${schema}.generations`,
    current: `${schema}.current_generation`,
    files: `${schema}.file_parts`,
    texts: `${schema}.texts`,
    vectorSets: `${schema}.vector_sets`,
    vectors: `${schema}.vectors`
  };
}
var MIGRATIONS = [
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
  }
];
function otherVersion(location, found) {
  return new RagError("INDEX_INCOMPATIBLE", `The index tables in ${location} have schema version ${found}; this version of rag uses version ${SCHEMA_VERSION}.`, {
    hint: found > SCHEMA_VERSION ? "Use the rag version that wrote them, or index into another schema (`?schema=` in the connection string)." : "Re-index with `rag index --store <URL>` (it migrates the tables), or index into another schema."
  });
}
async function readSchemaVersion(client, schema) {
  const exists = await client.query("SELECT to_regclass($1) IS NOT NULL AS found", [tables(schema).version]);
  if (!exists.rows[0]?.found) return 0;
  const row = await client.query(`SELECT version FROM ${tables(schema).version}`);
  return row.rows[0]?.version ?? 0;
}
async function checkSchemaVersion(client, schema, location) {
  const found = await readSchemaVersion(client, schema);
  if (found === 0) {
    throw new RagError("INDEX_NOT_FOUND", `No index found in ${location} (schema "${schema}").`, {
      hint: "Build one with `rag index --corpus_dir <dir> --store <URL>`."
    });
  }
  if (found !== SCHEMA_VERSION) throw otherVersion(location, found);
}
async function migrate(client, schema, location) {
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  await client.query(`CREATE TABLE IF NOT EXISTS ${tables(schema).version} (id boolean PRIMARY KEY DEFAULT true CHECK (id), version integer NOT NULL)`);
  const found = await readSchemaVersion(client, schema);
  if (found > SCHEMA_VERSION) throw otherVersion(location, found);
  for (let version = found; version < SCHEMA_VERSION; version++) await client.query(MIGRATIONS[version](schema));
  await client.query(`INSERT INTO ${tables(schema).version} (id, version) VALUES (true, $1) ON CONFLICT (id) DO UPDATE SET version = EXCLUDED.version`, [SCHEMA_VERSION]);
}
function openDatabaseTexts(input) {
  const { pool, location, generation, count, cacheSize } = input;
  const table = tables(input.schema).texts;
  const cache = /* @__PURE__ */ new Map();
  let open = true;
  const remember = (id, text) => {
    cache.delete(id);
    cache.set(id, text);
    if (cache.size > cacheSize) cache.delete(cache.keys().next().value);
  };
  return {
    count,
    text(i) {
      if (!open) throw new RagError("INVALID_ARGUMENT", "The index texts were closed.", { hint: "Open the index again." });
      const text = cache.get(i);
      if (text === void 0) {
        throw new RagError("INVALID_ARGUMENT", `The text of chunk ${i} was not fetched from ${location}.`, {
          hint: "Texts in a database are read through `TextStore.prefetch` (IndexSession.search does it); prefetch the ids first."
        });
      }
      return text;
    },
    async prefetch(ids) {
      if (!open) throw new RagError("INVALID_ARGUMENT", "The index texts were closed.", { hint: "Open the index again." });
      const missing = [...new Set(ids)].filter((id) => Number.isInteger(id) && id >= 0 && id < count && !cache.has(id));
      if (missing.length === 0) return;
      let rows;
      try {
        rows = (await pool.query(`SELECT chunk_id, text, crc32 FROM ${table} WHERE generation = $1 AND chunk_id = ANY($2::int[])`, [generation, missing])).rows;
      } catch (error) {
        throw toStoreError(error, location);
      }
      if (rows.length !== missing.length) {
        const exists = await pool.query(`SELECT 1 FROM ${tables(input.schema).generations} WHERE generation = $1`, [generation]).then(
          (r) => r.rowCount === 1,
          () => false
        );
        if (exists) {
          throw new RagError("INDEX_CORRUPT", `The index in ${location} is damaged: ${missing.length - rows.length} chunk text(s) of generation ${generation} are missing.`, {
            hint: "Rebuild it with `rag index --corpus_dir <dir> --store <URL>` (`rag verify --store <URL>` checks every row)."
          });
        }
        throw new RagError("INDEX_NOT_FOUND", `Generation ${generation} of the index in ${location} has been removed (newer ones were published since it was opened).`, {
          hint: "Open the index again (restart the server) to read the published generation."
        });
      }
      for (const row of rows) {
        if (crc32(row.text) !== Number(row.crc32)) {
          throw new RagError("INDEX_CORRUPT", `The index in ${location} is damaged: the text of chunk ${row.chunk_id} does not match its checksum.`, {
            hint: "Rebuild it with `rag index --corpus_dir <dir> --store <URL>` (`rag verify --store <URL>` checks every row)."
          });
        }
        remember(row.chunk_id, row.text.toString("utf8"));
      }
    },
    close() {
      open = false;
      cache.clear();
    }
  };
}
var VECTOR_BATCH_ROWS = 1e3;
var MAX_EF_SEARCH = 1e3;
function vectorLiteral(vectors, row, dimension) {
  return `[${Array.prototype.join.call(vectors.subarray(row * dimension, (row + 1) * dimension), ",")}]`;
}
function indexNameOf(generation, path) {
  return `vectors_hnsw_${sha256Of(`${generation}/${path}`).slice(0, 16)}`;
}
async function prepareVectorTable(client, options, location) {
  const found = (await client.query(
    `SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') AS installed,
              EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS available`
  )).rows[0];
  const missing = (why) => {
    if (options.vectors === "pgvector") {
      throw new RagError("STORE_UNAVAILABLE", `Cannot keep vectors in ${location}: ${why}.`, {
        hint: "Install pgvector on the server and run `CREATE EXTENSION vector` as a superuser (or the database owner), or index with `?vectors=auto` / `?vectors=files` to search vectors in memory."
      });
    }
    return false;
  };
  if (!found.installed) {
    if (!found.available) return missing("the server has no `vector` extension (pgvector) installed");
    await client.query("SAVEPOINT rag_vector_extension");
    try {
      await client.query("CREATE EXTENSION IF NOT EXISTS vector");
      await client.query("RELEASE SAVEPOINT rag_vector_extension");
    } catch (error) {
      await client.query("ROLLBACK TO SAVEPOINT rag_vector_extension");
      return missing(`creating the \`vector\` extension failed (${error.message})`);
    }
  }
  const t = tables(options.schema);
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
async function writeVectorSet(client, options, generation, path, set) {
  const t = tables(options.schema);
  const { dimension, vectors } = set;
  const count = dimension === 0 ? 0 : Math.floor(vectors.length / dimension);
  for (let from = 0; from < count; from += VECTOR_BATCH_ROWS) {
    const ids = [];
    const rows = [];
    for (let row = from; row < Math.min(count, from + VECTOR_BATCH_ROWS); row++) {
      ids.push(row);
      rows.push(vectorLiteral(vectors, row, dimension));
    }
    await client.query(`INSERT INTO ${t.vectors} (generation, path, chunk_id, embedding) SELECT $1, $2, u.id, u.v::vector FROM unnest($3::int[], $4::text[]) AS u(id, v)`, [generation, path, ids, rows]);
  }
  const indexName = indexNameOf(generation, path);
  await client.query(
    `CREATE INDEX ${indexName} ON ${t.vectors} USING hnsw ((embedding::vector(${dimension})) vector_ip_ops) WITH (m = ${options.hnswM}, ef_construction = ${options.hnswEfConstruction}) WHERE generation = ${client.escapeLiteral(generation)} AND path = ${client.escapeLiteral(path)}`
  );
  await client.query(`INSERT INTO ${t.vectorSets} (generation, path, dimension, count, index_name) VALUES ($1, $2, $3, $4, $5)`, [generation, path, dimension, count, indexName]);
}
async function dropVectorIndexes(client, schema, keptGenerations) {
  const t = tables(schema);
  const doomed = await client.query(
    `SELECT index_name FROM ${t.vectorSets} WHERE generation NOT IN (SELECT generation FROM ${t.generations} ORDER BY generation DESC LIMIT $1)`,
    [keptGenerations]
  );
  for (const row of doomed.rows) await client.query(`DROP INDEX IF EXISTS ${schema}.${row.index_name}`);
}
async function readVectorSets(pool, schema, generation) {
  const rows = await pool.query(`SELECT path, dimension FROM ${tables(schema).vectorSets} WHERE generation = $1`, [generation]);
  return new Map(rows.rows.map((r) => [r.path, r.dimension]));
}
function createVectorSearch(pool, options, location, set, toError) {
  const t = tables(options.schema);
  const cast = `embedding::vector(${set.dimension})`;
  return {
    description: `pgvector HNSW in ${location}`,
    async search(query, k) {
      if (query.length !== set.dimension) {
        throw new RagError("INVALID_ARGUMENT", `A ${query.length}-dimensional query cannot search ${set.dimension}-dimensional vectors.`, { hint: "Embed the query with the model the index was built with." });
      }
      const limit = Math.min(k, MAX_EF_SEARCH);
      if (limit <= 0) return [];
      let client;
      try {
        client = await pool.connect();
        await client.query("BEGIN READ ONLY");
        await client.query(`SELECT set_config('hnsw.ef_search', $1, true)`, [String(Math.min(MAX_EF_SEARCH, Math.max(limit, options.hnswEfSearch)))]);
        const rows = await client.query(
          `SELECT chunk_id, ${cast} <#> $1::vector AS distance FROM ${t.vectors}
            WHERE generation = ${client.escapeLiteral(set.generation)} AND path = ${client.escapeLiteral(set.path)}
            ORDER BY ${cast} <#> $1::vector LIMIT $2`,
          [`[${Array.prototype.join.call(query, ",")}]`, limit]
        );
        await client.query("COMMIT");
        return rows.rows.map((r) => ({ chunkId: r.chunk_id, score: -r.distance })).sort((a, b) => b.score - a.score || a.chunkId - b.chunkId);
      } catch (error) {
        await client?.query("ROLLBACK").catch(() => {
        });
        throw toError(error);
      } finally {
        client?.release();
      }
    }
  };
}
var VIRTUAL_ROOT = "/postgresql-store";
var PART_BYTES = 16 << 20;
var TEXT_BATCH_BYTES = 4 << 20;
var VERIFY_BATCH = 5e3;
function lockKey(schema) {
  return BigInt.asIntN(64, BigInt(`0x${sha256Of(`rag-index-writer:${schema}`).slice(0, 16)}`)).toString();
}
function createPostgresStore(url, settings = {}) {
  const split = splitConnectionString(url);
  const options = resolvePostgresStoreOptions({
    ...split.schema ? { schema: split.schema } : {},
    ...split.vectors ? { vectors: split.vectors } : {},
    ...settings
  });
  const { schema } = options;
  const location = split.location;
  const t = tables(schema);
  const pool = new pg.Pool({
    connectionString: split.connectionString,
    max: options.maxConnections,
    connectionTimeoutMillis: options.connectTimeoutMs,
    // A one-shot command ends when its work does, not when idle connections time out.
    allowExitOnIdle: true
  });
  pool.on("error", () => {
  });
  const query = async (text, values) => {
    try {
      return await pool.query(text, values);
    } catch (error) {
      throw toStoreError(error, location);
    }
  };
  const readFileRows = async (generation, path) => {
    const rows = (await query(`SELECT bytes FROM ${t.files} WHERE generation = $1 AND path = $2 ORDER BY part`, [generation, path])).rows;
    if (rows.length === 0) throw Object.assign(new Error(`No file ${path} in generation ${generation}`), { code: "ENOENT" });
    return rows.length === 1 ? rows[0].bytes : Buffer.concat(rows.map((r) => r.bytes));
  };
  const open = async (pin) => {
    let row;
    try {
      await checkSchemaVersion(pool, schema, location);
      row = pin ? (await pool.query(`SELECT generation, manifest, manifest_sha256 FROM ${t.generations} WHERE generation = $1`, [pin.generation])).rows[0] : (await pool.query(`SELECT g.generation, g.manifest, g.manifest_sha256 FROM ${t.current} c JOIN ${t.generations} g ON g.generation = c.generation`)).rows[0];
    } catch (error) {
      if (isMissingTable(error)) throw new RagError("INDEX_NOT_FOUND", `No index found in ${location} (schema "${schema}").`, { hint: "Build one with `rag index --corpus_dir <dir> --store <URL>`." });
      throw toStoreError(error, location);
    }
    if (!row) {
      if (pin) {
        throw new RagError("INDEX_NOT_FOUND", `Generation ${pin.generation} of the index in ${location} has been removed (newer ones were published since it was opened).`, {
          hint: "Open the index again to read the published generation."
        });
      }
      throw new RagError("INDEX_NOT_FOUND", `No index found in ${location} (schema "${schema}").`, { hint: "Build one with `rag index --corpus_dir <dir> --store <URL>`." });
    }
    if (sha256Of(row.manifest) !== row.manifest_sha256 || pin && pin.manifestSha256 !== row.manifest_sha256) {
      throw damaged(location, `the manifest of generation ${row.generation}`, "does not match its checksum");
    }
    const manifest = JSON.parse(row.manifest);
    if (manifest.format !== INDEX_FORMAT || manifest.formatVersion !== INDEX_FORMAT_VERSION) {
      throw new RagError("INDEX_INCOMPATIBLE", `The index in ${location} has format version ${String(manifest.formatVersion)}; this version reads version ${INDEX_FORMAT_VERSION}.`, {
        hint: "Rebuild it with `rag index --corpus_dir <dir> --store <URL>`."
      });
    }
    return { indexDir: location, dir: posix.join(VIRTUAL_ROOT, row.generation), manifest, pin: { generation: row.generation, manifestSha256: row.manifest_sha256 } };
  };
  const locate = (path) => {
    const inside = posix.relative(VIRTUAL_ROOT, path.split(sep).join("/"));
    const slash = inside.indexOf("/");
    if (inside.startsWith("..") || slash < 0) return void 0;
    return { generation: inside.slice(0, slash), inside: inside.slice(slash + 1) };
  };
  const readStoredFile = async (path) => {
    const at = locate(path);
    if (!at) throw Object.assign(new Error(`${path} is not a file of ${location}`), { code: "ENOENT" });
    return readFileRows(at.generation, at.inside);
  };
  const vectorSets = /* @__PURE__ */ new Map();
  const vectorSearch = (dir) => {
    const at = locate(dir);
    const dimension = at && vectorSets.get(at.generation)?.get(at.inside);
    if (!at || dimension === void 0) return void 0;
    return createVectorSearch(pool, options, location, { generation: at.generation, path: at.inside, dimension }, (error) => toStoreError(error, location));
  };
  const read = async (pin) => {
    const opened = await open(pin);
    const sum = opened.manifest.checksums["chunks.json"];
    if (!sum) throw damaged(location, "the manifest", "records no checksum for chunks.json");
    let bytes;
    await verifyChecksums(location, opened.dir, { "chunks.json": sum }, "", async (path) => bytes = await readStoredFile(path));
    const columns = JSON.parse(Buffer.from(bytes).toString("utf8"));
    if (options.vectors !== "files") vectorSets.set(opened.pin.generation, await readVectorSets(pool, schema, opened.pin.generation).catch((error) => Promise.reject(toStoreError(error, location))));
    const texts = openDatabaseTexts({ pool, schema, location, generation: opened.pin.generation, count: opened.manifest.counts.chunks, cacheSize: options.textCacheSize });
    return { ...opened, ...assembleChunks(location, opened.manifest, columns, texts) };
  };
  const write = async (input, writeOptions = {}) => {
    const step = async (name) => {
      await writeOptions.onStep?.(name);
    };
    const scratch = await mkdtemp(join(tmpdir(), "rag-pg-"));
    let client;
    try {
      const generation = newGenerationName();
      const offered = /* @__PURE__ */ new Map();
      const takeVectors = options.vectors === "files" ? {} : { vectors: (dir, set) => offered.set(posix.relative(scratch.split(sep).join("/"), dir.split(sep).join("/")), set) };
      for (const retriever of input.retrievers) {
        const target = retrieverDir(scratch, retriever.entry.name);
        await mkdir(target, { recursive: true });
        await retriever.save(target, takeVectors);
      }
      const files = /* @__PURE__ */ new Map([["chunks.json", Buffer.from(chunkColumnsJson(input.chunks, input.manifest.files))]]);
      for (const file of await listFiles(scratch)) files.set(file, await readFile(join(scratch, file)));
      const checksums = {};
      for (const [file, bytes] of files) checksums[file] = { size: bytes.byteLength, sha256: sha256Of(bytes) };
      const manifest = {
        format: INDEX_FORMAT,
        formatVersion: INDEX_FORMAT_VERSION,
        ...input.manifest,
        retrievers: input.retrievers.map((r) => r.entry),
        counts: { files: input.manifest.files.length, chunks: input.chunks.length },
        generation,
        checksums
      };
      const manifestText = JSON.stringify(manifest, null, 1);
      try {
        client = await pool.connect();
      } catch (error) {
        throw toStoreError(error, location);
      }
      const c = client;
      try {
        await c.query("BEGIN");
        const locked = await c.query("SELECT pg_try_advisory_xact_lock($1::bigint) AS locked", [lockKey(schema)]);
        if (!locked.rows[0]?.locked) {
          throw new RagError("INDEX_BUSY", `Another \`rag index\` is writing the index in ${location}.`, { hint: "Run one `rag index` at a time; retry when it has finished." });
        }
        await step("locked");
        await migrate(c, schema, location);
        await c.query(`INSERT INTO ${t.generations} (generation, manifest, manifest_sha256) VALUES ($1, $2, $3)`, [generation, manifestText, sha256Of(manifestText)]);
        for (const [file, bytes] of files) {
          for (let part = 0, at = 0; part === 0 || at < bytes.byteLength; part++, at += PART_BYTES) {
            const slice = Buffer.from(bytes.buffer, bytes.byteOffset + at, Math.min(PART_BYTES, bytes.byteLength - at));
            await c.query(`INSERT INTO ${t.files} (generation, path, part, bytes) VALUES ($1, $2, $3, $4)`, [generation, file, part, slice]);
          }
        }
        let ids = [];
        let texts = [];
        let sums = [];
        let pending = 0;
        const flush = async () => {
          if (ids.length === 0) return;
          await c.query(`INSERT INTO ${t.texts} (generation, chunk_id, text, crc32) SELECT $1, * FROM unnest($2::int[], $3::bytea[], $4::bigint[])`, [generation, ids, texts, sums]);
          ids = [];
          texts = [];
          sums = [];
          pending = 0;
        };
        for (const chunk of input.chunks) {
          const bytes = Buffer.from(chunk.text, "utf8");
          ids.push(chunk.id);
          texts.push(bytes);
          sums.push(crc322(bytes));
          pending += bytes.length;
          if (pending >= TEXT_BATCH_BYTES) await flush();
        }
        await flush();
        if (offered.size > 0 && await prepareVectorTable(c, options, location)) {
          for (const [path, set] of offered) await writeVectorSet(c, options, generation, path, set);
        }
        await step("staged");
        await c.query(`INSERT INTO ${t.current} (id, generation) VALUES (true, $1) ON CONFLICT (id) DO UPDATE SET generation = EXCLUDED.generation`, [generation]);
        await dropVectorIndexes(c, schema, KEPT_GENERATIONS);
        await c.query(`DELETE FROM ${t.generations} WHERE generation NOT IN (SELECT generation FROM ${t.generations} ORDER BY generation DESC LIMIT $1)`, [KEPT_GENERATIONS]);
        await c.query("COMMIT");
        await step("published");
        return manifest;
      } catch (error) {
        await c.query("ROLLBACK").catch(() => {
        });
        throw toStoreError(error, location);
      }
    } finally {
      client?.release();
      await rm(scratch, { recursive: true, force: true });
    }
  };
  const verify = async () => {
    const opened = await open();
    const checked = await verifyChecksums(location, opened.dir, opened.manifest.checksums, "", readStoredFile);
    let bytes = checked.bytes;
    let seen = 0;
    for (let from = 0; from < opened.manifest.counts.chunks; from += VERIFY_BATCH) {
      const rows = (await query(`SELECT chunk_id, text, crc32 FROM ${t.texts} WHERE generation = $1 AND chunk_id >= $2 AND chunk_id < $3`, [opened.pin.generation, from, from + VERIFY_BATCH])).rows;
      for (const row of rows) {
        if (crc322(row.text) !== Number(row.crc32)) throw damaged(location, `the text of chunk ${row.chunk_id}`, "does not match its checksum");
        bytes += row.text.byteLength;
      }
      seen += rows.length;
    }
    if (seen !== opened.manifest.counts.chunks) throw damaged(location, "the texts table", `holds ${seen} texts where ${opened.manifest.counts.chunks} were written`);
    const sets = (await query(`SELECT path, count FROM ${t.vectorSets} WHERE generation = $1`, [opened.pin.generation])).rows;
    for (const set of sets) {
      const rows = (await query(`SELECT count(*)::int AS n FROM ${t.vectors} WHERE generation = $1 AND path = $2`, [opened.pin.generation, set.path])).rows[0]?.n ?? 0;
      if (rows !== set.count) throw damaged(location, `the vectors of ${set.path}`, `number ${rows} where ${set.count} were written`);
    }
    return { generation: opened.pin.generation, files: checked.files + 1, bytes };
  };
  return {
    kind: "postgresql",
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
    close: async () => {
      if (!pool.ended && !pool.ending) await pool.end();
    }
  };
}
export {
  DEFAULT_POSTGRES_STORE_OPTIONS,
  SCHEMA_VERSION,
  createPostgresStore,
  isPostgresUrl,
  resolvePostgresStoreOptions
};
//# sourceMappingURL=dist-VS2JLU2V.js.map