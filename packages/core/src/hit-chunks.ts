import type { Chunk, Hit } from './types.js';

/** Ids of the chunks `hit` covers, in file order: its own, or every chunk it joins. */
export function chunkIdsOf(hit: Hit): number[] {
  if (!hit.joined) return [hit.chunkId];
  const ids: number[] = [];
  for (let id = hit.joined.first; id <= hit.joined.last; id++) ids.push(id);
  return ids;
}

/** Whether chunk `b` continues chunk `a` in its file with nothing between them (`b` = `a` + 1 in id). */
export function meets(a: Chunk, b: Chunk): boolean {
  return b.id === a.id + 1 && a.file_path === b.file_path && a.last_character_index === b.first_character_index;
}

/**
 * What `hit` cites, read as one chunk: its own chunk, or for a hit that joins neighbours a
 * chunk from the first one's start to the last one's end with the matching chunk's id,
 * kind, symbol and language, whose text is the joined chunks' texts in order (they meet,
 * so that is the file's text between the two offsets). The text is read when first asked
 * for: the texts of every chunk in `chunkIdsOf(hit)` must then be readable.
 */
export function chunkOfHit(hit: Hit, chunks: readonly Chunk[]): Chunk {
  const lead = chunks[hit.chunkId]!;
  if (!hit.joined) return lead;
  const first = chunks[hit.joined.first]!;
  const last = chunks[hit.joined.last]!;
  const ids = chunkIdsOf(hit);
  let text: string | undefined;
  return {
    id: lead.id,
    file_path: lead.file_path,
    first_character_index: first.first_character_index,
    last_character_index: last.last_character_index,
    start_line: first.start_line,
    end_line: last.end_line,
    kind: lead.kind,
    symbol: lead.symbol,
    language: lead.language,
    get text(): string {
      return (text ??= ids.map((id) => chunks[id]!.text).join(''));
    },
  };
}

/**
 * The symbols of the chunks `hit` joins other than its own matched chunk's, each once, in
 * file order: the other definitions its span holds (`NotFound` beside the matched
 * `HTTPError.handle`). Empty for a hit of one chunk, or one whose chunks are pieces of one
 * definition.
 */
export function otherSymbolsOf(hit: Hit, chunks: readonly Chunk[]): string[] {
  if (!hit.joined) return [];
  const own = chunks[hit.chunkId]!.symbol;
  const out: string[] = [];
  for (const id of chunkIdsOf(hit)) {
    const symbol = chunks[id]!.symbol;
    if (symbol && symbol !== own && !out.includes(symbol)) out.push(symbol);
  }
  return out;
}
