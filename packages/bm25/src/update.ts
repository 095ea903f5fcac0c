import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { RagError, type Chunk, type FileRanges, type PreviousBuild } from '@rag/core';
import { readBaseParts, type BaseParts } from './base-parts.js';
import { Bm25Index } from './bm25-index.js';
import type { Bm25IndexData, ReusableBuild } from './build.js';
import { fingerprintChunks } from './checksum.js';
import { composeAnchors, composeIndex, keptFromRuns, NOT_KEPT } from './composite.js';
import type { Bm25Options } from './options.js';
import { buildOverlay, planOverlay, type LayeredFiles, type OverlayData } from './overlay.js';
import { BASE_FILE_NAME, checkOverlayBase, decodeOverlay, OVERLAY_FILE_NAME } from './overlay-file.js';
import { openPagedIndex, type PagedPostings } from './paged.js';
import { BM25_FILE_NAME, decodeIndex, readHeader } from './persist.js';
import { arrayPostings, type PostingSource } from './postings.js';

/**
 * The previous build an update starts from: its base (read in parts where the store serves
 * the file in checked pages, else whole), the overlay it had on it, and how to read the base
 * whole when the update writes a whole index.
 */
export interface PreviousIndex {
  base: BaseParts;
  overlay?: OverlayData;
  /** What a search of the new index reads the base's lists and sequences through. */
  basePostings: PostingSource;
  /** Where the new generation gets the base file from. */
  file: LayeredFiles['base'];
  sourceOf: Int32Array;
  /** The chunks the previous build was made over. */
  chunks: readonly Chunk[];
  /** The previous build as its base held whole, each new chunk a copy of a base chunk or of none (for a whole write). */
  wholeBase(): Promise<ReusableBuild>;
}

/**
 * The previous build of `previous.dir` when an update can start from it: the same options,
 * over exactly `previous.chunks`. Anything else (another format, other options, a damaged
 * file) gives undefined, `onNotice` told why, and the update analyses every chunk.
 */
export async function openPreviousIndex(previous: PreviousBuild, options: Bm25Options, onNotice?: (message: string) => void): Promise<PreviousIndex | undefined> {
  try {
    const stored = await readPrevious(previous);
    if (!isDeepStrictEqual(stored.base.data.options, options)) return refit(onNotice, 'it was built with other settings.');
    const fingerprint = stored.overlay?.chunkFingerprint ?? stored.base.data.chunkFingerprint;
    if (previous.verified !== true && fingerprint !== fingerprintChunks(previous.chunks)) return refit(onNotice, 'it was built over other chunks.');
    return stored;
  } catch (error) {
    // Another format version (INDEX_INCOMPATIBLE) or a damaged file: its message says which.
    return refit(onNotice, error instanceof Error ? error.message : String(error));
  }
}

function refit(onNotice: ((message: string) => void) | undefined, why: string): undefined {
  onNotice?.(`the previous bm25 index was not reused, so every chunk was analysed again: ${why}`);
  return undefined;
}

