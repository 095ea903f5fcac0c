// Worker-thread entry of parallel chunking (see parallel.ts): chunks the files it is sent
// and posts their chunks back, file by file in the order received.
import { parentPort, workerData } from 'node:worker_threads';
import { chunkFilesReleasing, type FileToChunk } from './chunk-files.js';
import type { ChunkerOptions } from './options.js';

const { files, options, stopFlag } = workerData as { files: FileToChunk[]; options: ChunkerOptions; stopFlag: Int32Array };

/** Thrown between two files once the caller has asked this worker to stop (see `runWorker`). */
class Stopped extends Error {}
try {
  // Texts stay behind: the caller holds every file's text and slices each chunk's from it,
  // so the reply carries offsets only (a copy of every chunk text would double the corpus
  // in the caller's memory).
  const chunks = await chunkFilesReleasing(files, options, () => {
    if (Atomics.load(stopFlag, 0) !== 0) throw new Stopped('stopped by the caller');
  });
  parentPort!.postMessage({ ok: true, chunks: chunks.map((perFile) => perFile.map(({ text: _text, ...rest }) => rest)) });
} catch (error) {
  parentPort!.postMessage({ ok: false, message: (error as Error).message });
}
