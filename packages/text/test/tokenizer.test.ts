import { describe, expect, it } from 'vitest';
import { createTokenizer, DEFAULT_QUESTION_WORDS, DEFAULT_STOPWORDS, resolveTokenizerOptions, stemWord, tokenize, tokenizeQuery } from '../src/index.js';
import { rejection } from './helpers.js';

describe('tokenize: identifiers', () => {
  it('keeps a snake_case identifier whole and adds its parts', () => {
    expect(tokenize('max_num_seqs', { stem: false })).toEqual(['max_num_seqs', 'max', 'num', 'seqs']);
  });

  it('splits camelCase and PascalCase, lowercasing everything', () => {
    expect(tokenize('LLMEngine', { stem: false })).toEqual(['llmengine', 'llm', 'engine']);
    expect(tokenize('getNumBlocks', { stem: false })).toEqual(['getnumblocks', 'get', 'num', 'blocks']);
  });

  it('ends an acronym before the capital that starts the next word', () => {
    expect(tokenize('HTTPServer', { stem: false })).toEqual(['httpserver', 'http', 'server']);
    expect(tokenize('getHTTPServer2Port', { stem: false })).toEqual(['gethttpserver2port', 'get', 'http', 'server2', 'port']);
  });

  it('reads an acronym with a lowercase s as a plural, singular when stemming', () => {
    expect(tokenize('APIs GPUsAvailable', { stem: false })).toEqual(['apis', 'gpusavailable', 'gpus', 'available']);
    expect(tokenize('APIs GPUsAvailable')).toEqual(['api', 'gpusavailable', 'gpu', 'availabl']);
  });

  it('strips leading and trailing underscores but keeps the name', () => {
    expect(tokenize('__init__ _private_helper', { stem: false })).toEqual(['init', 'private_helper', 'private', 'helper']);
  });

  it('treats kebab-case like snake_case, so CLI flags meet keyword arguments', () => {
    expect(tokenize('--max-model-len', { stem: false })).toEqual(['max_model_len', 'max', 'model', 'len']);
    expect(tokenize('max_model_len', { stem: false })).toEqual(['max_model_len', 'max', 'model', 'len']);
  });

  it('does not join a minus sign before a digit', () => {
    expect(tokenize('n-1 x-10', { stem: false })).toEqual(['10']);
  });

  it('keeps digits inside a name by default and splits them on request', () => {
    expect(tokenize('fp8 Qwen2VL', { stem: false })).toEqual(['fp8', 'qwen2vl', 'qwen2', 'vl']);
    expect(tokenize('fp8 Qwen2VL', { stem: false, splitDigits: true })).toEqual(['fp8', 'fp', 'qwen2vl', 'qwen', 'vl']);
  });

  it('emits dotted names whole and in parts', () => {
    expect(tokenize('vllm.entrypoints.llm', { stem: false })).toEqual(['vllm.entrypoints.llm', 'vllm', 'entrypoints', 'llm']);
    expect(tokenize('self.model_config', { stem: false })).toEqual(['self.model_config', 'self', 'model_config', 'model', 'config']);
    expect(tokenize('vllm.entrypoints.llm', { stem: false, dottedNames: false })).toEqual(['vllm', 'entrypoints', 'llm']);
  });

  it('does not join a sentence-ending period to the next sentence', () => {
    expect(tokenize('Load the model. Then serve it.', { stem: false })).toEqual(['load', 'model', 'serve']);
  });

  it('can keep identifiers whole only', () => {
    expect(tokenize('max_num_seqs LLMEngine', { stem: false, splitIdentifiers: false })).toEqual(['max_num_seqs', 'llmengine']);
  });
});

