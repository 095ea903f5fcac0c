import { describe, expect, it } from 'vitest';
import { createBm25Retriever } from '../src/index.js';
import { Bm25Index, inverseDocumentFrequency } from '../src/internals.js';
import { makeChunks, PLAIN_BM25 } from './helpers.js';

/*
 * A corpus small enough to score by hand, with PLAIN_BM25 (body only, no stemming or
 * splitting) and the defaults k1 = 1.2, b = 0.75:
 *   d0 "apple banana apple"      len 3
 *   d1 "banana cherry"           len 2
 *   d2 "cherry date elder fig"   len 4      N = 3, avglen = 3
 */
const tiny = makeChunks([{ text: 'apple banana apple' }, { text: 'banana cherry' }, { text: 'cherry date elder fig' }]);

describe('BM25 against hand-computed values', () => {
  const index = Bm25Index.build(tiny, PLAIN_BM25);

  it('scores a single term', () => {
    // apple: df 1 → idf = ln(1 + 2.5 / 1.5) = ln(8/3). d0: tf 2, B = 1, so
    // (k1 + 1) · tf / (k1 + tf) = 2.2 · 2 / 3.2 = 1.375.
    const idf = Math.log(8 / 3);
    expect(inverseDocumentFrequency(3, 1)).toBeCloseTo(idf, 12);
    const hits = index.search('apple', 10);
    expect(hits).toHaveLength(1);
    expect(hits[0]!.chunkId).toBe(0);
    expect(hits[0]!.score).toBeCloseTo(idf * 1.375, 12);
    expect(hits[0]!.score).toBeCloseTo(1.34864, 5);
  });

  it('adds terms and normalises by length', () => {
    // banana, cherry: df 2 each → idf = ln(1 + 1.5 / 2.5) = ln(1.6).
    // d1: B = 0.25 + 0.75 · 2/3 = 0.75, tf̃ = 1/0.75 = 4/3 per term → 2.2 · (4/3) / (1.2 + 4/3) each.
    // d0: banana only, B = 1 → 2.2 · 1 / 2.2 = 1.
    // d2: cherry only, B = 0.25 + 0.75 · 4/3 = 1.25, tf̃ = 0.8 → 2.2 · 0.8 / 2.0 = 0.88.
    const idf = Math.log(1.6);
    const d1 = 2 * idf * ((2.2 * (4 / 3)) / (1.2 + 4 / 3));
    const hits = index.search('banana cherry', 10);
    expect(hits.map((h) => h.chunkId)).toEqual([1, 0, 2]);
    expect(hits[0]!.score).toBeCloseTo(d1, 12);
    expect(hits[1]!.score).toBeCloseTo(idf, 12);
    expect(hits[2]!.score).toBeCloseTo(idf * 0.88, 12);
  });

  it('combines fields before saturating (BM25F)', () => {
    // The same corpus with a path field of weight 2 and b 0: d0's path "apple" adds
    // 2 · 1 / 1 to its body tf̃ of 2, so tf̃ = 4 and the term saturates once: 2.2 · 4 / 5.2.
    const chunks = makeChunks([
      { text: 'apple banana apple', file_path: 'apple' },
      { text: 'banana cherry', file_path: 'other' },
      { text: 'cherry date elder fig', file_path: 'other' },
    ]);
    const bm25f = Bm25Index.build(chunks, { ...PLAIN_BM25, fields: { path: { weight: 2, b: 0 }, symbol: { weight: 0 } } });
    const [hit] = bm25f.search('apple', 1);
    expect(hit!.score).toBeCloseTo(Math.log(8 / 3) * ((2.2 * 4) / 5.2), 12);
  });

  it('keeps idf positive for a term in every chunk', () => {
    const everywhere = Bm25Index.build(makeChunks([{ text: 'common a1' }, { text: 'common b1' }]), PLAIN_BM25);
    const hits = everywhere.search('common', 5);
    expect(hits).toHaveLength(2);
    for (const hit of hits) expect(hit.score).toBeGreaterThan(0);
  });

  it('dampens a repeated query term instead of multiplying it', () => {
    const once = index.search('apple', 1)[0]!.score;
    const thrice = index.search('apple apple apple', 1)[0]!.score;
    expect(thrice).toBeCloseTo(once * (1 + Math.log(3)), 12);
  });
});

