import { describe, expect, it } from 'vitest';
import { evaluate, formatReport } from '../src/index.js';
import { dataset, misses, results, span } from './helpers.js';

const gold = span('pkg/a.py', 100, 200);

describe('formatReport', () => {
  const report = evaluate(dataset({ q1: [gold], q2: [gold] }), results({ q1: [...misses(2), gold] }));

  it('prints one header row and one value row, then warnings', () => {
    const lines = formatReport(report).split('\n');
    expect(lines[0]!.trim().split(/\s+/)).toEqual(['questions', 'R@1', 'R@3', 'R@5', 'R@10', 'MRR@10', 'span@5']);
    // Mean span: q1's spans are 5, 5 and 100 characters long.
    expect(lines[1]!.trim().split(/\s+/)).toEqual(['2', '0.000', '0.500', '0.500', '0.500', '0.167', '36.7']);
    expect(lines[2]).toBe('warning: 1 question has no result entry and scores 0: q2.');
    expect(lines).toHaveLength(3);
  });

  it('aligns the columns', () => {
    const [header, values] = formatReport(report).split('\n');
    expect(header!.length).toBe(values!.length);
  });

  it('adds one line per question on request', () => {
    const text = formatReport(report, { perQuestion: true });
    const lines = text.split('\n');
    expect(lines[3]!.trim().split(/\s+/).slice(0, 3)).toEqual(['hit', 'best', 'IoU']);
    expect(lines[4]).toMatch(/^\s*3\s+1\.000\s+q1\s+question q1\?$/);
    expect(lines[5]).toMatch(/^\s*-\s+-\s+q2\s+question q2\?$/);
  });
});
