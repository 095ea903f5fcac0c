import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkArrayOf, decodeChunkTable, encodeChunkTable, fileRunsOf, RagError, storedChunkList, SYMBOLS_READ_ONE_BY_ONE, type Chunk, type ChunkKind, type FileRecord, type TextStore } from '../src/index.js';

const KINDS: ChunkKind[] = ['module', 'function', 'class', 'method', 'block', 'section', 'code', 'text'];

function fileRecord(i: number): FileRecord {
  return { file_path: `pkg/f${i}.py`, language: 'python', sha256: '0'.repeat(64), bytes: 10, length: 10 };
}

const chunkArb = (files: number) =>
  fc.record({
    file: fc.nat({ max: files - 1 }),
    start: fc.nat({ max: 1_000_000 }),
    length: fc.nat({ max: 5_000 }),
    startLine: fc.nat({ max: 100_000 }),
    lines: fc.nat({ max: 200 }),
    kind: fc.constantFrom(...KINDS),
    // Any code points: symbols are headings and names from any language.
    symbol: fc.string({ unit: 'grapheme', maxLength: 30 }),
  });

function toChunks(specs: { file: number; start: number; length: number; startLine: number; lines: number; kind: ChunkKind; symbol: string }[], files: FileRecord[]): Chunk[] {
  return specs.map((s, id) => ({
    id,
    file_path: files[s.file]!.file_path,
    first_character_index: s.start,
    last_character_index: s.start + s.length,
    start_line: s.startLine,
    end_line: s.startLine + s.lines,
    kind: s.kind,
    symbol: s.symbol,
    language: 'python',
    text: '',
  }));
}

const damaged = (what: string) => new RagError('INDEX_CORRUPT', `chunks.bin ${what}`);

