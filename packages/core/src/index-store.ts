import { readFileSync } from 'node:fs';
import { copyFile, link, mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { crc32 } from 'node:zlib';
import { randomHex } from './crypto.js';
import { RagError } from './errors.js';
import { ensureDirectory, fsyncPath, fsyncTree, writeFileAtomic, writeFileDurable } from './fs.js';
import { checksumTree, indexDamagedError, matchesChecksum, sha256Of, verifyChecksums, type IndexChecksums, type VerifyOptions } from './index-integrity.js';
import { acquireIndexLock, INDEX_LOCK_FILE } from './index-lock.js';
import { chunkArrayOf, CHUNKS_FILE, decodeChunkTable, encodeChunkTable, storedChunkList, type ChunkTable, type ChunkTableSource } from './chunk-table.js';
import { openTexts, planTextReuse, TEXT_OFFSETS_FILE, writeTexts, type TextStore } from './index-texts.js';
import type { IndexFileReader } from './shared-files.js';
import type { SaveContext } from './retriever.js';
import type { Chunk, FileRecord } from './types.js';

/**
 * Bumped whenever the on-disk layout changes; older indexes are refused, not misread.
 * 2: generation folders published by a pointer file, every file checksummed.
 * 3: chunk texts in `texts.bin`, each with a CRC-32. 4: chunk metadata in `chunks.bin` columns.
 * 5: chunk texts in segments an update links from the generation before (`text-offsets.bin` names them).
 */
export const INDEX_FORMAT_VERSION = 5;
export const INDEX_FORMAT = 'rag-index';
/** The file that names the published generation: replacing it is the one atomic step of publishing. */
export const INDEX_POINTER_FILE = 'CURRENT';
/** Where the generations (complete indexes, one folder each) live inside an index directory. */
export const GENERATIONS_DIR = 'generations';
const STAGING_PREFIX = '.staging-';
/**
 * Generations kept after a publish: the new one and the one before, which a reader that
 * read the pointer just before the swap may still be loading.
 */
export const KEPT_GENERATIONS = 2;
export const MANIFEST_FILE = 'manifest.json';

export interface RetrieverEntry {
  name: string;
  /** Settings the retriever was built with (k1, b, model id, …). */
  settings: Record<string, unknown>;
  builtAt: string;
}

export interface IndexManifest {
  format: typeof INDEX_FORMAT;
  formatVersion: number;
  /** Version of the tool that wrote the index. */
  toolVersion: string;
  createdAt: string;
  /** Absolute path of the corpus root when indexed. */
  corpusDir: string;
  /** The corpus directory exactly as the user gave it (for output paths). */
  corpusDirAsGiven: string;
  /** Chunking settings (max chunk size, extensions, …). */
  chunking: Record<string, unknown>;
  /** Retrievers saved in this index, the first being the default. */
  retrievers: RetrieverEntry[];
  counts: { files: number; chunks: number };
  files: FileRecord[];
  /** The generation folder this manifest belongs to. */
  generation: string;
  /** Size and sha256 of every other file of the generation, verified before it is read. */
  checksums: IndexChecksums;
}

/** The content of the pointer file. */
interface IndexPointer {
  format: typeof INDEX_FORMAT;
  formatVersion: number;
  generation: string;
  /** sha256 of the generation's manifest.json: the manifest is checked like every other file. */
  manifestSha256: string;
  /** Its CRC-32, what opening checks (see `FileChecksum.crc32`); absent in older indexes. */
  manifestCrc32?: number;
}

/** A published index generation, its manifest verified. */
export interface OpenedIndex {
  /** The index directory the caller named. */
  indexDir: string;
  /** The generation folder inside it that holds the files. */
  dir: string;
  manifest: IndexManifest;
  /** Which generation this is: open it again, whatever the pointer says by then, with `openIndex(indexDir, pin)`. */
  pin: GenerationPin;
}

/** One published generation of an index and the checksum of its manifest. */
export interface GenerationPin {
  generation: string;
  manifestSha256: string;
}

export interface LoadedIndex extends OpenedIndex {
  /** Every chunk; its `text` is read from the index file when first asked for, not held in memory. */
  chunks: Chunk[];
  /** Random access to the chunk texts (what each chunk's `text` reads through). */
  texts: TextStore;
}

export interface WriteIndexInput {
  manifest: Omit<IndexManifest, 'format' | 'formatVersion' | 'counts' | 'retrievers' | 'generation' | 'checksums'>;
  chunks: readonly Chunk[];
  /**
   * A re-index: the previous generation's texts and, for chunk i, the previous chunk whose
   * text it copies (-1 for a chunk of a changed file). The file store then links the
   * segments that hold those texts into the new generation (see `planTextReuse`) or copies
   * their bytes, instead of encoding `chunks[i].text` again; a store that does not keep
   * texts as bytes ignores it.
   */
  previousTexts?: { texts: TextStore; sourceOf: (i: number) => number; checksums: IndexChecksums };
  /** A re-index: the previous generation's chunk table and the chunk each new one copies, whose symbols are copied as bytes (see `encodeChunkTable`). */
  previousChunks?: ChunkTableSource;
  /**
   * The generation an update starts from (its folder and its manifest's checksums): a
   * retriever may link its files into the new one (`SaveContext.linkFile`), which then
   * records their checksums instead of hashing them again.
   */
  previousGeneration?: { dir: string; checksums: IndexChecksums };
  /** Each retriever writes its own state into the directory it is given. */
  retrievers: { entry: RetrieverEntry; save: (dir: string, context?: SaveContext) => Promise<void> }[];
}

/** Directory inside an index generation (`OpenedIndex.dir`) where retriever `name` keeps its state. */
export function retrieverDir(generationDir: string, name: string): string {
  return join(generationDir, 'retrievers', name);
}

/**
 * Replacing `dir` deletes what was there, so only an empty or missing directory, or one that
 * holds a rag index, may be written over: a mistyped `--index_dir ~/project` must not wipe it.
 */
export async function assertReplaceableIndexDir(dir: string): Promise<void> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    if (code === 'ENOTDIR') {
      throw new RagError('INVALID_ARGUMENT', `${dir} exists and is not a directory.`, { hint: 'Choose another index directory.' });
    }
    throw new RagError('IO_ERROR', `Cannot read ${dir}: ${(error as Error).message}`, { cause: error });
  }
  // Empty, or only what a first write killed before publishing leaves behind.
  if (entries.every((name) => name === GENERATIONS_DIR || name === INDEX_LOCK_FILE)) return;
  let format: unknown;
  for (const marker of [INDEX_POINTER_FILE, MANIFEST_FILE]) {
    try {
      format = (JSON.parse(await readFile(join(dir, marker), 'utf8')) as { format?: unknown }).format;
      break;
    } catch {
      format = undefined;
    }
  }
  if (format !== INDEX_FORMAT) {
    throw new RagError('INVALID_ARGUMENT', `Refusing to write an index into ${dir}: it is not empty and holds no rag index, and writing would delete its contents.`, {
      hint: 'Point the index directory at an empty or new folder (or a previous rag index).',
    });
  }
}

