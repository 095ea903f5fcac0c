import { describe, expect, it } from 'vitest';
import { evaluate } from '../src/index.js';
import { dataset, misses, results, span } from './helpers.js';

const gold = span('pkg/a.py', 100, 200);
const otherGold = span('docs/b.md', 0, 50);

describe('evaluate: recall', () => {
  it('scores every question 0 when the results are empty', () => {
    const report = evaluate(dataset({ q1: [gold], q2: [otherGold] }), results({}));
    expect(report.recall).toEqual({ 1: 0, 3: 0, 5: 0, 10: 0 });
    expect(report.mrr).toBe(0);
    expect(report.meanSpanLength).toBe(0);
    expect(report.perQuestion.map((q) => [q.firstHitRank, q.best, q.missing])).toEqual([
      [null, null, true],
      [null, null, true],
    ]);
  });

  it('scores a question with an empty retrieved list 0 without calling it missing', () => {
    const report = evaluate(dataset({ q1: [gold] }), results({ q1: [] }));
    expect(report.recall[10]).toBe(0);
    expect(report.perQuestion[0]!.missing).toBe(false);
    expect(report.warnings).toEqual([]);
  });

  it('counts a gold span found at most once, however often it is retrieved', () => {
    const report = evaluate(dataset({ q1: [gold] }), results({ q1: [gold, gold, span('pkg/a.py', 110, 190)] }));
    expect(report.recall).toEqual({ 1: 1, 3: 1, 5: 1, 10: 1 });
  });

  it('does not let a duplicated hit stand in for a second gold span', () => {
    const report = evaluate(dataset({ q1: [gold, otherGold] }), results({ q1: [gold, gold] }));
    expect(report.recall[10]).toBe(0.5);
  });

  it('scores found/gold for questions with several gold spans', () => {
    const third = span('pkg/c.py', 0, 10);
    const report = evaluate(dataset({ q1: [gold, otherGold, third] }), results({ q1: [otherGold, ...misses(2), gold] }));
    expect(report.recall[1]).toBeCloseTo(1 / 3, 12);
    expect(report.recall[3]).toBeCloseTo(1 / 3, 12);
    expect(report.recall[5]).toBeCloseTo(2 / 3, 12);
    expect(report.perQuestion[0]!.firstHitRank).toBe(1);
  });

  it('counts a hit at rank 6 for recall@10 but not recall@5', () => {
    const report = evaluate(dataset({ q1: [gold] }), results({ q1: [...misses(5), gold] }));
    expect(report.recall).toEqual({ 1: 0, 3: 0, 5: 0, 10: 1 });
    expect(report.perQuestion[0]!.firstHitRank).toBe(6);
    expect(report.mrr).toBeCloseTo(1 / 6, 12);
  });

  it('averages recall over questions', () => {
    const report = evaluate(dataset({ q1: [gold], q2: [otherGold] }), results({ q1: [gold], q2: misses(3) }));
    expect(report.recall[1]).toBe(0.5);
  });

  it('needs IoU strictly above 0.05', () => {
    const wide = span('pkg/a.py', 0, 100);
    // 5/100 is exactly the threshold, 6/100 just above it.
    expect(evaluate(dataset({ q1: [wide] }), results({ q1: [span('pkg/a.py', 0, 5)] })).recall[1]).toBe(0);
    expect(evaluate(dataset({ q1: [wide] }), results({ q1: [span('pkg/a.py', 0, 6)] })).recall[1]).toBe(1);
  });

  it('needs the same file_path', () => {
    const report = evaluate(dataset({ q1: [gold] }), results({ q1: [span('pkg/other.py', 100, 200)] }));
    expect(report.recall[10]).toBe(0);
  });

  it('reports recall at the ks asked for, sorted and deduplicated', () => {
    const report = evaluate(dataset({ q1: [gold] }), results({ q1: [...misses(1), gold] }), { ks: [2, 1, 2] });
    expect(report.recall).toEqual({ 1: 0, 2: 1 });
    expect(report.options.ks).toEqual([1, 2]);
  });
});

describe('evaluate: MRR', () => {
  it('averages the reciprocal rank of the first hit, 0 for questions without one', () => {
    const report = evaluate(
      dataset({ q1: [gold], q2: [gold], q3: [gold] }),
      results({ q1: [gold, ...misses(2)], q2: [...misses(1), gold], q3: misses(3) }),
    );
    expect(report.mrr).toBeCloseTo((1 + 1 / 2 + 0) / 3, 12);
    expect(report.perQuestion.map((q) => q.firstHitRank)).toEqual([1, 2, null]);
  });

  it('uses the first source that matches any gold span', () => {
    const report = evaluate(dataset({ q1: [gold, otherGold] }), results({ q1: [...misses(2), otherGold, gold] }));
    expect(report.perQuestion[0]!.firstHitRank).toBe(3);
    expect(report.mrr).toBeCloseTo(1 / 3, 12);
  });

  it('ignores hits below mrrK', () => {
    const report = evaluate(dataset({ q1: [gold] }), results({ q1: [...misses(10), gold] }), { k: 20 });
    expect(report.perQuestion[0]!.firstHitRank).toBe(11);
    expect(report.mrr).toBe(0);
    expect(evaluate(dataset({ q1: [gold] }), results({ q1: [...misses(10), gold] }), { k: 20, mrrK: 20 }).mrr).toBeCloseTo(1 / 11, 12);
  });
});

describe('evaluate: per-question report', () => {
  it('names the best retrieved span with its IoU and rank', () => {
    const near = span('pkg/a.py', 100, 150);
    const report = evaluate(dataset({ q1: [gold] }), results({ q1: [misses(1)[0]!, near, gold] }));
    const q = report.perQuestion[0]!;
    expect(q).toMatchObject({ question_id: 'q1', question: 'question q1?', gold: [gold], retrieved: 3, missing: false });
    expect(q.best).toEqual({ source: gold, iou: 1, rank: 3 });
    expect(q.recall).toEqual({ 1: 0, 3: 1, 5: 1, 10: 1 });
  });

  it('keeps the earliest of equally good spans', () => {
    const report = evaluate(dataset({ q1: [gold] }), results({ q1: misses(3) }));
    expect(report.perQuestion[0]!.best).toEqual({ source: misses(1)[0], iou: 0, rank: 1 });
  });

  it('takes the best IoU over all gold spans', () => {
    const report = evaluate(dataset({ q1: [gold, otherGold] }), results({ q1: [span('pkg/a.py', 100, 300), otherGold] }));
    expect(report.perQuestion[0]!.best).toEqual({ source: otherGold, iou: 1, rank: 2 });
  });
});

describe('evaluate: mean span length', () => {
  it('averages the lengths of the top-5 spans over all questions', () => {
    const report = evaluate(
      dataset({ q1: [gold], q2: [gold] }),
      results({
        // q1's sixth span (1000 characters) is below the cut and does not count.
        q1: [span('x', 0, 10), span('x', 0, 20), span('x', 0, 30), span('x', 0, 40), span('x', 0, 50), span('x', 0, 1000)],
        q2: [span('x', 0, 100)],
      }),
    );
    expect(report.meanSpanLength).toBeCloseTo((10 + 20 + 30 + 40 + 50 + 100) / 6, 12);
  });

  it('ignores results for questions not in the dataset', () => {
    const report = evaluate(dataset({ q1: [gold] }), results({ q1: [span('x', 0, 10)], stray: [span('x', 0, 1000)] }));
    expect(report.meanSpanLength).toBe(10);
  });
});
