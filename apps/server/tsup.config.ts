import { appConfig } from '../../tsup.shared.js';

// search-worker: @rag/service's worker-thread entry, looked up beside the bundle.
export default appConfig({ server: 'src/server.ts', 'search-worker': '../../packages/service/src/search-worker.ts' });
