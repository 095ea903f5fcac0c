#!/usr/bin/env node
import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);
import {
  external_exports,
  integerIn,
  parseOptions
} from "./chunk-4AD4YNFC.js";

// ../../packages/postgres/dist/chunk-6JAUPAYI.js
var DEFAULT_POSTGRES_STORE_OPTIONS = Object.freeze({
  schema: "rag",
  maxConnections: 4,
  connectTimeoutMs: 1e4,
  textCacheSize: 8192,
  vectors: "auto",
  hnswM: 16,
  hnswEfConstruction: 64,
  hnswEfSearch: 100
});
var schema = external_exports.object({
  schema: external_exports.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, "a lower-case PostgreSQL identifier (letters, digits, _; at most 63)"),
  maxConnections: integerIn(1, 100),
  connectTimeoutMs: integerIn(100, 6e5),
  textCacheSize: integerIn(256, 1e7),
  vectors: external_exports.enum(["auto", "pgvector", "files"]),
  hnswM: integerIn(2, 100),
  hnswEfConstruction: integerIn(4, 1e3),
  hnswEfSearch: integerIn(1, 1e3)
}).strict().refine((o) => o.hnswEfConstruction >= 2 * o.hnswM, { message: "hnswEfConstruction must be at least 2 \xD7 hnswM", path: ["hnswEfConstruction"] });
function resolvePostgresStoreOptions(settings = {}) {
  return parseOptions(schema, { ...DEFAULT_POSTGRES_STORE_OPTIONS, ...settings }, { subject: "postgres store", root: "options" });
}
function isPostgresUrl(address) {
  return /^postgres(ql)?:\/\//i.test(address);
}
function splitConnectionString(url) {
  const parsed = new URL(url);
  const schemaName = parsed.searchParams.get("schema") ?? void 0;
  const vectors = parsed.searchParams.get("vectors") ?? void 0;
  parsed.searchParams.delete("schema");
  parsed.searchParams.delete("vectors");
  const connectionString = parsed.toString();
  if (parsed.password) parsed.password = "***";
  return { connectionString, schema: schemaName, vectors, location: parsed.toString() };
}

export {
  DEFAULT_POSTGRES_STORE_OPTIONS,
  resolvePostgresStoreOptions,
  isPostgresUrl,
  splitConnectionString
};
//# sourceMappingURL=chunk-T5TSCBZ7.js.map