import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDataset, parseSearchResults } from '@rag/core';
import { evaluate } from '../src/index.js';

// The fixtures and these numbers come from scripts/cross-check.py, which runs the peer
// scorer (shared/peers/python-bm25/score.py) on a seeded synthetic set: 40 questions with
// 1–3 gold spans, retrieved spans that are exact, shifted, oversized (IoU near 0.05),
// in another file, touching or empty, duplicated; 2 questions without an entry and one
// stray entry. Both implementations must agree to the last digit.
const PEER_RECALL = { 1: 0.19166666666666668, 3: 0.4875, 5: 0.525, 10: 0.5958333333333333 };
// prettier-ignore
const PEER_RECALL_AT_10: Record<string, number> = {
  q00: 1, q01: 1, q02: 0, q03: 0.5, q04: 1, q05: 1, q06: 0, q07: 1, q08: 1, q09: 0,
  q10: 1, q11: 2 / 3, q12: 1, q13: 1 / 3, q14: 0, q15: 1, q16: 0, q17: 0, q18: 0, q19: 2 / 3,
  q20: 1, q21: 0, q22: 1, q23: 0, q24: 1, q25: 1, q26: 1, q27: 1 / 3, q28: 0, q29: 1,
  q30: 1, q31: 1, q32: 0, q33: 0, q34: 1, q35: 1 / 3, q36: 1, q37: 1, q38: 0, q39: 1,
};

function fixture(name: string): string {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
}

describe('agreement with the peer scorer', () => {
  const report = evaluate(
    parseDataset(fixture('cross-check-dataset.json'), 'cross-check-dataset.json'),
    parseSearchResults(fixture('cross-check-results.json'), 'cross-check-results.json'),
  );

  it('gives the same dataset recall@1/3/5/10', () => {
    expect(report.questions).toBe(40);
    for (const [k, value] of Object.entries(PEER_RECALL)) expect(report.recall[Number(k)]).toBeCloseTo(value, 12);
  });

  it('gives the same per-question recall@10', () => {
    const ours = Object.fromEntries(report.perQuestion.map((q) => [q.question_id, q.recall[10]]));
    expect(Object.keys(ours)).toEqual(Object.keys(PEER_RECALL_AT_10));
    for (const [id, value] of Object.entries(PEER_RECALL_AT_10)) expect(ours[id]).toBeCloseTo(value, 12);
  });

  it('ignores the stray entry and scores the missing questions 0', () => {
    expect(report.unknownQuestionIds).toEqual(['stray']);
    expect(report.missingQuestionIds.length).toBeGreaterThan(0);
    for (const id of report.missingQuestionIds) expect(PEER_RECALL_AT_10[id]).toBe(0);
  });
});
