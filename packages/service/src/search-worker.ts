// Worker-thread entry of the search pool (dist/search-worker.js, beside a bundle that
// includes it): opens the main thread's generation of the index over the files it shared,
// then answers search requests one message at a time.
import { parentPort, workerData } from 'node:worker_threads';
import { openIndexSession, readerOverSharedFiles, StalenessTracker, type Hit, type IndexSession } from '@rag/core';
import { loadRetrieverRegistry } from './retriever-module.js';
import { openStore } from './stores.js';
import { serializeError, type SearchRequestMessage, type SearchWorkerData, type SearchWorkerMessage, type SearchWorkerRequest } from './search-protocol.js';
import { searchViewOf, serializeSearchView, viewHits } from './search-view.js';

const port = parentPort!;
const data = workerData as SearchWorkerData;
const post = (message: SearchWorkerMessage): void => port.postMessage(message);

try {
  const store = openStore(data.indexDir);
  const session = await openIndexSession(store, {
    retrievers: await loadRetrieverRegistry(data.retrieverModule, data.retrieverSettings),
    retriever: data.retriever,
    pathBase: data.pathBase,
    pin: data.pin,
    readFile: readerOverSharedFiles(data.files, store.readFile),
    // The main thread hashed these very bytes before sharing them.
    filesVerified: true,
  });
  // This worker's own record of which files changed since indexing, for the views it builds.
  const tracker = new StalenessTracker(session.manifest.corpusDir, session.manifest.files, data.staleCheckIntervalMs);
  // Retrievers this worker has searched with: the ones to free when it is asked to close.
  const used = new Set<string>();
  port.on('message', (request: SearchWorkerRequest) => {
    if ('type' in request && request.type === 'close') {
      void closeWorker(used);
      return;
    }
    used.add(request.retriever);
    if ('type' in request) {
      session
        .retriever(request.retriever)
        .then((retriever) => (request.rare ? retriever.rareWords?.(request.query) : retriever.unindexedWords?.(request.query)))
        .then(
          (words) => post(words === undefined ? { type: 'words', id: request.id } : { type: 'words', id: request.id, words }),
          (error: unknown) => post({ type: 'error', id: request.id, error: serializeError(error) }),
        );
      return;
    }
    session
      .retriever(request.retriever)
      .then((retriever) => retriever.search(request.query, request.globs === undefined ? { k: request.k } : { k: request.k, scope: session.scopeOf(request.globs) }))
      .then((hits) => (request.view && hits.length > 0 ? answerWithView(session, tracker, request, hits) : post({ type: 'hits', id: request.id, hits })))
      .catch((error: unknown) => post({ type: 'error', id: request.id, error: serializeError(error) }));
  });
  post({ type: 'ready' });

  // Ends the thread without `terminate()`: native code (a tree-sitter parse, an ONNX
  // session) is never cut off mid-call, and the store's connections are closed, not dropped.
  async function closeWorker(names: ReadonlySet<string>): Promise<void> {
    for (const name of names) {
      const retriever = (await session.retriever(name).catch(() => undefined)) as { dispose?: () => Promise<void> } | undefined;
      await retriever?.dispose?.().catch(() => undefined);
    }
    session.close();
    await store.close?.().catch(() => undefined);
    port.close();
  }
} catch (error) {
  post({ type: 'failed', error: serializeError(error) });
}

/** Posts the view of `hits` (found for `request`), serialized here so that the serving thread only forwards it. */
async function answerWithView(session: IndexSession, tracker: StalenessTracker, request: SearchRequestMessage, hits: Hit[]): Promise<void> {
  const views = await viewHits(session.hitsOf(hits), tracker);
  post({ type: 'view', id: request.id, json: serializeSearchView(searchViewOf(request.query, request.retriever, views, undefined, request.globs)) });
}
