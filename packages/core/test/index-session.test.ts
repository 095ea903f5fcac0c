import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOutputPathMapper, openIndexSession, RetrieverRegistry, writeIndex, type Chunk, type RetrieverFactory } from '../src/index.js';
import { rejection } from './helpers.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'rag-core-session-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const chunks: Chunk[] = [
  { id: 0, file_path: 'pkg/a.py', first_character_index: 0, last_character_index: 5, start_line: 1, end_line: 1, kind: 'function', symbol: 'a', language: 'python', text: 'alpha' },
  { id: 1, file_path: 'pkg/a.py', first_character_index: 6, last_character_index: 10, start_line: 2, end_line: 2, kind: 'function', symbol: 'b', language: 'python', text: 'beta' },
];

/** Ranks chunks whose text contains the query, remembering its saved tag. */
function fakeFactory(name: string): RetrieverFactory {
  const make = (tag: string) => ({
    name,
    tag,
    async search(query: string, { k, scope }: { k: number; scope?: Uint8Array }) {
      return chunks
        .filter((c) => c.text.includes(query) && (scope === undefined || scope[c.id] === 1))
        .slice(0, k)
        .map((c) => ({ chunkId: c.id, score: 1 }));
    },
    async save(dir: string) {
      await writeFile(join(dir, 'tag'), tag);
    },
  });
  return {
    name,
    description: 'test',
    build: async () => make('built'),
    load: async (dir) => make(await readFile(join(dir, 'tag'), 'utf8')),
  };
}

async function writeFakeIndex(dir: string): Promise<void> {
  const factory = fakeFactory('fake');
  const retriever = await factory.build(chunks);
  await writeIndex(dir, {
    manifest: {
      toolVersion: 't',
      createdAt: 'now',
      corpusDir: join(root, 'corpus'),
      corpusDirAsGiven: 'corpus',
      chunking: {},
      files: [{ file_path: 'pkg/a.py', sha256: 'x', bytes: 10, length: 10, language: 'python' }],
    },
    chunks,
    retrievers: [{ entry: { name: 'fake', settings: {}, builtAt: 'now' }, save: (d) => retriever.save(d) }],
  });
}

describe('openIndexSession', () => {
  it('loads the recorded retriever and maps hits to output paths relative to the path base', async () => {
    const dir = join(root, 'index');
    await writeFakeIndex(dir);
    const session = await openIndexSession(dir, { retrievers: new RetrieverRegistry([fakeFactory('fake')]), pathBase: root });
    expect(session.defaultRetriever).toBe('fake');
    const hits = await session.search('beta', 5);
    expect(hits).toEqual([{ rank: 1, score: 1, chunk: chunks[1], file_path: 'corpus/pkg/a.py', alsoSymbols: [] }]);
  });

  it('makes scopes from globs over its chunks, keeps them for the same globs, and searches within one', async () => {
    const dir = join(root, 'index');
    await writeFakeIndex(dir);
    const session = await openIndexSession(dir, { retrievers: new RetrieverRegistry([fakeFactory('fake')]), pathBase: root });
    const python = session.scopeOf(['*.py']);
    expect([...python]).toEqual([1, 1]);
    expect(session.scopeOf(['*.py'])).toBe(python);
    const markdown = session.scopeOf(['pkg/', '!*.py']);
    expect([...markdown]).toEqual([0, 0]);
    expect(await session.search('beta', 5, undefined, python)).toHaveLength(1);
    expect(await session.search('beta', 5, undefined, markdown)).toEqual([]);
    expect((await rejection(() => session.scopeOf(['!']))).code).toBe('INVALID_ARGUMENT');
  });

  it('closes the chunk-text file: texts read before stay, a text read after says the index was closed', async () => {
    const dir = join(root, 'index');
    await writeFakeIndex(dir);
    const session = await openIndexSession(dir, { retrievers: new RetrieverRegistry([fakeFactory('fake')]), pathBase: root });
    expect(session.chunks[1]!.text).toBe('beta');
    session.close();
    expect(() => session.chunks[1]!.text).toThrow(/closed/);
  });

  it('refuses a retriever the index was not built with, naming the ones it has', async () => {
    const dir = join(root, 'index');
    await writeFakeIndex(dir);
    const registry = new RetrieverRegistry([fakeFactory('fake'), fakeFactory('other')]);
    const error = await rejection(() => openIndexSession(dir, { retrievers: registry, retriever: 'other' }));
    expect(error.code).toBe('UNKNOWN_NAME');
    expect(error.message).toContain('(it has: fake)');
    expect(error.hint).toContain('--retriever other');
  });

  it('refuses an unknown retriever name before reading anything', async () => {
    const error = await rejection(() => openIndexSession(join(root, 'missing'), { retrievers: new RetrieverRegistry([fakeFactory('fake')]), retriever: 'nope' }));
    expect(error.code).toBe('UNKNOWN_NAME');
    expect(error.hint).toContain('fake');
  });
});

describe('createOutputPathMapper', () => {
  it('joins the corpus dir and the file path, relative to the base, with / separators', () => {
    const map = createOutputPathMapper('/data/shared/data/raw', '/data/shared');
    expect(map('vllm-0.10.1/vllm/llm.py')).toBe('data/raw/vllm-0.10.1/vllm/llm.py');
    expect(createOutputPathMapper('/a/corpus', '/a/corpus/sub')('x.md')).toBe('../x.md');
  });
});
