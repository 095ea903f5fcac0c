import { join, relative, sep } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { CHUNKER_REVISION, chunkCorpus, DEFAULT_IGNORED_DIRS, DEFAULT_MAX_CHUNK_SIZE, DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_LINE_LENGTH, unchangedByRecords, walkCorpus, type WalkedFile, type WalkOptions } from '@rag/chunking';
import { chunkTableOf, fileRunsOf, isRagError, linkOrCopyTree, OffsetMap, PAGED_FILE_MIN_BYTES, sliceCodePoints, retrieverDir, verifyChecksums, verifyRetrieverFiles, type WriteIndexInput, type Chunk, type FileRecord, type IndexStore, type IndexManifest, type LoadedIndex, type PreviousBuild, type ProgressFn, type RetrieverFactory, type RetrieverRegistry } from '@rag/core';
import { createDefaultRetrieverRegistry } from './retrievers.js';
import { openStore } from './stores.js';

export interface BuildIndexOptions {
  /** Absolute corpus directory. */
  corpusDir: string;
  /** The corpus directory as the user gave it (output paths are built from it). Default `corpusDir`. */
  corpusDirAsGiven?: string;
  /** Where the index goes: a folder, or a `postgresql://` connection string (see `openStore`). */
  indexDir: string;
  /** Retriever to build, by name in `retrievers`. */
  retriever: string;
  /** Default: `createDefaultRetrieverRegistry()`. */
  retrievers?: RetrieverRegistry;
  /** Largest chunk in code points. Default `DEFAULT_MAX_CHUNK_SIZE` of @rag/chunking. */
  maxChunkSize?: number;
  /** Skip files over this many bytes; 0 = no limit. Default `DEFAULT_MAX_FILE_BYTES` of @rag/chunking. */
  maxFileBytes?: number;
  /** Skip files with a longer line (minified, generated); 0 = no limit. Default `DEFAULT_MAX_LINE_LENGTH`. */
  maxLineLength?: number;
  /** Folder names never walked. Default `DEFAULT_IGNORED_DIRS` of @rag/chunking (VCS, caches, virtualenvs). */
  ignoredDirs?: readonly string[];
  /** Honour .gitignore and .ignore files. Default `true`. */
  ignoreFiles?: boolean;
  /** Threads that chunk at once, in [1, 64]; output is the same. Default `defaultConcurrency()` of @rag/chunking. */
  threads?: number;
  /** Version of the tool writing the index; a different one in the old index forces a full rebuild. */
  toolVersion: string;
  /** Rebuild from scratch even when the old index could be updated. Default `false`. */
  full?: boolean;
  onProgress?: ProgressFn;
  /** A skipped file (binary, not UTF-8, …). */
  onWarning?: (message: string) => void;
  /**
   * A full garbage collection (V8's `gc`), called between chunking and fitting and handed to
   * the retriever (`BuildContext.collectGarbage`), so that one phase's garbage is gone before
   * the next allocates: lowers the peak memory of `rag index`, never changes its output.
   * Default: none.
   */
  collectGarbage?: () => void;
}

export interface BuildIndexReport {
  /**
   * `incremental`: unchanged files kept their chunks; `full`: everything was chunked;
   * `unchanged`: nothing changed and the index (verified whole) was left as it was.
   */
  mode: 'full' | 'incremental' | 'unchanged';
  /** Why a full rebuild was needed when an index existed (said to the user), else undefined. */
  reason: string | undefined;
  /** What else the user should know, one sentence each: a retriever that could not reuse its previous build, and why. */
  notes: string[];
  /** `unread`: unchanged files not even read, their stat signature being as recorded (see `FileRecord.stat`). */
  files: { added: number; changed: number; removed: number; unchanged: number; unread: number; total: number };
  chunks: number;
  /** Chunks whose file was unchanged and that were taken over from the old index. */
  reusedChunks: number;
  seconds: { chunk: number; fit: number; save: number; total: number };
  manifest: IndexManifest;
}

/** Why `old` cannot be updated in place for these options, or undefined when it can. */
function rebuildReason(old: IndexManifest, options: BuildIndexOptions, chunking: Record<string, unknown>): string | undefined {
  if (old.toolVersion !== options.toolVersion) return `the index was written by rag ${old.toolVersion}, this is ${options.toolVersion}`;
  if (old.corpusDir !== options.corpusDir) return `the index is of another corpus directory (${old.corpusDir})`;
  if (!isDeepStrictEqual(old.chunking, chunking)) return 'the chunking settings changed';
  if (old.retrievers.length !== 1 || old.retrievers[0]!.name !== options.retriever) return `the index was built with ${old.retrievers.map((r) => r.name).join(', ')}`;
  return undefined;
}

