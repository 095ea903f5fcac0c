import { createFileStore, type IndexStore } from '@rag/core';
import { createPostgresStore, isPostgresUrl } from '@rag/postgres';

/**
 * The store an index location names: a `postgresql://` (or `postgres://`) connection string
 * opens the PostgreSQL store, anything else is an index folder. Every command and the
 * server's search workers open their index through this, so a location works everywhere.
 */
export function openStore(location: string): IndexStore {
  return isPostgresUrl(location) ? createPostgresStore(location) : createFileStore(location);
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
