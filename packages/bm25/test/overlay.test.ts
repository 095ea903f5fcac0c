import fc from 'fast-check';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Chunk } from '@rag/core';
import { describe, expect, it } from 'vitest';
import { Bm25Index } from '../src/bm25-index.js';
import { buildIndexData, CONTINUES_SEGMENT, TERM_ID_MASK, type Bm25IndexData } from '../src/build.js';
import { composeIndex } from '../src/composite.js';
import { TermDictionary } from '../src/dictionary.js';
import { Bm25Retriever, bm25RetrieverFactory, loadBm25Retriever } from '../src/index.js';
import { FIELD_NAMES, resolveBm25Options } from '../src/options.js';
import { overlayOf, type OverlayData } from '../src/overlay.js';
import { BASE_FILE_NAME, checkOverlayBase, decodeOverlay, encodeOverlayParts, OVERLAY_FILE_NAME, readOverlayHeader } from '../src/overlay-file.js';
import { encodeIndex, joinParts, readHeader } from '../src/persist.js';
import { arrayPostings, type PostingSource } from '../src/postings.js';
import { fileSpec, sourcesOf, toChunks, type FileSpec } from './file-specs.js';
import { rejection } from './helpers.js';

const options = resolveBm25Options({});

/**
 * The index a base and an overlay make, as one index of its own would store it: the terms
 * some chunk holds, sorted, every list, sequence and name renumbered to them. Equal to a
 * build from scratch byte for byte when the overlay is right.
 */
function materialize(data: Bm25IndexData, postings: PostingSource): Bm25IndexData {
  const live: number[] = [];
  for (let t = 0; t < data.dictionary.size; t++) if (data.docFrequencies[t]! > 0) live.push(t);
  const terms = live.map((t) => data.dictionary.termAt(t));
  const order = live.map((_, i) => i).sort((a, b) => (terms[a]! < terms[b]! ? -1 : 1));
  const newId = new Int32Array(data.dictionary.size).fill(-1);
  order.forEach((i, rank) => (newId[live[i]!] = rank));
  const fields = FIELD_NAMES.map((_, f) => {
    const offsets = new Uint32Array(order.length + 1);
    const docs: number[] = [];
    const tfs: number[] = [];
    order.forEach((i, rank) => {
      const list = postings.postings(f, live[i]!);
      docs.push(...list.docs);
      tfs.push(...list.tfs);
      offsets[rank + 1] = docs.length;
    });
    return { offsets, docs: Uint32Array.from(docs), tfs: Uint16Array.from(tfs), lengths: data.fields[f]!.lengths };
  });
  const sequenceOffsets = new Uint32Array(data.docCount + 1);
  const entries: number[] = [];
  for (let d = 0; d < data.docCount; d++) {
    for (const entry of postings.sequence(d)) entries.push(newId[entry & TERM_ID_MASK]! | (entry & CONTINUES_SEGMENT));
    sequenceOffsets[d + 1] = entries.length;
  }
  const { features } = data;
  const nameOffsets = new Uint32Array(data.docCount + 1);
  const names: number[] = [];
  for (let d = 0; d < data.docCount; d++) {
    names.push(...[...features.names.subarray(features.nameOffsets[d], features.nameOffsets[d + 1])].map((t) => newId[t]!).sort((a, b) => a - b));
    nameOffsets[d + 1] = names.length;
  }
  return {
    options: data.options,
    docCount: data.docCount,
    dictionary: TermDictionary.fromSorted(order.map((i) => terms[i]!)),
    docFrequencies: Uint32Array.from(order, (i) => data.docFrequencies[live[i]!]!),
    fields,
    sequences: { offsets: sequenceOffsets, terms: Uint32Array.from(entries) },
    features: { ...features, nameOffsets, names: Uint32Array.from(names) },
    anchorHashes: data.anchorHashes,
    anchorMentions: data.anchorMentions,
    chunkFingerprint: data.chunkFingerprint,
  };
}

