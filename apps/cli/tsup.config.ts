import { appConfig } from '../../tsup.shared.js';

// chunk-worker: @rag/chunking's worker-thread entry, looked up beside the bundle.
export default appConfig({ cli: 'src/cli.ts', 'chunk-worker': '../../packages/chunking/src/chunk-worker.ts' });