/** The steps of publishing, in order; `WriteIndexOptions.onStep` is called after each. */
export const PUBLISH_STEPS = ['locked', 'staged', 'checksummed', 'synced', 'renamed', 'published', 'cleaned'] as const;
export type PublishStep = (typeof PUBLISH_STEPS)[number];

export interface WriteIndexOptions {
  /**
   * Called after each publishing step: for fault-injection tests (a writer killed at any
   * step must leave the old or the new index, whole) and progress. Default: none.
   */
  onStep?: (step: PublishStep) => void | Promise<void>;
}

/** A new generation's name: `g-` and the time (so names sort by age), then random hex. */
export function newGenerationName(): string {
  return `g-${new Date().toISOString().replace(/[-:.]/g, '')}-${randomHex(3)}`;
}

async function readPointer(indexDir: string): Promise<IndexPointer | undefined> {
  let text: string;
  try {
    text = readFileSync(join(indexDir, INDEX_POINTER_FILE), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ENOTDIR') {
      throw new RagError('INDEX_NOT_FOUND', `${indexDir} is a file, not an index folder.`, {
        hint: 'Pass the folder `rag index` wrote (--index_dir), or build one there with `rag index --corpus_dir <dir>`.',
        cause: error,
      });
    }
    throw new RagError('IO_ERROR', `Cannot read ${join(indexDir, INDEX_POINTER_FILE)}: ${(error as Error).message}`, {
      hint: 'Check that the index folder is readable by this user.',
      cause: error,
    });
  }
  let pointer: Partial<IndexPointer>;
  try {
    pointer = JSON.parse(text) as Partial<IndexPointer>;
  } catch (error) {
    throw indexDamagedError(indexDir, INDEX_POINTER_FILE, 'is not valid JSON', error);
  }
  if (pointer.format !== INDEX_FORMAT) throw indexDamagedError(indexDir, INDEX_POINTER_FILE, `does not name a ${INDEX_FORMAT}`);
  if (pointer.formatVersion !== INDEX_FORMAT_VERSION) {
    throw new RagError('INDEX_INCOMPATIBLE', `The index in ${indexDir} has format version ${String(pointer.formatVersion)}; this version reads version ${INDEX_FORMAT_VERSION}.`, {
      hint: 'Rebuild it with `rag index --corpus_dir <dir>`.',
    });
  }
  if (
    typeof pointer.generation !== 'string' ||
    !/^g-[\w-]+$/.test(pointer.generation) ||
    typeof pointer.manifestSha256 !== 'string' ||
    (pointer.manifestCrc32 !== undefined && (!Number.isInteger(pointer.manifestCrc32) || pointer.manifestCrc32 < 0 || pointer.manifestCrc32 > 0xffffffff))
  ) {
    throw indexDamagedError(indexDir, INDEX_POINTER_FILE, 'does not name a generation');
  }
  return pointer as IndexPointer;
}