describe('chunk table', () => {
  it('reads back every field of every chunk it wrote', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }).chain((n) => fc.tuple(fc.constant(n), fc.array(chunkArb(n), { maxLength: 60 }))), ([n, specs]) => {
        const files = Array.from({ length: n }, (_, i) => fileRecord(i));
        const chunks = toChunks(specs, files);
        const table = decodeChunkTable(encodeChunkTable(chunks, files), chunks.length, files.length, damaged);
        expect(table.count).toBe(chunks.length);
        chunks.forEach((chunk, i) => {
          expect(files[table.file[i]!]!.file_path).toBe(chunk.file_path);
          expect([table.start[i], table.end[i], table.startLine[i], table.endLine[i]]).toEqual([chunk.first_character_index, chunk.last_character_index, chunk.start_line, chunk.end_line]);
          expect(table.kinds[table.kindIds[i]!]).toBe(chunk.kind);
          expect(table.symbol(i)).toBe(chunk.symbol);
        });
      }),
    );
  });

  it("writes the same bytes when an update's copied chunks take their symbols' bytes from the old table", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }).chain((n) =>
          fc.tuple(fc.constant(n), fc.array(chunkArb(n), { minLength: 1, maxLength: 40 }), fc.array(chunkArb(n), { maxLength: 20 }), fc.array(fc.tuple(fc.integer({ min: -3, max: 45 }), fc.integer({ min: 1, max: 8 })), { maxLength: 12 })),
        ),
        ([n, oldSpecs, newSpecs, runs]) => {
          // Runs of consecutive old chunks (as an update copies them), single ones and new chunks.
          const picks = runs.flatMap(([start, length]) => Array.from({ length }, (_, k) => (start < 0 ? start : start + k)));
          const files = Array.from({ length: n }, (_, i) => fileRecord(i));
          const before = toChunks(oldSpecs, files);
          const table = decodeChunkTable(encodeChunkTable(before, files), before.length, n, damaged);
          // The update's chunks: copies of old ones (picks in range), and new ones.
          const fresh = toChunks(newSpecs, files);
          const sources: number[] = [];
          const chunks: Chunk[] = [];
          picks.forEach((pick, i) => {
            const copied = pick >= 0 && pick < before.length;
            const chunk = copied ? before[pick]! : fresh[i % Math.max(1, fresh.length)];
            if (!chunk) return;
            sources.push(copied ? pick : -1);
            chunks.push({ ...chunk, id: chunks.length });
          });
          const plain = encodeChunkTable(chunks, files);
          expect(Buffer.compare(encodeChunkTable(chunks, files, { table, sourceOf: (i) => sources[i]! }), plain)).toBe(0);
        },
      ),
    );
  });

  it('reads every symbol back however many are read, in any order, ASCII or not', () => {
    // Past SYMBOLS_READ_ONE_BY_ONE reads an ASCII symbol area is decoded whole and sliced;
    // one that is not stays decoded symbol by symbol.
    const symbolArb = fc.oneof(fc.string({ unit: fc.constantFrom('a', 'Z', '_', '.', ' ', '>', '1'), maxLength: 20 }), fc.string({ unit: 'grapheme', maxLength: 12 }));
    fc.assert(
      fc.property(
        fc.array(symbolArb, { minLength: 1, maxLength: 40 }),
        fc.array(fc.nat(), { minLength: SYMBOLS_READ_ONE_BY_ONE, maxLength: 3 * SYMBOLS_READ_ONE_BY_ONE }),
        (symbols, reads) => {
          const files = [fileRecord(0)];
          const chunks = toChunks(symbols.map((symbol, i) => ({ file: 0, start: i, length: 1, startLine: 1, lines: 0, kind: 'code' as const, symbol })), files);
          const table = decodeChunkTable(encodeChunkTable(chunks, files), chunks.length, 1, damaged);
          for (const read of reads) expect(table.symbol(read % chunks.length)).toBe(symbols[read % chunks.length]);
          symbols.forEach((symbol, i) => expect(table.symbol(i)).toBe(symbol));
        },
      ),
    );
  });

  it('reads columns from bytes that do not start on a 4-byte boundary', () => {
    const files = [fileRecord(0)];
    const chunks = toChunks([{ file: 0, start: 3, length: 4, startLine: 1, lines: 2, kind: 'function', symbol: 'Größe.ünïcode' }], files);
    const bytes = encodeChunkTable(chunks, files);
    const shifted = new Uint8Array(bytes.length + 1).subarray(1);
    shifted.set(bytes);
    const table = decodeChunkTable(shifted, 1, 1, damaged);
    expect([table.start[0], table.end[0], table.symbol(0)]).toEqual([3, 7, 'Größe.ünïcode']);
  });

  it('refuses a chunk that names a file outside the list, or an offset past 32 bits', () => {
    const files = [fileRecord(0)];
    const stray = { ...toChunks([{ file: 0, start: 0, length: 1, startLine: 1, lines: 0, kind: 'code', symbol: '' }], files)[0]!, file_path: 'elsewhere.py' };
    expect(() => encodeChunkTable([stray], files)).toThrow(/unknown file elsewhere.py/);
    const huge = { ...stray, file_path: files[0]!.file_path, last_character_index: 2 ** 32 };
    expect(() => encodeChunkTable([huge], files)).toThrow(/last_character_index/);
  });

  describe('damage', () => {
    const files = [fileRecord(0), fileRecord(1)];
    const chunks = toChunks(
      [
        { file: 0, start: 0, length: 10, startLine: 1, lines: 1, kind: 'function', symbol: 'alpha' },
        { file: 1, start: 5, length: 10, startLine: 2, lines: 3, kind: 'section', symbol: 'Guide > Install' },
      ],
      files,
    );
    const good = encodeChunkTable(chunks, files);
    const decode = (bytes: Uint8Array, count = 2, fileCount = 2) => () => decodeChunkTable(bytes, count, fileCount, damaged);

    it.each([
      ['a truncated file', good.subarray(0, good.length - 3), /symbol bytes of another length/],
      ['a file cut inside its columns', good.subarray(0, 40), /shorter than the/],
      ['an empty file', new Uint8Array(0), /shorter than its header/],
    ])('%s', (_name, bytes, message) => {
      expect(decode(bytes)).toThrow(message);
    });

    it('a wrong signature, version or count', () => {
      const copy = (at: number, value: number) => {
        const bytes = Buffer.from(good);
        bytes.writeUInt32LE(value, at);
        return bytes;
      };
      expect(decode(copy(0, 0))).toThrow(/signature/);
      expect(decode(copy(4, 3))).toThrow(/table version 3/);
      expect(decode(good, 3)).toThrow(/holds 2 chunks, not the 3/);
    });

    it('a file id past the manifest, or an end before a start', () => {
      expect(decode(good, 2, 1)).toThrow(/names file 1 for chunk 1/);
      const headerBytes = 16 + ((good.readUInt32LE(12) + 3) & ~3);
      const swapped = Buffer.from(good);
      swapped.writeUInt32LE(99, headerBytes + 2 * 4); // chunk 0's first code point, past its last
      expect(decode(swapped)).toThrow(/end before its start/);
    });

    it('an unknown kind', () => {
      const bytes = Buffer.from(good);
      const listAt = 16;
      const list = bytes.subarray(listAt, listAt + bytes.readUInt32LE(12)).toString('utf8');
      bytes.write(list.replace('function', 'functiox'), listAt, 'utf8');
      expect(decode(bytes)).toThrow(/unknown chunk kind/);
    });
  });
});

