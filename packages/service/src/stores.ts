import { createFileStore, type IndexStore } from '@rag/core';
import { isPostgresUrl, resolvePostgresStoreOptions, settingsInUrl, splitConnectionString } from '@rag/postgres/options';

/**
 * The store an index location names: a `postgresql://` (or `postgres://`) connection string
 * opens the PostgreSQL store, anything else is an index folder. Every command and the
 * server's search workers open their index through this, so a location works everywhere.
 */
export function openStore(location: string, options: OpenStoreOptions = {}): IndexStore {
  const paged = options.pagedFromBytes === undefined ? {} : { pagedFromBytes: options.pagedFromBytes };
  return isPostgresUrl(location) ? lazyPostgresStore(location, paged) : createFileStore(location, paged);
}

/** How `openStore` opens a store. */
export interface OpenStoreOptions {
  /**
   * Retriever files at least this large are searched from parts rather than loaded whole,
   * where the store and the retriever can (see `FileStoreOptions.pagedFromBytes`); a
   * connection string's own `?paged_from=` wins. Default: the store's own default.
   */
  pagedFromBytes?: number;
}

/**
 * The PostgreSQL store, with its client library (`pg`, tens of milliseconds to load) imported
 * on first use: a command over a folder index never loads it. The connection string and its
 * options are checked now, as `createPostgresStore` would.
 */
function lazyPostgresStore(url: string, settings: { pagedFromBytes?: number }): IndexStore {
  const split = splitConnectionString(url);
  const fromUrl = settingsInUrl(url);
  const options = { ...settings, ...fromUrl };
  resolvePostgresStoreOptions(options);
  let loaded: IndexStore | undefined;
  let loading: Promise<IndexStore> | undefined;
  const store = (): Promise<IndexStore> => (loading ??= import('@rag/postgres').then(({ createPostgresStore }) => (loaded = createPostgresStore(url, options))));
  return {
    kind: 'postgresql',
    location: split.location,
    address: url,
    open: async (pin) => (await store()).open(pin),
    read: async (pin, options) => (await store()).read(pin, options),
    readFile: async (path) => (await store()).readFile(path),
    write: async (input, options) => (await store()).write(input, options),
    verify: async (options) => (await store()).verify(options),
    // Asked for only while loading a generation the store has opened, so it is there by then.
    vectorSearch: (dir) => loaded?.vectorSearch?.(dir),
    fileRanges: (path) => loaded?.fileRanges?.(path),
    close: async () => {
      if (loading) await (await loading).close();
    },
  };
}

export { isPostgresUrl };

/** An index location as shown to people (outputs, logs): a connection string's password is masked. */
export function redactLocation(location: string): string {
  if (!isPostgresUrl(location)) return location;
  try {
    const url = new URL(location);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return location.replace(/:[^:@/]*@/, ':***@');
  }
}
