import { libraryConfig } from '../../tsup.shared.js';

// testing: a throwaway PostgreSQL server for the suites and benchmarks that need one.
// options: the connection-string and option helpers alone, without the `pg` client, for
// callers that must tell a database location from a folder before deciding to load it.
export default libraryConfig(['src/index.ts', 'src/testing.ts', 'src/options.ts']);
