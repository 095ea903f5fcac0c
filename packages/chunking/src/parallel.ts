import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { OffsetMap, RagError, sliceCodePoints, type Chunk } from '@rag/core';
import { chunkFilesReleasing, type FileToChunk } from './chunk-files.js';
import type { ChunkerOptions } from './options.js';

/**
 * Below this much text a worker costs more than it saves: starting one and loading the
 * tree-sitter grammars takes ~0.1 s, about what one thread chunks 2 MB of Python in since
 * Python is scanned rather than parsed (it was 0.5 MB parsed).
 */
export const PARALLEL_MIN_CHARS = 8_000_000;

/**
 * Fewest cores on which chunking uses worker threads by default. On two cores the workers
 * no longer pay since Python is scanned: on the vLLM corpus chunking took 1.5–2.2 s in one
 * thread and 1.8–2.0 s in two (+0.9 s CPU, +30 MB), and on four hard-linked copies of it
 * 4.4–5.1 s against 4.3–4.4 s (+1.3 s CPU, +65 MB). With a third core the walk and the
 * workers stop competing; that case was not measured here.
 */
export const WORKERS_MIN_CORES = 3;

/**
 * Default thread count: every core, at most 4 (parsing scales little beyond, memory does).
 * A worker pays for its own isolate and grammars (on the vLLM corpus with two cores, `rag
 * index` peaks at ~310–330 MB RSS instead of ~275 MB in one thread) and saves about a third
 * of the build's wall time on an idle machine; `rag index --threads 1` trades the other way.
 */
export function defaultConcurrency(cores = availableParallelism()): number {
  return cores < WORKERS_MIN_CORES ? 1 : Math.min(4, cores);
}

/**
 * The worker script beside this module (dist/chunk-worker.js, or chunk-worker.js beside a
 * bundle that includes it); undefined where there is none (running from sources), and the
 * caller then chunks in-thread.
 */
function workerScript(): URL | undefined {
  const url = new URL('./chunk-worker.js', import.meta.url);
  return url.protocol === 'file:' && existsSync(fileURLToPath(url)) ? url : undefined;
}

/** A worker's chunks of one file (offsets, no texts) given their texts, sliced from the file's. */
function withTexts(fileText: string, chunks: Omit<Chunk, 'text'>[]): Chunk[] {
  const map = new OffsetMap(fileText);
  return chunks.map((chunk) => ({ ...chunk, text: sliceCodePoints(fileText, chunk.first_character_index, chunk.last_character_index, map) }));
}

/** Splits files into `n` buckets of similar total length (largest first, into the lightest). */
function balance(files: readonly FileToChunk[], n: number): number[][] {
  const order = files.map((_, i) => i).sort((a, b) => files[b]!.text.length - files[a]!.text.length || a - b);
  const buckets: number[][] = Array.from({ length: n }, () => []);
  const loads = new Array<number>(n).fill(0);
  for (const i of order) {
    let lightest = 0;
    for (let b = 1; b < n; b++) if (loads[b]! < loads[lightest]!) lightest = b;
    buckets[lightest]!.push(i);
    loads[lightest]! += files[i]!.text.length;
  }
  return buckets.map((bucket) => bucket.sort((a, b) => a - b));
}

/** A worker chunking some files: its result, and a way to stop it early. */
interface RunningWorker {
  result: Promise<Omit<Chunk, 'text'>[][]>;
  stop(): void;
}

/**
 * Starts a worker on `files`. Stopping raises a flag the worker reads between files, and it
 * ends by itself: `Worker.terminate()` while tree-sitter is inside a parse (which calls back
 * into JavaScript for the text) makes the binding throw a C++ exception through C code,
 * which aborts the whole process.
 */
function runWorker(script: URL, files: FileToChunk[], options: ChunkerOptions): RunningWorker {
  const stopFlag = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(script, { workerData: { files, options, stopFlag } });
  const result = new Promise<Omit<Chunk, 'text'>[][]>((resolve, reject) => {
    worker.once('message', (message: { ok: true; chunks: Chunk[][] } | { ok: false; message: string }) => {
      if (message.ok) resolve(message.chunks);
      else reject(new RagError('IO_ERROR', `A chunking worker failed: ${message.message}`));
    });
    worker.once('error', (error) => reject(new RagError('IO_ERROR', `A chunking worker failed: ${error.message}`, { cause: error })));
    worker.once('exit', (code) => reject(new RagError('IO_ERROR', `A chunking worker exited (code ${code}) before it answered.`)));
  });
  return { result, stop: () => Atomics.store(stopFlag, 0, 1) };
}

/**
 * Chunks of each file, in file order, using up to `concurrency` threads (this one
 * included). Output is identical to in-thread chunking; small corpora, `concurrency` 1 or a
 * missing worker script chunk in this thread.
 */
export async function chunkFilesInParallel(
  files: readonly FileToChunk[],
  options: ChunkerOptions,
  concurrency: number,
  onFile: (done: number) => void,
  minChars = PARALLEL_MIN_CHARS,
): Promise<Chunk[][]> {
  const totalChars = files.reduce((sum, f) => sum + f.text.length, 0);
  const script = concurrency > 1 && totalChars >= minChars ? workerScript() : undefined;
  if (!script) {
    let done = 0;
    return chunkFilesReleasing(files, options, () => onFile(++done));
  }
  const buckets = balance(files, concurrency);
  // Workers take every bucket but the first; this thread chunks the first meanwhile.
  const workers = buckets.slice(1).map((bucket) =>
    runWorker(script, bucket.map((i) => ({ text: files[i]!.text, file_path: files[i]!.file_path, language: files[i]!.language })), options),
  );
  const stopAll = (): void => workers.forEach((worker) => worker.stop());
  const all = Promise.all(workers.map((worker) => worker.result));
  // A worker may fail while this thread still chunks (it yields between batches of files):
  // its failure is handled here, not left to crash the process as an unhandled rejection,
  // and reported once this thread's part is done.
  all.catch(() => undefined);
  let done = 0;
  let own: Chunk[][];
  let others: Omit<Chunk, 'text'>[][][];
  try {
    own = await chunkFilesReleasing(buckets[0]!.map((i) => files[i]!), options, () => onFile(++done));
    others = await all;
  } catch (error) {
    stopAll();
    throw error;
  }
  const result: Chunk[][] = new Array(files.length);
  buckets[0]!.forEach((fileIndex, j) => (result[fileIndex] = own[j]!));
  others.forEach((chunksPerFile, w) => {
    buckets[w + 1]!.forEach((fileIndex, j) => (result[fileIndex] = withTexts(files[fileIndex]!.text, chunksPerFile[j]!)));
    done += chunksPerFile.length;
  });
  onFile(done);
  return result;
}
