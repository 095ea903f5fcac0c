import { libraryConfig } from '../../tsup.shared.js';

// chunk-worker is the worker-thread entry of parallel chunking; it must sit beside index.js.
export default libraryConfig(['src/index.ts', 'src/chunk-worker.ts']);
