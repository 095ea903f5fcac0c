import { appConfig } from '../../tsup.shared.js';

// search-worker and index-job: @rag/service's worker-thread entry and its corpus watcher's
// update process, looked up beside the bundle.
export default appConfig({ server: 'src/server.ts', 'search-worker': '../../packages/service/src/search-worker.ts', 'index-job': '../../packages/service/src/index-job.ts' });