/*
 * Golden rankings with the default options on hand-made code and docs chunks.
 */
const corpus = makeChunks([
  {
    file_path: 'vllm/engine/llm_engine.py',
    symbol: 'LLMEngine.step',
    kind: 'method',
    text: 'def step(self):\n    """Performs one decoding iteration and returns the newly generated results."""\n    outputs = self.model_executor.execute_model(seq_group_metadata_list)\n    return self._process_model_outputs(outputs)\n',
  },
  {
    file_path: 'vllm/config.py',
    symbol: 'SchedulerConfig',
    kind: 'class',
    text: 'class SchedulerConfig:\n    max_num_seqs: int = 128\n    """Maximum number of sequences to be processed in a single iteration."""\n    max_num_batched_tokens: int = 2048\n',
  },
  {
    file_path: 'vllm/engine/arg_utils.py',
    symbol: 'EngineArgs.add_cli_args',
    kind: 'method',
    text: "parser.add_argument('--max-num-seqs', type=int, default=EngineArgs.max_num_seqs, help='Maximum number of sequences per iteration.')\n",
  },
  {
    file_path: 'docs/serving/http_server.md',
    symbol: 'HTTP Server > Starting',
    kind: 'section',
    text: '## Starting\n\nRun `vllm serve` to start a web server that speaks the OpenAI API.\n',
  },
  {
    file_path: 'vllm/entrypoints/http_server.py',
    symbol: 'HTTPServer.start',
    kind: 'method',
    text: 'class HTTPServer:\n    def start(self, host: str, port: int):\n        self.app.run(host, port)\n',
  },
  {
    file_path: 'docs/usage/faq.md',
    symbol: 'FAQ > Caching',
    kind: 'section',
    text: '## Does vLLM cache prompts?\n\nYes. Prefix caching reuses the KV cache of shared prompt prefixes.\n',
  },
]);

describe('golden rankings', () => {
  const retriever = createBm25Retriever(corpus);
  const ids = async (query: string, k = 6): Promise<number[]> => (await retriever.search(query, { k })).map((h) => h.chunkId);

  it('finds the definition of a snake_case setting, flag spelling included', async () => {
    // Chunk 2 names max_num_seqs twice (the kebab flag and the attribute) and says
    // "default"; chunk 1 defines it once; chunk 0 shares only the sub-word "seq" (of
    // seq_group_metadata_list), so it comes last. No other chunk has any of these terms.
    expect(await ids('What is the default max_num_seqs?')).toEqual([2, 1, 0]);
  });

  it('puts the symbol match first for a PascalCase class and method', async () => {
    // Chunk 4 is HTTPServer.start: whole identifier in body and symbol, plus "start".
    // Chunk 3 has "http server" in its path and heading and "start" in its text.
    // No other chunk says http, server or start.
    expect(await ids('HTTPServer start')).toEqual([4, 3]);
  });

  it('matches prose through the stemmer', async () => {
    // "caching" and "prefixes" fold onto chunk 5's "cache"/"caching" and "prefix".
    expect((await ids('how does prefix caching work'))[0]).toBe(5);
  });

  it('uses the symbol and path fields for a class name', async () => {
    // LLMEngine appears only in chunk 0's symbol and, as llm_engine, its path.
    expect((await ids('LLMEngine step'))[0]).toBe(0);
  });

  it('returns nothing for a query without indexable terms', async () => {
    expect(await ids('')).toEqual([]);
    expect(await ids('what is the')).toEqual([]);
    expect(await ids('zebra')).toEqual([]);
  });
});
