import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBm25Retriever, resolveBm25Options } from '../src/index.js';
import { AUXILIARY_DIRS, Bm25Index, HISTORY_NAMES, isAuxiliaryPath, isHistoryPath, tableHeaderContexts } from '../src/internals.js';
import { definesName, explainsName, foldDerivation, isIdentifierSpelling, stemWord, tokenizeQuery } from '@rag/text';
import { AUXILIARY, chunkFlags, HISTORY, PROSE, termModalities } from '../src/rerank/priors.js';
import { ChunkScan, coverageScore, phraseScore } from '../src/rerank/proximity.js';
import { selectDisjoint } from '../src/rerank/reranker.js';
import { sectionSupport, unitPath } from '../src/rerank/sections.js';
import { makeChunks, rejection } from './helpers.js';

describe('phrase and coverage signals', () => {
  const chunks = makeChunks([
    { text: 'the scheduler limits max_num_seqs per step' },
    { text: 'max sequences: the num of seqs is capped' },
    { text: 'seqs num max' },
  ]);
  const index = Bm25Index.build(chunks);

  /** Scans chunk `doc` for the given query terms (slots in order) and scores the pairs of neighbours. */
  function scores(doc: number, terms: string[], window = 3): { phrase: number; covered: number } {
    const slotOf = new Int32Array(index.data.dictionary.size).fill(-1);
    terms.forEach((term, slot) => (slotOf[index.data.dictionary.lookup(term)] = slot));
    const scan = new ChunkScan();
    scan.scan(index.data, index.postings, doc, slotOf, terms.length, window);
    const pairs = terms.slice(1).map((_, i) => ({ first: i, second: i + 1, weight: 1 }));
    return { phrase: phraseScore(scan, pairs, window), covered: coverageScore(scan, terms.map(() => 1)) };
  }

  it('lets prose words meet the identifier that joins them (distance 0)', () => {
    // "max num seqs" as words: both pairs sit inside `max_num_seqs`; each found once → ½.
    expect(scores(0, ['max', 'num', 'seq']).phrase).toBeCloseTo(0.5, 12);
  });

  it('counts a pair only in query order and within the window', () => {
    // "max … num … seqs" in order, 3 and 2 words apart: both pairs inside window 3.
    expect(scores(1, ['max', 'num', 'seq']).phrase).toBeCloseTo(0.5, 12);
    // Window 1: only `num` → `seqs` (adjacent once "of" is dropped) still counts: ¼.
    expect(scores(1, ['max', 'num', 'seq'], 1).phrase).toBeCloseTo(0.25, 12);
    // Reversed order earns nothing, although every term is there.
    expect(scores(2, ['max', 'num', 'seq'])).toEqual({ phrase: 0, covered: 1 });
  });

  it('coverage is the share of query weight found anywhere in the chunk', () => {
    expect(scores(0, ['limit', 'cap']).covered).toBeCloseTo(0.5, 12);
    expect(scores(1, ['limit', 'cap']).covered).toBeCloseTo(0.5, 12);
    expect(scores(2, ['limit', 'cap']).covered).toBe(0);
  });
});

describe('definitions', () => {

  it.each([
    ['max_num_seqs: int = 128', true],
    ['self.max_num_seqs = max_num_seqs', true],
    ['"max_num_seqs": 256,', true],
    ['def _max_num_seqs(self):', true],
    ['    max_num_seqs: Maximum number of sequences per iteration.', true],
    ['class Max_Num_Seqs:', true],
    ['    MAX_NUM_SEQS = 4', true],
    ['if max_num_seqs == 3:', false],
    ['return self.max_num_seqs + 1', false],
    ['print(max_num_seqs_total)', false],
    ['foo(max_num_seqs)', false],
    ['"max_num_seqs" in config', false],
  ])('%s → %s', (text, defined) => {
    expect(definesName(text, text.toLowerCase(), 'max_num_seqs')).toBe(defined);
  });

  it('knows identifier spellings from words', () => {
    expect(['max_num_seqs', '--max-num-seqs', 'LLMEngine', 'getValue', 'VLLM_RPC_TIMEOUT'].every(isIdentifierSpelling)).toBe(true);
    expect(['engine', 'LLM', 'Engine', 'GPU', 'v1'].some(isIdentifierSpelling)).toBe(false);
  });
});

