import { optionError, type Chunk, type FileRecord, type ProgressFn } from '@rag/core';
import { resolveChunkerOptions, type ChunkerOptions } from './options.js';
import { chunkFilesInParallel, defaultConcurrency } from './parallel.js';
import { readUnreadFile, walkCorpus, type CorpusFile, type WalkedFile, type WalkOptions } from './walk.js';

export interface ChunkCorpusOptions extends ChunkerOptions, WalkOptions {
  /** Called after each file is chunked with phase `chunk`, done = files so far, total = file count. */
  onProgress?: ProgressFn;
  /**
   * Threads that chunk at once, this one included (worker threads; output is identical).
   * Integer in [1, 64]. Default: `defaultConcurrency()` (one thread on one or two cores, else
   * the cores, at most 4). Corpora under ~8 M characters (`PARALLEL_MIN_CHARS`) are always
   * chunked in this thread.
   */
  concurrency?: number;
  /**
   * Chunks to use for a file instead of chunking it (an incremental index passes those of
   * files whose content hash is unchanged), or undefined to chunk it. Their ids are
   * reassigned, so they must be objects of their own whose `text` does not depend on their
   * id. A file the walk left unread (see `WalkOptions.unchanged`) is read and chunked when
   * this gives undefined for it. Default: chunk every file.
   */
  reuse?: (file: WalkedFile) => Chunk[] | undefined;
  /**
   * The files of `dir` as `walkCorpus` found them with these options (a caller that looked
   * at them first, as an update deciding whether anything changed does): they are used
   * instead of walking again. Default: `dir` is walked.
   */
  walked?: readonly WalkedFile[];
}

export interface ChunkedCorpus {
  /** Indexed files, sorted by path. */
  files: FileRecord[];
  /** All chunks, file by file in file order, with dense ids 0..n-1. */
  chunks: Chunk[];
  /**
   * How many files were chunked and how many had their chunks reused; `unread`: of those
   * reused, how many were not read at all (see `WalkOptions.unchanged`).
   */
  counts: { chunked: number; reused: number; unread: number };
}

/** Walks `dir` (see walkCorpus; or takes `options.walked`) and chunks every file; chunk ids are global and dense. */
export async function chunkCorpus(dir: string, options: ChunkCorpusOptions = {}): Promise<ChunkedCorpus> {
  // Bad options fail before any file is read; workers get only these plain values.
  const { maxChunkSize, targetChunkSize, minChunkSize, textOverlap, nestedChunkSize } = options;
  const chunkerOptions = resolveChunkerOptions({ maxChunkSize, targetChunkSize, minChunkSize, textOverlap, nestedChunkSize });
  const concurrency = options.concurrency ?? defaultConcurrency();
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
    throw optionError({ subject: 'chunking' }, ['concurrency'], 'an integer in [1, 64]', concurrency);
  }
  const walked = options.walked ?? (await walkCorpus(dir, options));
  const reused: (Chunk[] | undefined | null)[] = walked.map((file) => options.reuse?.(file));
  const corpus: WalkedFile[] = [];
  const toChunk: CorpusFile[] = [];
  walked.forEach((file, i) => {
    if (reused[i] !== undefined) {
      corpus.push(file);
      return;
    }
    const read = file.text === undefined ? readUnreadFile(file, options) : file;
    if (typeof read === 'string') {
      options.onWarning?.(read);
      reused[i] = null;
    } else {
      corpus.push(read);
      toChunk.push(read);
    }
  });
  const kept = reused.filter((chunks) => chunks !== null);
  const chunked = await chunkFilesInParallel(toChunk, chunkerOptions, concurrency, (done) =>
    options.onProgress?.({ phase: 'chunk', done, total: toChunk.length }),
  );
  let next = 0;
  const perFile = kept.map((chunks) => chunks ?? chunked[next++]!);
  const files: FileRecord[] = [];
  const chunks: Chunk[] = [];
  corpus.forEach((file, index) => {
    for (const chunk of perFile[index]!) {
      chunk.id = chunks.length;
      chunks.push(chunk);
    }
    files.push({ file_path: file.file_path, sha256: file.sha256, bytes: file.bytes, length: file.length, language: file.language, ...(file.stat === undefined ? {} : { stat: file.stat }) });
  });
  const unread = corpus.filter((file) => file.text === undefined).length;
  return { files, chunks, counts: { chunked: toChunk.length, reused: corpus.length - toChunk.length, unread } };
}
