import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bm25RetrieverFactory, createBm25Retriever, resolveBm25Options, type Bm25Retriever } from '../src/index.js';
import { BM25_FILE_NAME, BM25_FORMAT_VERSION, decodeIndex, encodeIndex } from '../src/internals.js';
import { makeChunks, rejection } from './helpers.js';

const chunks = makeChunks([
  { text: 'class LLMEngine:\n    def step(self): ...', file_path: 'vllm/engine/llm_engine.py', symbol: 'LLMEngine' },
  { text: 'The engine steps through scheduled sequences. Größe 🚀 東京', file_path: 'docs/design/engine.md', symbol: 'Engine > Steps' },
  { text: 'max_num_seqs = 256  # upper bound on sequences per step', file_path: 'vllm/config.py', symbol: 'SchedulerConfig' },
  { text: '', file_path: 'empty.txt' },
]);
const queries = ['LLMEngine step', 'sequences per step', 'max_num_seqs', 'größe 東京', 'engine', 'nothing-matches-this'];

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rag-bm25-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function saved(settings = {}): Promise<Bm25Retriever> {
  const retriever = createBm25Retriever(chunks, settings);
  await retriever.save(dir);
  return retriever;
}

/** Rewrites the saved file with `edit` applied to its bytes. */
async function tamper(edit: (bytes: Uint8Array) => Uint8Array): Promise<void> {
  const path = join(dir, BM25_FILE_NAME);
  await writeFile(path, edit(new Uint8Array(await readFile(path))));
}

describe('persistence', () => {
  it('round-trips: the loaded retriever returns identical hits and explanations', async () => {
    const built = await saved({ k1: 0.9, fields: { symbol: { weight: 2 } }, tokenizer: { stem: false } });
    const loaded = (await bm25RetrieverFactory.load(dir, chunks)) as Bm25Retriever;
    // Queries are tokenized with the stored options: unstemmed, "sequence" misses "sequences".
    expect(loaded.index.options).toEqual(built.index.options);
    expect(await loaded.search('sequence', { k: 4 })).toEqual([]);
    for (const query of queries) {
      expect(await loaded.search(query, { k: 4 })).toEqual(await built.search(query, { k: 4 }));
      for (let id = 0; id < chunks.length; id++) expect(loaded.explain!(query, id)).toEqual(built.explain(query, id));
    }
  });

  it('stores the complete options and the format version in the header', async () => {
    await saved({ k1: 0.9 });
    const bytes = new Uint8Array(await readFile(join(dir, BM25_FILE_NAME)));
    const data = decodeIndex(bytes, 'test');
    expect(data.options).toEqual(resolveBm25Options({ k1: 0.9 }));
    const headerText = new TextDecoder().decode(bytes.subarray(12, 12 + new DataView(bytes.buffer).getUint32(8, true)));
    expect(JSON.parse(headerText)).toMatchObject({ format: 'rag-bm25', version: BM25_FORMAT_VERSION, docCount: 4 });
  });

  it('encodes deterministically and decodes what it encodes', () => {
    const first = encodeIndex(createBm25Retriever(chunks).index.data);
    const second = encodeIndex(createBm25Retriever(chunks).index.data);
    expect(second).toEqual(first);
    expect(encodeIndex(decodeIndex(first, 'test'))).toEqual(first);
  });

  it('saves, part by part, exactly the bytes encodeIndex assembles', async () => {
    const retriever = createBm25Retriever(chunks);
    await retriever.save(dir);
    expect(new Uint8Array(await readFile(join(dir, BM25_FILE_NAME)))).toEqual(encodeIndex(retriever.index.data));
  });

  it('skips only the payload checksum when the caller verified the file another way', async () => {
    const bytes = encodeIndex(createBm25Retriever(chunks).index.data);
    const flipped = bytes.slice();
    // One more occurrence of the first posting's term: a valid frequency, so the structure holds.
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + new DataView(bytes.buffer, bytes.byteOffset).getUint32(8, true)))) as { sections: Record<string, { offset: number }> };
    const at = header.sections['body.tfs']!.offset;
    flipped[at] = bytes[at]! + 1;
    expect(() => decodeIndex(flipped, 'bm25.bin')).toThrow(/checksum does not match/);
    expect(() => decodeIndex(flipped, 'bm25.bin', { checksum: false })).not.toThrow();
    // Structure is still checked: a file cut short fails either way.
    expect(() => decodeIndex(bytes.subarray(0, bytes.length - 8), 'bm25.bin', { checksum: false })).toThrow(/bytes long/);
  });

  it('refuses another format version with INDEX_INCOMPATIBLE', async () => {
    await saved();
    await tamper((bytes) => {
      const text = new TextDecoder().decode(bytes);
      const at = text.indexOf(`"version":${BM25_FORMAT_VERSION}`);
      // An older version of the same width, so the header keeps its length.
      bytes.set(new TextEncoder().encode(`"version":${BM25_FORMAT_VERSION - 1}`), at);
      return bytes;
    });
    const error = await rejection(() => bm25RetrieverFactory.load(dir, chunks));
    expect(error.code).toBe('INDEX_INCOMPATIBLE');
    expect(error.message).toContain(`version ${BM25_FORMAT_VERSION - 1}`);
    expect(error.hint).toContain('rag index');
  });

  it.each([
    ['a flipped payload byte', (b: Uint8Array) => ((b[b.length - 3] = b[b.length - 3]! ^ 0xff), b)],
    ['a truncated file', (b: Uint8Array) => b.subarray(0, b.length - 8)],
    ['a file cut inside its header', (b: Uint8Array) => b.subarray(0, 20)],
    ['a wrong signature', (b: Uint8Array) => ((b[0] = 0x58), b)],
    ['a header that is not JSON', (b: Uint8Array) => ((b[12] = 0x7e), b)],
    ['an empty file', () => new Uint8Array(0)],
  ])('reports %s as INDEX_CORRUPT', async (_, edit) => {
    await saved();
    await tamper(edit);
    const error = await rejection(() => bm25RetrieverFactory.load(dir, chunks));
    expect(error.code).toBe('INDEX_CORRUPT');
    expect(error.hint).toContain('rag index');
  });

  it('reports a missing file as INDEX_CORRUPT', async () => {
    const error = await rejection(() => bm25RetrieverFactory.load(dir, chunks));
    expect(error.code).toBe('INDEX_CORRUPT');
  });

  it('refuses to load next to chunks it was not built over', async () => {
    await saved();
    const other = makeChunks([{ text: 'a' }, { text: 'b' }, { text: 'c' }, { text: 'd' }]);
    const error = await rejection(() => bm25RetrieverFactory.load(dir, other));
    expect(error.code).toBe('INDEX_CORRUPT');
    expect(error.message).toContain('other chunks');
  });
});