/** Removes generations other than the `keep` newest (by name, which starts with the time) and every staging folder. */
async function removeOldGenerations(generationsDir: string, current: string, keep: number): Promise<void> {
  let names: string[];
  try {
    names = await readdir(generationsDir);
  } catch {
    return;
  }
  const published = names.filter((n) => n.startsWith('g-') && n !== current).sort().reverse();
  const doomed = [...published.slice(Math.max(0, keep - 1)), ...names.filter((n) => n.startsWith(STAGING_PREFIX))];
  await Promise.all(doomed.map((n) => rm(join(generationsDir, n), { recursive: true, force: true })));
}

/** Removes what the first format left at the top of an index directory once a generation replaces it. */
async function removeFormatOneFiles(indexDir: string): Promise<void> {
  await Promise.all([MANIFEST_FILE, 'chunks.json', 'texts.json', 'retrievers'].map((n) => rm(join(indexDir, n), { recursive: true, force: true })));
}

/**
 * Writes a complete index into `dir` and publishes it atomically. Under the writer lock, a
 * new generation is staged (chunks, texts, each retriever's files, then the manifest with
 * every file's checksum), synced to disk, renamed into `generations/`, and published by
 * replacing the pointer file; only then are older generations and leftovers removed.
 * Readers see the old index or the new one, whole, whatever step a writer dies at.
 */
export async function writeIndex(dir: string, input: WriteIndexInput, options: WriteIndexOptions = {}): Promise<IndexManifest> {
  await assertReplaceableIndexDir(dir);
  await ensureDirectory(join(dir, GENERATIONS_DIR));
  const release = await acquireIndexLock(dir);
  const step = async (name: PublishStep): Promise<void> => {
    await options.onStep?.(name);
  };
  const generationsDir = join(dir, GENERATIONS_DIR);
  const generation = newGenerationName();
  const staging = join(generationsDir, `${STAGING_PREFIX}${generation}`);
  try {
    // We hold the lock: any staging folder is what a killed writer left.
    const leftovers = (await readdir(generationsDir)).filter((n) => n.startsWith(STAGING_PREFIX));
    await Promise.all(leftovers.map((n) => rm(join(generationsDir, n), { recursive: true, force: true })));
    await step('locked');
    await mkdir(staging, { recursive: true });
    const base = {
      format: INDEX_FORMAT,
      formatVersion: INDEX_FORMAT_VERSION,
      ...input.manifest,
      retrievers: input.retrievers.map((r) => r.entry),
      counts: { files: input.manifest.files.length, chunks: input.chunks.length },
      generation,
    } as const;
    await writeFileAtomic(join(staging, CHUNKS_FILE), encodeChunkTable(input.chunks, base.files, input.previousChunks));
    const linked = await writeChunkTexts(dir, staging, generation, input);
    // A linked segment is the previous generation's file: its recorded checksums hold.
    const carried = Object.fromEntries(linked.map((name) => [name, input.previousTexts!.checksums[name]!]));
    const context = input.previousGeneration ? { linkFile: linkFromGeneration(dir, input.previousGeneration, staging, carried) } : {};
    for (const retriever of input.retrievers) {
      const target = retrieverDir(staging, retriever.entry.name);
      await mkdir(target, { recursive: true });
      await retriever.save(target, context);
    }
    await step('staged');
    const manifest: IndexManifest = { ...base, checksums: { ...(await checksumTree(staging, [MANIFEST_FILE, ...Object.keys(carried)])), ...carried } };
    const manifestText = JSON.stringify(manifest, null, 1);
    await writeFileAtomic(join(staging, MANIFEST_FILE), manifestText);
    await step('checksummed');
    await fsyncTree(staging);
    await step('synced');
    await rename(staging, join(generationsDir, generation));
    await fsyncPath(generationsDir);
    await step('renamed');
    const pointer: IndexPointer = { format: INDEX_FORMAT, formatVersion: INDEX_FORMAT_VERSION, generation, manifestSha256: sha256Of(manifestText), manifestCrc32: crc32(manifestText) };
    await writeFileDurable(join(dir, INDEX_POINTER_FILE), JSON.stringify(pointer, null, 1));
    await step('published');
    await removeFormatOneFiles(dir);
    await removeOldGenerations(generationsDir, generation, KEPT_GENERATIONS);
    await step('cleaned');
    return manifest;
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  } finally {
    await release();
  }
}

