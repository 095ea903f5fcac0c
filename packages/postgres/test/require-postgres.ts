import { findPostgresBin } from '../src/testing.js';

/**
 * Whether this machine can run the PostgreSQL suites. `.ci/run` installs Debian's
 * `postgresql` and sets RAG_REQUIRE_POSTGRES=1, so there a missing server fails the run
 * instead of skipping it; elsewhere the suites skip with a note.
 */
export function postgresAvailable(): boolean {
  if (findPostgresBin()) return true;
  if (process.env.RAG_REQUIRE_POSTGRES === '1') throw new Error('RAG_REQUIRE_POSTGRES=1 but PostgreSQL is not installed (apt-get install postgresql).');
  console.warn('PostgreSQL is not installed: skipping its suites (apt-get install postgresql to run them).');
  return false;
}
