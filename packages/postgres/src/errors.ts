import { isRagError, RagError } from '@rag/core';

/** SQLSTATE codes this store tells apart (https://www.postgresql.org/docs/current/errcodes-appendix.html). */
const SQLSTATE = {
  invalidPassword: '28P01',
  invalidAuthorization: '28000',
  unknownDatabase: '3D000',
  insufficientPrivilege: '42501',
  readOnlyTransaction: '25006',
  undefinedTable: '42P01',
  undefinedSchema: '3F000',
  cannotConnectNow: '57P03',
} as const;

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ECONNRESET', 'ENOENT']);

/** True when `error` says the store's tables are not there (nothing was ever written to this schema). */
export function isMissingTable(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return code === SQLSTATE.undefinedTable || code === SQLSTATE.undefinedSchema;
}

/** Turns what `pg` throws into a `RagError` that says what to fix; a `RagError` passes through. */
export function toStoreError(error: unknown, location: string): RagError {
  if (isRagError(error)) return error as RagError;
  const code = (error as { code?: unknown })?.code;
  const message = (error as Error)?.message ?? String(error);
  const fail = (what: string, hint: string): RagError => new RagError('STORE_UNAVAILABLE', `${what} (${location}): ${message}`, { hint, cause: error });
  if (code === SQLSTATE.invalidPassword || code === SQLSTATE.invalidAuthorization) {
    return fail('PostgreSQL refused the credentials', 'Check the user and password in the connection string (or PGUSER / PGPASSWORD) and the server’s pg_hba.conf.');
  }
  if (code === SQLSTATE.unknownDatabase) return fail('The database does not exist', 'Create it (`createdb <name>`) or name an existing one in the connection string.');
  if (code === SQLSTATE.insufficientPrivilege) {
    return fail('The user lacks a privilege the index needs', 'Grant it USAGE and SELECT on the index schema to search, and CREATE on the database (or ownership of the schema) to index.');
  }
  if (code === SQLSTATE.cannotConnectNow) return fail('PostgreSQL is starting up or shutting down', 'Retry in a moment.');
  if (code === SQLSTATE.readOnlyTransaction) {
    return new RagError('INVALID_ARGUMENT', `Cannot write the index to ${location}: the server is a read-only replica.`, {
      hint: 'Index into the primary (`rag index --store <primary URL>`); replicas serve searches only.',
      cause: error,
    });
  }
  if ((typeof code === 'string' && UNREACHABLE.has(code)) || /timeout|terminated|ECONNREFUSED/i.test(message)) {
    return fail('Cannot reach PostgreSQL', 'Start the server, or fix the host and port in the connection string.');
  }
  return new RagError('IO_ERROR', `PostgreSQL failed (${location}): ${message}`, { hint: 'See the cause; check the server’s log.', cause: error });
}