const toPosix = (path: string): string => path.split(sep).join('/');

/**
 * `SaveContext.linkFile` for a write into `staging` that starts from `previous`: links a file
 * the previous manifest records and notes its checksums in `carried` (by its path in the new
 * generation).
 */
function linkFromGeneration(indexDir: string, previous: { dir: string; checksums: IndexChecksums }, staging: string, carried: IndexChecksums): (source: string, target: string) => Promise<boolean> {
  return async (source, target) => {
    const file = toPosix(relative(previous.dir, source));
    const sum = previous.checksums[file];
    const placed = toPosix(relative(staging, target));
    if (!sum || placed.startsWith('../')) return false;
    // As for text segments: a damaged file is INDEX_CORRUPT now (the update rebuilds), not
    // damage carried into every later generation under its old checksum.
    await verifyChecksums(indexDir, previous.dir, { [file]: sum }, '', undefined, { quick: true });
    await link(source, target).catch(() => copyFile(source, target));
    carried[placed] = sum;
    return true;
  };
}

/**
 * Writes the texts of `input.chunks` into `staging`: a re-index links the previous
 * generation's text segments that still hold copied texts and writes only the rest into a
 * segment named for `generation`, while `planTextReuse` allows it; otherwise (and on a
 * build) every text goes into one segment, copied texts as the previous generation's bytes.
 * Returns the linked segments.
 */
async function writeChunkTexts(dir: string, staging: string, generation: string, input: WriteIndexInput): Promise<string[]> {
  const { chunks, previousTexts } = input;
  const layout = previousTexts?.texts.layout;
  const plan = layout ? planTextReuse(layout, previousTexts.sourceOf, chunks.length) : undefined;
  if (layout && plan && plan.every((name) => previousTexts!.checksums[name])) {
    // Linked bytes are not read again by this update, so check them now (CRC-32s, a read of
    // the segments, not a write): a damaged one is INDEX_CORRUPT here, which rebuilds the
    // index from the corpus, instead of damage carried into every later generation.
    const sums = Object.fromEntries(plan.map((name) => [name, previousTexts!.checksums[name]!]));
    await verifyChecksums(dir, layout.dir, sums, '', undefined, { quick: true });
    for (const name of plan) await link(join(layout.dir, name), join(staging, name)).catch(() => copyFile(join(layout.dir, name), join(staging, name)));
    const { sourceOf } = previousTexts!;
    await writeTexts(
      staging,
      (function* () {
        for (let i = 0; i < chunks.length; i++) {
          const j = sourceOf(i);
          yield j >= 0 ? j : chunks[i]!.text;
        }
      })(),
      `texts-${generation}.bin`,
      layout,
    );
    return plan;
  }
  await writeTexts(
    staging,
    (function* () {
      for (let i = 0; i < chunks.length; i++) {
        const j = previousTexts?.sourceOf(i) ?? -1;
        yield j >= 0 && previousTexts!.texts.bytes ? previousTexts!.texts.bytes(j) : chunks[i]!.text;
      }
    })(),
  );
  return [];
}

