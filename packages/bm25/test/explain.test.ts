import type { Explanation } from '@rag/core';
import { describe, expect, it } from 'vitest';
import { createBm25Retriever } from '../src/index.js';
import { Bm25Index } from '../src/internals.js';
import { makeChunks, PLAIN_BM25 } from './helpers.js';

const chunks = makeChunks([
  {
    text: 'def load_weights(self, weights):\n    if weights is None:\n        raise ValueError("no weights")\n    return self.model.load_weights(weights)',
    file_path: 'vllm/model_loader.py',
    symbol: 'Loader.load_weights',
    language: 'python',
  },
  { text: 'Weights are loaded lazily from the cache directory.', file_path: 'docs/weights.md', symbol: 'Weights > Loading' },
  { text: 'unrelated text about scheduling', file_path: 'vllm/core/scheduler.py', symbol: 'Scheduler' },
]);

function find(tree: Explanation, prefix: string): Explanation | undefined {
  if (tree.description.startsWith(prefix)) return tree;
  for (const detail of tree.details ?? []) {
    const found = find(detail, prefix);
    if (found) return found;
  }
  return undefined;
}

describe('explain', () => {
  const retriever = createBm25Retriever(chunks);
  // The BM25F tree itself, without the second stage wrapped around it.
  const firstStage = createBm25Retriever(chunks, { rerank: { depth: 0 } });

  it('has the search score as its value, exactly, for every hit', async () => {
    for (const query of ['load weights', 'how are weights loaded from cache', 'load_weights', 'Scheduler scheduling']) {
      const hits = await retriever.search(query, { k: 3 });
      expect(hits.length).toBeGreaterThan(0);
      for (const hit of hits) expect(retriever.explain(query, hit.chunkId).value).toBe(hit.score);
    }
  });

  it('lists every query term with idf, per-field tf, norm and contribution', () => {
    const tree = firstStage.explain('load_weights', 0);
    const terms = tree.details ?? [];
    expect(terms.map((t) => t.description.match(/"([^"]+)"/)?.[1])).toEqual(['load_weights', 'load', 'weight']);
    const sum = terms.reduce((total, t) => total + t.value, 0);
    expect(sum).toBeCloseTo(tree.value, 12);
    const whole = terms[0]!;
    expect(find(whole, 'idf')?.value).toBeGreaterThan(0);
    const fields = find(whole, 'tf̃')?.details ?? [];
    expect(fields.map((f) => f.description.split(':')[0])).toEqual(['field body', 'field symbol']);
    for (const field of fields) {
      const [tf, norm] = field.details ?? [];
      expect(tf!.value).toBeGreaterThan(0);
      expect(norm!.description).toMatch(/^B = 1 − b \+ b · len \/ avglen/);
    }
  });

  it('reports zero for terms the chunk lacks or the index never saw', () => {
    const tree = firstStage.explain('unrelated zebra', 0);
    expect(tree.value).toBe(0);
    expect(tree.details?.map((d) => d.value)).toEqual([0, 0]);
    expect(tree.details?.[1]?.description).toContain('not in the index');
  });

  it.each([
    ['load_weights from the cache', 0],
    // An error question, and the chunk raises: the answer-evidence part is 1, at the error weight.
    ['What is raised when load_weights gets no weights?', 1],
  ])('wraps the BM25F tree in the second stage, whose parts give its value: %s', (query, expectedEvidence) => {
    const tree = retriever.explain(query, 0);
    expect(tree.description).toMatch(/^second stage/);
    const [relative, phrase, covered, defined, explained, support, evidence, typed, auxiliary, history, described, stub, prior] = tree.details!;
    expect(relative!.details![0]).toEqual(firstStage.explain(query, 0));
    expect(evidence!.value).toBe(expectedEvidence);
    const { rerank } = retriever.index.options;
    const evidenceWeight = expectedEvidence === 1 ? rerank.answerEvidence.error : 0;
    const recomputed =
      auxiliary!.value *
        history!.value *
        described!.value *
        stub!.value *
        (relative!.value +
          rerank.proximity * phrase!.value +
          rerank.coverage * covered!.value +
          rerank.definition * defined!.value +
          rerank.explanation * explained!.value +
          rerank.sectionSupport * support!.value +
          evidenceWeight * evidence!.value +
          rerank.answerType * typed!.value) +
      rerank.modality * prior!.value;
    expect(tree.value).toBeCloseTo(recomputed, 12);
    expect(tree.value).toBe(retriever.searchSync(query, { k: 3 }).find((hit) => hit.chunkId === 0)!.score);
  });

  it('shows the history factor on a release-notes chunk, and still equals the score', () => {
    const withNotes = makeChunks([
      ...chunks.map(({ text, file_path, symbol, language }) => ({ text, file_path, symbol, language })),
      { text: '- load_weights raises ValueError when given no weights (was a silent no-op).', file_path: 'docs/changelog.md', symbol: 'Changelog > 0.2' },
    ]);
    const notes = createBm25Retriever(withNotes);
    const noteId = withNotes.length - 1;
    for (const [query, factor] of [
      ['what does load_weights raise without weights', notes.index.options.rerank.historyFactor],
      ['which release made load_weights raise', 1],
    ] as const) {
      const tree = notes.explain(query, noteId);
      const history = tree.details!.find((detail) => detail.description.startsWith('h:'))!;
      expect(history.value).toBe(factor);
      expect(history.description).toMatch(factor === 1 ? /asks about releases/ : /historyFactor 0\.8/);
      const hit = notes.searchSync(query, { k: 4 }).find((candidate) => candidate.chunkId === noteId)!;
      expect(tree.value).toBe(hit.score);
    }
    // Not a history page: the part is 1.
    expect(notes.explain('load weights', 0).details!.find((detail) => detail.description.startsWith('h:'))!.value).toBe(1);
  });

  it('agrees with a hand computation on the plain setting', () => {
    const index = Bm25Index.build(makeChunks([{ text: 'x1 x1 y1' }, { text: 'y1 z1' }]), PLAIN_BM25);
    // x1: df 1 of N 2 → idf ln(1 + 1.5/1.5) = ln 2; len 3, avglen 2.5 → B = 0.25 + 0.75 · 1.2 = 1.15.
    const tree = index.explain('x1', 0);
    const term = tree.details![0]!;
    expect(find(term, 'idf')!.value).toBeCloseTo(Math.log(2), 12);
    expect(find(term, 'B =')!.value).toBeCloseTo(1.15, 12);
    const tf = 2 / 1.15;
    expect(tree.value).toBeCloseTo((Math.log(2) * 2.2 * tf) / (1.2 + tf), 12);
  });

  it('refuses a chunk id outside the index', () => {
    expect(() => retriever.explain('load', 3)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(() => retriever.explain('load', -1)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});
