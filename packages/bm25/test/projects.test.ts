import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createBm25Retriever } from '../src/index.js';
import { CorpusProjects, projectNameOf } from '../src/projects.js';
import { makeChunks, type ChunkSpec } from './helpers.js';

const python = (file_path: string, symbol: string, text: string): ChunkSpec => ({ file_path, symbol, text, language: 'python', kind: 'function' });
const markdown = (file_path: string, symbol: string, text: string): ChunkSpec => ({ file_path, symbol, text, language: 'markdown', kind: 'section' });

describe('the projects of a corpus', () => {
  it('are the top-level folders that hold a Python package of their own name', () => {
    const projects = new CorpusProjects(
      makeChunks([
        python('click/click/core.py', 'Command', 'class Command: ...'),
        markdown('click/docs/index.md', 'Click', '# Click'),
        python('flask-2.2.5/src/flask/app.py', 'Flask', 'class Flask: ...'),
        python('python-dateutil/python_dateutil/parser.py', 'parse', 'def parse(text): ...'),
        python('tools/scripts/run.py', 'main', 'def main(): ...'),
        markdown('README.md', 'Corpus', '# Corpus'),
      ]),
    );
    expect(projects.names).toEqual(['click', 'flask', 'python_dateutil']);
    // The README at the top and the tools folder belong to no project.
    expect([0, 1, 2, 3, 4, 5].map((d) => projects.projectOf(d))).toEqual([1, 1, 2, 3, 0, 0]);
  });

  it('are none for a corpus indexed at one repository root', () => {
    // `vllm/` is the package itself, `docs/` and `tests/` its folders: none holds a folder of its own name.
    const projects = new CorpusProjects(
      makeChunks([python('vllm/engine/llm.py', 'LLM', 'class LLM: ...'), markdown('docs/usage.md', 'Usage', '# Usage'), python('tests/test_llm.py', 'test_llm', 'def test_llm(): ...')]),
    );
    expect(projects.names).toEqual([]);
    expect(projects.scope('How does vllm start?')).toEqual({ text: 'How does vllm start?', projects: [] });
  });

  it('are named for their folder without a release suffix', () => {
    expect(['vllm-0.10.1', 'flask_2.2', 'requests-v2.31.0', 'Django-4.2rc1', 'click'].map(projectNameOf)).toEqual(['vllm', 'flask', 'requests', 'django', 'click']);
  });

  it('are read from the words of a question, whatever their case, and taken out of it', () => {
    const projects = new CorpusProjects(makeChunks([python('click/click/core.py', 'Command', 'x'), python('requests/requests/api.py', 'get', 'x')]));
    expect(projects.scope('In Click, how is --help added?')).toEqual({ text: 'In  , how is --help added?', projects: [1] });
    // Two projects named: both in scope, and both names stay words of what is asked.
    const both = "Does requests' session retry, and can click use it?";
    expect(projects.scope(both)).toEqual({ text: both, projects: [1, 2] });
    // Code spelled with the name (a dotted name, a path) says nothing about scope.
    expect(projects.scope('What does click.echo print?')).toEqual({ text: 'What does click.echo print?', projects: [] });
    expect(projects.scope('What is in requests/api.py?').projects).toEqual([]);
    // A word that only contains the name is another word.
    expect(projects.scope('How are clicks counted?').projects).toEqual([]);
    // A question that is nothing but the name keeps it as its words.
    expect(projects.scope('requests?')).toEqual({ text: 'requests?', projects: [2] });
  });
});

describe('a question that names one project of several', () => {
  // Two projects each define a retry helper with the same words. The `client` project's
  // docs repeat the word "web" (a web client), so as a search word "web" lifts the client's
  // page; the question means the `web` project, whose helper should come first.
  const chunks = makeChunks([
    python('client/client/retry.py', 'retry', 'def retry(call, attempts=5):\n    """Retry a failed call with backoff."""'),
    markdown('client/docs/web.md', 'Web calls', '# Web calls\n\nThe web client calls the web: a failed web call is retried with backoff.'),
    python('web/web/retry.py', 'retry', 'def retry(call, attempts=3):\n    """Retry a failed call three times."""'),
  ]);
  const question = 'How does web retry a failed call?';
  const top = (settings = {}) => createBm25Retriever(chunks, settings).searchSync(question, { k: 1 })[0]!.chunkId;

  it('ranks that project first, and the other project first without the rule', () => {
    expect(top()).toBe(2);
    expect(top({ rerank: { projectFactor: 1 } })).not.toBe(2);
  });

  it('explains the scope factor, and explain equals the score', () => {
    const retriever = createBm25Retriever(chunks);
    const hits = retriever.searchSync(question, { k: 3 });
    expect(hits).toHaveLength(3);
    for (const hit of hits) {
      const tree = retriever.explain(question, hit.chunkId);
      expect(tree.value).toBe(hit.score);
      const scope = tree.details!.find((detail) => detail.description.startsWith('scope'))!;
      expect(scope.value).toBe(hit.chunkId === 2 ? 1 : 0.5);
      expect(scope.description).toContain('names web');
    }
  });

  it('leaves a corpus of one project alone', () => {
    // Only the `web` project: its name stays a word of the question, and nothing is scaled.
    const single = makeChunks([chunks[2]!, { ...chunks[1]!, file_path: 'web/docs/web.md' }]);
    const retriever = createBm25Retriever(single);
    expect(retriever.reranker!.scope(question)).toEqual({ text: question, projects: [] });
  });

  it('never changes the hits of a question that names no project', () => {
    const on = createBm25Retriever(chunks);
    const off = createBm25Retriever(chunks, { rerank: { projectFactor: 1 } });
    fc.assert(
      fc.property(fc.array(fc.constantFrom('retry', 'failed', 'call', 'backoff', 'attempts', 'docs', 'three', 'how'), { minLength: 1, maxLength: 5 }), (words) => {
        const query = words.join(' ');
        expect(on.searchSync(query, { k: 3 })).toEqual(off.searchSync(query, { k: 3 }));
      }),
    );
  });
});
