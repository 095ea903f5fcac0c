import { libraryConfig } from '../../tsup.shared.js';

// testing: a throwaway PostgreSQL server for the suites and benchmarks that need one.
export default libraryConfig(['src/index.ts', 'src/testing.ts']);
