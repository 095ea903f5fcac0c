// Worker-thread entry of the search pool (dist/search-worker.js, beside a bundle that
// includes it): opens the main thread's generation of the index over the files it shared,
// then answers search requests one message at a time.
import { parentPort, workerData } from 'node:worker_threads';
import { openIndexSession, readerOverSharedFiles } from '@rag/core';
import { loadRetrieverRegistry } from './retriever-module.js';
import { openStore } from './stores.js';
import { serializeError, type SearchRequestMessage, type SearchWorkerData, type SearchWorkerMessage } from './search-protocol.js';

const port = parentPort!;
const data = workerData as SearchWorkerData;
const post = (message: SearchWorkerMessage): void => port.postMessage(message);

try {
  const store = openStore(data.indexDir);
  const session = await openIndexSession(store, {
    retrievers: await loadRetrieverRegistry(data.retrieverModule, data.retrieverSettings),
    retriever: data.retriever,
    pin: data.pin,
    readFile: readerOverSharedFiles(data.files, store.readFile),
    // The main thread hashed these very bytes before sharing them.
    filesVerified: true,
  });
  port.on('message', (request: SearchRequestMessage) => {
    session
      .retriever(request.retriever)
      .then((retriever) => retriever.search(request.query, { k: request.k }))
      .then(
        (hits) => post({ type: 'hits', id: request.id, chunkIds: hits.map((h) => h.chunkId), scores: hits.map((h) => h.score) }),
        (error: unknown) => post({ type: 'error', id: request.id, error: serializeError(error) }),
      );
  });
  post({ type: 'ready' });
} catch (error) {
  post({ type: 'failed', error: serializeError(error) });
}
