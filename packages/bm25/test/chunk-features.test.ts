import { describe, expect, it } from 'vitest';
import { Bm25Retriever, createBm25Retriever, resolveBm25Options } from '../src/index.js';
import { Bm25Index } from '../src/bm25-index.js';
import { carriesEvidence, checkChunkFeatures, computeChunkFeatures, hasName, isStubAt, readsAsDescriptionAt, reuseChunkFeatures, spellsAnyType } from '../src/chunk-features.js';
import { TermDictionary } from '../src/dictionary.js';
import { decodeIndex, encodeIndex } from '../src/internals.js';
import { makeChunks } from './helpers.js';

const chunks = makeChunks([
  { text: 'class SchedulerConfig:\n    max_num_seqs: int = 256\n    def check(self):\n        if self.max_num_seqs < 1:\n            raise ValueError("max_num_seqs must be positive")', file_path: 'pkg/config.py', language: 'python', kind: 'class' },
  { text: 'Raise `max_num_seqs` to batch more sequences; the block_size stays.', file_path: 'docs/tuning.md', language: 'markdown', kind: 'section' },
  { text: 'def schedule(config):\n    return run(config.max_num_seqs)', file_path: 'pkg/scheduler.py', language: 'python', kind: 'function' },
]);

describe('chunk features: what the second stage needs of a chunk text, stored with the index', () => {
  const index = Bm25Index.build(chunks, resolveBm25Options({}));
  const { features, dictionary } = index.data;
  const id = (term: string) => dictionary.lookup(term);

  it('records the names code defines and prose spells as inline code, not those merely used', () => {
    expect(hasName(features, 0, id('max_num_seqs'))).toBe(true); // an annotated field
    expect(hasName(features, 1, id('max_num_seqs'))).toBe(true); // `max_num_seqs` in prose
    expect(hasName(features, 1, id('block_size'))).toBe(false); // a plain-word mention
    expect(hasName(features, 2, id('max_num_seqs'))).toBe(false); // a use, not a definition
  });

  it('records the kinds of fact a code chunk carries, for the kinds the options weigh', () => {
    expect(carriesEvidence(features, 0, 'error')).toBe(true);
    expect(carriesEvidence(features, 0, 'default')).toBe(true);
    expect(carriesEvidence(features, 2, 'error')).toBe(false);
    // Prose carries no evidence (the docs-versus-code prior judges it), and a weight of 0 is never asked.
    expect(carriesEvidence(features, 1, 'error')).toBe(false);
    expect(carriesEvidence(features, 0, 'list')).toBe(false);
  });

  it('records the types of value a chunk spells, in code and in prose alike', () => {
    const typed = makeChunks([
      { text: 'PORT_ENV = "APP_SERVER_PORT"\nheaders["Content-Type"] = "application/json"', file_path: 'pkg/env.py', language: 'python', kind: 'module' },
      { text: 'Pass `--reload` to restart on changes; checks run every 2 seconds.', file_path: 'docs/reload.md', language: 'markdown', kind: 'section' },
      { text: 'def run(app):\n    return app()', file_path: 'pkg/run.py', language: 'python', kind: 'function' },
    ]);
    const built = Bm25Index.build(typed, resolveBm25Options({})).data;
    const f = built.features;
    expect(spellsAnyType(f, 0, ['envvar'])).toBe(true);
    expect(spellsAnyType(f, 0, ['mime'])).toBe(true);
    expect(spellsAnyType(f, 0, ['flag', 'duration'])).toBe(false);
    expect(spellsAnyType(f, 1, ['flag'])).toBe(true);
    expect(spellsAnyType(f, 1, ['duration'])).toBe(true);
    expect(spellsAnyType(f, 2, ['mime', 'envvar', 'flag', 'status', 'encoding', 'duration'])).toBe(false);
    expect(checkChunkFeatures({ ...f, types: f.types.map(() => 0xff) }, 3, built.dictionary.size)).toMatch(/answer types have unknown bits/);
  });

  it('marks the Python chunks that describe rather than do, and no prose', () => {
    const docstring = '"""Keeps the scheduling limits of one engine and says how they are checked.\n\n    Every limit is read once, when the engine starts."""';
    const described = makeChunks([
      { text: `class Limits:\n    ${docstring}`, file_path: 'pkg/limits.py', language: 'python', kind: 'class' },
      { text: `${docstring}\nThe same words in a page of the docs, as prose.`, file_path: 'docs/limits.md', language: 'markdown', kind: 'section' },
      { text: 'def check(limits):\n    if limits.max < 1:\n        raise ValueError("max")\n    return limits', file_path: 'pkg/check.py', language: 'python', kind: 'function' },
    ]);
    const f = Bm25Index.build(described, resolveBm25Options({})).data.features;
    expect([0, 1, 2].map((d) => readsAsDescriptionAt(f, d))).toEqual([true, false, false]);
    // Off (factor 1), the mark is never computed.
    expect([...Bm25Index.build(described, resolveBm25Options({ rerank: { descriptionFactor: 1 } })).data.features.descriptions]).toEqual([0, 0, 0]);
    expect(checkChunkFeatures({ ...f, descriptions: Uint8Array.from([4, 0, 0]) }, 3, 1 << 20)).toMatch(/description marks have unknown bits/);
  });

  it('marks the docs chunks of titles and markup only, and no code', () => {
    const stubs = makeChunks([
      { text: 'Redis Backend\n=============\n\n.. automodule:: cachelib.redis\n   :members:', file_path: 'docs/redis.rst', language: 'rst', kind: 'section' },
      { text: 'Redis Backend\n=============\n\nKeys get the configured prefix before they reach the server.', file_path: 'docs/keys.rst', language: 'rst', kind: 'section' },
      // Code is never a stub, whatever its lines look like.
      { text: 'title = "Redis Backend"\nrule = "============="', file_path: 'pkg/redis.py', language: 'python', kind: 'module' },
    ]);
    const f = Bm25Index.build(stubs, resolveBm25Options({})).data.features;
    expect([0, 1, 2].map((d) => isStubAt(f, d))).toEqual([true, false, false]);
    expect([0, 1, 2].map((d) => readsAsDescriptionAt(f, d))).toEqual([false, false, false]);
    // Off (factor 1), the mark is never computed.
    expect([...Bm25Index.build(stubs, resolveBm25Options({ rerank: { stubFactor: 1 } })).data.features.descriptions].map((mark) => mark & 2)).toEqual([0, 0, 0]);
    // Both marks live in one byte and survive a save and load.
    const both = { ...f, descriptions: Uint8Array.from([3, 0, 0]) };
    expect(checkChunkFeatures(both, 3, 1 << 20)).toBeUndefined();
    expect(readsAsDescriptionAt(both, 0) && isStubAt(both, 0)).toBe(true);
  });

  it('computes nothing the options never ask for', () => {
    const plain = Bm25Index.build(chunks, resolveBm25Options({ rerank: { depth: 0 } })).data.features;
    expect(plain.names).toHaveLength(0);
    expect([...plain.evidence]).toEqual([0, 0, 0]);
    expect([...plain.types]).toEqual([0, 0, 0]);
    expect([...plain.descriptions]).toEqual([0, 0, 0]);
    const untyped = Bm25Index.build(chunks, resolveBm25Options({ rerank: { answerType: 0 } })).data.features;
    expect([...untyped.types]).toEqual([0, 0, 0]);
  });

  it('survives a save and load, and damaged features are refused', () => {
    const decoded = decodeIndex(encodeIndex(index.data), 'test');
    expect(decoded.features).toEqual(features);
    expect(checkChunkFeatures(features, 3, dictionary.size)).toBeUndefined();
    expect(checkChunkFeatures({ ...features, names: features.names.map(() => dictionary.size) }, 3, dictionary.size)).toMatch(/out of range/);
    expect(checkChunkFeatures({ ...features, evidence: new Uint8Array(2) }, 3, dictionary.size)).toMatch(/evidence for 2 chunks/);
  });

  it('lets a search run without reading any chunk text', () => {
    const retriever = createBm25Retriever(chunks);
    const expected = retriever.searchSync('what is the default max_num_seqs and which error is raised', { k: 3 });
    // The same index over chunks whose texts cannot be read: the second stage must not need them.
    const unreadable = chunks.map((chunk) => Object.defineProperty({ ...chunk }, 'text', { get: () => { throw new Error('text read'); } }));
    const blind = new Bm25Retriever(retriever.index, unreadable);
    expect(blind.searchSync('what is the default max_num_seqs and which error is raised', { k: 3 })).toEqual(expected);
    expect(expected[0]!.chunkId).toBe(0);
  });
});

