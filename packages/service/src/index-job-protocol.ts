import type { BuildIndexOptions, BuildIndexReport } from './build-index.js';
import type { RetrieverRegistryOptions } from './retrievers.js';
import type { SerializedError } from './search-protocol.js';

/** What an index job is sent: one update's options as plain data, and how to make its retriever registry. */
export interface IndexJobRequest {
  build: Omit<BuildIndexOptions, 'retrievers' | 'onProgress' | 'onWarning' | 'collectGarbage'>;
  retrieverSettings: RetrieverRegistryOptions;
  retrieverModule?: string;
}

/** What an index job answers before it exits. */
export type IndexJobMessage = { type: 'done'; report: BuildIndexReport; warnings: string[] } | { type: 'failed'; error: SerializedError };