describe('stored chunk list', () => {
  const files = [fileRecord(0), fileRecord(1), fileRecord(2)];
  const plain = toChunks(
    [
      { file: 0, start: 0, length: 4, startLine: 1, lines: 0, kind: 'function', symbol: 'a' },
      { file: 0, start: 5, length: 4, startLine: 2, lines: 1, kind: 'method', symbol: 'A.b' },
      { file: 2, start: 0, length: 9, startLine: 1, lines: 3, kind: 'section', symbol: 'Guide > Ünïcode' },
    ],
    files,
  ).map((chunk) => ({ ...chunk, text: `text of ${chunk.id}` }));
  const open = () => {
    const reads: number[] = [];
    const texts: TextStore = {
      count: plain.length,
      text: (i) => {
        reads.push(i);
        return plain[i]!.text;
      },
      close: () => undefined,
    };
    const table = decodeChunkTable(encodeChunkTable(plain, files), plain.length, files.length, damaged);
    return { list: storedChunkList(files, table, texts), reads };
  };

  it('reads as the plain array of the same chunks: indexing, length, iteration, methods, JSON, equality', () => {
    const { list } = open();
    expect(Array.isArray(list)).toBe(true);
    expect(list.length).toBe(3);
    expect(list[2]!.symbol).toBe('Guide > Ünïcode');
    expect(list[3]).toBeUndefined();
    expect(1 in list && !(3 in list)).toBe(true);
    expect([...list].map((c) => c.id)).toEqual([0, 1, 2]);
    expect(list.map((c) => c.file_path)).toEqual(plain.map((c) => c.file_path));
    expect(JSON.parse(JSON.stringify(list))).toEqual(JSON.parse(JSON.stringify(plain)));
    expect(list).toEqual(plain);
  });

  it('makes each chunk once, when first read, and reads its text only when asked', () => {
    const { list, reads } = open();
    const first = list[1]!;
    expect(list[1]).toBe(first);
    expect(first.kind).toBe('method');
    expect(reads).toEqual([]);
    expect(first.text).toBe('text of 1');
    expect(reads).toEqual([1]);
    // A plain object: copies carry every field.
    expect({ ...first }).toEqual(plain[1]);
  });

  it('made all at once, is a plain array of the same chunks', () => {
    const table = decodeChunkTable(encodeChunkTable(plain, files), plain.length, files.length, damaged);
    const texts: TextStore = { count: plain.length, text: (i) => plain[i]!.text, close: () => undefined };
    const chunks = chunkArrayOf(files, table, texts);
    expect(chunks).toEqual(plain);
    // Not a proxy: it clones like any array (texts included, read through the getter).
    expect(structuredClone(chunks)).toEqual(plain);
  });

  it('gives the runs of chunks per file without making chunks, as a plain array gives them', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 3 }), { minLength: 0, maxLength: 40 }), (fileIds) => {
        const manyFiles = Array.from({ length: 4 }, (_, i) => fileRecord(i));
        const sorted = [...fileIds].sort((a, b) => a - b);
        const chunks = toChunks(
          sorted.map((file, i) => ({ file, start: i, length: 1, startLine: 1, lines: 0, kind: 'code' as ChunkKind, symbol: '' })),
          manyFiles,
        );
        const texts: TextStore = { count: chunks.length, text: () => '', close: () => undefined };
        const table = decodeChunkTable(encodeChunkTable(chunks, manyFiles), chunks.length, manyFiles.length, damaged);
        const fromPlain = fileRunsOf(chunks);
        for (const made of [storedChunkList(manyFiles, table, texts), chunkArrayOf(manyFiles, table, texts)]) {
          const runs = fileRunsOf(made);
          expect([...runs.starts]).toEqual([...fromPlain.starts]);
          expect(runs.files.map((f) => f.file_path)).toEqual(fromPlain.files.map((f) => f.file_path));
        }
      }),
    );
  });
});
