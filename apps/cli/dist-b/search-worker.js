#!/usr/bin/env node
import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);
import {
  LEXICAL_DENSE_SETTINGS,
  bm25RetrieverFactory,
  createEmbeddingRetrieverFactory,
  createHybridRetrieverFactory
} from "./chunk-3YUETLGB.js";
import {
  isPostgresUrl,
  resolvePostgresStoreOptions,
  splitConnectionString
} from "./chunk-T5TSCBZ7.js";
import {
  RagError,
  RetrieverRegistry,
  createFileStore,
  openIndexSession,
  readerOverSharedFiles
} from "./chunk-4AD4YNFC.js";

// ../../packages/service/src/search-worker.ts
import { parentPort, workerData } from "worker_threads";

// ../../packages/service/src/retriever-module.ts
import { pathToFileURL } from "url";

// ../../packages/service/src/retrievers.ts
import { existsSync } from "fs";
import { resolve } from "path";
function createDefaultRetrieverRegistry(options = {}) {
  const embedding = createEmbeddingRetrieverFactory(options.embedding ?? {});
  return new RetrieverRegistry([bm25RetrieverFactory, embedding, createHybridRetrieverFactory([bm25RetrieverFactory, embedding], LEXICAL_DENSE_SETTINGS)]);
}

// ../../packages/service/src/retriever-module.ts
function retrieverModuleUrl(specifier) {
  return specifier.startsWith("file:") ? specifier : pathToFileURL(specifier).href;
}
async function loadRetrieverRegistry(module, settings) {
  if (module === void 0) return createDefaultRetrieverRegistry(settings);
  const exported = await import(retrieverModuleUrl(module));
  if (typeof exported.createRetrieverRegistry !== "function") {
    throw new RagError("INVALID_ARGUMENT", `${module} exports no createRetrieverRegistry().`, {
      hint: "Export a function `createRetrieverRegistry()` that returns a RetrieverRegistry."
    });
  }
  return exported.createRetrieverRegistry();
}

// ../../packages/service/src/stores.ts
function openStore(location) {
  return isPostgresUrl(location) ? lazyPostgresStore(location) : createFileStore(location);
}
function lazyPostgresStore(url) {
  const split = splitConnectionString(url);
  resolvePostgresStoreOptions({ ...split.schema ? { schema: split.schema } : {}, ...split.vectors ? { vectors: split.vectors } : {} });
  let loaded;
  let loading;
  const store = () => loading ??= import("./dist-VS2JLU2V.js").then(({ createPostgresStore }) => loaded = createPostgresStore(url));
  return {
    kind: "postgresql",
    location: split.location,
    address: url,
    open: async (pin) => (await store()).open(pin),
    read: async (pin) => (await store()).read(pin),
    readFile: async (path) => (await store()).readFile(path),
    write: async (input, options) => (await store()).write(input, options),
    verify: async () => (await store()).verify(),
    // Asked for only while loading a generation the store has opened, so it is there by then.
    vectorSearch: (dir) => loaded?.vectorSearch?.(dir),
    close: async () => {
      if (loading) await (await loading).close();
    }
  };
}

// ../../packages/service/src/search-protocol.ts
function serializeError(error) {
  const out = { message: error instanceof Error ? error.message : String(error) };
  const { code, hint } = error ?? {};
  if (typeof code === "string") out.code = code;
  if (typeof hint === "string") out.hint = hint;
  return out;
}

// ../../packages/service/src/search-worker.ts
var port = parentPort;
var data = workerData;
var post = (message) => port.postMessage(message);
try {
  const store = openStore(data.indexDir);
  const session = await openIndexSession(store, {
    retrievers: await loadRetrieverRegistry(data.retrieverModule, data.retrieverSettings),
    retriever: data.retriever,
    pin: data.pin,
    readFile: readerOverSharedFiles(data.files, store.readFile),
    // The main thread hashed these very bytes before sharing them.
    filesVerified: true
  });
  port.on("message", (request) => {
    session.retriever(request.retriever).then((retriever) => retriever.search(request.query, { k: request.k })).then(
      (hits) => post({ type: "hits", id: request.id, chunkIds: hits.map((h) => h.chunkId), scores: hits.map((h) => h.score) }),
      (error) => post({ type: "error", id: request.id, error: serializeError(error) })
    );
  });
  post({ type: "ready" });
} catch (error) {
  post({ type: "failed", error: serializeError(error) });
}
//# sourceMappingURL=search-worker.js.map