/** The files after `actions[i]` on `oldFiles[i]` (keep, edit to `edited[i]`, delete, rename), and `added` if given. */
function edit(oldFiles: readonly FileSpec[], edited: readonly FileSpec[], actions: readonly string[], added: FileSpec | undefined): FileSpec[] {
  const files: FileSpec[] = [];
  oldFiles.forEach((file, i) => {
    if (actions[i] === 'keep') files.push(file);
    if (actions[i] === 'edit') files.push({ ...edited[i]!, path: file.path });
    if (actions[i] === 'rename') files.push({ ...file, path: `z${file.path}` });
  });
  if (added) files.push(added);
  return files;
}

const same = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a).equals(Buffer.from(b));

const QUERIES = ['launch', 'open url retry', 'max_num_seqs caching', 'Session.mount HTTP/2', 'fresh_name déjà', 'raise ValueError utf-8'];

/** Every query's hits and every hit's explanation agree between two indexes over the same chunks. */
function expectSameSearches(a: Bm25Index, b: Bm25Index): void {
  for (const query of QUERIES) {
    const hits = a.search(query, 10);
    expect(hits).toEqual(b.search(query, 10));
    for (const hit of hits) expect(a.explain(query, hit.chunkId).value).toBe(b.explain(query, hit.chunkId).value);
  }
}