async function openPrevious(store: IndexStore, options: BuildIndexOptions, chunking: Record<string, unknown>): Promise<{ index?: LoadedIndex; reason?: string }> {
  if (options.full) return { reason: '--full was given' };
  let index: LoadedIndex;
  try {
    // Chunk objects made when first read: an update copies the old chunks off the table's
    // columns (see `copierOf`), and reads a few of them whole.
    index = await store.read(undefined, { lazyChunks: true });
  } catch (error) {
    if (isRagError(error) && error.code === 'INDEX_NOT_FOUND') return {};
    if (isRagError(error) && (error.code === 'INDEX_CORRUPT' || error.code === 'INDEX_INCOMPATIBLE')) return { reason: `the old index cannot be read (${error.message})` };
    throw error;
  }
  // Every store's chunks come from a chunk table (`assembleChunks`), which an update copies from.
  const reason = rebuildReason(index.manifest, options, chunking) ?? (chunkTableOf(index.chunks) ? undefined : 'the old index was not read from a chunk table');
  if (reason) {
    index.texts.close();
    return { reason };
  }
  return { index };
}

/**
 * For each new chunk, the old chunk it copies (-1 for none): the source of each copy an
 * update took over (see {@link CopiedChunk}).
 */
function copiedChunks(chunks: readonly Chunk[]): Int32Array {
  const sourceOf = new Int32Array(chunks.length);
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i]!;
    sourceOf[i] = chunk instanceof CopiedChunk ? chunk.sourceId : -1;
  }
  return sourceOf;
}

/**
 * The old generation's build of retriever `name`, for the factory to take over what it
 * computed for unchanged files (`sourceOf`, see `copiedChunks`). Undefined when the old
 * files do not verify (then everything is computed). Files the store serves in checked
 * pages are not verified up front: the factory reads what it needs of them through the pages.
 */
async function describePreviousBuild(store: IndexStore, old: LoadedIndex, name: string, sourceOf: Int32Array): Promise<PreviousBuild | undefined> {
  if (!old.manifest.retrievers.some((entry) => entry.name === name)) return undefined;
  // Each file is read once: the bytes hashed here are the bytes the factory is handed.
  const source = store.readFile;
  const read = new Map<string, Promise<Uint8Array>>();
  const readFile = (path: string): Promise<Uint8Array> => {
    let bytes = read.get(path);
    if (!bytes) read.set(path, (bytes = source(path)));
    return bytes;
  };
  const fileRanges = store.fileRanges?.bind(store);
  const paged = fileRanges ? (file: string): boolean => fileRanges(join(old.dir, file)) !== undefined : undefined;
  try {
    await verifyRetrieverFiles(old, name, readFile, paged);
  } catch {
    return undefined;
  }
  // A paged file a factory reads whole after all is hashed then, before it gets the bytes.
  const readChecked = async (path: string): Promise<Uint8Array> => {
    const file = relative(old.dir, path).split(sep).join('/');
    const sum = old.manifest.checksums[file];
    if (paged?.(file) && sum) await verifyChecksums(store.location, old.dir, { [file]: sum }, '', readFile);
    return readFile(path);
  };
  return { dir: retrieverDir(old.dir, name), chunks: old.chunks, sourceOf, readFile: readChecked, ...(fileRanges ? { openRanges: fileRanges } : {}), verified: true };
}

/**
 * Share of the corpus's files an update must have chunked for a full garbage collection
 * between chunking and fitting (`BuildIndexOptions.collectGarbage`) to pay: a full build
 * always collects.
 */
export const CHUNKED_SHARE_WORTH_COLLECTING = 0.25;

/**
 * Stat signatures an update may leave unrecorded rather than write the index again to record
 * them, as a share of the corpus's files. A file whose recorded signature is missing (it was
 * read within `SETTLED_MS` of a write) or stale (touched, or rewritten with the same bytes, as
 * a branch switch does) is read and hashed again by every later update: ~0.15 ms a file on
 * vLLM, against ~1 s to write its index again, so a twentieth of the files costs a tenth of
 * that write per update. More than that, the index is written to record them.
 */
export const MAX_UNRECORDED_SIGNATURES_SHARE = 0.05;