async function openOnce(indexDir: string, pin?: GenerationPin): Promise<OpenedIndex> {
  const pointer = pin ?? (await readPointer(indexDir));
  if (!pointer) {
    let formatOne = false;
    try {
      formatOne = ((JSON.parse(await readFile(join(indexDir, MANIFEST_FILE), 'utf8')) as { format?: unknown }).format ?? undefined) === INDEX_FORMAT;
    } catch {
      formatOne = false;
    }
    const generations = await readdir(join(indexDir, GENERATIONS_DIR)).catch(() => [] as string[]);
    if (generations.some((n) => n.startsWith('g-'))) throw indexDamagedError(indexDir, INDEX_POINTER_FILE, 'is missing');
    if (formatOne) {
      throw new RagError('INDEX_INCOMPATIBLE', `The index in ${indexDir} has format version 1; this version reads version ${INDEX_FORMAT_VERSION}.`, {
        hint: 'Rebuild it with `rag index --corpus_dir <dir>`.',
      });
    }
    throw new RagError('INDEX_NOT_FOUND', `No index found in ${indexDir}.`, {
      hint: 'Build one with `rag index --corpus_dir <dir>` (add `--index_dir` to put it elsewhere).',
    });
  }
  const generationDir = join(indexDir, GENERATIONS_DIR, pointer.generation);
  let bytes: Buffer;
  try {
    // Synchronous: opening waits for it anyway, and a read through the thread pool is four round trips.
    // As bytes: their checksum needs no encoding of a string back to UTF-8, and one decode of the
    // whole is cheaper than the decoding read (~0.6 MB on vLLM: 7 → 5 ms with the check).
    bytes = readFileSync(join(generationDir, MANIFEST_FILE));
  } catch (error) {
    const exists = await readdir(generationDir).then(
      () => true,
      () => false,
    );
    if (!exists && pin) {
      throw new RagError('INDEX_NOT_FOUND', `Generation ${pin.generation} of the index in ${indexDir} has been removed (newer ones were published since it was opened).`, {
        hint: 'Open the index again to read the published generation.',
        cause: error,
      });
    }
    if (!exists) throw indexDamagedError(indexDir, INDEX_POINTER_FILE, `names generation ${pointer.generation}, which is missing`, error);
    throw indexDamagedError(indexDir, MANIFEST_FILE, 'is missing', error);
  }
  // A pin names its generation by the sha256; the published pointer also gives the CRC-32.
  const expected = pin ? { sha256: pin.manifestSha256 } : { sha256: pointer.manifestSha256, crc32: (pointer as IndexPointer).manifestCrc32 };
  if (!matchesChecksum(bytes, expected)) throw indexDamagedError(indexDir, MANIFEST_FILE, 'does not match its checksum');
  const manifest = JSON.parse(bytes.toString('utf8')) as IndexManifest;
  return { indexDir, dir: generationDir, manifest, pin: { generation: pointer.generation, manifestSha256: pointer.manifestSha256 } };
}

/**
 * Opens the published generation of `indexDir`: the pointer, then the manifest it names,
 * checked against the checksum the pointer records. A generation removed between the two
 * reads (two publishes in between) is retried from the new pointer. With `pin`, that
 * generation and no other (a generation since removed is `INDEX_CORRUPT`).
 */
export async function openIndex(indexDir: string, pin?: GenerationPin): Promise<OpenedIndex> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await openOnce(indexDir, pin);
    } catch (error) {
      if (pin || attempt >= 2 || !(await generationMoved(indexDir, error))) throw error;
    }
  }
}

/** True when `error` is a missing file and the pointer has moved on since: a reader raced two publishes. */
async function generationMoved(indexDir: string, error: unknown, from?: string): Promise<boolean> {
  if (!(error instanceof RagError) || error.code !== 'INDEX_CORRUPT' || !/is missing/.test(error.message)) return false;
  const pointer = await readPointer(indexDir).catch(() => undefined);
  return pointer !== undefined && (from === undefined || pointer.generation !== from);
}

/** Reads only the manifest (verified), checking that this version can read the index. */
export async function readManifest(dir: string): Promise<IndexManifest> {
  return (await openIndex(dir)).manifest;
}

