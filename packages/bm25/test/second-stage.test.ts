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
    expect(ranking(query, { query: { aliases: {} } })[0]).toBe('docs/guide.md#The tinyserve guide 🚀 > Configuration');
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
    // The question asks how the server behaves: App.handle implements it, and the router
    // it calls is the second place to read. The test only checks it: it outranks App.handle
    // when both count the same, and comes after both implementation chunks when discounted.
    expect(ranking('which status for a wrong method', {}, 3, over)).toEqual([
      'tinyserve/app.py#App.handle',
      'tinyserve/routing.py#Router',
      'tests/test_routing.py#test_router_match_wrong_method',
    ]);
    expect(ranking('which status for a wrong method', { rerank: { auxiliaryFactor: 1 } }, 2, over)).toEqual([
      'tests/test_routing.py#test_router_match_wrong_method',
      'tinyserve/app.py#App.handle',
    ]);
    // Asked about tests, the test comes first and is not penalised.
    expect(ranking('How is the router tested for a wrong method?', {}, 1, over)).toEqual(['tests/test_routing.py#test_router_match_wrong_method']);
  });

  it('a CI workflow, indexed as text, answers what the tests run on', () => {
    // The walker reads YAML as text (`.github/workflows/*.yml`): the workflow is the one
    // place that says which Python versions the tests run on. Nothing in the package's code
    // or guide names those versions, so it comes first.
    const workflow = {
      file_path: '.github/workflows/tests.yml',
      kind: 'text' as const,
      symbol: '',
      language: 'text' as const,
      text: [
        'name: tests',
        'on: [push, pull_request]',
        'jobs:',
        '  test:',
        '    runs-on: ubuntu-latest',
        '    strategy:',
        '      matrix:',
        '        python-version: ["3.9", "3.10", "3.11", "3.12"]',
        '    steps:',
        '      - uses: actions/checkout@v4',
        '      - run: pip install -e . && pytest',
      ].join('\n'),
    };
    const over = withExtraChunks(chunks, [workflow]);
    expect(ranking('Which Python versions do the tests run on in CI?', {}, 1, over)).toEqual(['.github/workflows/tests.yml@0']);
  });

  it('release notes yield to the code that behaves unless the question asks about releases', () => {
    // A changelog entry about the same behaviour, added to the corpus (which has none).
    const changes = {
      file_path: 'CHANGES.md',
      kind: 'section' as const,
      symbol: 'Changes > 0.3.0',
      language: 'markdown' as const,
      text: ['## 0.3.0', '', '- Answer 405 Method Not Allowed for a wrong method (was 404).'].join('\n'),
    };
    const over = withExtraChunks(chunks, [changes]);
    const entry = 'CHANGES.md#Changes > 0.3.0';
    // The question asks how the server behaves now: App.handle does it (and holds the status
    // for every other case too). The entry names the change in fewer words, and outranks
    // App.handle when both count the same.
    expect(ranking('which status for a wrong method', {}, 2, over)).toEqual(['tinyserve/app.py#App.handle', entry]);
    expect(ranking('which status for a wrong method', { rerank: { historyFactor: 1 } }, 2, over)).toEqual([entry, 'tinyserve/app.py#App.handle']);
    // Asked which release changed it, the entry comes first and is not discounted.
    expect(ranking('In which release did a wrong method start to get status 405?', {}, 1, over)).toEqual([entry]);
  });

  it('explanation: the guide that spells cors_middleware as code beats the function itself', () => {
    const query = 'what do cors_middleware origins do';
    // The Middleware section of the guide says what `cors_middleware(origins)` does with
    // the origins ("adds the CORS header for allowed origins") in prose, which is what a
    // "what do … do" question asks for. BM25 alone prefers the function, whose symbol is
    // the identifier; with the explanation signal the docs that name it as code come first.
    // Anchor text is off here (it would give the function the guide's words too), and the
    // prose lean of "what do … do" counts at weight 0.2, so the signal is seen on its own.
    const middleware = 'docs/guide.md#The tinyserve guide 🚀 > Middleware';
    const alone = { context: { anchors: false } };
    expect(ranking(query, { ...alone, rerank: { modality: 0.2 } }, 2)).toEqual([middleware, 'tinyserve/middleware.py#cors_middleware']);
    expect(ranking(query, { ...alone, rerank: { modality: 0.2, explanation: 0 } }, 2)).toEqual(['tinyserve/middleware.py#cors_middleware', middleware]);
  });

  it('section support: the section whose sub-section matches outranks a lone match elsewhere', () => {
    // A docs page the mini corpus lacks: an upload endpoint with an example sub-section, and
    // a FAQ entry about large requests.
    const markdown = { kind: 'section' as const, language: 'markdown' as const };
    const over = withExtraChunks(chunks, [
      {
        ...markdown,
        file_path: 'docs/storage.md',
        symbol: 'Storage > Upload endpoint',
        text: '## Upload endpoint\n\nThe upload endpoint stores files in the configured bucket and answers with their URLs.',
      },
      {
        ...markdown,
        file_path: 'docs/storage.md',
        symbol: 'Storage > Upload endpoint > Example requests',
        text: '### Example requests\n\nSend one file as multipart form data:\n\n    curl -F file=@report.pdf http://127.0.0.1:8421/upload\n\nRepeat the field to send several at once.',
      },
      {
        ...markdown,
        file_path: 'docs/faq.md',
        symbol: 'FAQ > Large requests',
        text: '## Large requests\n\nA request larger than the max body setting is refused with 413. Split large uploads into requests of a few files each, or raise the limit.',
      },
    ]);
    // withExtraChunks starts every extra chunk at offset 0: give the storage page's two
    // sections their own, disjoint spans so they count as two separate pieces of evidence.
    const example = over[over.length - 2]!;
    const length = example.last_character_index;
    over[over.length - 2] = { ...example, first_character_index: 200, last_character_index: 200 + length };
    const query = 'How do I upload several files in one request?';
    // The example answers it; second is the upload endpoint it belongs to (its sub-section
    // matched too), not the FAQ entry, which is about the size limit of one request. At the
    // default weight (0.05, a tie-breaker) the two are this close: shown at 0.1.
    const expected = ['docs/storage.md#Storage > Upload endpoint > Example requests', 'docs/storage.md#Storage > Upload endpoint', 'docs/faq.md#FAQ > Large requests'];
    expect(ranking(query, { rerank: { sectionSupport: 0.1 } }, 3, over)).toEqual(expected);
    expect(ranking(query, { rerank: { sectionSupport: 0 } }, 3, over)).toEqual([expected[0], expected[2], expected[1]]);
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

describe('joining the adjacent parts of a code hit', () => {
  // One function cut in two chunks that meet (the chunker's way: the second part starts at
  // its line's indentation), a transport module, and a docs page that mentions retries.
  const retry = [
    'def send_with_retries(request, attempts=3):\n    """Send a request, retrying on connection errors."""\n    for attempt in range(attempts):\n        try:\n            return transport.send(request)\n',
    "        except ConnectionError as error:\n            backoff = min(2 ** attempt, MAX_BACKOFF_SECONDS)\n            log.warning('connection failed, retrying after %s s', backoff)\n            time.sleep(backoff)\n    raise RetriesExhausted(attempts)\n",
  ];
  const specs = [
    { file_path: 'client/retry.py', text: retry[0]!, symbol: 'send_with_retries' },
    { file_path: 'client/retry.py', text: retry[1]!, symbol: 'send_with_retries' },
    { file_path: 'client/transport.py', text: 'def send(request):\n    """Write the request to the open connection and read the reply."""\n    return connection.roundtrip(request)\n', symbol: 'send' },
    { file_path: 'docs/errors.md', text: '# Errors\n\nA request that fails with a connection error is sent again a few times before the client gives up.\n', symbol: 'Errors' },
  ];
  const offsets = [0, retry[0]!.length, 0, 0];
  const joined: Chunk[] = specs.map((spec, id) => ({
    id,
    file_path: spec.file_path,
    first_character_index: offsets[id]!,
    last_character_index: offsets[id]! + spec.text.length,
    start_line: 1,
    end_line: 1,
    kind: spec.file_path.endsWith('.md') ? 'section' : 'function',
    symbol: spec.symbol,
    language: spec.file_path.endsWith('.md') ? 'markdown' : 'python',
    text: spec.text,
  }));
  const query = 'How long does the client wait between retries after a connection error?';

  it('cites a function found in both its parts once, whole, and gives the freed place to the next candidate', () => {
    // Both halves of send_with_retries match (the docstring's "retrying on connection
    // errors", the `except ConnectionError` branch with its back-off): the answer is the
    // function, so it is one hit spanning both, and the third place goes to the docs page
    // instead of the function's second half.
    const retriever = createBm25Retriever(joined, {});
    const hits = retriever.searchSync(query, { k: 3 });
    expect(hits[0]!.joined).toEqual({ first: 0, last: 1 });
    expect(hits.map((hit) => hit.chunkId).sort()).toEqual([hits[0]!.chunkId, 2, 3].sort());
    // The joined hit keeps its best part's score, which explain() still equals.
    for (const hit of hits) expect(retriever.explain(query, hit.chunkId).value).toBe(hit.score);
    // Off, or asked for single chunks (as hybrid fusion asks its components), the halves are two hits.
    for (const single of [createBm25Retriever(joined, { rerank: { joinSpan: 0 } }).searchSync(query, { k: 3 }), retriever.searchSync(query, { k: 3, join: false })]) {
      expect(single.every((hit) => hit.joined === undefined)).toBe(true);
      expect(single.map((hit) => hit.chunkId)).toEqual(expect.arrayContaining([0, 1]));
    }
  });
});