/**
 * Whether the old index is what this update would write: every file's content and every
 * chunk as recorded, a retriever that says its build is current for these settings, and the
 * published generation still the old one, verified whole (a damaged file is INDEX_CORRUPT,
 * which rebuilds it). Stat signatures only spare reads, so new ones for up to
 * {@link MAX_UNRECORDED_SIGNATURES_SHARE} of the files are left unrecorded.
 */
async function isUpToDate(
  store: IndexStore,
  old: LoadedIndex,
  factory: RetrieverFactory,
  corpus: { files: readonly FileRecord[]; chunks: readonly Chunk[] },
  sourceOf: Int32Array,
): Promise<boolean> {
  return hasSameContent(old, corpus, sourceOf) && sameFiles(corpus.files, old.manifest.files) && isKeptWhole(store, old.manifest, old.dir, factory);
}

/** Every file's content and every chunk as `old` records them (stat signatures aside). */
function hasSameContent(old: LoadedIndex, corpus: { files: readonly FileRecord[]; chunks: readonly Chunk[] }, sourceOf: Int32Array): boolean {
  if (corpus.chunks.length !== old.chunks.length) return false;
  for (let i = 0; i < sourceOf.length; i++) if (sourceOf[i] !== i) return false;
  return sameFiles(corpus.files, old.manifest.files, Number.POSITIVE_INFINITY);
}

/** The retriever's build in the old generation is what this update would write, and the generation is still published and verifies whole. */
async function isKeptWhole(store: IndexStore, manifest: IndexManifest, dir: string, factory: RetrieverFactory): Promise<boolean> {
  if (!factory.isCurrent || !manifest.retrievers.some((entry) => entry.name === factory.name)) return false;
  if (!(await factory.isCurrent({ dir: retrieverDir(dir, factory.name), chunkCount: manifest.counts.chunks }))) return false;
  // CRC-32s, as a search checks what it reads: this runs on every `rag index`, `rag verify` compares the sha256s too.
  return (await store.verify({ quick: true })).generation === manifest.generation;
}

/** Whether `walked` are the files `recorded` lists, each with the content recorded, and at most the allowed share of new stat signatures (see `MAX_UNRECORDED_SIGNATURES_SHARE`). */
function sameFiles(walked: readonly FileRecord[], recorded: readonly FileRecord[], maxUnrecordedShare = MAX_UNRECORDED_SIGNATURES_SHARE): boolean {
  if (walked.length !== recorded.length) return false;
  let unrecorded = 0;
  for (let i = 0; i < walked.length; i++) {
    const [now, before] = [walked[i]!, recorded[i]!];
    if (now.file_path !== before.file_path || now.sha256 !== before.sha256 || now.bytes !== before.bytes) return false;
    if (now.stat !== before.stat) unrecorded++;
  }
  return unrecorded <= maxUnrecordedShare * walked.length;
}

/** What `lookBeforeLoading` found: the old manifest when the index is up to date, and the walk of the corpus made to find out. */
interface FirstLook {
  /** Set when nothing changed: the published manifest, verified with its generation. */
  unchanged?: IndexManifest;
  /**
   * The corpus walked against the old manifest's records, the generation they came from, and
   * the walk's warnings (said only if this walk is the one the update uses, so that a file
   * skipped is reported once even when the update walks again).
   */
  walked?: { files: WalkedFile[]; generation: string; warnings: string[] };
}

/**
 * Decides from the manifest and a walk of the corpus alone whether the index is up to date,
 * before any chunk of it is loaded: an unchanged update (what an agent's `rag index` before
 * each search mostly is) then never builds the old generation's chunk table, which on vLLM
 * is 28,836 objects and most of the update's garbage collection. The walk uses the old
 * records (files whose stat signature is as recorded are not read) and is handed on to the
 * update when something changed, so the corpus is walked once either way. Only for folder
 * stores: a database store reads every file (see `unchanged` in `buildOnce`).
 */
async function lookBeforeLoading(
  store: IndexStore,
  options: BuildIndexOptions,
  chunking: Record<string, unknown>,
  factory: RetrieverFactory,
  walkOptions: WalkOptions,
): Promise<FirstLook> {
  if (options.full || store.kind !== 'file') return {};
  const opened = await store.open().catch(() => undefined);
  // A missing or unreadable index, or one to rebuild: the update itself says why.
  if (!opened || rebuildReason(opened.manifest, options, chunking)) return {};
  const { manifest } = opened;
  const records = new Map(manifest.files.map((f) => [f.file_path, f]));
  const warnings: string[] = [];
  const files = await walkCorpus(options.corpusDir, {
    ...walkOptions,
    onWarning: (message) => warnings.push(message),
    unchanged: unchangedByRecords(records),
  });
  const walked = { files, generation: manifest.generation, warnings };
  if (!sameFiles(files, manifest.files) || !(await isKeptWhole(store, manifest, opened.dir, factory))) return { walked };
  return { unchanged: manifest, walked };
}

