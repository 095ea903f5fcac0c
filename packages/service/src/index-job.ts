// Child-process entry of `watchCorpus` (dist/index-job.js, beside a bundle that includes it):
// takes one update's options over IPC, runs `buildIndex`, answers with its report or its
// error, and exits. A process of its own, not a thread: a serving thread never waits on an
// update, an update's memory goes back to the system when it ends, and stopping a watcher
// may kill an update half-way (the store publishes atomically; the next writer removes
// what a killed one left).
import type { RetrieverRegistry } from '@rag/core';
import { buildIndex } from './build-index.js';
import type { IndexJobMessage, IndexJobRequest } from './index-job-protocol.js';
import { loadRetrieverRegistry } from './retriever-module.js';
import { serializeError } from './search-protocol.js';

function answer(message: IndexJobMessage): void {
  // Exits once the message is handed over: nothing of the update is kept waiting.
  process.send!(message, undefined, undefined, () => process.exit(0));
}

process.once('message', (request: IndexJobRequest) => {
  const warnings: string[] = [];
  loadRetrieverRegistry(request.retrieverModule, request.retrieverSettings)
    .then((retrievers) => buildIndex({ ...request.build, retrievers: retrievers as RetrieverRegistry, onWarning: (warning) => warnings.push(warning) }))
    .then(
      (report) => answer({ type: 'done', report, warnings }),
      (error: unknown) => answer({ type: 'failed', error: serializeError(error) }),
    );
});
