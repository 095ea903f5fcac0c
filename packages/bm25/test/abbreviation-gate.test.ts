import { describe, expect, it } from 'vitest';
import { createBm25Retriever } from '../src/index.js';
import { miniChunks, withExtraChunks } from './mini-corpus.js';

describe('identifier abbreviations are gated by the question’s lean', () => {
  it('a code-leaning question searches the abbreviations, a docs-leaning one does not', async () => {
    // A handler written with the abbreviation, as code often is.
    const chunks = withExtraChunks(await miniChunks(), [
      { file_path: 'tinyserve/limits.py', kind: 'function', symbol: 'check_req', language: 'python', text: 'def check_req(self, req):\n    return len(req.body) <= self.limit\n' },
    ]);
    const retriever = createBm25Retriever(chunks, { query: { abbreviationWeight: 0.5 } });
    const terms = (query: string) => retriever.index.resolveQuery(query).map((t) => t.term);
    // "return", "self", "handler" lean to the corpus's code: `req` joins the search.
    const code = 'return whether the request body length is within self limit';
    const docs = 'How do I install tinyserve behind nginx for a production deployment request?';
    expect(retriever.reranker!.leanOf(retriever.index.resolveQuery(code).filter((t) => t.term !== 'req').map((t) => t.id))).toBeLessThan(0);
    expect(retriever.reranker!.leanOf(retriever.index.resolveQuery(docs).map((t) => t.id))).toBeGreaterThan(0);
    expect(terms(code)).toContain('req');
    expect(terms(docs)).not.toContain('req');
    // …and the handler that writes `req` (and `len`, `limit`, `body`) ranks first.
    expect(retriever.searchSync(code, { k: 1 })[0]!.chunkId).toBe(chunks.length - 1);
    // Whatever the gate decides, explain() sees the same terms as search().
    for (const query of [code, docs]) {
      for (const hit of retriever.searchSync(query, { k: 5 })) {
        expect(retriever.explain(query, hit.chunkId).value).toBeCloseTo(hit.score, 12);
      }
    }
  });

  it('are off by default: no query term is an expansion', async () => {
    const retriever = createBm25Retriever(await miniChunks());
    expect(retriever.index.resolveQuery('maximum number of request retries').map((t) => t.term)).not.toContain('num');
  });
});