describe('tokenize: words', () => {
  it('keeps a short version number with the word it follows (HTTP/2, utf-8)', () => {
    // The digit alone is too short to index, so "HTTP/2" used to search for "http" only;
    // joined, it meets code that writes `http2` and `utf8`.
    expect(tokenize('Does it support HTTP/2?', { stem: false })).toEqual(['support', 'http2', 'http']);
    expect(tokenize('utf-8', { stem: false })).toEqual(['utf8', 'utf']);
    expect(tokenize('http2=True', { stem: false })).toEqual(['http2', 'true']);
    // Not after identifiers or one letter (arithmetic), nor before a longer number.
    expect(tokenize('seq_len-1 x-1 HTTP/1.1 ISO-8859-1', { stem: false })).toEqual(['seq_len', 'seq', 'len', 'http', '1.1', 'iso', '8859']);
  });

  it('handles letters of any script, lowercased, with astral characters intact', () => {
    expect(tokenize('Café NAÏVE Größe 東京 𠮷野家 🚀rocket', { stem: false })).toEqual(['café', 'naïve', 'größe', '東京', '𠮷野家', 'rocket']);
  });

  it('spells composed and decomposed accents, full-width letters and ligatures alike', () => {
    expect(tokenize('cafe\u0301 ｆｕｌｌ ﬁle', { stem: false })).toEqual(tokenize('café full file', { stem: false }));
  });

  it('drops English function words but not words that matter in code', () => {
    expect(tokenize('what is the default of this', { stem: false })).toEqual(['default']);
    expect(tokenize('not none all any return import class self true false', { stem: false })).toEqual([
      'not',
      'none',
      'all',
      'any',
      'return',
      'import',
      'class',
      'self',
      'true',
      'false',
    ]);
    expect(tokenize('what is the', { stem: false, stopwords: [] })).toEqual(['what', 'is', 'the']);
  });

  it('never drops a whole identifier made of stopwords', () => {
    expect(tokenize('is_a', { stem: false })).toEqual(['is_a']);
  });

  it('drops terms outside the length bounds', () => {
    expect(tokenize('a bb ccc', { stem: false })).toEqual(['bb', 'ccc']);
    expect(tokenize('a bb ccc', { stem: false, minTokenLength: 3 })).toEqual(['ccc']);
    expect(tokenize(`short ${'x'.repeat(65)}`, { stem: false })).toEqual(['short']);
  });

  it('stems plain words and sub-words, never whole identifiers', () => {
    expect(tokenize('caches caching cached cache')).toEqual(['cach', 'cach', 'cach', 'cach']);
    expect(tokenize('num_blocks')).toEqual(['num_blocks', 'num', 'block']);
    expect(tokenize('caches caching', { stem: false })).toEqual(['caches', 'caching']);
  });

  it('refuses invalid options with the field named', async () => {
    const error = await rejection(() => tokenize('x', { minTokenLength: 0 }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain('tokenizer.minTokenLength');
  });
});

describe('stemWord', () => {
  it.each([
    ['embeddings', 'embed'],
    ['embedding', 'embed'],
    ['embedded', 'embed'],
    ['embed', 'embed'],
    ['policies', 'policy'],
    ['classes', 'class'],
    ['batches', 'batch'],
    ['padding', 'pad'],
    ['running', 'run'],
    ['loaded', 'load'],
    ['quantized', 'quantiz'],
    ['quantize', 'quantiz'],
    ['models', 'model'],
  ])('%s → %s', (word, stem) => {
    expect(stemWord(word)).toBe(stem);
  });

  it.each(['status', 'analysis', 'bias', 'process', 'string', 'thing', 'need', 'server', 'use', 'fp8', 'größe', 'apply', 'supply', 'only', 'early', 'likely', 'hour', 'your', 'speed'])(
    'leaves %s alone',
    (word) => {
      expect(stemWord(word)).toBe(word);
    },
  );

  // Each group is one word as a question and as code or docs may spell it: they must share a key.
  it.each<[string, ...string[][]]>([
    ['-ical with -ic', ['numerical', 'numeric'], ['symmetrical', 'symmetric']],
    ['British and American -ise / -ize', ['normalise', 'normalize', 'normalised', 'normalizes'], ['capitalisation', 'capitalization'], ['tokeniser', 'tokenizer'], ['analyse', 'analyze']],
    ['British and American -our / -or', ['behaviour', 'behavior'], ['colours', 'colors']],
    ['British and American doubled l', ['cancelled', 'canceled', 'cancel'], ['modelling', 'modeling', 'model'], ['labelled', 'labeled']],
    ['-eed words and their forms', ['exceed', 'exceeds', 'exceeded', 'exceeding'], ['proceeds', 'proceed']],
    ['-ied past tenses', ['retried', 'retries', 'retry', 'retrying'], ['applied', 'applies', 'apply']],
  ])('folds %s', (_what, ...groups: string[][]) => {
    for (const group of groups) {
      const keys = new Set(group.map((word) => stemWord(word)));
      expect([...keys], group.join(', ')).toHaveLength(1);
    }
  });

  it('keeps words apart that only look alike', () => {
    expect(stemWord('raise')).not.toBe(stemWord('raze'));
    expect(stemWord('hour')).not.toBe(stemWord('hor'));
    expect(stemWord('exceed')).not.toBe(stemWord('exc'));
    expect(stemWord('apply')).not.toBe(stemWord('app'));
  });
});

describe('tokenizeQuery', () => {
  it('drops question boilerplate and dedupes with a dampened weight', () => {
    const terms = tokenizeQuery('Explain the purpose of cache, cache and cache');
    expect(terms).toEqual([{ term: 'cach', weight: 1 + Math.log(3) }]);
  });

  it('keeps question words when asked to', () => {
    const terms = tokenizeQuery('explain cache', { query: { questionWords: [] } });
    expect(terms.map((t) => t.term)).toEqual(['explain', 'cach']);
  });

  it('weights sub-words by subwordWeight unless they also appear on their own', () => {
    const terms = tokenizeQuery('max_num_seqs num', { query: { subwordWeight: 0.5 } });
    expect(terms).toEqual([
      { term: 'max_num_seqs', weight: 1 },
      { term: 'max', weight: 0.5 },
      { term: 'num', weight: 1 + Math.log(2) },
      { term: 'seq', weight: 0.5 },
    ]);
  });

  it('returns nothing for a query without indexable words', () => {
    expect(tokenizeQuery('')).toEqual([]);
    expect(tokenizeQuery('what is the ?!')).toEqual([]);
  });

  it('drops quantifiers that say how many, not what, but keeps "many", which code names things with', () => {
    // "every key", "several keys", "the old ones": the question is about keys and fetching.
    expect(tokenizeQuery('Can every key be fetched, or several ones, with get_many?', { query: { abbreviationWeight: 0 } }).map((t) => t.term)).toEqual([
      'key',
      'fetch',
      'get_many',
      'get',
      'many',
    ]);
  });

  it('exports its stoplists for reuse', () => {
    expect(DEFAULT_STOPWORDS.includes('the')).toBe(true);
    expect(DEFAULT_STOPWORDS.includes('not')).toBe(false);
    expect(DEFAULT_QUESTION_WORDS.includes('explain')).toBe(true);
  });
});

describe('query abbreviations', () => {
  it('add the short forms code writes at half weight by default, none at weight 0', () => {
    const plain = tokenizeQuery('the maximum number of sequences', { query: { abbreviationWeight: 0 } }).map((t) => t.term);
    expect(plain).not.toContain('num');
    const expanded = tokenizeQuery('the maximum number of sequences');
    const byTerm = new Map(expanded.map((t) => [t.term, t.weight]));
    // max_num_seqs is indexed as max, num, seq (and the whole identifier).
    expect(byTerm.get('max')).toBe(0.5);
    expect(byTerm.get('num')).toBe(0.5);
    expect(byTerm.get('seq')).toBe(0.5);
    expect(byTerm.get('maximum')).toBe(1);
  });

  it('never lowers a short form the question already wrote', () => {
    const terms = new Map(tokenizeQuery('max number', { query: { abbreviationWeight: 0.5 } }).map((t) => [t.term, t.weight]));
    expect(terms.get('max')).toBe(1);
    expect(terms.get('num')).toBe(0.5);
  });

  it('reject weights outside [0, 1]', () => {
    expect(() => tokenizeQuery('x', { query: { abbreviationWeight: 2 } })).toThrow(/abbreviationWeight/);
  });
});

describe('tokenize: the shared memo', () => {
  it('gives the same terms from a full, an overflowing and no memo', async () => {
    const { SegmentExpander } = await import('../src/internals.js');
    const { resolveTokenizerOptions } = await import('../src/options.js');
    const { forEachSegment } = await import('../src/segments.js');
    const options = resolveTokenizerOptions({});
    const text = 'model_config.max_num_seqs = LLMEngine(getHTTPServer2Port) # self.cache_config; HTTP/2 utf-8 model_config';
    const termsOf = (expander: InstanceType<typeof SegmentExpander>): string[] => {
      const out: string[] = [];
      // Twice: the second pass reads what the first remembered (or, with limit 2, what survived a reset).
      for (let pass = 0; pass < 2; pass++) forEachSegment(text, (segment) => expander.expand(segment, (term) => out.push(term)));
      return out;
    };
    const plain = termsOf(new SegmentExpander(options));
    expect(termsOf(new SegmentExpander(options, { memoize: true }))).toEqual(plain);
    expect(termsOf(new SegmentExpander(options, { memoize: true, memoLimit: 2 }))).toEqual(plain);
    expect(tokenize(text)).toEqual(plain.slice(0, plain.length / 2));
  });
});

describe('createTokenizer', () => {
  // A retriever tokenizes with the options read from its index: resolved once, never again.
  const SETTINGS = [{}, { stem: false }, { stopwords: ['the', 'model'] }, { minTokenLength: 3, splitDigits: false, dottedNames: false }, { derivations: true }];
  const TEXTS = [
    'The default value of max_num_seqs is 256; see `SchedulerConfig.max_num_seqs`.',
    'def get_kv_cache_config(self):\n    """Returns the KV-cache config (HTTP/2, v0.10.1)."""',
    'Ünïcödé wörds, 𝕏 symbols, camelCaseNames and SCREAMING_CASE_CONSTANTS',
    '',
  ];
  it('gives what tokenize gives with the same options, for every text', () => {
    for (const settings of SETTINGS) {
      const tokenizeWith = createTokenizer(resolveTokenizerOptions(settings));
      for (const text of TEXTS) expect(tokenizeWith(text)).toEqual(tokenize(text, settings));
    }
  });
});