/** Checks every file of the published generation against its checksum: what `rag verify` runs (see `VerifyOptions`). */
export async function verifyIndex(indexDir: string, options: VerifyOptions = {}): Promise<{ generation: string; files: number; bytes: number }> {
  const opened = await openIndex(indexDir);
  const checked = await verifyChecksums(indexDir, opened.dir, opened.manifest.checksums, '', undefined, options);
  return { generation: opened.manifest.generation, files: checked.files + 1, bytes: checked.bytes };
}

/**
 * Verifies the files of retriever `name` in an opened index before they are loaded. With
 * `read`, each file is read through it and its bytes hashed, so a memoising reader then
 * hands the loader the bytes that were checked. Files `skip` names (paths inside the
 * generation) are left out: the store checks them page by page as they are read.
 */
export async function verifyRetrieverFiles(index: OpenedIndex, name: string, read?: IndexFileReader, skip?: (file: string) => boolean): Promise<void> {
  const prefix = `retrievers/${name}/`;
  const sums = skip ? Object.fromEntries(Object.entries(index.manifest.checksums).filter(([file]) => file.startsWith(prefix) && !skip(file))) : index.manifest.checksums;
  await verifyChecksums(index.indexDir, index.dir, sums, prefix, read);
}

/** How {@link readIndex} (and `IndexStore.read`) hands over the chunks. */
export interface ReadIndexOptions {
  /**
   * Make each chunk object when it is first read (`storedChunkList`) instead of all of them
   * now (`chunkArrayOf`): for a process that answers one question, which reads a few dozen
   * chunks. Indexing such a list costs a proxy trap, so a session that searches many times
   * leaves this off. Default false.
   */
  lazyChunks?: boolean;
}

/** Loads an index's manifest and chunks (with their texts), every file read verified first; `pin` as in {@link openIndex}. */
export async function readIndex(dir: string, pin?: GenerationPin, options: ReadIndexOptions = {}): Promise<LoadedIndex> {
  for (let attempt = 0; ; attempt++) {
    const opened = await openIndex(dir, pin);
    try {
      return await loadChunks(opened, options);
    } catch (error) {
      if (pin || attempt >= 2 || !(await generationMoved(dir, error, opened.manifest.generation))) throw error;
    }
  }
}

async function loadChunks(opened: OpenedIndex, options: ReadIndexOptions): Promise<LoadedIndex> {
  const { manifest, indexDir } = opened;
  const dir = opened.dir;
  const sums = manifest.checksums ?? {};
  // texts.bin is not hashed whole here: each text is checked against its CRC-32 (in
  // text-offsets.bin, verified now) when it is read, so opening costs nothing per text.
  // The other two are read once: the bytes hashed are the bytes decoded.
  const read = new Map<string, Buffer>();
  for (const file of [CHUNKS_FILE, TEXT_OFFSETS_FILE]) {
    if (!sums[file]) throw indexDamagedError(indexDir, MANIFEST_FILE, `records no checksum for ${file}`);
    await verifyChecksums(indexDir, dir, { [file]: sums[file] }, '', async (path) => {
      const bytes = readFileSync(path);
      read.set(file, bytes);
      return bytes;
    });
  }
  const table = decodeChunkTable(read.get(CHUNKS_FILE)!, manifest.counts.chunks, manifest.files.length, (what) => indexDamagedError(indexDir, CHUNKS_FILE, what));
  const texts = openTexts(indexDir, dir, manifest.counts.chunks, read.get(TEXT_OFFSETS_FILE)!);
  return { ...opened, ...assembleChunks(indexDir, manifest, table, texts, options) };
}

/**
 * The chunks of a generation from its manifest, its decoded `chunks.bin` and its texts:
 * what every store hands a session, made now or when first read (`options.lazyChunks`); a
 * chunk's `text` is read through `texts` when asked for.
 */
export function assembleChunks(indexDir: string, manifest: IndexManifest, table: ChunkTable, texts: TextStore, options: ReadIndexOptions = {}): { chunks: Chunk[]; texts: TextStore } {
  const count = manifest.counts.chunks;
  if (table.count !== count || texts.count !== count) {
    throw new RagError('INDEX_CORRUPT', `The index in ${indexDir} is damaged: its chunk files do not match its manifest.`, {
      hint: 'Rebuild it with `rag index --corpus_dir <dir>`.',
    });
  }
  return { chunks: (options.lazyChunks ? storedChunkList : chunkArrayOf)(manifest.files, table, texts), texts };
}
