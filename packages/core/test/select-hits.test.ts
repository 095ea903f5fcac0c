import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkIdsOf, chunkOfHit, meets, otherSymbolsOf, proseFlags, selectHits, type Chunk, type Hit, type Language } from '../src/index.js';

/** Chunks of one file that meet, each `length` characters; `language` per chunk. */
function fileOf(path: string, languages: readonly Language[], length: number, firstId = 0): Chunk[] {
  return languages.map((language, i) => ({
    id: firstId + i,
    file_path: path,
    first_character_index: i * length,
    last_character_index: (i + 1) * length,
    start_line: i * 10 + 1,
    end_line: i * 10 + 9,
    kind: language === 'python' ? 'function' : 'section',
    symbol: `${path}#${i}`,
    language,
    text: String.fromCharCode(97 + ((firstId + i) % 26)).repeat(length),
  }));
}

const limits = { dedupe: true, fileShare: 1, kindShare: 1 } as const;

describe('joining neighbouring code hits', () => {
  // a.py: five functions of 400 characters that meet; b.py: one; guide.md: three sections.
  const chunks = [...fileOf('a.py', ['python', 'python', 'python', 'python', 'python'], 400), ...fileOf('b.py', ['python'], 400, 5), ...fileOf('guide.md', ['markdown', 'markdown', 'markdown'], 400, 6)];
  const flags = proseFlags(chunks);
  const ranked = (...ids: number[]): Hit[] => ids.map((chunkId, i) => ({ chunkId, score: 10 - i }));

  it('joins the candidates right next to a hit into one span, the better neighbour first', () => {
    // a.py#2 leads; #1 and #3 are both candidates (#3 better placed), #0 too, #4 is not one.
    const hits = selectHits(ranked(2, 5, 3, 1, 0), chunks, flags, 3, { ...limits, joinSpan: 1200 });
    // The span may hold three chunks: #2, then #3 (placed before #1), then #1; #0 would take it past 1200.
    expect(hits[0]).toEqual({ chunkId: 2, score: 10, joined: { first: 1, last: 3 } });
    // What the join took gives its place to the next candidates: b.py, then a.py#0 alone.
    expect(hits.slice(1)).toEqual([
      { chunkId: 5, score: 9 },
      { chunkId: 0, score: 6 },
    ]);
  });

  it('never joins prose, chunks of another file, or anything with joinSpan 0', () => {
    // guide.md#0 and #1 meet but are prose; a.py#4 and b.py#0 are adjacent ids in two files.
    expect(selectHits(ranked(6, 7, 4, 5), chunks, flags, 4, { ...limits, joinSpan: 2000 }).map((hit) => hit.joined)).toEqual([undefined, undefined, undefined, undefined]);
    expect(selectHits(ranked(2, 3), chunks, flags, 2, limits)).toEqual(ranked(2, 3));
    expect(selectHits(ranked(2, 3), chunks, flags, 2, { ...limits, joinSpan: 0 })).toEqual(ranked(2, 3));
  });

  it('reads a joined hit as one chunk whose text is the joined texts (they meet)', () => {
    const [hit] = selectHits(ranked(3, 2), chunks, flags, 1, { ...limits, joinSpan: 2000 });
    expect(chunkIdsOf(hit!)).toEqual([2, 3]);
    const chunk = chunkOfHit(hit!, chunks);
    expect(chunk).toMatchObject({ id: 3, file_path: 'a.py', first_character_index: 800, last_character_index: 1600, start_line: 21, end_line: 39, symbol: 'a.py#3' });
    expect(chunk.text).toBe(chunks[2]!.text + chunks[3]!.text);
    // A hit of one chunk reads as that chunk.
    expect(chunkOfHit({ chunkId: 5, score: 1 }, chunks)).toBe(chunks[5]);
    // The joined span holds a.py#2 beside the matched a.py#3; a hit of one chunk holds no other.
    expect(otherSymbolsOf(hit!, chunks)).toEqual(['a.py#2']);
    expect(otherSymbolsOf({ chunkId: 5, score: 1 }, chunks)).toEqual([]);
    // Pieces of one definition (one symbol) and unnamed chunks add nothing.
    const pieces = chunks.map((c) => ({ ...c, symbol: c.id === 1 ? '' : 'Box.run' }));
    expect(otherSymbolsOf({ chunkId: 2, score: 1, joined: { first: 1, last: 3 } }, pieces)).toEqual([]);
    expect(meets(chunks[4]!, chunks[5]!)).toBe(false);
  });

  it('keeps every invariant on random rankings: members meet, spans fit, no chunk twice, prefixes stable', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom<Language>('python', 'python', 'markdown'), { minLength: 1, maxLength: 12 }),
        fc.array(fc.integer({ min: 1, max: 700 }), { minLength: 12, maxLength: 12 }),
        fc.uniqueArray(fc.nat(11), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: 2500 }),
        fc.integer({ min: 1, max: 8 }),
        (languages, lengths, order, joinSpan, k) => {
          // One file whose chunks have random lengths and languages, all meeting.
          let at = 0;
          const file = languages.map((language, id): Chunk => {
            const length = lengths[id]!;
            at += length;
            return { id, file_path: 'f.py', first_character_index: at - length, last_character_index: at, start_line: id + 1, end_line: id + 1, kind: 'block', symbol: '', language, text: 'x'.repeat(length) };
          });
          const candidates = order.filter((id) => id < file.length).map((chunkId, i) => ({ chunkId, score: 100 - i }));
          const fileFlags = proseFlags(file);
          const hits = selectHits(candidates, file, fileFlags, k, { ...limits, joinSpan });
          const seen = new Set<number>();
          for (const hit of hits) {
            const ids = chunkIdsOf(hit);
            expect(ids).toContain(hit.chunkId);
            for (const id of ids) {
              expect(seen.has(id)).toBe(false);
              seen.add(id);
              // Every member was a candidate of this search.
              expect(candidates.some((c) => c.chunkId === id)).toBe(true);
            }
            if (hit.joined) {
              for (let id = hit.joined.first; id < hit.joined.last; id++) expect(meets(file[id]!, file[id + 1]!)).toBe(true);
              for (const id of ids) expect(fileFlags[id]).toBe(0);
              const chunk = chunkOfHit(hit, file);
              expect(chunk.last_character_index - chunk.first_character_index).toBeLessThanOrEqual(joinSpan);
              expect(chunk.text.length).toBe(chunk.last_character_index - chunk.first_character_index);
            }
          }
          // Scores stay in the order they were ranked, and a shorter search is a prefix.
          for (let i = 1; i < hits.length; i++) expect(hits[i]!.score).toBeLessThan(hits[i - 1]!.score);
          expect(selectHits(candidates, file, fileFlags, Math.max(1, k - 1), { ...limits, joinSpan })).toEqual(hits.slice(0, Math.max(1, k - 1)));
        },
      ),
      { numRuns: 300 },
    );
  });
});