describe('priors', () => {
  it('recognises tests, examples and benchmarks by convention', () => {
    for (const path of ['tests/test_llm.py', 'pkg/tests/utils.py', 'examples/offline.py', 'benchmarks/run.py', 'pkg/test_utils.py', 'pkg/llm_test.py', 'conftest.py']) {
      expect(isAuxiliaryPath(path), path).toBe(true);
    }
    for (const path of ['vllm/engine/llm_engine.py', 'vllm/testing_utils_impl.py', 'docs/usage/faq.md', 'vllm/benchmark_utils.py']) {
      expect(isAuxiliaryPath(path), path).toBe(false);
    }
    for (const path of ['Tests/helpers.py', 'pkg/EXAMPLES/run.py']) expect(isAuxiliaryPath(path), path).toBe(true);
  });

  it('judges a path as its folders and file name say, whatever else it holds', () => {
    // The rule stated part by part: a folder named as in AUXILIARY_DIRS (any case), or a
    // test module's file name.
    const byParts = (path: string): boolean => {
      const parts = path.split('/');
      const name = parts.pop() ?? '';
      return /^(test_.*|.*_test|conftest)\.pyi?$/.test(name) || parts.some((part) => AUXILIARY_DIRS.has(part.toLowerCase()));
    };
    const part = fc.oneof(fc.constantFrom(...AUXILIARY_DIRS, 'Tests', 'src', 'pkg', 'test_x.py', 'x_test.py', 'conftest.py', 'tests.py', 'a.py', 'latest', 'examples_x'), fc.stringMatching(/^[a-z_.]{1,8}$/));
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 5 }), (parts) => {
        const path = parts.join('/');
        expect(isAuxiliaryPath(path), path).toBe(byParts(path));
      }),
      { numRuns: 2000 },
    );
  });

  it('recognises release notes, changelogs and news by their names or folders, and only in prose', () => {
    for (const path of ['CHANGES.rst', 'CHANGELOG.md', 'docs/changelog.md', 'HISTORY', 'NEWS.txt', 'docs/releases/v6.2.0.rst', 'docs/releases.rst', 'docs/whatsnew/3.11.rst', 'release-notes.md', 'changes/1234.feature.rst']) {
      expect(isHistoryPath(path), path).toBe(true);
    }
    // The release process, a page about versions, and a module of code are not history.
    for (const path of ['RELEASE.md', 'docs/versions.md', 'docs/changing-things.md', 'src/newsfeed.md', 'pkg/history_utils.py'.replace('.py', '.md')]) {
      expect(isHistoryPath(path), path).toBe(false);
    }
    expect([...HISTORY_NAMES].every((name) => isHistoryPath(`docs/${name}.rst`) && isHistoryPath(`docs/${name.toUpperCase()}/x.md`))).toBe(true);
    // chunkFlags asks it of prose files only: `news.py` and code in a `releases/` package keep their flags.
    const chunks = makeChunks([
      { text: '- fixed the thing', file_path: 'CHANGES.md', language: 'markdown' },
      { text: 'def news(): pass', file_path: 'pkg/news.py', language: 'python' },
      { text: 'def build(): pass', file_path: 'releases/build.py', language: 'python' },
      { text: 'def test_x(): pass', file_path: 'tests/test_x.py', language: 'python' },
    ]);
    expect([...chunkFlags(chunks)]).toEqual([PROSE | HISTORY, 0, 0, AUXILIARY]);
  });

  it('learns which terms lean to prose and which to code from the corpus', () => {
    const chunks = makeChunks([
      { text: 'Install the package and follow the guide.', file_path: 'docs/a.md', language: 'markdown' },
      { text: 'def f(self): return self.x', file_path: 'a.py', language: 'python' },
      { text: 'def g(self): return self.guide', file_path: 'b.py', language: 'python' },
    ]);
    const index = Bm25Index.build(chunks);
    const modalities = termModalities(index.data, chunkFlags(chunks))!;
    const lean = (word: string): number => modalities[index.data.dictionary.lookup(stemWord(word))]!;
    expect(lean('install')).toBeGreaterThan(0);
    expect(lean('self')).toBeLessThan(0);
    // "guide" occurs once in each collection; the prose one is far shorter, so it leans prose.
    expect(lean('guide')).toBeGreaterThan(0);
  });

  it('has no prior when the corpus is all code (or all prose)', () => {
    const chunks = makeChunks([{ text: 'def f(): pass', file_path: 'a.py', language: 'python' }]);
    expect(termModalities(Bm25Index.build(chunks).data, chunkFlags(chunks))).toBeUndefined();
  });
});

