import type { Chunk } from '@rag/core';
import { PROSE } from './priors.js';

/** How a docs heading path joins its headings (`@rag/chunking`: `Guide > Install > pip`). */
const HEADING_SEPARATOR = ' > ';

/**
 * The path of the unit a chunk belongs to: for code its own symbol (a long function or a
 * class body split into several chunks keeps one symbol), for prose its heading path
 * without the last heading. Docs headings nest far finer than code units: a
 * `#### Example Requests` or `#### Extra parameters` means little without the
 * `### Classification API` it sits in, so a docs chunk's unit is its parent section. A
 * top-level section (one heading, or none) is its own unit. Computed for the candidates
 * of a search, not for the whole corpus.
 */
export function unitPath(chunk: Chunk, prose: boolean): string {
  if (!prose) return chunk.symbol;
  const cut = chunk.symbol.lastIndexOf(HEADING_SEPARATOR);
  return cut < 0 ? chunk.symbol : chunk.symbol.slice(0, cut);
}

/** True when `other` lies in the unit `unit` of a chunk (see `unitPath`): the same symbol, or for prose anywhere under the heading path. */
function inUnit(unit: string, prose: boolean, other: Chunk): boolean {
  if (other.symbol === unit) return true;
  return prose && other.symbol.length > unit.length && other.symbol.startsWith(unit) && other.symbol.startsWith(HEADING_SEPARATOR, unit.length);
}

function overlap(a: Chunk, b: Chunk): boolean {
  return a.first_character_index < b.last_character_index && b.first_character_index < a.last_character_index;
}

/**
 * Section support: for each candidate, the best `relative` score among the other candidates
 * of the same file and unit that do not overlap it (0 when there are none). A place where
 * several separate pieces of one function or one docs section match the question is more
 * likely the place the question is about than a lone match elsewhere; overlapping chunks
 * (a nested piece and its section) are one piece of evidence, not two, and do not count.
 * `candidateIds[i]` has first-stage score `relative[i]` (relative to the query's best).
 */
export function sectionSupport(
  candidateIds: readonly number[],
  relative: readonly number[],
  chunks: readonly Chunk[],
  flags: Uint8Array,
): Float64Array {
  const support = new Float64Array(candidateIds.length);
  const byFile = new Map<string, number[]>();
  candidateIds.forEach((id, i) => {
    const file = chunks[id]!.file_path;
    const group = byFile.get(file);
    if (group) group.push(i);
    else byFile.set(file, [i]);
  });
  for (const group of byFile.values()) {
    if (group.length < 2) continue;
    for (const i of group) {
      const id = candidateIds[i]!;
      const chunk = chunks[id]!;
      const prose = (flags[id]! & PROSE) !== 0;
      const unit = unitPath(chunk, prose);
      let best = 0;
      for (const j of group) {
        if (j === i || relative[j]! <= best) continue;
        const other = chunks[candidateIds[j]!]!;
        if (!overlap(chunk, other) && inUnit(unit, prose, other)) best = relative[j]!;
      }
      support[i] = best;
    }
  }
  return support;
}
