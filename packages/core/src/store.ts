import { isAbsolute, relative, sep } from 'node:path';
import { RagError } from './errors.js';
import { fileRangesOnDisk } from './file-ranges.js';
import { openIndex, readIndex, verifyIndex, writeIndex, type GenerationPin, type IndexManifest, type LoadedIndex, type OpenedIndex, type ReadIndexOptions, type WriteIndexInput, type WriteIndexOptions } from './index-store.js';
import type { VerifyOptions } from './index-integrity.js';
import type { FileRanges, VectorSearch } from './retriever.js';
import { readIndexFile, type IndexFileReader } from './shared-files.js';

/**
 * Where an index lives. A folder on the disk is the default (`createFileStore`); a
 * database (`@rag/postgres`) is another. Whatever the store, a generation is written whole
 * and published in one step, every byte read is checked against the checksum written with
 * it, and readers see one generation from start to end.
 */
export interface IndexStore {
  /** What kind of store: `file` or `postgresql`. */
  readonly kind: string;
  /** Where it is, for messages (a folder, or a database URL without its password). */
  readonly location: string;
  /** The published generation's manifest (or `pin`'s), verified; chunks are not loaded. */
  open(pin?: GenerationPin): Promise<OpenedIndex>;
  /** The manifest and every chunk (texts read on demand) of the published generation (or `pin`'s). */
  read(pin?: GenerationPin, options?: ReadIndexOptions): Promise<LoadedIndex>;
  /** Reads a file of a generation whole, by `join(index.dir, pathInGeneration)`. */
  readFile: IndexFileReader;
  /** Writes a complete generation and publishes it atomically (readers see the old or the new one). */
  write(input: WriteIndexInput, options?: WriteIndexOptions): Promise<IndexManifest>;
  /** Checks every stored byte of the published generation against its checksum (`rag verify`; `options.quick`: see `VerifyOptions`). */
  verify(options?: VerifyOptions): Promise<{ generation: string; files: number; bytes: number }>;
  /**
   * What opens this store again in another thread (a worker): a folder or a connection
   * string; `openStore` of `@rag/service` turns it back into a store.
   */
  readonly address: string;
  /**
   * The store's own nearest-vector search over what a retriever saved into `dir` of a
   * generation read by `read` (see `LoadContext.vectorSearch`); absent or undefined when the
   * store keeps vectors only in the retriever's files.
   */
  vectorSearch?(dir: string): VectorSearch | undefined;
  /**
   * Parts of a file of a generation read by `read`, by `join(index.dir, pathInGeneration)`,
   * each page checked as it is read: offered for files the store would rather not have
   * loaded whole (a database's large retriever files; a folder's, when opened with
   * `pagedFromBytes`); undefined for the rest. Retriever
   * files it is offered for are not hashed whole when a retriever loads (see
   * `LoadContext.openRanges`).
   */
  fileRanges?(path: string): FileRanges | undefined;
  /** Releases what the store holds open (connections); the file store holds nothing. */
  close(): Promise<void>;
}

/** How a folder store reads large files. */
export interface FileStoreOptions {
  /**
   * Retriever files at least this many bytes, written with page checksums (every index
   * written since they were added), are offered in parts (`fileRanges`) rather than loaded
   * whole, in [0, ∞]. A one-shot search reads a small part of its bm25 index this way; a
   * server or a batch, which reads it all in the end, loads it whole. Default
   * {@link DEFAULT_FILE_STORE_OPTIONS}.pagedFromBytes (never).
   */
  pagedFromBytes: number;
}

export const DEFAULT_FILE_STORE_OPTIONS: Readonly<FileStoreOptions> = Object.freeze({ pagedFromBytes: Number.POSITIVE_INFINITY });

/** The index in folder `dir`: generation folders published by a pointer file (see `writeIndex`). */
export function createFileStore(dir: string, settings: Partial<FileStoreOptions> = {}): IndexStore {
  const { pagedFromBytes } = { ...DEFAULT_FILE_STORE_OPTIONS, ...settings };
  if (!(pagedFromBytes >= 0)) {
    throw new RagError('INVALID_ARGUMENT', `pagedFromBytes must be a number of bytes ≥ 0 (got ${String(pagedFromBytes)}).`, { hint: 'Pass 0 to read every large file in parts, Infinity for never.' });
  }
  // The generations opened so far (their folder → manifest): `fileRanges` finds a file's page checksums there.
  const opened = new Map<string, IndexManifest>();
  const remember = <T extends OpenedIndex>(index: T): T => {
    opened.set(index.dir, index.manifest);
    return index;
  };
  return {
    kind: 'file',
    location: dir,
    address: dir,
    open: async (pin) => remember(await openIndex(dir, pin)),
    read: async (pin, options) => remember(await readIndex(dir, pin, options)),
    fileRanges(path) {
      if (pagedFromBytes === Number.POSITIVE_INFINITY) return undefined;
      for (const [generationDir, manifest] of opened) {
        const file = relative(generationDir, path).split(sep).join('/');
        if (file.startsWith('..') || isAbsolute(file)) continue;
        const checksum = manifest.checksums[file];
        return checksum && checksum.size >= pagedFromBytes ? fileRangesOnDisk(dir, file, path, checksum) : undefined;
      }
      return undefined;
    },
    readFile: readIndexFile,
    write: (input, options) => writeIndex(dir, input, options),
    verify: (options) => verifyIndex(dir, options),
    close: async () => {},
  };
}
