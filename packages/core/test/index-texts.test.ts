import fc from 'fast-check';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTexts, TEXT_OFFSETS_FILE, TEXTS_FILE, writeTexts } from '../src/index-texts.js';

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

  it('offsets out of order fail with INDEX_CORRUPT when the text they bound is read, not when opened', async () => {
    const dir = join(work, 'disordered');
    await mkdir(dir);
    const texts = ['alpha', 'beta', 'gamma', 'delta'];
    await writeTexts(dir, texts);
    const table = await readFile(join(dir, TEXT_OFFSETS_FILE));
    // Chunk 2 now starts after it ends (offsets are float64s; the ends of the table still span the file).
    table.writeDoubleLE(20, 2 * 8);
    const store = openTexts(dir, dir, texts.length, table);
    try {
      expect(store.text(0)).toBe('alpha');
      expect(() => store.text(2)).toThrow(expect.objectContaining({ code: 'INDEX_CORRUPT', message: expect.stringContaining('out of order at chunk 2') }));
    } finally {
      store.close();
    }
  });
});
