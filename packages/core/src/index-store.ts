import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RagError } from './errors.js';
import { replaceDirectoryAtomic, writeFileAtomic } from './fs.js';
import type { Chunk, ChunkKind, FileRecord } from './types.js';

/** Bumped whenever the on-disk layout changes; older indexes are refused, not misread. */
export const INDEX_FORMAT_VERSION = 1;
export const INDEX_FORMAT = 'rag-index';

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
}

/** Columnar chunk metadata: one array per field, parsed far faster than an array of objects. */
interface ChunkColumns {
  file: number[];
  start: number[];
  end: number[];
  startLine: number[];
  endLine: number[];
  kind: ChunkKind[];
  symbol: string[];
}

export interface LoadedIndex {
  dir: string;
  manifest: IndexManifest;
  chunks: Chunk[];
}

function toColumns(chunks: readonly Chunk[], files: readonly FileRecord[]): ChunkColumns {
  const fileIds = new Map(files.map((f, i) => [f.file_path, i]));
  const columns: ChunkColumns = { file: [], start: [], end: [], startLine: [], endLine: [], kind: [], symbol: [] };
  for (const chunk of chunks) {
    const fileId = fileIds.get(chunk.file_path);
    if (fileId === undefined) throw new RagError('INVALID_ARGUMENT', `Chunk ${chunk.id} names unknown file ${chunk.file_path}.`);
    columns.file.push(fileId);
    columns.start.push(chunk.first_character_index);
    columns.end.push(chunk.last_character_index);
    columns.startLine.push(chunk.start_line);
    columns.endLine.push(chunk.end_line);
    columns.kind.push(chunk.kind);
    columns.symbol.push(chunk.symbol);
  }
  return columns;
}

export interface WriteIndexInput {
  manifest: Omit<IndexManifest, 'format' | 'formatVersion' | 'counts' | 'retrievers'>;
  chunks: readonly Chunk[];
  /** Each retriever writes its own state into the directory it is given. */
  retrievers: { entry: RetrieverEntry; save: (dir: string) => Promise<void> }[];
}

/** Directory inside an index where retriever `name` keeps its state. */
export function retrieverDir(indexDir: string, name: string): string {
  return join(indexDir, 'retrievers', name);
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
  if (entries.length === 0) return;
  let format: unknown;
  try {
    format = (JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as { format?: unknown }).format;
  } catch {
    format = undefined;
  }
  if (format !== INDEX_FORMAT) {
    throw new RagError('INVALID_ARGUMENT', `Refusing to write an index into ${dir}: it is not empty and holds no rag index, and writing would delete its contents.`, {
      hint: 'Point the index directory at an empty or new folder (or a previous rag index).',
    });
  }
}

/**
 * Writes a complete index into `dir`, replacing any previous one atomically: a crash or
 * error midway leaves the old index as it was.
 */
export async function writeIndex(dir: string, input: WriteIndexInput): Promise<IndexManifest> {
  await assertReplaceableIndexDir(dir);
  const manifest: IndexManifest = {
    format: INDEX_FORMAT,
    formatVersion: INDEX_FORMAT_VERSION,
    ...input.manifest,
    retrievers: input.retrievers.map((r) => r.entry),
    counts: { files: input.manifest.files.length, chunks: input.chunks.length },
  };
  await replaceDirectoryAtomic(dir, async (staging) => {
    await writeFileAtomic(join(staging, 'chunks.json'), JSON.stringify(toColumns(input.chunks, manifest.files)));
    await writeFileAtomic(join(staging, 'texts.json'), JSON.stringify(input.chunks.map((c) => c.text)));
    for (const retriever of input.retrievers) {
      const target = retrieverDir(staging, retriever.entry.name);
      await mkdir(target, { recursive: true });
      await retriever.save(target);
    }
    // The manifest goes last: its presence marks a complete index.
    await writeFileAtomic(join(staging, 'manifest.json'), JSON.stringify(manifest, null, 1));
  });
  return manifest;
}

async function readJson(path: string, what: string, indexDir: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new RagError('INDEX_CORRUPT', `The index in ${indexDir} is incomplete: ${what} is missing.`, {
      hint: 'Rebuild it with `rag index --corpus_dir <dir>`.',
      cause: error,
    });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new RagError('INDEX_CORRUPT', `The index in ${indexDir} is damaged: ${what} is not valid JSON.`, {
      hint: 'Rebuild it with `rag index --corpus_dir <dir>`.',
      cause: error,
    });
  }
}

/** Reads only the manifest, checking that this version can read the index. */
export async function readManifest(dir: string): Promise<IndexManifest> {
  let text: string;
  try {
    text = await readFile(join(dir, 'manifest.json'), 'utf8');
  } catch (error) {
    throw new RagError('INDEX_NOT_FOUND', `No index found in ${dir}.`, {
      hint: 'Build one with `rag index --corpus_dir <dir>` (add `--index_dir` to put it elsewhere).',
      cause: error,
    });
  }
  let manifest: Partial<IndexManifest>;
  try {
    manifest = JSON.parse(text) as Partial<IndexManifest>;
  } catch (error) {
    throw new RagError('INDEX_CORRUPT', `The index manifest in ${dir} is not valid JSON.`, {
      hint: 'Rebuild it with `rag index --corpus_dir <dir>`.',
      cause: error,
    });
  }
  if (manifest.format !== INDEX_FORMAT) {
    throw new RagError('INDEX_INCOMPATIBLE', `${dir} does not hold a rag index (its manifest has no "format": "${INDEX_FORMAT}").`, {
      hint: 'Point --index_dir at a directory written by `rag index`.',
    });
  }
  if (manifest.formatVersion !== INDEX_FORMAT_VERSION) {
    throw new RagError(
      'INDEX_INCOMPATIBLE',
      `The index in ${dir} has format version ${String(manifest.formatVersion)} (written by rag ${String(manifest.toolVersion)}); this version reads version ${INDEX_FORMAT_VERSION}.`,
      { hint: 'Rebuild it with `rag index --corpus_dir <dir>`.' },
    );
  }
  return manifest as IndexManifest;
}

/** Loads an index's manifest and chunks (with their texts). */
export async function readIndex(dir: string): Promise<LoadedIndex> {
  const manifest = await readManifest(dir);
  const columns = (await readJson(join(dir, 'chunks.json'), 'chunks.json', dir)) as ChunkColumns;
  const texts = (await readJson(join(dir, 'texts.json'), 'texts.json', dir)) as string[];
  const count = manifest.counts.chunks;
  if (!Array.isArray(columns.start) || columns.start.length !== count || !Array.isArray(texts) || texts.length !== count) {
    throw new RagError('INDEX_CORRUPT', `The index in ${dir} is damaged: its chunk files do not match its manifest.`, {
      hint: 'Rebuild it with `rag index --corpus_dir <dir>`.',
    });
  }
  const chunks: Chunk[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const file = manifest.files[columns.file[i]!]!;
    chunks[i] = {
      id: i,
      file_path: file.file_path,
      first_character_index: columns.start[i]!,
      last_character_index: columns.end[i]!,
      start_line: columns.startLine[i]!,
      end_line: columns.endLine[i]!,
      kind: columns.kind[i]!,
      symbol: columns.symbol[i]!,
      language: file.language,
      text: texts[i]!,
    };
  }
  return { dir, manifest, chunks };
}
