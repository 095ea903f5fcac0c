import { appConfig } from '../../tsup.shared.js';

// chunk-worker and search-worker: the worker-thread entries of @rag/chunking and
// @rag/service; index-job: the process the service's corpus watcher (--watch) updates the
// index in. All three are looked up beside the bundle.
export default appConfig({
  cli: 'src/cli.ts',
  'chunk-worker': '../../packages/chunking/src/chunk-worker.ts',
  'search-worker': '../../packages/service/src/search-worker.ts',
  'index-job': '../../packages/service/src/index-job.ts',
});
