import { libraryConfig } from '../../tsup.shared.js';

// search-worker is the worker-thread entry of the search pool; it must sit beside index.js.
export default libraryConfig(['src/index.ts', 'src/search-worker.ts']);