describe('chunk features taken over from a previous build', () => {
  const rerank = resolveBm25Options({}).rerank;
  // Chunk 0 is copied from the previous build (its old id 0); chunk 1 is new.
  const copied = makeChunks([
    { text: 'fresh_name = 1\nblock_size = 16\nraise ValueError("x")', file_path: 'pkg/a.py', language: 'python', kind: 'module' },
    { text: 'Set `fresh_name` first.', file_path: 'docs/b.md', language: 'markdown', kind: 'section' },
  ]);
  const sourceOf = Int32Array.from([0, -1]);

  it('renumbers the names into the new dictionary and drops those it no longer holds', () => {
    const previousDictionary = TermDictionary.fromSorted(['block_size', 'fresh_name', 'zzz']);
    const previous = { dictionary: previousDictionary, features: computeChunkFeatures(copied.slice(0, 1), previousDictionary, rerank) };
    const dictionary = TermDictionary.fromSorted(['aaa', 'fresh_name', 'set']);
    const reused = reuseChunkFeatures(copied, dictionary, rerank, previous, sourceOf);
    expect(reused).toEqual(computeChunkFeatures(copied, dictionary, rerank));
    expect(hasName(reused, 0, dictionary.lookup('fresh_name'))).toBe(true);
  });

  it('reads a copied chunk again when a name it spells was missing from the previous dictionary', () => {
    // `fresh_name` was left out of chunk 0's names before (the old dictionary lacked it);
    // the new chunk brings the term, so chunk 0 now names it, as a fresh build says.
    const previousDictionary = TermDictionary.fromSorted(['block_size']);
    const previous = { dictionary: previousDictionary, features: computeChunkFeatures(copied.slice(0, 1), previousDictionary, rerank) };
    const dictionary = TermDictionary.fromSorted(['block_size', 'fresh_name', 'set']);
    const reused = reuseChunkFeatures(copied, dictionary, rerank, previous, sourceOf);
    expect(hasName(reused, 0, dictionary.lookup('fresh_name'))).toBe(true);
    expect(reused).toEqual(computeChunkFeatures(copied, dictionary, rerank));
  });

  it('takes over the evidence bits without reading the text', () => {
    const dictionary = TermDictionary.fromSorted(['block_size', 'fresh_name']);
    const previous = { dictionary, features: computeChunkFeatures(copied.slice(0, 1), dictionary, rerank) };
    const unreadable = copied.map((chunk, d) => (d === 0 ? Object.defineProperty({ ...chunk }, 'text', { get: () => { throw new Error('read'); } }) : chunk));
    const reused = reuseChunkFeatures(unreadable, dictionary, rerank, previous, sourceOf);
    expect(carriesEvidence(reused, 0, 'error')).toBe(true);
    expect(hasName(reused, 0, dictionary.lookup('block_size'))).toBe(true);
    expect(reused.types[0]).toBe(previous.features.types[0]);
    expect(reused.descriptions[0]).toBe(previous.features.descriptions[0]);
  });

  it('takes over the description mark without reading the text', () => {
    const header = makeChunks([{ text: 'class Limits:\n    """Keeps the limits of one engine and says how each of them is checked at start."""', file_path: 'pkg/limits.py', language: 'python', kind: 'class' }]);
    const dictionary = TermDictionary.fromSorted(['limits']);
    const previous = { dictionary, features: computeChunkFeatures(header, dictionary, rerank) };
    expect(readsAsDescriptionAt(previous.features, 0)).toBe(true);
    const unreadable = header.map((chunk) => Object.defineProperty({ ...chunk }, 'text', { get: () => { throw new Error('read'); } }));
    expect(readsAsDescriptionAt(reuseChunkFeatures(unreadable, dictionary, rerank, previous, Int32Array.from([0])), 0)).toBe(true);
  });
});
