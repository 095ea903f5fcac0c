import type { Chunk } from '@rag/core';
import { codeCarriesKind, separatedNamesIn } from '@rag/text';
import type { TermDictionary } from './dictionary.js';
import { EVIDENCE_KINDS, type EvidenceKind, type RerankOptions } from './rerank/options.js';
import { chunkFlags, PROSE } from './rerank/priors.js';

/**
 * What the second stage needs to know about a chunk's raw text, computed once when the
 * index is built so that a search reads no chunk text: which kinds of fact a code chunk
 * carries (`codeCarriesKind`), and which snake/kebab names it defines (code) or spells as
 * inline code (prose; see `separatedNamesIn`). Stored with the index (`bm25.bin`).
 */
export interface ChunkFeatures {
  /** Bit i of chunk d: code chunk d carries `EVIDENCE_KINDS[i]`. Prose chunks have none. */
  evidence: Uint8Array;
  /** Chunk d's names are `names[nameOffsets[d] .. nameOffsets[d + 1])`; length docCount + 1. */
  nameOffsets: Uint32Array;
  /** Term ids of the names, ascending within a chunk; names the dictionary lacks are left out. */
  names: Uint32Array;
}

const EVIDENCE_BIT: Readonly<Record<EvidenceKind, number>> = Object.fromEntries(EVIDENCE_KINDS.map((kind, i) => [kind, 1 << i])) as Record<EvidenceKind, number>;

/**
 * The features of every chunk (ids equal to positions), names as ids of `dictionary`. Only
 * what `rerank` will ask is computed: evidence for the kinds it weighs, names when the
 * definition or explanation signal is on (an index's options never change after its build).
 */
export function computeChunkFeatures(chunks: readonly Chunk[], dictionary: TermDictionary, rerank: RerankOptions): ChunkFeatures {
  const flags = chunkFlags(chunks);
  const on = rerank.depth > 0;
  const kinds = on ? EVIDENCE_KINDS.filter((kind) => rerank.answerEvidence[kind] > 0) : [];
  const wantsNames = on && (rerank.definition > 0 || rerank.explanation > 0);
  const evidence = new Uint8Array(chunks.length);
  const nameOffsets = new Uint32Array(chunks.length + 1);
  const names: number[] = [];
  for (let d = 0; d < chunks.length; d++) {
    const text = chunks[d]!.text;
    const prose = (flags[d]! & PROSE) !== 0;
    if (!prose) {
      let bits = 0;
      for (const kind of kinds) if (codeCarriesKind(text, kind)) bits |= EVIDENCE_BIT[kind];
      evidence[d] = bits;
    }
    const ids: number[] = [];
    if (wantsNames) {
      for (const name of separatedNamesIn(text, prose ? 'explains' : 'defines')) {
        const id = dictionary.lookup(name);
        if (id >= 0) ids.push(id);
      }
    }
    ids.sort((a, b) => a - b);
    for (const id of ids) names.push(id);
    nameOffsets[d + 1] = names.length;
  }
  return { evidence, nameOffsets, names: Uint32Array.from(names) };
}

/** Whether code chunk `d` carries the kind of fact `kind` (see `codeCarriesKind`). */
export function carriesEvidence(features: ChunkFeatures, d: number, kind: EvidenceKind): boolean {
  return (features.evidence[d]! & EVIDENCE_BIT[kind]) !== 0;
}

/** Whether chunk `d` defines (code) or explains (prose) the name whose term id is `termId`. */
export function hasName(features: ChunkFeatures, d: number, termId: number): boolean {
  const { nameOffsets, names } = features;
  let low = nameOffsets[d]!;
  let high = nameOffsets[d + 1]!;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const id = names[middle]!;
    if (id === termId) return true;
    if (id < termId) low = middle + 1;
    else high = middle;
  }
  return false;
}

/** Structural check of stored features against the index they belong to; a message when broken. */
export function checkChunkFeatures(features: ChunkFeatures, docCount: number, termCount: number): string | undefined {
  const { evidence, nameOffsets, names } = features;
  if (evidence.length !== docCount) return `it has evidence for ${evidence.length} chunks, not ${docCount}`;
  if (nameOffsets.length !== docCount + 1 || nameOffsets[0] !== 0 || nameOffsets[docCount] !== names.length) return 'its name offsets do not span its names';
  for (let d = 0; d < docCount; d++) {
    if (nameOffsets[d]! > nameOffsets[d + 1]!) return 'its name offsets are out of order';
    for (let i = nameOffsets[d]!; i < nameOffsets[d + 1]!; i++) {
      if (names[i]! >= termCount || (i > nameOffsets[d]! && names[i - 1]! >= names[i]!)) return `the names of chunk ${d} are out of range or order`;
    }
  }
  if (evidence.some((bits) => bits >= 1 << EVIDENCE_KINDS.length)) return 'its evidence has unknown bits';
  return undefined;
}
