import { readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';

/**
 * Reads one file of an index (a retriever's state) whole. Retrievers load through the
 * reader their `LoadContext` gives, so a host can decide where the bytes live: the disk
 * (the default), or buffers shared between threads.
 */
export type IndexFileReader = (path: string) => Promise<Uint8Array>;

/**
 * Reads from the disk into private memory: what every load does unless told otherwise.
 * Synchronously: an index is read while nothing else can proceed, and an asynchronous read
 * of a large file is a thread-pool round trip per 512 KiB.
 */
export const readIndexFile: IndexFileReader = async (path) => readFileSync(path);

/** Files read into shared memory, by absolute path: what worker threads are handed. */
export type SharedIndexFiles = Record<string, SharedArrayBuffer>;

/** A reader that keeps each file it reads in a `SharedArrayBuffer`, once. */
export interface SharedFileReader {
  read: IndexFileReader;
  /** Every file read so far; each worker views the same memory (nothing is copied). */
  files(): SharedIndexFiles;
}

async function readShared(path: string): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const bytes = new Uint8Array(new SharedArrayBuffer(size));
    let at = 0;
    while (at < size) {
      const { bytesRead } = await handle.read(bytes, at, size - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    // A file that shrank while being read is returned short: its checksum then fails.
    return at === size ? bytes : bytes.subarray(0, at);
  } finally {
    await handle.close();
  }
}

/**
 * Reads files into `SharedArrayBuffer`s and remembers them, so the threads of one process
 * that search the same index hold one copy of it: the main thread reads (and verifies)
 * each file once, and workers view it through {@link readerOverSharedFiles}.
 */
export function createSharedFileReader(base?: IndexFileReader): SharedFileReader {
  // From a store other than the disk (a database), the bytes are read, then copied once into shared memory.
  const readInto = base
    ? async (path: string): Promise<Uint8Array> => {
        const bytes = await base(path);
        const shared = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
        shared.set(bytes);
        return shared;
      }
    : readShared;
  const pending = new Map<string, Promise<Uint8Array>>();
  const settled = new Map<string, Uint8Array>();
  return {
    read(path) {
      let bytes = pending.get(path);
      if (!bytes) {
        bytes = readInto(path);
        bytes.then(
          (b) => settled.set(path, b),
          () => pending.delete(path),
        );
        pending.set(path, bytes);
      }
      return bytes;
    },
    files() {
      // A file cut short (damaged) is not handed on: a worker reads it again and fails as loudly.
      const out: SharedIndexFiles = {};
      for (const [path, bytes] of settled) if (bytes.byteLength === bytes.buffer.byteLength) out[path] = bytes.buffer as SharedArrayBuffer;
      return out;
    },
  };
}

/**
 * The worker side of {@link createSharedFileReader}: files the main thread shared are
 * viewed in place; any other file is read through `fallback` (default: the disk).
 */
export function readerOverSharedFiles(files: SharedIndexFiles, fallback: IndexFileReader = readIndexFile): IndexFileReader {
  return async (path) => {
    const shared = files[path];
    return shared ? new Uint8Array(shared) : fallback(path);
  };
}