/** What a copy reads of its old chunk only when asked: its symbol and its text, by the old chunk's id. */
interface OldChunkReader {
  symbol(i: number): string;
  text(i: number): string;
}

/**
 * An old chunk taken over by an update, with the metadata it had: its text is the one given
 * (sliced from its file, when the update read the file) or else read from the old generation
 * if and when asked for, and its symbol is decoded when first asked for. A class, not a
 * copied object with a getter defined on each: an update makes one per chunk of the corpus.
 */
class CopiedChunk implements Chunk {
  id: number;
  readonly file_path: string;
  readonly first_character_index: number;
  readonly last_character_index: number;
  readonly start_line: number;
  readonly end_line: number;
  readonly kind: Chunk['kind'];
  readonly language: Chunk['language'];
  /** The id of the old chunk this one copies (its position in the old index). */
  readonly sourceId: number;
  readonly #old: OldChunkReader;
  #symbol: string | undefined;
  readonly #text: string | undefined;

  constructor(metadata: Omit<Chunk, 'id' | 'symbol' | 'text'>, sourceId: number, old: OldChunkReader, text?: string) {
    this.id = sourceId;
    this.file_path = metadata.file_path;
    this.first_character_index = metadata.first_character_index;
    this.last_character_index = metadata.last_character_index;
    this.start_line = metadata.start_line;
    this.end_line = metadata.end_line;
    this.kind = metadata.kind;
    this.language = metadata.language;
    this.sourceId = sourceId;
    this.#old = old;
    this.#text = text;
  }

