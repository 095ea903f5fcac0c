import { describe, expect, it } from 'vitest';
import type { AnswerType } from '@rag/text';
import { findTypedValueLine, TYPED_LINE_SOURCES } from '../src/extractive/typed-line.js';
import type { ScoredUnit } from '../src/extractive/score.js';

/** The fields `findTypedValueLine` reads, the rest left out. */
function unit(display: string, sourceIndex: number, { matched = 0, kind = 'code' }: { matched?: number; kind?: 'code' | 'prose' } = {}): ScoredUnit {
  return { unit: { kind, display }, sourceIndex, matched } as unknown as ScoredUnit;
}
const status: AnswerType[] = ['status'];

describe('findTypedValueLine', () => {
  it('finds a statement that spells a value of the asked type and shares no word with the question', () => {
    const line = unit('code = 308', 0);
    expect(findTypedValueLine([unit('def redirect(url):', 0, { matched: 2 }), line], status)).toBe(line);
  });

  it('nothing when no type is asked', () => {
    expect(findTypedValueLine([unit('code = 308', 0)], [])).toBeUndefined();
  });

  it('skips a bare literal: one item of a collection spread over lines says nothing of its use', () => {
    const statement = unit('return Response(status=308)', 1);
    expect(findTypedValueLine([unit('308,', 0), statement], status)).toBe(statement);
  });

  it('skips prose, lines the scoring already reaches, and sources past the best two', () => {
    expect(findTypedValueLine([unit('The redirect sets the status (308).', 0, { kind: 'prose' })], status)).toBeUndefined();
    expect(findTypedValueLine([unit('code = 308', 0, { matched: 1 })], status)).toBeUndefined();
    expect(findTypedValueLine([unit('code = 308', TYPED_LINE_SOURCES)], status)).toBeUndefined();
  });

  it('prefers the best-ranked source, then the first line in it', () => {
    const first = unit('code = 301', 0);
    const units = [unit('code = 410', 1), first, unit('return 302', 0)];
    expect(findTypedValueLine(units, status)).toBe(first);
  });
});
