import { appConfig } from '../../tsup.shared.js';

// chunk-worker and search-worker: the worker-thread entries of @rag/chunking and
// @rag/service, looked up beside the bundle.
export default appConfig({
  cli: 'src/cli.ts',
  'chunk-worker': '../../packages/chunking/src/chunk-worker.ts',
  'search-worker': '../../packages/service/src/search-worker.ts',
});
