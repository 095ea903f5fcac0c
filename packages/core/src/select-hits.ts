import type { Chunk, Hit, Language } from './types.js';

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
}

function overlaps(a: Chunk, b: Chunk): boolean {
  return a.file_path === b.file_path && a.first_character_index < b.last_character_index && b.first_character_index < a.last_character_index;
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
 * top k would keep, unless a better-placed hit overlaps it (`dedupe`).
 */
export function selectHits(ranked: readonly Hit[], chunks: readonly Chunk[], flags: Uint8Array, k: number, limits: SelectionLimits): Hit[] {
  const kept: Hit[] = [];
  const perFile = new Map<string, number>();
  const perKind = [0, 0];
  const taken = new Uint8Array(ranked.length);
  while (kept.length < k) {
    const n = kept.length + 1;
    const fileCap = capAt(limits.fileShare, n);
    const kindCap = capAt(limits.kindShare, n);
    let pick = -1;
    let fallback = -1;
    for (let i = 0; i < ranked.length; i++) {
      if (taken[i]) continue;
      const chunk = chunks[ranked[i]!.chunkId]!;
      if (limits.dedupe && kept.some((other) => overlaps(chunks[other.chunkId]!, chunk))) {
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
    const hit = ranked[pick]!;
    const chunk = chunks[hit.chunkId]!;
    kept.push(hit);
    perFile.set(chunk.file_path, (perFile.get(chunk.file_path) ?? 0) + 1);
    perKind[flags[hit.chunkId]! & PROSE_FLAG ? 1 : 0]!++;
  }
  return kept;
}

/** The first `k` of `ranked` (best first) that overlap no better hit of the same file. */
export function selectDisjoint(ranked: readonly Hit[], chunks: readonly Chunk[], k: number): Hit[] {
  return selectHits(ranked, chunks, new Uint8Array(chunks.length), k, { dedupe: true, fileShare: 1, kindShare: 1 });
}
