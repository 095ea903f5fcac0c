import fc from 'fast-check';
import { link, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTexts, planTextReuse, TEXT_OFFSETS_FILE, TEXTS_FILE, writeTexts, type TextLayout, type TextStore } from '../src/index-texts.js';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'rag-texts-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

async function roundTrip(dir: string, texts: readonly (string | Uint8Array)[]) {
  await writeTexts(dir, texts);
  return openTexts(dir, dir, texts.length, await readFile(join(dir, TEXT_OFFSETS_FILE)));
}

describe('chunk texts on disk', () => {
  it('reads back every text, given as a string or as its UTF-8 bytes, in any order, by text and by bytes', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.boolean()), { maxLength: 30 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        async (items, order) => {
          const dir = join(work, `p${run++}`);
          await mkdir(dir);
          const texts = items.map(([text]) => text);
          const store = await roundTrip(dir, items.map(([text, asBytes]) => (asBytes ? new TextEncoder().encode(text) : text)));
          try {
            for (const i of order) if (texts.length > 0) expect(store.text(i % texts.length)).toBe(texts[i % texts.length]);
            texts.forEach((text, i) => expect(Buffer.from(store.bytes!(i)).toString('utf8')).toBe(text));
            texts.forEach((text, i) => expect(store.text(i)).toBe(text));
          } finally {
            store.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('reads texts in order across its read blocks, and mixes in reads out of order', async () => {
    const dir = join(work, 'large');
    await mkdir(dir);
    // 40 texts of ~100 KB: several 1 MiB blocks, texts straddling their edges.
    const texts = Array.from({ length: 40 }, (_, i) => `${i}:` + 'é🚀x'.repeat(12_000 + i * 37));
    const store = await roundTrip(dir, texts);
    try {
      texts.forEach((text, i) => {
        expect(store.text(i)).toBe(text);
        if (i % 7 === 3) expect(store.text(39 - i)).toBe(texts[39 - i]);
      });
      texts.forEach((text, i) => expect(Buffer.from(store.bytes!(i)).equals(Buffer.from(text))).toBe(true));
    } finally {
      store.close();
    }
  });

  it('a damaged text fails with INDEX_CORRUPT naming the file, read alone or from a block', async () => {
    const dir = join(work, 'damaged');
    await mkdir(dir);
    const texts = ['alpha', 'beta', 'gamma', 'delta'];
    await writeTexts(dir, texts);
    const bytes = await readFile(join(dir, TEXTS_FILE));
    bytes[6] = bytes[6]! ^ 0x20; // inside "beta"
    await writeFile(join(dir, TEXTS_FILE), bytes);
    const table = await readFile(join(dir, TEXT_OFFSETS_FILE));
    const store = openTexts(dir, dir, texts.length, table);
    try {
      expect(store.text(0)).toBe('alpha');
      expect(() => store.text(1)).toThrow(expect.objectContaining({ code: 'INDEX_CORRUPT', message: expect.stringContaining(TEXTS_FILE) }));
      expect(() => store.bytes!(1)).toThrow(expect.objectContaining({ code: 'INDEX_CORRUPT' }));
      expect(store.text(3)).toBe('delta');
    } finally {
      store.close();
    }
    expect(() => store.text(0)).toThrow(/closed/);
  });

  it('a text placed outside its segment fails with INDEX_CORRUPT when it is read, not when opened', async () => {
    const dir = join(work, 'disordered');
    await mkdir(dir);
    const texts = ['alpha', 'beta', 'gamma', 'delta'];
    await writeTexts(dir, texts);
    const table = await readFile(join(dir, TEXT_OFFSETS_FILE));
    // The starts follow the list of segments (u32 count, f64 size, u32 name length, name), padded to 8 bytes.
    const head = Math.ceil((4 + 12 + TEXTS_FILE.length) / 8) * 8;
    table.writeDoubleLE(20, head + 2 * 8); // chunk 2 now runs past the segment's 18 bytes
    const store = openTexts(dir, dir, texts.length, table);
    try {
      expect(store.text(0)).toBe('alpha');
      expect(() => store.text(2)).toThrow(expect.objectContaining({ code: 'INDEX_CORRUPT', message: expect.stringContaining('outside its segments at chunk 2') }));
      expect(() => store.text(4)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    } finally {
      store.close();
    }
  });

  it('a segment of another size than the table records, or a name that leaves the folder, fails when opened', async () => {
    const dir = join(work, 'resized');
    await mkdir(dir);
    await writeTexts(dir, ['alpha', 'beta']);
    const table = await readFile(join(dir, TEXT_OFFSETS_FILE));
    await writeFile(join(dir, TEXTS_FILE), 'alphabeta!');
    expect(() => openTexts(dir, dir, 2, table)).toThrow(expect.objectContaining({ code: 'INDEX_CORRUPT', message: expect.stringContaining(`${TEXTS_FILE} has 10 bytes where 9 were written`) }));
    const renamed = Buffer.from(table);
    renamed.write('../xs.bin', 16, 'utf8');
    expect(() => openTexts(dir, dir, 2, renamed)).toThrow(expect.objectContaining({ code: 'INDEX_CORRUPT', message: expect.stringContaining('names a segment it should not') }));
    expect(() => openTexts(dir, dir, 3, table)).toThrow(expect.objectContaining({ code: 'INDEX_CORRUPT', message: expect.stringContaining('3 chunks take') }));
  });
});

describe('text segments across generations', () => {
  /** Writes generation `name` under `work` from `texts`; a number is the text of that chunk of `from`, left where it lies. */
  async function generation(name: string, texts: readonly (string | number)[], from?: TextStore & { layout: TextLayout }, { asLocations = false } = {}) {
    const dir = join(work, name);
    await mkdir(dir);
    if (from) for (const segment of from.layout.segments) await link(join(from.layout.dir, segment.name), join(dir, segment.name));
    // A kept text goes in as its number (read off the layout's columns) or as its location object.
    const given = asLocations ? texts.map((t) => (typeof t === 'number' ? from!.layout.locate(t) : t)) : texts;
    await writeTexts(dir, given, from ? `texts-${name}.bin` : TEXTS_FILE, from?.layout);
    return openTexts(dir, dir, texts.length, await readFile(join(dir, TEXT_OFFSETS_FILE)));
  }

  it('a kept text given by its number writes the table its location object writes', async () => {
    const first = await generation('n1', ['alpha', 'beta', 'gamma']);
    const second = await generation('n2', [2, 'new', 0], first);
    const byNumber = await generation('n3', [0, 1, 2, 'last', 1], second);
    const byLocation = await generation('n4', [0, 1, 2, 'last', 1], second, { asLocations: true });
    // The layout read back with its columns, and one that has only `locate`, give the same table.
    const { columns: _columns, ...locateOnly } = second.layout;
    const dir = join(work, 'n5');
    await mkdir(dir);
    for (const segment of second.layout.segments) await link(join(second.layout.dir, segment.name), join(dir, segment.name));
    await writeTexts(dir, [0, 1, 2, 'last', 1], 'texts-n5.bin', locateOnly);
    try {
      const table = (name: string) => readFile(join(work, name, TEXT_OFFSETS_FILE));
      // The own segment's name differs, the rest of each table is the same.
      const strip = async (name: string) => (await table(name)).toString('latin1').replace(`texts-${name}.bin`, 'texts-own.bin');
      expect(await strip('n3')).toBe(await strip('n4'));
      expect(await strip('n3')).toBe(await strip('n5'));
      expect([0, 1, 2, 3, 4].map((i) => byNumber.text(i))).toEqual(['gamma', 'new', 'alpha', 'last', 'new']);
      await expect(writeTexts(join(work, 'n5'), [0], 'texts-n6.bin')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    } finally {
      for (const store of [first, second, byNumber, byLocation]) store.close();
    }
  });

  it('an update keeps unchanged texts in the linked segment and writes only the new ones', async () => {
    const first = await generation('g1', ['alpha', 'beta', 'gamma']);
    const second = await generation('g2', [0, 'béta 2', 2, 'new'], first);
    const third = await generation('g3', [0, 1, 3, 'last'], second);
    try {
      expect([0, 1, 2, 3].map((i) => second.text(i))).toEqual(['alpha', 'béta 2', 'gamma', 'new']);
      expect([0, 1, 2, 3].map((i) => third.text(i))).toEqual(['alpha', 'béta 2', 'new', 'last']);
      expect(third.layout.segments.map((s) => s.name)).toEqual([TEXTS_FILE, 'texts-g2.bin', 'texts-g3.bin']);
      // The new segment holds the new text alone; the first is one file in all three folders.
      expect(await readFile(join(work, 'g3', 'texts-g3.bin'), 'utf8')).toBe('last');
      expect((await stat(join(work, 'g3', TEXTS_FILE))).nlink).toBe(3);
    } finally {
      for (const store of [first, second, third]) store.close();
    }
  });

  it('a flipped byte in a linked segment is found by every generation that reads it', async () => {
    const first = await generation('f1', ['alpha', 'beta']);
    const second = await generation('f2', [0, 'new', 1], first);
    const bytes = await readFile(join(work, 'f1', TEXTS_FILE));
    bytes[1] = bytes[1]! ^ 0x20;
    await writeFile(join(work, 'f1', TEXTS_FILE), bytes); // in place: the linked file changes too
    try {
      for (const store of [first, second]) expect(() => store.text(0)).toThrow(expect.objectContaining({ code: 'INDEX_CORRUPT', message: expect.stringContaining(TEXTS_FILE) }));
      expect(second.text(1)).toBe('new');
    } finally {
      first.close();
      second.close();
    }
  });

  it('a location outside its segment, as a damaged table of the generation before would give, fails with INDEX_CORRUPT', async () => {
    const first = await generation('l1', ['alpha', 'beta']);
    const dir = join(work, 'l2');
    await mkdir(dir);
    await link(join(work, 'l1', TEXTS_FILE), join(dir, TEXTS_FILE));
    try {
      await expect(writeTexts(dir, [{ ...first.layout.locate(1), length: 50 }], 'texts-l2.bin')).rejects.toMatchObject({ code: 'INDEX_CORRUPT', message: expect.stringContaining('holds no text at 5–55') });
    } finally {
      first.close();
    }
  });

  it('planTextReuse links the segments holding a kept text, unless that wastes more than allowed or makes too many', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 1, max: 50 })), { minLength: 1, maxLength: 40 }),
        fc.array(fc.integer({ min: -1, max: 39 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 5 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (old, picks, maxSegments, maxDeadShare) => {
          // Old texts in up to 4 segments, laid one after another in each.
          const sizes = [0, 0, 0, 0];
          const locations = old.map(([segment, length]) => {
            const at = { segment: `texts-${segment}.bin`, start: sizes[segment]!, length, crc32: 0 };
            sizes[segment]! += length;
            return at;
          });
          const layout: TextLayout = { dir: '', segments: sizes.map((size, s) => ({ name: `texts-${s}.bin`, size })).filter((s) => s.size > 0), locate: (i) => locations[i]! };
          const sourceOf = (i: number) => (picks[i]! < old.length ? picks[i]! : -1);
          const plan = planTextReuse(layout, sourceOf, picks.length, { maxSegments, maxDeadShare });
          // The same layout by columns (what a generation read back has) plans the same.
          const indexOf = new Map(layout.segments.map((segment, s) => [segment.name, s]));
          const columns = {
            segmentOf: locations.map((at) => indexOf.get(at.segment)!),
            starts: locations.map((at) => at.start),
            lengths: locations.map((at) => at.length),
            sums: locations.map((at) => at.crc32),
          };
          expect(planTextReuse({ ...layout, locate: () => expect.fail('read by columns'), columns }, sourceOf, picks.length, { maxSegments, maxDeadShare })).toEqual(plan);
          const live = new Map<string, number>();
          picks.forEach((_, i) => {
            if (sourceOf(i) >= 0) live.set(locations[sourceOf(i)]!.segment, (live.get(locations[sourceOf(i)]!.segment) ?? 0) + locations[sourceOf(i)]!.length);
          });
          const linkedSize = layout.segments.filter((s) => live.has(s.name)).reduce((sum, s) => sum + s.size, 0);
          const liveSize = [...live.values()].reduce((sum, n) => sum + n, 0);
          const allowed = live.size > 0 && live.size + 1 <= maxSegments && 1 - liveSize / linkedSize <= maxDeadShare;
          expect(plan !== undefined).toBe(allowed);
          if (plan) expect(new Set(plan)).toEqual(new Set(live.keys()));
        },
      ),
      { numRuns: 300 },
    );
  });
});
