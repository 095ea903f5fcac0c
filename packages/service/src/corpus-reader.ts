import { readFile, realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { OffsetMap, RagError, type IndexManifest } from '@rag/core';

import type { FileState, StalenessTracker } from '@rag/core';

/** The exact text of a span of an indexed file, as it is on disk now. */
export interface SpanText {
  /** The path as written in outputs. */
  file_path: string;
  /** Code-point offset of the first character (inclusive). */
  first_character_index: number;
  /** Code-point offset one past the last character (exclusive). */
  last_character_index: number;
  /** 1-based line of the first character. */
  start_line: number;
  /** 1-based line of the last character that is not whitespace (inclusive; as a chunk's `end_line`); the first line for a blank span. */
  end_line: number;
  /** Length of the whole file in code points. */
  file_length: number;
  text: string;
  /** True when the file's bytes differ from what was indexed: offsets may point elsewhere now. */
  stale: boolean;
}

export interface SpanRequest {
  file_path: string;
  /** Default 0. */
  start?: number | undefined;
  /** Default: the end of the file. */
  end?: number | undefined;
}

interface CachedFile {
  mtimeMs: number;
  size: number;
  text: string;
  map: OffsetMap;
  /** UTF-16 index where each line starts. */
  lineStarts: number[];
  state: FileState;
}

/** Decoded files kept in memory; enough for a page of results without re-reading. */
const CACHE_SIZE = 64;
/** How many rounds of percent-decoding are undone when looking for a disguised `..`. */
const DECODE_ROUNDS = 3;

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** 1-based line holding UTF-16 index `index`. */
function lineAt(starts: readonly number[], index: number): number {
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (starts[mid]! <= index) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

function decodings(path: string): string[] {
  const forms = [path];
  let current = path;
  for (let i = 0; i < DECODE_ROUNDS && current.includes('%'); i++) {
    try {
      current = decodeURIComponent(current);
    } catch {
      break;
    }
    forms.push(current);
  }
  return forms;
}

/** Why a path that names no indexed file was refused: 400 for an attempt to leave the corpus, else 404. */
function refuse(path: string): never {
  const hint = 'Pass a file_path exactly as a search returned it (relative to the directory it ran in), or a path inside the corpus such as `src/app.py`.';
  if (path.includes('\0')) throw new RagError('INVALID_ARGUMENT', 'file_path contains a NUL character.', { hint });
  for (const form of decodings(path)) {
    if (/^([/\\~]|[A-Za-z]:)/.test(form)) throw new RagError('INVALID_ARGUMENT', 'file_path must be relative; absolute paths are refused.', { hint });
    if (form.split(/[/\\]/).some((part) => part === '..')) {
      throw new RagError('INVALID_ARGUMENT', 'file_path must not contain `..`: only files inside the indexed corpus can be read.', { hint });
    }
  }
  throw new RagError('NOT_FOUND', `${path} is not a file of the indexed corpus.`, { hint });
}

/**
 * Reads spans of indexed files, and only of those: a path is looked up among the
 * files the manifest lists (never joined blindly onto the corpus root), and the file it
 * names must still resolve, links followed, to a place inside the corpus.
 */
export class CorpusReader {
  readonly #corpusDir: string;
  readonly #byPath = new Map<string, string>();
  readonly #outputPath: (fileInCorpus: string) => string;
  readonly #tracker: StalenessTracker;
  readonly #cache = new Map<string, CachedFile>();
  #realRoot: Promise<string> | undefined;

  constructor(manifest: IndexManifest, outputPath: (fileInCorpus: string) => string, tracker: StalenessTracker) {
    this.#corpusDir = manifest.corpusDir;
    this.#outputPath = outputPath;
    this.#tracker = tracker;
    // Corpus paths first, so that an output path spelled like another corpus path wins.
    for (const file of manifest.files) this.#byPath.set(file.file_path, file.file_path);
    for (const file of manifest.files) this.#byPath.set(outputPath(file.file_path), file.file_path);
  }

  /** The corpus path of `path` (an output path or a corpus path); throws when it names no indexed file. */
  resolve(path: string): string {
    return this.#byPath.get(path) ?? refuse(path);
  }

  async read(request: SpanRequest): Promise<SpanText> {
    const fileInCorpus = this.resolve(request.file_path);
    const file = await this.#load(fileInCorpus);
    const length = file.map.codePointLength;
    const start = request.start ?? 0;
    const end = request.end ?? length;
    const changed = file.state === 'fresh' ? '' : ' (the file changed since it was indexed; re-index to refresh offsets)';
    if (start > length) throw new RagError('INVALID_ARGUMENT', `start ${start} is past the end of ${request.file_path} (${length} characters)${changed}.`);
    if (end > length) throw new RagError('INVALID_ARGUMENT', `end ${end} is past the end of ${request.file_path} (${length} characters)${changed}.`);
    if (end < start) throw new RagError('INVALID_ARGUMENT', `end ${end} is before start ${start}.`, { hint: 'end is exclusive and must be at least start.' });
    const from = file.map.toUtf16(start);
    const to = file.map.toUtf16(end);
    const startLine = lineAt(file.lineStarts, from);
    // Trailing blank lines (a code chunk carries them up to the next chunk) are not counted.
    let last = to;
    while (last > from && /[ \t\n\r\v\f]/.test(file.text[last - 1]!)) last--;
    return {
      file_path: this.#outputPath(fileInCorpus),
      first_character_index: start,
      last_character_index: end,
      start_line: startLine,
      end_line: last > from ? lineAt(file.lineStarts, last - 1) : startLine,
      file_length: length,
      text: file.text.slice(from, to),
      stale: file.state !== 'fresh',
    };
  }

  async #load(fileInCorpus: string): Promise<CachedFile> {
    this.#realRoot ??= realpath(this.#corpusDir);
    const root = await this.#realRoot.catch(() => {
      this.#realRoot = undefined;
      throw new RagError('NOT_FOUND', `The corpus folder ${this.#corpusDir} no longer exists.`, { hint: 'Re-index the corpus, or restore the folder.' });
    });
    const gone = (): never => {
      throw new RagError('NOT_FOUND', `${fileInCorpus} was indexed but no longer exists.`, { hint: 'Re-index the corpus to drop it from the results.' });
    };
    const real = await realpath(join(this.#corpusDir, fileInCorpus)).catch(gone);
    if (!isInside(root, real)) {
      throw new RagError('NOT_FOUND', `${fileInCorpus} now leads outside the indexed corpus and is not served.`, { hint: 'Only files inside the corpus folder can be read.' });
    }
    const info = await stat(real).catch(gone);
    if (!info.isFile()) gone();
    const cached = this.#cache.get(real);
    if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) {
      // Refresh its place in the LRU order.
      this.#cache.delete(real);
      this.#cache.set(real, cached);
      return cached;
    }
    const bytes = await readFile(real).catch(gone);
    const text = decoder.decode(bytes);
    const state = this.#tracker.noteContent(fileInCorpus, bytes, info.mtimeMs);
    const entry: CachedFile = { mtimeMs: info.mtimeMs, size: info.size, text, map: new OffsetMap(text), lineStarts: lineStartsOf(text), state };
    this.#cache.set(real, entry);
    if (this.#cache.size > CACHE_SIZE) this.#cache.delete(this.#cache.keys().next().value!);
    return entry;
  }
}
