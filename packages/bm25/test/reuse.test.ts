import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildIndexData } from '../src/build.js';
import { patchIndexData } from '../src/patch.js';
import { FIELD_NAMES, resolveBm25Options } from '../src/options.js';
import { BM25_FORMAT_VERSION, encodeIndex } from '../src/persist.js';
import { bm25RetrieverFactory, createBm25Retriever } from '../src/index.js';
import { readReusableBuild } from '../src/retriever.js';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileSpec, sourcesOf, toChunks, type FileSpec } from './file-specs.js';

describe('taking over a previous build', () => {
  const options = resolveBm25Options({});

  it('gives byte-identical index data to a build from scratch, for any edits, adds, deletes and renames', () => {
    const paths = ['a.py', 'b.md', 'c.py', 'd.md', 'e.py'];
    fc.assert(
      fc.property(
        fc.tuple(...paths.map(fileSpec)),
        fc.tuple(...paths.map(fileSpec)),
        fc.array(fc.constantFrom('keep', 'edit', 'delete', 'rename'), { minLength: paths.length, maxLength: paths.length }),
        (before, edited, actions) => {
          const oldFiles = before.slice(0, 4);
          const newFiles: FileSpec[] = [];
          oldFiles.forEach((file, i) => {
            if (actions[i] === 'keep') newFiles.push(file);
            if (actions[i] === 'edit') newFiles.push({ ...edited[i]!, path: file.path });
            if (actions[i] === 'rename') newFiles.push({ ...file, path: `z${file.path}` });
          });
          if (actions[4] !== 'delete') newFiles.push(edited[4]!); // an added file
          const oldChunks = toChunks(oldFiles);
          const newChunks = toChunks(newFiles);
          const old = buildIndexData(oldChunks, options);
          const sourceOf = sourcesOf(oldFiles, oldChunks, newFiles, newChunks);
          const fresh = encodeIndex(buildIndexData(newChunks, options));
          const reused = encodeIndex(buildIndexData(newChunks, options, undefined, { data: old, sourceOf }));
          expect(Buffer.from(reused).equals(Buffer.from(fresh))).toBe(true);
          // Unchanged files keep their order, so the previous build is patched, not rebuilt.
          const patched = patchIndexData(newChunks, options, { data: old, sourceOf });
          expect(patched).toBeDefined();
          expect(Buffer.from(encodeIndex(patched!)).equals(Buffer.from(fresh))).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('an unchanged corpus takes over every chunk and still equals a fresh build', () => {
    const chunks = toChunks([
      { path: 'docs/a.md', language: 'markdown', pieces: [{ symbol: 'Guide > Setup', words: [9, 10, 0] }] },
      { path: 'pkg/m.py', language: 'python', pieces: [{ symbol: 'launch', words: [0, 1, 2] }, { symbol: 'Session.mount', words: [3, 4] }] },
    ]);
    const old = buildIndexData(chunks, options);
    const sourceOf = Int32Array.from(chunks, (chunk) => chunk.id);
    expect(Buffer.from(encodeIndex(buildIndexData(chunks, options, undefined, { data: old, sourceOf }))).equals(Buffer.from(encodeIndex(old)))).toBe(true);
  });

  it('copies out of their previous order are built, not patched, and still equal a fresh build', () => {
    // Two identical pieces of one file, each said to copy the other: a valid claim (same
    // file, same terms), but out of order for a patch, whose postings keep the previous order.
    const piece = { symbol: 'launch', words: [0, 1, 4] };
    const chunks = toChunks([{ path: 'a.py', language: 'python', pieces: [piece, piece] }]);
    const old = buildIndexData(chunks, options);
    const sourceOf = Int32Array.from([1, 0]);
    expect(patchIndexData(chunks, options, { data: old, sourceOf })).toBeUndefined();
    expect(Buffer.from(encodeIndex(buildIndexData(chunks, options, undefined, { data: old, sourceOf }))).equals(Buffer.from(encodeIndex(old)))).toBe(true);
  });

  it('a copied chunk whose anchor text changed (a doc elsewhere was edited) is analysed again', () => {
    // WORDS: 0 launch, 10 `launch`, 5 retry, 6 caching. pkg/m.py is unchanged; docs/a.md,
    // which names `launch`, is edited, so m.py's chunk keeps its file but not its anchor text.
    const code = { path: 'pkg/m.py', language: 'python' as const, pieces: [{ symbol: 'launch', words: [0, 1] }] };
    const before: FileSpec[] = [{ path: 'docs/a.md', language: 'markdown', pieces: [{ symbol: 'Guide', words: [10, 5] }] }, code];
    const after: FileSpec[] = [{ path: 'docs/a.md', language: 'markdown', pieces: [{ symbol: 'Guide', words: [10, 6] }] }, code];
    const oldChunks = toChunks(before);
    const newChunks = toChunks(after);
    const old = buildIndexData(oldChunks, options);
    const sourceOf = Int32Array.from([-1, 1]);
    const patched = patchIndexData(newChunks, options, { data: old, sourceOf });
    expect(patched).toBeDefined();
    expect(Buffer.from(encodeIndex(patched!)).equals(Buffer.from(encodeIndex(buildIndexData(newChunks, options))))).toBe(true);
    // The code chunk's anchor field now holds the edited paragraph's word, not the old one's.
    const anchorTerms = (data: typeof old): string[] => {
      const f = FIELD_NAMES.indexOf('anchor');
      const field = data.fields[f]!;
      return [...Array(data.dictionary.size).keys()].filter((t) => [...field.docs.subarray(field.offsets[t]!, field.offsets[t + 1]!)].includes(1)).map((t) => data.dictionary.termAt(t));
    };
    expect(anchorTerms(old)).toContain('retry');
    expect(anchorTerms(patched!)).not.toContain('retry');
    expect(anchorTerms(patched!).some((term) => term.startsWith('cach'))).toBe(true);
  });

  it('refuses a sourceOf of the wrong length', () => {
    const chunks = toChunks([{ path: 'a.py', language: 'python', pieces: [{ symbol: '', words: [0] }] }]);
    const old = buildIndexData(chunks, options);
    expect(() => buildIndexData(chunks, options, undefined, { data: old, sourceOf: new Int32Array(2) })).toThrow(/sourceOf/);
  });
});

describe('readReusableBuild', () => {
  const chunks = toChunks([
    { path: 'docs/a.md', language: 'markdown', pieces: [{ symbol: 'Guide > Setup', words: [9, 10, 0] }] },
    { path: 'pkg/m.py', language: 'python', pieces: [{ symbol: 'launch', words: [0, 1, 2] }] },
  ]);
  const sourceOf = Int32Array.from(chunks, (chunk) => chunk.id);

  it('takes over a build of the same options over the same chunks, and ignores anything else', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bm25-reuse-'));
    try {
      await createBm25Retriever(chunks).save(dir);
      expect(await readReusableBuild({ dir, chunks, sourceOf }, {})).toBeDefined();
      expect(await readReusableBuild({ dir, chunks, sourceOf }, { k1: 1.5 })).toBeUndefined();
      expect(await readReusableBuild({ dir, chunks: chunks.slice(0, 1), sourceOf }, {})).toBeUndefined();
      const file = join(dir, 'bm25.bin');
      const bytes = await readFile(file);
      bytes[bytes.length - 3]! ^= 0xff;
      await writeFile(file, bytes);
      expect(await readReusableBuild({ dir, chunks, sourceOf }, {})).toBeUndefined();
      expect(await readReusableBuild({ dir: join(dir, 'missing'), chunks, sourceOf }, {})).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('says why a previous build was not reused: other settings, other chunks, another format', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bm25-notice-'));
    try {
      await createBm25Retriever(chunks).save(dir);
      const notices: string[] = [];
      const notice = (message: string) => notices.push(message);
      expect(await readReusableBuild({ dir, chunks, sourceOf }, {}, notice)).toBeDefined();
      expect(notices).toEqual([]);
      await readReusableBuild({ dir, chunks, sourceOf }, { k1: 1.5 }, notice);
      await readReusableBuild({ dir, chunks: chunks.slice(0, 1), sourceOf }, {}, notice);
      // The header of a build in an older format (same length, so the rest stays in place).
      const file = join(dir, 'bm25.bin');
      const text = (await readFile(file)).toString('latin1');
      const older = text.replace(`"version":${BM25_FORMAT_VERSION},`, `"version":${BM25_FORMAT_VERSION - 1},`.padEnd(`"version":${BM25_FORMAT_VERSION},`.length, ' '));
      expect(older).not.toBe(text);
      await writeFile(file, Buffer.from(older, 'latin1'));
      expect(await readReusableBuild({ dir, chunks, sourceOf }, {}, notice)).toBeUndefined();
      expect(notices).toHaveLength(3);
      expect(notices[0]).toMatch(/not reused.*other settings/);
      expect(notices[1]).toMatch(/not reused.*other chunks/);
      expect(notices[2]).toMatch(new RegExp(`not reused.*format version ${BM25_FORMAT_VERSION - 1}; .* reads version ${BM25_FORMAT_VERSION}`));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('says whether a saved build is what build() would write now: same options and chunk count, from its header', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bm25-current-'));
    try {
      await createBm25Retriever(chunks).save(dir);
      expect(await bm25RetrieverFactory.isCurrent!({ dir, chunkCount: chunks.length })).toBe(true);
      expect(await bm25RetrieverFactory.isCurrent!({ dir, chunkCount: chunks.length }, { settings: { k1: 1.5 } })).toBe(false);
      expect(await bm25RetrieverFactory.isCurrent!({ dir, chunkCount: chunks.length - 1 })).toBe(false);
      expect(await bm25RetrieverFactory.isCurrent!({ dir: join(dir, 'missing'), chunkCount: chunks.length })).toBe(false);
      await writeFile(join(dir, 'bm25.bin'), 'not an index');
      expect(await bm25RetrieverFactory.isCurrent!({ dir, chunkCount: chunks.length })).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('trusts a build the index store verified: no second checksum, no fingerprint (the store vouches for both)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bm25-reuse-'));
    try {
      await createBm25Retriever(chunks).save(dir);
      const file = join(dir, 'bm25.bin');
      const bytes = await readFile(file);
      const reads: string[] = [];
      const readOnce = async (path: string): Promise<Uint8Array> => {
        reads.push(path);
        return bytes;
      };
      const previous = { dir, chunks: chunks.slice(0, 1), sourceOf, readFile: readOnce, verified: true };
      expect(await readReusableBuild(previous, {})).toBeDefined();
      expect(reads).toEqual([file]);
      // Without the store's word, the same chunks mismatch the fingerprint.
      expect(await readReusableBuild({ ...previous, verified: false }, {})).toBeUndefined();
      // Options still decide: another k1 is another index.
      expect(await readReusableBuild(previous, { k1: 1.5 })).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
