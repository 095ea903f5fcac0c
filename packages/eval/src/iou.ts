import type { Source } from '@rag/core';

/** Length of a span in code points; a malformed span (end before start) counts as empty. */
export function spanLength(source: Source): number {
  return Math.max(0, source.last_character_index - source.first_character_index);
}

/** Characters two spans share; 0 when they name different files or only touch. */
export function overlapLength(a: Source, b: Source): number {
  if (a.file_path !== b.file_path) return 0;
  const start = Math.max(a.first_character_index, b.first_character_index);
  const end = Math.min(a.last_character_index, b.last_character_index);
  return Math.max(0, end - start);
}

/**
 * Intersection over union of two spans, in [0, 1]. Spans in different files score 0.
 * A zero-length span covers no character, so it overlaps nothing and scores 0 against
 * every span — even an identical empty one (0/0 is taken as 0). That matches the peer
 * scorer and means an empty citation can never count as finding an answer.
 */
export function iou(a: Source, b: Source): number {
  const overlap = overlapLength(a, b);
  if (overlap === 0) return 0;
  return overlap / (spanLength(a) + spanLength(b) - overlap);
}