describe('an update written as an overlay on its base', () => {
  const paths = ['a.py', 'b.md', 'c.py', 'd.md', 'e.py'];
  const change = fc.tuple(fc.tuple(...paths.map(fileSpec)), fc.array(fc.constantFrom('keep', 'edit', 'delete', 'rename'), { minLength: paths.length, maxLength: paths.length }));

  it('is the index a build from scratch gives, byte for byte once written whole, for any edits, adds, deletes and renames, twice over', () => {
    fc.assert(
      fc.property(fc.tuple(...paths.map(fileSpec)), change, change, (before, [edited1, actions1], [edited2, actions2]) => {
        const files0 = before.slice(0, 4);
        const chunks0 = toChunks(files0);
        const base = buildIndexData(chunks0, options);
        const files1 = edit(files0, edited1, actions1, actions1[4] === 'delete' ? undefined : edited1[4]!);
        const chunks1 = toChunks(files1);
        const sourceOf1 = sourcesOf(files0, chunks0, files1, chunks1);
        const first = overlayOf(chunks1, options, { data: base, payloadChecksum: 1, previous: { data: base, postings: arrayPostings(base), chunks: chunks0 }, sourceOf: sourceOf1 }, Infinity);
        expect(first).toBeDefined();
        const one = composeIndex(base, arrayPostings(base), first!);
        const fresh1 = buildIndexData(chunks1, options);
        expect(same(encodeIndex(materialize(one.data, one.postings)), encodeIndex(fresh1))).toBe(true);
        expectSameSearches(new Bm25Index(one.data, one.postings), new Bm25Index(fresh1));

        // A second update over the first: its overlay is again against the base, and the
        // previous index it reads is composed as an update composes it, without posting lists.
        const previous = composeIndex(base, arrayPostings(base), first!, false, { lists: false });
        expect(() => previous.postings.postings(0, 0)).toThrow(/without its posting lists/);
        const files2 = edit(files1, edited2, actions2, actions2[4] === 'delete' ? undefined : { ...edited2[4]!, path: 'f.py' });
        const chunks2 = toChunks(files2);
        const sourceOf2 = sourcesOf(files1, chunks1, files2, chunks2);
        const second = overlayOf(chunks2, options, { data: base, payloadChecksum: 1, previous: { data: previous.data, postings: previous.postings, overlay: first!, chunks: chunks1 }, sourceOf: sourceOf2 }, Infinity);
        expect(second).toBeDefined();
        const two = composeIndex(base, arrayPostings(base), second!);
        const fresh2 = buildIndexData(chunks2, options);
        expect(same(encodeIndex(materialize(two.data, two.postings)), encodeIndex(fresh2))).toBe(true);
        expectSameSearches(new Bm25Index(two.data, two.postings), new Bm25Index(fresh2));
      }),
      { numRuns: 150 },
    );
  });

  it('searches as a build from scratch does with its base read in pages (the one-shot way): statistics and names composed as they are fetched', async () => {
    await fc.assert(
      fc.asyncProperty(fc.tuple(...paths.map(fileSpec)), change, async (before, [edited, actions]) => {
        const files0 = before.slice(0, 4);
        const chunks0 = toChunks(files0);
        const base = buildIndexData(chunks0, options);
        const files1 = edit(files0, edited, actions, actions[4] === 'delete' ? undefined : edited[4]!);
        const chunks1 = toChunks(files1);
        const overlay = overlayOf(chunks1, options, { data: base, payloadChecksum: 0, previous: { data: base, postings: arrayPostings(base) }, sourceOf: sourcesOf(files0, chunks0, files1, chunks1) }, Infinity)!;
        const baseBytes = encodeIndex(base);
        const overlayBytes = joinParts(encodeOverlayParts({ ...overlay, base: { ...overlay.base, payloadChecksum: readHeader(baseBytes, 'base').payloadChecksum } }));
        const ranges = { size: baseBytes.byteLength, read: async (list: readonly { offset: number; length: number }[]) => list.map((r) => baseBytes.slice(r.offset, r.offset + r.length)) };
        const paged = await loadBm25Retriever('/idx/bm25', chunks1, {
          verified: true,
          files: [BASE_FILE_NAME, OVERLAY_FILE_NAME],
          openRanges: (path) => (path.endsWith(BASE_FILE_NAME) ? ranges : undefined),
          readFile: async () => overlayBytes,
        });
        const fresh = new Bm25Retriever(new Bm25Index(buildIndexData(chunks1, options)), chunks1);
        for (const query of QUERIES) {
          expect(await paged.search(query, { k: 10 })).toEqual(fresh.searchSync(query, { k: 10 }));
          expect(await paged.unindexedWords(query)).toEqual(await fresh.unindexedWords(query));
          expect(await paged.rareWords(query)).toEqual(await fresh.rareWords(query));
        }
      }),
      { numRuns: 60 },
    );
  });

  it('round-trips through its file, and a damaged file or another base is INDEX_CORRUPT', async () => {
    const files: FileSpec[] = [
      { path: 'docs/a.md', language: 'markdown', pieces: [{ symbol: 'Guide > Setup', words: [9, 10, 0] }] },
      { path: 'pkg/m.py', language: 'python', pieces: [{ symbol: 'launch', words: [0, 1, 2] }, { symbol: 'Session.mount', words: [3, 4, 16] }] },
    ];
    const chunks0 = toChunks(files);
    const base = buildIndexData(chunks0, options);
    const edited: FileSpec[] = [files[0]!, { ...files[1]!, pieces: [{ symbol: 'launch', words: [0, 5, 6, 17] }] }];
    const chunks1 = toChunks(edited);
    const overlay = overlayOf(chunks1, options, { data: base, payloadChecksum: 7, previous: { data: base, postings: arrayPostings(base) }, sourceOf: sourcesOf(files, chunks0, edited, chunks1) }, Infinity)!;
    const bytes = joinParts(encodeOverlayParts(overlay));
    const decoded: OverlayData = decodeOverlay(bytes, 'overlay');
    expect(same(joinParts(encodeOverlayParts(decoded)), bytes)).toBe(true);
    // Every byte of the payload is under its checksum, and a damaged signature is refused. (The
    // JSON header is not: the index's manifest checks the file whole, as for bm25.bin.)
    const { payloadOffset } = readOverlayHeader(bytes, 'overlay');
    for (const at of [0, 3, ...Array.from({ length: 97 }, (_, i) => payloadOffset + Math.floor(((bytes.length - payloadOffset) * i) / 97))]) {
      const damaged = Uint8Array.from(bytes);
      damaged[at]! ^= 0x5a;
      expect((await rejection(() => decodeOverlay(damaged, 'overlay'))).code).toMatch(/INDEX_CORRUPT|INDEX_INCOMPATIBLE/);
    }
    // Bound to its base by the base's counts and payload checksum.
    expect(() => checkOverlayBase(overlay, base, 7, 'overlay')).not.toThrow();
    expect(() => checkOverlayBase(overlay, base, 8, 'overlay')).toThrow(/another base/);
    expect(() => checkOverlayBase(overlay, buildIndexData(toChunks([files[1]!]), options), 7, 'overlay')).toThrow(/another base/);
  });

  it('is what an update of a saved index writes: the base linked or copied as bm25-base.bin, and loading it searches as a fresh build does', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bm25-overlay-'));
    try {
      // Twenty files, so that an edit of one (its chunk replaced) stays well inside the overlay's share.
      const files: FileSpec[] = [
        { path: 'docs/a.md', language: 'markdown', pieces: [{ symbol: 'Guide > Setup', words: [9, 10, 0] }] },
        { path: 'pkg/m.py', language: 'python', pieces: [{ symbol: 'launch', words: [0, 1, 2] }, { symbol: 'Session.mount', words: [3, 4, 16] }] },
        { path: 'pkg/n.py', language: 'python', pieces: [{ symbol: 'retry', words: [5, 6, 18] }] },
        { path: 'pkg/o.py', language: 'python', pieces: [{ symbol: 'caching', words: [6, 7, 8] }] },
        ...Array.from({ length: 16 }, (_, i): FileSpec => ({ path: `pkg/q${i}.py`, language: 'python', pieces: [{ symbol: 'open_url', words: [1, 11, i % 19, (i * 7) % 19] }] })),
      ];
      const chunks0 = toChunks(files);
      const first = join(dir, 'first');
      const second = join(dir, 'second');
      const third = join(dir, 'third');
      const built = await bm25RetrieverFactory.build(chunks0);
      await built.save(first);
      const edited: FileSpec[] = files.map((file, i) => (i === 2 ? { ...file, pieces: [{ symbol: 'retry', words: [5, 17, 14] }] } : file));
      const chunks1 = toChunks(edited);
      const notices: string[] = [];
      const updated = await bm25RetrieverFactory.build(chunks1, { previous: { dir: first, chunks: chunks0, sourceOf: sourcesOf(files, chunks0, edited, chunks1) }, onNotice: (m) => notices.push(m) });
      expect(notices).toEqual([]);
      await updated.save(second);
      expect((await readFile(join(second, BASE_FILE_NAME))).equals(await readFile(join(first, 'bm25.bin')))).toBe(true);
      const loaded = await loadBm25Retriever(second, chunks1);
      const fresh = await bm25RetrieverFactory.build(chunks1);
      for (const query of QUERIES) expect(await loaded.search(query, { k: 5 })).toEqual(await fresh.search(query, { k: 5 }));
      expect(await bm25RetrieverFactory.isCurrent!({ dir: second, chunkCount: chunks1.length })).toBe(true);
      expect(await bm25RetrieverFactory.isCurrent!({ dir: second, chunkCount: chunks1.length + 1 })).toBe(false);

      // An update of the overlaid index: again an overlay, on the same base.
      const again: FileSpec[] = edited.map((file, i) => (i === 3 ? { ...file, pieces: [{ symbol: 'caching', words: [0, 3] }] } : file));
      const chunks2 = toChunks(again);
      const next = await bm25RetrieverFactory.build(chunks2, { previous: { dir: second, chunks: chunks1, sourceOf: sourcesOf(edited, chunks1, again, chunks2) } });
      await next.save(third);
      expect((await readFile(join(third, BASE_FILE_NAME))).equals(await readFile(join(first, 'bm25.bin')))).toBe(true);
      const reloaded = await loadBm25Retriever(third, chunks2);
      const fresh2 = await bm25RetrieverFactory.build(chunks2);
      for (const query of QUERIES) expect(await reloaded.search(query, { k: 5 })).toEqual(await fresh2.search(query, { k: 5 }));

      // The overlay beside another base (a different corpus' index) is refused, never searched.
      await writeFile(join(third, BASE_FILE_NAME), encodeIndex(buildIndexData(toChunks(files.slice(1)), options)));
      expect((await rejection(() => loadBm25Retriever(third, chunks2))).code).toBe('INDEX_CORRUPT');
      // A missing overlay: the index is damaged, not the base alone.
      await rm(join(second, OVERLAY_FILE_NAME));
      expect((await rejection(() => loadBm25Retriever(second, chunks1, { files: [BASE_FILE_NAME, OVERLAY_FILE_NAME] }))).code).toBe('INDEX_CORRUPT');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('gives way to a whole bm25.bin, taken over from its base, once a later update would hold more than a quarter of the index', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bm25-overlay-'));
    try {
      const files: FileSpec[] = Array.from({ length: 20 }, (_, i): FileSpec => ({ path: `pkg/m${String(i).padStart(2, '0')}.py`, language: 'python', pieces: [{ symbol: 'launch', words: [i % 19, (i * 5) % 19, 2] }] }));
      const chunks0 = toChunks(files);
      await (await bm25RetrieverFactory.build(chunks0)).save(join(dir, 'first'));
      const small = files.map((file, i): FileSpec => (i === 3 ? { ...file, pieces: [{ symbol: 'launch', words: [7, 8] }] } : file));
      const chunks1 = toChunks(small);
      await (await bm25RetrieverFactory.build(chunks1, { previous: { dir: join(dir, 'first'), chunks: chunks0, sourceOf: sourcesOf(files, chunks0, small, chunks1) } })).save(join(dir, 'second'));
      expect((await readFile(join(dir, 'second', OVERLAY_FILE_NAME))).byteLength).toBeGreaterThan(0);
      // Eight more files edited: with the first edit, nine of twenty chunks would be the overlay's.
      const large = small.map((file, i): FileSpec => (i >= 10 && i < 18 ? { ...file, pieces: [{ symbol: 'launch', words: [i % 19, 17, 18] }] } : file));
      const chunks2 = toChunks(large);
      await (await bm25RetrieverFactory.build(chunks2, { previous: { dir: join(dir, 'second'), chunks: chunks1, sourceOf: sourcesOf(small, chunks1, large, chunks2) } })).save(join(dir, 'third'));
      expect(same(await readFile(join(dir, 'third', 'bm25.bin')), encodeIndex(buildIndexData(chunks2, options)))).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('is not written when it would hold more than a quarter of the index: the update writes bm25.bin whole', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bm25-overlay-'));
    try {
      const files: FileSpec[] = ['a.py', 'b.py', 'c.py'].map((path, i) => ({ path, language: 'python', pieces: [{ symbol: 'launch', words: [i, i + 1] }] }));
      const chunks0 = toChunks(files);
      await (await bm25RetrieverFactory.build(chunks0)).save(join(dir, 'first'));
      const edited = files.map((file, i): FileSpec => (i === 0 ? { ...file, pieces: [{ symbol: 'launch', words: [7, 8] }] } : file));
      const chunks1: Chunk[] = toChunks(edited);
      const updated = await bm25RetrieverFactory.build(chunks1, { previous: { dir: join(dir, 'first'), chunks: chunks0, sourceOf: sourcesOf(files, chunks0, edited, chunks1) } });
      await updated.save(join(dir, 'second'));
      const written = await readFile(join(dir, 'second', 'bm25.bin'));
      expect(same(written, encodeIndex(buildIndexData(chunks1, options)))).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
