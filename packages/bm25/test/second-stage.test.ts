import type { Chunk } from '@rag/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBm25Retriever, type Bm25Settings } from '../src/index.js';
import { label, miniChunks, withExtraChunks } from './mini-corpus.js';

let chunks: Chunk[];
beforeAll(async () => {
  chunks = await miniChunks();
});

/** The labels of the top `k` hits for `query` under `settings`. */
function ranking(query: string, settings: Bm25Settings = {}, k = 3, over: readonly Chunk[] = chunks): string[] {
  return createBm25Retriever(over, settings)
    .searchSync(query, { k })
    .map((hit) => label(over[hit.chunkId]!));
}

// Golden rankings on datasets/mini: each technique on (the default) against off. The
// comment above each case says why the order with the technique on is the right one.
describe('second stage on the mini corpus', () => {
  it('query aliases: "constructor" reaches __init__', () => {
    const query = 'What does the App constructor set up?';
    // App.__init__ is the constructor: it creates the router, the debug flag and the
    // middleware list. Without the alias nothing in the question names `init`, and the
    // configuration table (which "sets up" the server) wins.
    expect(ranking(query)[0]).toBe('tinyserve/app.py#App.__init__');
    expect(ranking(query, { query: { aliases: false } })[0]).toBe('docs/guide.md#The tinyserve guide 🚀 > Configuration');
  });

  it('definition over mention: the module that assigns DEFAULT_WORKERS beats the method that reads it', () => {
    const query = 'What is DEFAULT_WORKERS?';
    // defaults.py holds `DEFAULT_WORKERS = 4` with its comment; App.run only passes
    // `defaults.DEFAULT_WORKERS` on. BM25 alone prefers the shorter App.run.
    expect(ranking(query, {}, 2)).toEqual(['tinyserve/defaults.py@0', 'tinyserve/app.py#App.run']);
    expect(ranking(query, { rerank: { definition: 0 } }, 2)).toEqual(['tinyserve/app.py#App.run', 'tinyserve/defaults.py@0']);
  });

  it('phrase: "request body" next to each other finds the limit check', () => {
    const query = 'request body size limit';
    // App.handle compares `len(request.body)` with MAX_BODY_BYTES and answers 413: the
    // limit. The Request class says "body" more often, but never next to "request".
    expect(ranking(query, {}, 2)).toEqual(['tinyserve/app.py#App.handle', 'tinyserve/app.py#Request']);
    expect(ranking(query, { rerank: { proximity: 0 } }, 2)).toEqual(['tinyserve/app.py#Request', 'tinyserve/app.py#App.handle']);
  });

  it('coverage: the chunk with every word of the question beats one that repeats a word', () => {
    const query = 'request route middleware';
    // App.handle routes the request and wraps its handler in the middleware chain: all
    // three words. timing_middleware says "middleware" and "request" often, "route" never.
    expect(ranking(query, {}, 1)).toEqual(['tinyserve/app.py#App.handle']);
    expect(ranking(query, { rerank: { coverage: 0 } }, 1)).toEqual(['tinyserve/middleware.py#timing_middleware']);
  });

  it('docs-versus-code prior: a question in code words gets the code', () => {
    const query = 'What happens when the method is wrong';
    // App.handle's docstring says a known path with the wrong method gives 405; the
    // "Error handling" section is about exceptions (500). In this corpus "method" is a
    // code word (HTTP method parameters), so the prior leans to code.
    expect(ranking(query, {}, 2)).toEqual(['tinyserve/app.py#App.handle', 'docs/guide.md#The tinyserve guide 🚀 > Error handling']);
    expect(ranking(query, { rerank: { modality: 0 } }, 2)).toEqual(['docs/guide.md#The tinyserve guide 🚀 > Error handling', 'tinyserve/app.py#App.handle']);
    const lean = createBm25Retriever(chunks).reranker!.explainParts(query, 0, 1, 1).lean;
    expect(lean).toBeLessThan(0);
  });

  it('docs-versus-code prior: a question in prose words leans to the docs', () => {
    const { reranker } = createBm25Retriever(chunks);
    // Install, virtual environment, production: words of the guide, not of the code.
    expect(reranker!.explainParts('How do I install it into a virtual environment for production?', 0, 1, 1).lean).toBeGreaterThan(0);
  });

  it('tests and examples yield to the implementation unless the question asks for them', () => {
    // A test that exercises the router, added to the corpus (which has no tests/ folder).
    const test = {
      file_path: 'tests/test_routing.py',
      kind: 'function' as const,
      symbol: 'test_router_match_wrong_method',
      language: 'python' as const,
      text: [
        'def test_router_match_wrong_method():',
        '    router = Router()',
        '    router.add("/items/<id:int>", handler, methods=("GET",))',
        '    # a known path with the wrong method is 405, an unknown path 404',
        '    with pytest.raises(LookupError) as error:',
        '        router.match("POST", "/items/3")',
        '    assert error.value.args[0] == 405',
      ].join('\n'),
    };
    const over = withExtraChunks(chunks, [test]);
    // The question asks how the server behaves: App.handle implements it. The test only
    // checks it, and outranks App.handle when both count the same.
    expect(ranking('which status for a wrong method', {}, 2, over)).toEqual(['tinyserve/app.py#App.handle', 'tests/test_routing.py#test_router_match_wrong_method']);
    expect(ranking('which status for a wrong method', { rerank: { auxiliaryFactor: 1 } }, 2, over)).toEqual([
      'tests/test_routing.py#test_router_match_wrong_method',
      'tinyserve/app.py#App.handle',
    ]);
    // Asked about tests, the test comes first and is not penalised.
    expect(ranking('How is the router tested for a wrong method?', {}, 1, over)).toEqual(['tests/test_routing.py#test_router_match_wrong_method']);
  });

  it('keeps every answer of the mini dataset within the top 3', () => {
    // The mini dataset's questions all have one gold span; the second stage must not push
    // any of them out (each question's expected top chunk, by file and offset).
    const expected: [string, string][] = [
      ['What TCP port does the tinyserve development server listen on by default?', 'tinyserve/defaults.py@0'],
      ['How do I register a function as the handler of a URL pattern?', 'tinyserve/app.py#App.route'],
      ['What does tinyserve send back when a handler raises an exception?', 'tinyserve/app.py#App.handle'],
      ['How do I put tinyserve behind nginx?', 'docs/deployment.rst#Deploying tinyserve > Behind a reverse proxy'],
      ['Why did the default port change, and from what?', 'CHANGELOG.txt@0'],
    ];
    for (const [query, top] of expected) expect(ranking(query)).toContain(top);
  });
});