describe('table header context', () => {
  const table = ['| Architecture | Models | LoRA |', '|---|---|---|', '| `LlamaForCausalLM` | Llama | ✅︎ |'].join('\n');
  const chunks = makeChunks([
    { text: `## Text generation\n\n${table}`, file_path: 'models.md', symbol: 'Models > Text generation', language: 'markdown' },
    { text: '| `GPT2LMHeadModel` | GPT-2 | |\n| `Qwen2ForCausalLM` | Qwen2 | ✅︎ |', file_path: 'models.md', symbol: 'Models > Text generation', language: 'markdown' },
    { text: '| `BertModel` | BERT |', file_path: 'models.md', symbol: 'Models > Pooling', language: 'markdown' },
    { text: '| `GPT2LMHeadModel` | GPT-2 | |', file_path: 'other.md', symbol: 'Models > Text generation', language: 'markdown' },
  ]);
  // Chunks 1 and 2 follow chunk 0 in models.md (makeChunks starts every chunk at 0).
  chunks[1]!.first_character_index = 200;
  chunks[2]!.first_character_index = 300;

  it('gives a table continuation the header row of its table, and nothing else', () => {
    // Chunk 1 continues chunk 0's table; chunk 2 is another section, chunk 3 another file.
    expect(tableHeaderContexts(chunks)).toEqual(['', '| Architecture | Models | LoRA |', '', '']);
  });

  it('lets a question about a column reach the rows that continue the table', () => {
    const query = 'Which architectures support LoRA';
    const withContext = createBm25Retriever(chunks).searchSync(query, { k: 4 }).map((h) => h.chunkId);
    const without = createBm25Retriever(chunks, { context: { tableHeaders: false } }).searchSync(query, { k: 4 }).map((h) => h.chunkId);
    // Both pieces of the table list LoRA support; without the context only the first says "LoRA".
    expect(withContext.slice(0, 2).sort()).toEqual([0, 1]);
    expect(without).toEqual([0]);
  });
});

describe('dedupe of overlapping hits', () => {
  const section = makeChunks([
    { text: 'Prefix caching reuses the KV cache. It is on by default. Disable it with a flag.', file_path: 'docs/cache.md' },
    { text: 'Prefix caching reuses the KV cache.', file_path: 'docs/cache.md' },
    { text: 'Disable it with a flag.', file_path: 'docs/cache.md' },
    { text: 'Prefix caching in another file.', file_path: 'docs/other.md' },
  ]);
  // The section (0) holds both nested pieces (1, 2); the fixture's offsets say so.
  section[1]!.last_character_index = 35;
  section[2]!.first_character_index = 57;

  it('keeps the better scored of two overlapping hits of one file', () => {
    const ranked = [1, 0, 3, 2].map((chunkId, i) => ({ chunkId, score: 4 - i }));
    // 0 overlaps 1 (kept), 2 overlaps nothing kept once 0 is dropped, 3 is another file.
    expect(selectDisjoint(ranked, section, 10).map((h) => h.chunkId)).toEqual([1, 3, 2]);
    expect(selectDisjoint(ranked, section, 2).map((h) => h.chunkId)).toEqual([1, 3]);
  });

  it('is on by default and switchable', async () => {
    const on = await createBm25Retriever(section).search('prefix caching', { k: 4 });
    const off = await createBm25Retriever(section, { rerank: { dedupe: false } }).search('prefix caching', { k: 4 });
    expect(off.length).toBeGreaterThan(on.length);
    const spans = on.map((h) => section[h.chunkId]!);
    for (const a of spans) for (const b of spans) if (a !== b && a.file_path === b.file_path) expect(a.last_character_index <= b.first_character_index || b.last_character_index <= a.first_character_index).toBe(true);
  });
});

describe('query vocabulary', () => {
  it('adds the code term for a concept named in words', () => {
    expect(tokenizeQuery('the constructor of LLM').map((t) => t.term)).toContain('init');
    expect(tokenizeQuery('the constructor of LLM', { query: { aliases: {} } }).map((t) => t.term)).not.toContain('init');
    // Counted once, however many spellings.
    expect(tokenizeQuery('constructor initialization initializer').filter((t) => t.term === 'init')).toEqual([{ term: 'init', weight: 1 }]);
  });

  it('keeps the negation of "cannot" ("can" is a stopword), so `TemplateNotFound` answers "cannot be found"', () => {
    expect(tokenizeQuery('when a template cannot be found').map((t) => t.term)).toEqual(expect.arrayContaining(['cannot', 'not', 'found']));
  });

  it('lets "exception" also search `error`: Python names its exception classes …Error', () => {
    expect(tokenizeQuery('which exception is raised').map((t) => t.term)).toEqual(expect.arrayContaining(['exception', 'error', 'rais']));
  });

  it('folds -ation nouns onto their verbs only when asked', () => {
    expect(['quantization', 'allocation', 'classification', 'computation', 'configuration'].map((w) => foldDerivation(w))).toEqual([
      'quantiz',
      'alloc',
      'classify',
      'comput',
      'configur',
    ]);
    // Short remainders stay whole: `format` is not `form`.
    expect(['format', 'stat', 'updat', 'creation'].map((w) => foldDerivation(w))).toEqual(['format', 'stat', 'updat', 'creation']);
    expect(tokenizeQuery('quantization', { tokenizer: { derivations: true } })[0]!.term).toBe('quantiz');
    expect(tokenizeQuery('quantization')[0]!.term).toBe('quantization');
  });
});

