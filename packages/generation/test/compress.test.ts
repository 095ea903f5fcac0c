import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenize } from '@rag/text';
import { COMPRESS_FROM, compressSentence, splitClauses } from '../src/extractive/compress.js';

const asked = (question: string): Set<string> => new Set(tokenize(question));

describe('splitClauses', () => {
  it('cuts after a comma, semicolon, colon or dash followed by a space', () => {
    expect(splitClauses('First, second; third: fourth — fifth')).toEqual(['First,', 'second;', 'third:', 'fourth —', 'fifth']);
  });

  it('never cuts inside inline code, brackets or parentheses', () => {
    expect(splitClauses('Use `f(a, b)` (or g[x, y]), then stop')).toEqual(['Use `f(a, b)` (or g[x, y]),', 'then stop']);
  });
});

describe('compressSentence', () => {
  it('quotes a short sentence whole', () => {
    const short = 'The port defaults to 8000, which suits most people.';
    expect(short.length).toBeLessThanOrEqual(COMPRESS_FROM);
    expect(compressSentence(short, asked('what port'))).toBe(short);
  });

  it('drops the clauses that hold neither a question word nor a concrete value', () => {
    // The first and the last clause say what was asked and the value; the middle two are filler.
    const sentence =
      'The request timeout can be changed with `--timeout`, which many people find convenient in practice, as was described at length earlier in this guide, and it defaults to 30 seconds.';
    const out = compressSentence(sentence, asked('How do I change the request timeout?'));
    expect(out).toBe('The request timeout can be changed with `--timeout` … and it defaults to 30 seconds.');
  });

  it('keeps a clause that gives the reason or the condition, which answers why and when', () => {
    const sentence =
      'In debug mode the body holds the traceback so you can see what went wrong in the browser, which many people like during development, never enable it in production, because tracebacks can leak secrets.';
    const out = compressSentence(sentence, asked('Why should debug mode stay off in production?'));
    expect(out).toContain('because tracebacks can leak secrets');
    expect(out).not.toContain('many people like');
  });

  it('keeps a sentence whose every clause carries something', () => {
    const sentence = 'Set `max_num_seqs` to 256, `max_model_len` to 4096, `gpu_memory_utilization` to 0.9, and `swap_space` to 4 for the largest batches the card can hold at once.';
    expect(compressSentence(sentence, asked('which settings'))).toBe(sentence);
  });

  it('only removes: every kept word is in the sentence, in order (property)', () => {
    const clause = fc.oneof(fc.constantFrom('the cache is cleared', 'a value of `16` is used', 'which is convenient', 'see above', 'when the server restarts', 'set --port'), fc.string({ maxLength: 30 }));
    fc.assert(
      fc.property(fc.array(clause, { minLength: 1, maxLength: 12 }), fc.constantFrom(', ', '; ', ': '), (clauses, separator) => {
        const sentence = clauses.join(separator);
        const out = compressSentence(sentence, asked('when is the cache cleared'));
        let at = 0;
        for (const word of out.split(/\s+/).filter((w) => w !== '…' && w !== '')) {
          const bare = word.replace(/[,;:—]$/, '');
          const found = sentence.indexOf(bare, at);
          expect(found).toBeGreaterThanOrEqual(0);
          at = found + bare.length;
        }
        expect(out.length).toBeLessThanOrEqual(sentence.length);
      }),
    );
  });
});
