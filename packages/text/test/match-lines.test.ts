import { describe, expect, it } from 'vitest';
import { markTerms, matchLines } from '../src/index.js';

const span = ['def run(self, host=None, port=None):', '    """Serve forever."""', '', '    # TCP port the server listens on.', '    port = port or DEFAULT_PORT', '    serve(self, host, port)'].join('\n');

describe('matchLines', () => {
  it('shows the line with the most query terms, with one line of context each side', () => {
    // Line 3 holds "TCP", "port", "server" and "listen": more of the question than the others.
    expect(matchLines(span, 'Which TCP port does the server listen on?')).toEqual([
      { line: 2, text: '', matches: false },
      { line: 3, text: '    # TCP port the server listens on.', matches: true },
      { line: 4, text: '    port = port or DEFAULT_PORT', matches: true },
    ]);
  });

  it('matches through the search tokenizer (identifiers split, stemming) and cuts long lines', () => {
    expect(matchLines('x = 1\nmax_num_seqs = 256', 'maximum num seqs', { context: 0 })).toEqual([{ line: 1, text: 'max_num_seqs = 256', matches: true }]);
    expect(matchLines(`port ${'x'.repeat(300)}`, 'port', { maxLineLength: 20 })[0]!.text).toHaveLength(20);
  });

  it('is empty when no line holds a query term', () => {
    expect(matchLines(span, 'quaternion normalisation')).toEqual([]);
    expect(matchLines(span, 'the of a')).toEqual([]);
  });
});

describe('markTerms', () => {
  it('wraps whole words that yield a query term', () => {
    expect(markTerms('    port = port or DEFAULT_PORT', 'default port', (w) => `[${w}]`)).toBe('    [port] = [port] or [DEFAULT_PORT]');
    expect(markTerms('nothing here', 'port', (w) => `[${w}]`)).toBe('nothing here');
  });
});