  get symbol(): string {
    return (this.#symbol ??= this.#old.symbol(this.sourceId));
  }

  get text(): string {
    return this.#text ?? this.#old.text(this.sourceId);
  }
}

/**
 * Copies of old chunks by id, with their text sliced by `slice` (from the file's text, given
 * its code-point offsets) when the update read the file: read off the old chunk table's
 * columns (`openPrevious` makes sure there is one), so that the old chunk objects are never
 * made.
 */
function copierOf(old: LoadedIndex): (i: number, slice?: (from: number, to: number) => string) => CopiedChunk {
  const { files, table } = chunkTableOf(old.chunks)!;
  const reader: OldChunkReader = { symbol: (i) => table.symbol(i), text: (i) => old.texts.text(i) };
  return (i, slice) => {
    const record = files[table.file[i]!]!;
    const metadata = {
      file_path: record.file_path,
      first_character_index: table.start[i]!,
      last_character_index: table.end[i]!,
      start_line: table.startLine[i]!,
      end_line: table.endLine[i]!,
      kind: table.kinds[table.kindIds[i]!]!,
      language: record.language,
    };
    return new CopiedChunk(metadata, i, reader, slice?.(metadata.first_character_index, metadata.last_character_index));
  };
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

/** The report of an update that found nothing changed (see `lookBeforeLoading`). */
function unchangedReport(manifest: IndexManifest, files: readonly WalkedFile[], started: number): BuildIndexReport {
  const total = round((performance.now() - started) / 1000);
  const unread = files.filter((file) => file.text === undefined).length;
  return {
    mode: 'unchanged',
    reason: undefined,
    notes: [],
    files: { added: 0, changed: 0, removed: 0, unchanged: files.length, unread, total: files.length },
    chunks: manifest.counts.chunks,
    reusedChunks: manifest.counts.chunks,
    seconds: { chunk: total, fit: 0, save: 0, total },
    manifest,
  };
}

/**
 * Builds the index of `corpusDir` into `indexDir`. When an index of the same corpus, tool
 * version, chunking settings and retriever is there (and `full` is not set), files whose
 * content hash is unchanged keep their chunks and only added or changed files are chunked;
 * removed files drop out. The retriever's statistics are always rebuilt over all chunks, so
 * the result equals a full rebuild.
 */
export async function buildIndex(options: BuildIndexOptions): Promise<BuildIndexReport> {
  try {
    return await buildOnce(options);
  } catch (error) {
    // An update reads the old generation as it goes (texts are checked one by one when read),
    // so damage can surface midway; a build never writes INDEX_CORRUPT of its own. Rebuilding
    // from the corpus is what the error's hint would say, and it needs nothing of the old index.
    if (options.full || !isRagError(error) || error.code !== 'INDEX_CORRUPT') throw error;
    const report = await buildOnce({ ...options, full: true });
    return { ...report, reason: `the old index is damaged (${error.message})` };
  }
}

async function buildOnce(options: BuildIndexOptions): Promise<BuildIndexReport> {
  const started = performance.now();
  const maxChunkSize = options.maxChunkSize ?? DEFAULT_MAX_CHUNK_SIZE;
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const maxLineLength = options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH;
  // Everything that decides which files and chunks there are: a change means a full rebuild.
  const ignoredDirs = [...(options.ignoredDirs ?? DEFAULT_IGNORED_DIRS)];
  const ignoreFiles = options.ignoreFiles ?? true;
  const chunking = { revision: CHUNKER_REVISION, maxChunkSize, maxFileBytes, maxLineLength, ignoredDirs, ignoreFiles };
  const factory = (options.retrievers ?? createDefaultRetrieverRegistry()).get(options.retriever);
  // Large retriever files offered in checked pages: an update reads of its previous build
  // only what it needs (a bm25 overlay reads a fifth of its base).
  const store = openStore(options.indexDir, { pagedFromBytes: PAGED_FILE_MIN_BYTES });
  const walkOptions: WalkOptions = {
    maxFileBytes,
    maxLineLength,
    ignoredDirs,
    ignoreFiles,
    ...(options.onWarning ? { onWarning: options.onWarning } : {}),
  };
  let look: FirstLook;
  let previous: Awaited<ReturnType<typeof openPrevious>>;
  try {
    look = await lookBeforeLoading(store, options, chunking, factory, walkOptions);
    if (look.unchanged) {
      await store.close();
      for (const warning of look.walked!.warnings) options.onWarning?.(warning);
      return unchangedReport(look.unchanged, look.walked!.files, started);
    }
    previous = await openPrevious(store, options, chunking);
  } catch (error) {
    await store.close();
    throw error;
  }
  const old = previous.index;
  // The first look's walk stands for this update's when it was made against the same old
  // generation, and when unread files may be left unread (see `unchanged` below).
  const walked = old && !old.texts.prefetch && look.walked?.generation === old.manifest.generation ? look.walked.files : undefined;
  if (walked) for (const warning of look.walked!.warnings) options.onWarning?.(warning);
  try {
    const oldFiles = new Map(old?.manifest.files.map((f) => [f.file_path, f]) ?? []);
    const oldHashes = new Map(old?.manifest.files.map((f) => [f.file_path, f.sha256]) ?? []);
    // A file whose recorded stat signature is unchanged is not read again (see `FileRecord.stat`).
    const unchanged = (path: string, stat: string): FileRecord | undefined => {
      const record = oldFiles.get(path);
      return record?.stat !== undefined && record.stat === stat ? record : undefined;
    };
    // Each old file's chunks are a run of the old chunk table (read off its file column).
    const oldRuns = old ? fileRunsOf(old.chunks) : undefined;
    const oldRunOf = new Map(oldRuns?.files.map((file, r) => [file.file_path, r]) ?? []);
    const copy = old ? copierOf(old) : undefined;
    let reusedChunks = 0;
    const reuse = (file: WalkedFile): Chunk[] | undefined => {
      if (oldHashes.get(file.file_path) !== file.sha256) return undefined;
      const run = oldRunOf.get(file.file_path);
      if (run === undefined) return [];
      const [first, end] = [oldRuns!.starts[run]!, oldRuns!.starts[run + 1]!];
      const kept: Chunk[] = [];
      reusedChunks += end - first;
      // Not read: each copy's text is read from the old generation if and when it is needed.
      if (file.text === undefined) {
        for (let i = first; i < end; i++) kept.push(copy!(i));
        return kept;
      }
      // Read: a chunk's text is its span of the file, which is unchanged: slicing it costs
      // nothing, reading it back from the old generation a read per chunk.
      const text = file.text;
      const map = new OffsetMap(text);
      const slice = (from: number, to: number): string => sliceCodePoints(text, from, to, map);
      for (let i = first; i < end; i++) kept.push(copy!(i, slice));
      return kept;
    };
    const corpus = await chunkCorpus(options.corpusDir, {
      maxChunkSize,
      ...walkOptions,
      ...(walked ? { walked } : {}),
      ...(options.threads === undefined ? {} : { concurrency: options.threads }),
      // Unread files' chunks read their texts from the old generation when asked, which a
      // store that must prefetch texts (over the network) cannot do synchronously: there every file is read.
      ...(old ? { reuse, ...(old.texts.prefetch ? {} : { unchanged }) } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
    const chunkedAt = performance.now();
    const seen = new Set(corpus.files.map((f) => f.file_path));
    const added = corpus.files.filter((f) => !oldHashes.has(f.file_path)).length;
    const files = {
      added,
      changed: corpus.counts.chunked - added,
      removed: [...oldHashes.keys()].filter((path) => !seen.has(path)).length,
      unchanged: corpus.counts.reused,
      unread: corpus.counts.unread,
      total: corpus.files.length,
    };
    const sourceOf = old ? copiedChunks(corpus.chunks) : undefined;
    if (old && (await isUpToDate(store, old, factory, corpus, sourceOf!))) {
      const total = round((performance.now() - started) / 1000);
      return {
        mode: 'unchanged',
        reason: undefined,
        notes: [],
        files,
        chunks: corpus.chunks.length,
        reusedChunks,
        seconds: { chunk: round((chunkedAt - started) / 1000), fit: 0, save: 0, total },
        manifest: old.manifest,
      };
    }
    const notes: string[] = [];
    let built: WriteIndexInput['retrievers'][number];
    if (old && store.kind === 'file' && hasSameContent(old, corpus, sourceOf!) && (await isKeptWhole(store, old.manifest, old.dir, factory))) {
      // Only stat signatures are new (a branch switch or a fresh clone wrote the same bytes
      // again): the old build is what fitting again would write, so its files are taken over
      // as they are and the new generation records the signatures.
      const from = retrieverDir(old.dir, factory.name);
      built = { entry: old.manifest.retrievers.find((entry) => entry.name === factory.name)!, save: (dir) => linkOrCopyTree(from, dir) };
    } else {
      const previousBuild = old ? await describePreviousBuild(store, old, factory.name, sourceOf!) : undefined;
      // Chunking's garbage (parse trees, file texts) is worth a full collection only when much
      // was chunked: after a small update it is a few files', and the collection (~20 ms on
      // vLLM, whose old index is then in memory) would be most of the update's own work.
      if (files.added + files.changed > files.total * CHUNKED_SHARE_WORTH_COLLECTING) options.collectGarbage?.();
      const retriever = await factory.build(corpus.chunks, {
        onNotice: (message) => notes.push(message),
        ...(options.collectGarbage ? { collectGarbage: options.collectGarbage } : {}),
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
        ...(previousBuild ? { previous: previousBuild } : {}),
      });
      built = { entry: { name: factory.name, settings: {}, builtAt: new Date().toISOString() }, save: (dir, context) => retriever.save(dir, context) };
    }
    const fittedAt = performance.now();
    // A copy's symbol is its old chunk's: the new table takes its bytes from the old one.
    const oldTable = old ? chunkTableOf(old.chunks)?.table : undefined;
    const manifest = await store.write({
      manifest: {
        toolVersion: options.toolVersion,
        createdAt: new Date().toISOString(),
        corpusDir: options.corpusDir,
        corpusDirAsGiven: options.corpusDirAsGiven ?? options.corpusDir,
        chunking,
        files: corpus.files,
      },
      chunks: corpus.chunks,
      ...(old && sourceOf ? { previousTexts: { texts: old.texts, sourceOf: (i: number) => sourceOf[i]!, checksums: old.manifest.checksums } } : {}),
      ...(old && sourceOf && oldTable ? { previousChunks: { table: oldTable, sourceOf: (i: number) => sourceOf[i]! } } : {}),
      ...(old ? { previousGeneration: { dir: old.dir, checksums: old.manifest.checksums } } : {}),
      retrievers: [built],
    });
    const finished = performance.now();
    return {
      mode: old ? 'incremental' : 'full',
      reason: previous.reason,
      notes,
      files,
      chunks: corpus.chunks.length,
      reusedChunks,
      seconds: {
        chunk: round((chunkedAt - started) / 1000),
        fit: round((fittedAt - chunkedAt) / 1000),
        save: round((finished - fittedAt) / 1000),
        total: round((finished - started) / 1000),
      },
      manifest,
    };
  } finally {
    old?.texts.close();
    await store.close();
  }
}