async function readPrevious(previous: PreviousBuild): Promise<PreviousIndex> {
  const read = previous.readFile ?? readFile;
  const checksum = previous.verified !== true;
  const ranges = (path: string): FileRanges | undefined => previous.openRanges?.(path);
  // A file served in checked pages is read through them (each page checked); another one
  // whole, as the store verified it.
  const readWhole = async (path: string): Promise<Uint8Array> => {
    const parts = ranges(path);
    return parts ? (await parts.read([{ offset: 0, length: parts.size }]))[0]! : read(path);
  };
  const wholePath = join(previous.dir, BM25_FILE_NAME);
  // One file, or a base and an overlay: the store records which (a missing file is not read).
  const wholeBytes = ranges(wholePath) ? undefined : await read(wholePath).catch(() => undefined);
  const layered = !ranges(wholePath) && !wholeBytes;
  const basePath = layered ? join(previous.dir, BASE_FILE_NAME) : wholePath;
  const overlay = layered ? decodeOverlay(await readWhole(join(previous.dir, OVERLAY_FILE_NAME)), OVERLAY_FILE_NAME, { checksum: checksum && !ranges(join(previous.dir, OVERLAY_FILE_NAME)) }) : undefined;
  const baseRanges = ranges(basePath);
  let base: BaseParts;
  let basePostings: PostingSource;
  if (baseRanges) {
    base = await readBaseParts(baseRanges, basePath);
    basePostings = lazyPagedPostings(baseRanges, basePath);
  } else {
    const bytes = wholeBytes ?? (await read(basePath));
    const data = decodeIndex(bytes, basePath, { checksum });
    basePostings = arrayPostings(data);
    base = { data, payloadChecksum: readHeader(bytes, basePath).payloadChecksum, fetchSequences: async () => basePostings };
  }
  if (overlay) checkOverlayBase(overlay, base.data, base.payloadChecksum, join(previous.dir, OVERLAY_FILE_NAME));
  const file = { path: basePath, read: () => readWhole(basePath) };
  const wholeBase = async (): Promise<ReusableBuild> => {
    const data = baseRanges ? decodeIndex(await readWhole(basePath), basePath, { checksum: false }) : base.data;
    const kept = overlay ? keptFromRuns(overlay.runs, overlay.docCount) : undefined;
    // A chunk of the earlier overlay copies no base chunk.
    const sourceOf = kept ? previous.sourceOf.map((source) => (source < 0 || kept[source] === NOT_KEPT ? -1 : kept[source]!)) : previous.sourceOf;
    return { data, sourceOf };
  };
  return { base, ...(overlay ? { overlay } : {}), basePostings, file, sourceOf: previous.sourceOf, chunks: previous.chunks, wholeBase };
}

/**
 * A base's lists and sequences read in pages, opened when a search first fetches: an update
 * that only writes its overlay never reads them, and the retriever it returns can still search.
 */
function lazyPagedPostings(ranges: FileRanges, label: string): PostingSource {
  let opening: Promise<PagedPostings> | undefined;
  let opened: PagedPostings | undefined;
  const open = async (): Promise<PagedPostings> => (opened = await (opening ??= openPagedIndex(ranges, label).then((paged) => paged.postings)));
  const notOpened = (): RagError => new RagError('INVALID_ARGUMENT', `The bm25 index ${label} is read in pages, and nothing was fetched yet.`, { hint: 'Search with the query first (search fetches what it reads).' });
  return {
    postings(field, term) {
      if (!opened) throw notOpened();
      return opened.postings(field, term);
    },
    sequence(doc) {
      if (!opened) throw notOpened();
      return opened.sequence(doc);
    },
    prefetch: async (terms, chunks) => (await open()).prefetch(terms, chunks),
  };
}

/**
 * The update of `previous` to `chunks` as an overlay on its base, or undefined when an
 * overlay does not pay or cannot be made (see `planOverlay`): then a whole index is written.
 */
export async function updateAsOverlay(chunks: readonly Chunk[], options: Bm25Options, previous: PreviousIndex): Promise<{ files: LayeredFiles; compose: () => Bm25Index } | undefined> {
  const { base, overlay: earlier, sourceOf } = previous;
  // The previous build's anchor hashes and mentions: the base's, or the base's and the earlier overlay's.
  const anchors = earlier ? composeAnchors(base.data, earlier) : base.data;
  const plan = planOverlay(chunks, options, {
    data: base.data,
    sourceOf,
    ...(earlier ? { previousKept: keptFromRuns(earlier.runs, earlier.docCount) } : {}),
    history: { chunks: previous.chunks, hashes: anchors.anchorHashes, mentions: anchors.anchorMentions },
  });
  if (!plan) return undefined;
  const baseSequences = await base.fetchSequences(plan.baseDocs);
  // What the overlay is worked out against reads no posting list of the previous index.
  const before: { data: Bm25IndexData; postings: PostingSource } = earlier ? composeIndex(base.data, baseSequences, earlier, false, { lists: false, anchors }) : { data: base.data, postings: baseSequences };
  const overlay = buildOverlay(chunks, options, { data: base.data, payloadChecksum: base.payloadChecksum, previous: { ...before, ...(earlier ? { overlay: earlier } : {}) }, sourceOf }, plan, baseSequences);
  // The index is composed only if something searches it: an update writes the overlay and links the base.
  const compose = (): Bm25Index => {
    const { data, postings } = composeIndex(base.data, previous.basePostings, overlay);
    return new Bm25Index(data, postings);
  };
  return { files: { overlay, base: previous.file }, compose };
}