describe('second-stage options', () => {
  it.each([
    [{ rerank: { depth: -1 } }, 'settings.rerank.depth'],
    [{ rerank: { depth: 2.5 } }, 'settings.rerank.depth'],
    [{ rerank: { proximity: 11 } }, 'settings.rerank.proximity'],
    [{ rerank: { proximityWindow: 0 } }, 'settings.rerank.proximityWindow'],
    [{ rerank: { auxiliaryFactor: 0 } }, 'settings.rerank.auxiliaryFactor'],
    [{ rerank: { descriptionFactor: 1.5 } }, 'settings.rerank.descriptionFactor'],
    [{ rerank: { dedupe: 'yes' } }, 'settings.rerank.dedupe'],
    [{ context: { tableHeaders: 1 } }, 'settings.context.tableHeaders'],
    [{ query: { aliases: 'no' } }, 'settings.query.aliases'],
    [{ rerank: { boost: 1 } }, 'settings.rerank.boost'],
  ])('refuses %j naming %s', async (settings, field) => {
    const error = await rejection(() => resolveBm25Options(settings));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain(field);
  });

  it('with depth 0 returns plain BM25F scores', () => {
    const chunks = makeChunks([{ text: 'alpha beta' }, { text: 'alpha' }]);
    const plain = createBm25Retriever(chunks, { rerank: { depth: 0 } });
    expect(plain.reranker).toBeUndefined();
    expect(plain.searchSync('alpha', { k: 2 })).toEqual(plain.index.search('alpha', 2));
  });
});

describe('explanation in prose', () => {
  const explains = (text: string, name: string): boolean => explainsName(text.toLowerCase(), name);

  it('finds a name inside an inline code span, Markdown or RST', () => {
    expect(explains('The `mm_kwargs` are passed to the processor.', 'mm_kwargs')).toBe(true);
    expect(explains('Call `self._call_hf_processor(...)` first.', 'call_hf_processor')).toBe(true);
    expect(explains('Set ``max_num_seqs`` in the config.', 'max_num_seqs')).toBe(true);
  });

  it('ignores plain mentions, spans that closed before the name, and longer names', () => {
    expect(explains('mm_kwargs are passed on', 'mm_kwargs')).toBe(false);
    expect(explains('Use `fn` and then mm_kwargs', 'mm_kwargs')).toBe(false);
    expect(explains('See `hf_mm_kwargs_extra`.', 'mm_kwargs')).toBe(false);
    // A span does not run across lines: the backtick of the line above is closed there.
    expect(explains('a `b\nthen mm_kwargs`', 'mm_kwargs')).toBe(false);
  });
});

describe('section support', () => {
  const chunks = makeChunks([
    { text: 'a', file_path: 'guide.md', symbol: 'Guide > API > Requests', language: 'markdown' },
    { text: 'b', file_path: 'guide.md', symbol: 'Guide > API > Responses', language: 'markdown' },
    { text: 'c', file_path: 'guide.md', symbol: 'Guide > API', language: 'markdown' },
    { text: 'd', file_path: 'other.md', symbol: 'Other > API > Requests', language: 'markdown' },
    { text: 'e', file_path: 'app.py', symbol: 'App.run', language: 'python' },
    { text: 'f', file_path: 'app.py', symbol: 'App.run', language: 'python' },
    { text: 'g', file_path: 'app.py', symbol: 'App.stop', language: 'python' },
  ]).map((chunk, id) => ({ ...chunk, first_character_index: id * 10, last_character_index: id * 10 + 5 }));
  const flags = chunkFlags(chunks);
  const units = chunks.map((chunk, d) => unitPath(chunk, (flags[d]! & PROSE) !== 0));

  it('puts a docs chunk in its parent section and a code chunk in its own symbol', () => {
    expect(units).toEqual(['Guide > API', 'Guide > API', 'Guide', 'Other > API', 'App.run', 'App.run', 'App.stop']);
  });

  it('takes the best other candidate of the same file and unit', () => {
    const ids = [0, 1, 2, 3, 4, 5, 6];
    const relative = [1, 0.5, 0.8, 0.9, 0.7, 0.6, 1];
    // 0 and 1 are sibling sub-sections (and 2 is their parent section, which lies in 2's
    // own unit `Guide` too); 3 is another file; 4 and 5 are two pieces of App.run, while
    // App.stop is another method of the class and no support.
    expect([...sectionSupport(ids, relative, chunks, flags)]).toEqual([0.8, 1, 1, 0, 0.6, 0.7, 0]);
  });

  it('does not count a chunk that overlaps (a nested piece and its section)', () => {
    const nested = chunks.map((chunk) => ({ ...chunk, first_character_index: 0, last_character_index: 100 }));
    expect([...sectionSupport([0, 1], [1, 0.5], nested, flags)]).toEqual([0, 0]);
  });
});
