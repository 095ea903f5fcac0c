import { meets } from './hit-chunks.js';
import type { Chunk, ChunkRange, Hit, Language } from './types.js';

/** Languages whose chunks are prose (documentation) rather than code. */
export const PROSE_LANGUAGES: ReadonlySet<Language> = new Set<Language>(['markdown', 'rst', 'text']);

/** Bit of a chunk's kind flags (see `selectHits`): the chunk is prose. */
export const PROSE_FLAG = 1;

/** {@link PROSE_FLAG} per chunk (ids equal to positions), from each chunk's language. */
export function proseFlags(chunks: readonly Chunk[]): Uint8Array {
  return Uint8Array.from(chunks, (chunk) => (PROSE_LANGUAGES.has(chunk.language) ? PROSE_FLAG : 0));
}

/**
 * How the final k hits of a search are drawn from its ranked candidates: the second stage
 * of `@rag/bm25` (see its `RerankOptions`) and `@rag/hybrid` after fusion both end here.
 */
export interface SelectionLimits {
  /** Drop a hit whose span overlaps a better hit of the same file. */
  dedupe: boolean;
  /** Most hits one file may hold, as a share of k (rounded up, at least 1); 1 = no limit. */
  fileShare: number;
  /** Most hits code (or prose) may hold, as a share of k (rounded up, at least 1); 1 = no limit. */
  kindShare: number;
  /**
   * Join a code hit with the candidates right next to it in its file (chunks that meet,
   * see `meets`), as long as the joined span stays within this many code points; the
   * joined hit takes one place and keeps the best member's score. 0 = never join.
   * Default 0.
   */
  joinSpan?: number;
}

/** A kept hit's span: its chunk's, or its joined chunks'. */
interface KeptSpan {
  file_path: string;
  start: number;
  end: number;
}

function spanOf(chunks: readonly Chunk[], hit: Hit): KeptSpan {
  const first = chunks[hit.joined?.first ?? hit.chunkId]!;
  const last = chunks[hit.joined?.last ?? hit.chunkId]!;
  return { file_path: first.file_path, start: first.first_character_index, end: last.last_character_index };
}

function overlaps(a: KeptSpan, b: Chunk): boolean {
  return a.file_path === b.file_path && a.start < b.last_character_index && b.first_character_index < a.end;
}

/**
 * Grows the run around ranked[pick] (a code chunk) by the untaken candidates that meet it,
 * the better placed of its two neighbours first, while the span fits `limit` code points.
 * Marks what it takes; undefined when nothing joins.
 */
function joinNeighbours(
  ranked: readonly Hit[],
  positions: Map<number, number>,
  taken: Uint8Array,
  chunks: readonly Chunk[],
  flags: Uint8Array,
  pick: number,
  limit: number,
): ChunkRange | undefined {
  let first = ranked[pick]!.chunkId;
  let last = first;
  const fits = (from: number, to: number): boolean => chunks[to]!.last_character_index - chunks[from]!.first_character_index <= limit;
  const candidate = (id: number): number => {
    const at = positions.get(id);
    return at === undefined || taken[at] || flags[id]! & PROSE_FLAG ? -1 : at;
  };
  for (;;) {
    const before = first > 0 ? candidate(first - 1) : -1;
    const after = last + 1 < chunks.length ? candidate(last + 1) : -1;
    const left = before >= 0 && meets(chunks[first - 1]!, chunks[first]!) && fits(first - 1, last) ? before : -1;
    const right = after >= 0 && meets(chunks[last]!, chunks[last + 1]!) && fits(first, last + 1) ? after : -1;
    if (left < 0 && right < 0) break;
    if (left >= 0 && (right < 0 || left < right)) {
      taken[left] = 1;
      first--;
    } else {
      taken[right] = 1;
      last++;
    }
  }
  return first === last ? undefined : { first, last };
}

/** The most of the first `n` results one file or kind may hold under `share`. */
function capAt(share: number, n: number): number {
  return share >= 1 ? Infinity : Math.max(1, Math.ceil(share * n));
}

/**
 * The best `k` of `ranked` (best first) under the limits, filled one position at a time
 * (`flags[chunkId] & PROSE_FLAG` tells prose from code, see `proseFlags`):
 * position n takes the best remaining hit that keeps its file within `fileShare` and its
 * kind within `kindShare` of the first n results; when none does, the best remaining hit.
 * The limits hold for every prefix of the list, so the first 5 of a search for 10 are the
 * results of a search for 5, and they only ever reorder: nothing is dropped that a plain
 * top k would keep, unless a better-placed hit overlaps it (`dedupe`) or a better-placed
 * hit joins it (`joinSpan`: a function found in two parts is cited as one span, and the
 * place the second part took goes to the next candidate).
 */
export function selectHits(ranked: readonly Hit[], chunks: readonly Chunk[], flags: Uint8Array, k: number, limits: SelectionLimits): Hit[] {
  const kept: Hit[] = [];
  const perFile = new Map<string, number>();
  const perKind = [0, 0];
  const taken = new Uint8Array(ranked.length);
  const spans: KeptSpan[] = [];
  const joinSpan = limits.joinSpan ?? 0;
  const positions = joinSpan > 0 ? new Map(ranked.map((hit, i) => [hit.chunkId, i])) : undefined;
  while (kept.length < k) {
    const n = kept.length + 1;
    const fileCap = capAt(limits.fileShare, n);
    const kindCap = capAt(limits.kindShare, n);
    let pick = -1;
    let fallback = -1;
    for (let i = 0; i < ranked.length; i++) {
      if (taken[i]) continue;
      const chunk = chunks[ranked[i]!.chunkId]!;
      if (limits.dedupe && spans.some((span) => overlaps(span, chunk))) {
        taken[i] = 1;
        continue;
      }
      const kind = flags[ranked[i]!.chunkId]! & PROSE_FLAG ? 1 : 0;
      if ((perFile.get(chunk.file_path) ?? 0) < fileCap && perKind[kind]! < kindCap) {
        pick = i;
        break;
      }
      if (fallback < 0) fallback = i;
    }
    if (pick < 0) pick = fallback;
    if (pick < 0) break;
    taken[pick] = 1;
    let hit = ranked[pick]!;
    const chunk = chunks[hit.chunkId]!;
    if (positions && !hit.joined && !(flags[hit.chunkId]! & PROSE_FLAG)) {
      const joined = joinNeighbours(ranked, positions, taken, chunks, flags, pick, joinSpan);
      if (joined) hit = { chunkId: hit.chunkId, score: hit.score, joined };
    }
    kept.push(hit);
    spans.push(spanOf(chunks, hit));
    perFile.set(chunk.file_path, (perFile.get(chunk.file_path) ?? 0) + 1);
    perKind[flags[hit.chunkId]! & PROSE_FLAG ? 1 : 0]!++;
  }
  return kept;
}

/** The first `k` of `ranked` (best first) that overlap no better hit of the same file. */
export function selectDisjoint(ranked: readonly Hit[], chunks: readonly Chunk[], k: number): Hit[] {
  return selectHits(ranked, chunks, new Uint8Array(chunks.length), k, { dedupe: true, fileShare: 1, kindShare: 1 });
}
