import { describe, expect, it } from 'vitest';
import { iou, overlapLength, spanLength } from '../src/index.js';
import { span } from './helpers.js';

describe('iou', () => {
  it('is 0 for disjoint spans', () => {
    expect(iou(span('a.py', 0, 10), span('a.py', 20, 30))).toBe(0);
  });

  it('is 0 for spans that only touch (the end is exclusive)', () => {
    expect(overlapLength(span('a.py', 0, 10), span('a.py', 10, 20))).toBe(0);
    expect(iou(span('a.py', 0, 10), span('a.py', 10, 20))).toBe(0);
  });

  it('is the length ratio for a nested span', () => {
    expect(iou(span('a.py', 0, 100), span('a.py', 10, 30))).toBeCloseTo(20 / 100, 12);
    expect(iou(span('a.py', 10, 30), span('a.py', 0, 100))).toBeCloseTo(20 / 100, 12);
  });

  it('is overlap / union for a partial overlap', () => {
    // overlap [5, 10) = 5, union = 10 + 10 - 5 = 15
    expect(iou(span('a.py', 0, 10), span('a.py', 5, 15))).toBeCloseTo(5 / 15, 12);
  });

  it('is 1 for identical non-empty spans', () => {
    expect(iou(span('a.py', 3, 9), span('a.py', 3, 9))).toBe(1);
  });

  it('is 0 for zero-length spans, even identical ones', () => {
    expect(iou(span('a.py', 5, 5), span('a.py', 5, 5))).toBe(0);
    expect(iou(span('a.py', 5, 5), span('a.py', 0, 10))).toBe(0);
    expect(iou(span('a.py', 0, 10), span('a.py', 10, 10))).toBe(0);
  });

  it('is 0 for spans in different files', () => {
    expect(iou(span('a.py', 0, 10), span('b.py', 0, 10))).toBe(0);
    expect(iou(span('docs/a.md', 0, 10), span('a.md', 0, 10))).toBe(0);
  });

  it('shows why a large span containing a small gold span fails the threshold', () => {
    expect(iou(span('a.py', 0, 2000), span('a.py', 500, 590))).toBeCloseTo(0.045, 12);
  });

  it('treats a reversed span as empty', () => {
    expect(spanLength(span('a.py', 10, 4))).toBe(0);
    expect(iou(span('a.py', 10, 4), span('a.py', 0, 20))).toBe(0);
  });
});
