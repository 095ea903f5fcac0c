import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenize } from '@rag/text';
import { COMPRESS_CODE_FROM, COMPRESS_FROM, compressCode, compressSentence, splitClauses } from '../src/extractive/compress.js';

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

describe('compressCode', () => {
  const signature =
    'def __init__(self, model: str, tokenizer: Optional[str] = None, tokenizer_mode: str = "auto", skip_tokenizer_init: bool = False, trust_remote_code: bool = False, tensor_parallel_size: int = 1) -> None:';

  it('keeps the arguments that hold a word of the question, the rest giving way to " … "', () => {
    // Quoted whole, the signature would be cut by the answer's budget before the parameter asked about.
    expect(compressCode(signature, asked("What is the default of trust_remote_code in the LLM constructor?"))).toBe('def __init__(…, trust_remote_code: bool = False, …) -> None:');
  });

  it('keeps a statement short enough, or one whose every or no argument holds a question word', () => {
    const short = 'serve(app, host="127.0.0.1", port=8000, workers=4)';
    expect(short.length).toBeLessThanOrEqual(COMPRESS_CODE_FROM);
    expect(compressCode(short, asked('which port'))).toBe(short);
    expect(compressCode(signature, asked('how is the cache cleared'))).toBe(signature);
    const all = 'configure(port_a=1, port_b=2, port_c=3, port_d=4, port_e=5, port_f=6, port_g=7, port_h=8, port_i=9, port_j=10, port_k=11, port_l=12)';
    expect(compressCode(all, asked('which port'))).toBe(all);
  });

  it('never splits inside strings or nested brackets, and keeps a list cut off before its closer open', () => {
    const call = 'register("alpha, beta", {"gamma": [1, 2]}, handler=on_gamma_event_received_from_upstream, retries=3, timeout_seconds=30.0, backoff=exponential(2, 60)';
    expect(call.length).toBeGreaterThan(COMPRESS_CODE_FROM);
    expect(compressCode(call, asked('how many retries'))).toBe('register(…, retries=3, …');
  });

  it('only removes: every kept piece is in the statement, in order (property)', () => {
    const argument = fc.oneof(fc.constantFrom('timeout=30', 'retries=3', '"a, b"', 'x[1, 2]', 'f(y, z)', 'name: str = "cache"'), fc.stringMatching(/^[a-z_]{1,12}$/));
    fc.assert(
      fc.property(fc.array(argument, { minLength: 1, maxLength: 16 }), (args) => {
        const code = `call(${args.join(', ')})`;
        const out = compressCode(code, asked('what timeout and cache name'));
        let at = 0;
        for (const piece of out.split(/, |\(|\)/).filter((p) => p !== '…' && p !== '')) {
          const found = code.indexOf(piece, at);
          expect(found).toBeGreaterThanOrEqual(0);
          at = found + piece.length;
        }
        expect(out.length).toBeLessThanOrEqual(code.length);
      }),
    );
  });
});
