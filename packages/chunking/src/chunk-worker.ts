// Worker-thread entry of parallel chunking (see parallel.ts): chunks the files it is sent
// and posts their chunks back, file by file in the order received.
import { parentPort, workerData } from 'node:worker_threads';
import { chunkFilesReleasing, type FileToChunk } from './chunk-files.js';
import type { ChunkerOptions } from './options.js';

const { files, options } = workerData as { files: FileToChunk[]; options: ChunkerOptions };
try {
  parentPort!.postMessage({ ok: true, chunks: await chunkFilesReleasing(files, options) });
} catch (error) {
  parentPort!.postMessage({ ok: false, message: (error as Error).message });
}
