export { createPostgresStore, type PostgresStore } from './store.js';
export { DEFAULT_POSTGRES_STORE_OPTIONS, isPostgresUrl, resolvePostgresStoreOptions, type PostgresStoreOptions } from './options.js';
export { SCHEMA_VERSION } from './schema.js';
