import { libraryConfig } from '../../tsup.shared.js';

// search-worker is the worker-thread entry of the search pool, index-job the process entry of
// the corpus watcher's updates; both must sit beside index.js.
// search (`@rag/service/search`) is what a one-shot search needs and nothing more, build
// (`@rag/service/build`) what `rag index` needs.
export default libraryConfig(['src/index.ts', 'src/search.ts', 'src/build.ts', 'src/search-worker.ts', 'src/index-job.ts']);
