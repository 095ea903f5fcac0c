import { describe, expect, it } from 'vitest';
import { formatHelp, parseFlags, type FlagSpec } from '../src/args.js';

const specs: FlagSpec[] = [
  { name: 'corpus_dir', type: 'string', required: true, description: 'dir' },
  { name: 'k', type: 'integer', min: 1, max: 100, description: 'k' },
  { name: 'json', type: 'boolean', description: 'json' },
];

describe('parseFlags', () => {
  it('accepts snake_case, kebab-case and --flag=value alike', () => {
    expect(parseFlags(['--corpus_dir', 'a', '--k', '5'], specs, 't')).toEqual({ corpus_dir: 'a', k: 5 });
    expect(parseFlags(['--corpus-dir', 'a', '--k=7', '--json'], specs, 't')).toEqual({ corpus_dir: 'a', k: 7, json: true });
    expect(parseFlags(['--corpus-dir=a=b', '--no-json'], specs, 't')).toEqual({ corpus_dir: 'a=b', json: false });
  });

  it('rejects out-of-range and malformed integers with the flag name', () => {
    expect(() => parseFlags(['--corpus_dir', 'a', '--k', '0'], specs, 't')).toThrow('--k must be at least 1');
    expect(() => parseFlags(['--corpus_dir', 'a', '--k', '101'], specs, 't')).toThrow('--k must be at most 100');
    expect(() => parseFlags(['--corpus_dir', 'a', '--k', '2.5'], specs, 't')).toThrow('--k must be a whole number');
  });

  it('rejects unknown flags, listing the valid ones', () => {
    expect(() => parseFlags(['--corpus_dir', 'a', '--kk', '1'], specs, 't')).toThrow(/Unknown flag --kk/);
    try {
      parseFlags(['--nope'], specs, 't');
    } catch (error) {
      expect((error as { hint: string }).hint).toContain('--corpus_dir, --k, --json');
    }
  });

  it('requires required flags and values', () => {
    expect(() => parseFlags([], specs, 't')).toThrow('Missing required flag --corpus_dir');
    expect(() => parseFlags(['--corpus_dir'], specs, 't')).toThrow('--corpus_dir needs a value');
    expect(() => parseFlags(['positional'], specs, 't')).toThrow('Unexpected argument "positional"');
  });

  it('takes a value that starts with dashes unless it names a flag of the command', () => {
    // A question about a command-line option is a value, whether it holds a space or names no flag of ours.
    expect(parseFlags(['--corpus_dir', '--max-model-len default'], specs, 't')).toEqual({ corpus_dir: '--max-model-len default' });
    expect(parseFlags(['--corpus_dir', '--max-model-len'], specs, 't')).toEqual({ corpus_dir: '--max-model-len' });
    // A flag of the command right after one that takes a value means the value was left out.
    for (const next of ['--k', '--json', '--no-json', '--k=3', '--corpus-dir']) {
      expect(() => parseFlags(['--corpus_dir', next], specs, 't')).toThrow('--corpus_dir needs a value');
    }
    const error = (() => {
      try {
        parseFlags(['--corpus_dir', '--k', '3'], specs, 't');
      } catch (caught) {
        return caught as { hint: string };
      }
      return undefined;
    })();
    expect(error?.hint).toContain('--corpus_dir=VALUE');
  });

  it('takes a negative number as a value, not as a flag', () => {
    expect(() => parseFlags(['--corpus_dir', 'a', '--k', '-3'], specs, 't')).toThrow('--k must be at least 1');
  });
});

describe('formatHelp', () => {
  it('shows every flag with required/default labels', () => {
    const help = formatHelp('t', 'does things', [...specs, { name: 'x', type: 'string', description: 'x', defaultLabel: '3' }], ['rag t --corpus_dir a']);
    expect(help).toContain('--corpus_dir VALUE');
    expect(help).toContain('(required)');
    expect(help).toContain('(default: 3)');
    expect(help).toContain('rag t --corpus_dir a');
  });
});

describe('suggestions for mistyped names', () => {
  it('suggests the nearest flag, and nothing for a name far from every flag', async () => {
    const { nearestName } = await import('../src/suggest.js');
    expect(nearestName('corpus_dri', ['corpus_dir', 'k', 'index_dir'])).toBe('corpus_dir');
    expect(nearestName('serach', ['search', 'serve', 'index'])).toBe('search');
    expect(nearestName('zzzzzz', ['search', 'serve', 'index'])).toBeUndefined();
    expect(() => parseFlags(['--corpus_dri', 'a'], specs, 't')).toThrow(/did you mean --corpus_dir\?/);
  });

});
describe('a positional flag', () => {
  const withQuery: FlagSpec[] = [{ name: 'query', type: 'string', required: true, positional: 'words', description: 'q' }, ...specs.slice(1)];
  const withDir: FlagSpec[] = [{ name: 'corpus_dir', type: 'string', metavar: 'DIR', required: true, positional: 'one', description: 'd' }, ...specs.slice(1)];

  it('takes the words that are not flags, joined by spaces, wherever they stand', () => {
    expect(parseFlags(['how is the cache sized?'], withQuery, 't')).toEqual({ query: 'how is the cache sized?' });
    // Unquoted words in a shell arrive one by one.
    expect(parseFlags(['how', 'is', '--k', '3', 'the', 'cache', 'sized'], withQuery, 't')).toEqual({ query: 'how is the cache sized', k: 3 });
    expect(parseFlags(['--query', 'x', '--json'], withQuery, 't')).toEqual({ query: 'x', json: true });
  });

  it('takes every word after -- as the question, flag-like or not', () => {
    expect(parseFlags(['--k', '2', '--', '--max-model-len', '--json'], withQuery, 't')).toEqual({ query: '--max-model-len --json', k: 2 });
  });

  it('refuses the flag and words together, and a question given neither way', () => {
    expect(() => parseFlags(['--query', 'a', 'b'], withQuery, 't')).toThrow('Both --query and the words "b"');
    expect(() => parseFlags(['--k', '3'], withQuery, 't')).toThrow('Missing required flag --query for `rag t` (or its words after the command)');
    expect(() => parseFlags(['  '], withQuery, 't')).toThrow('--query is empty');
  });

  it('takes one word where one is meant, and refuses more', () => {
    expect(parseFlags(['src', '--k', '2'], withDir, 't')).toEqual({ corpus_dir: 'src', k: 2 });
    // A folder with a space in its name arrives as one word when quoted.
    expect(parseFlags(['my repo'], withDir, 't')).toEqual({ corpus_dir: 'my repo' });
    expect(() => parseFlags(['src', 'docs'], withDir, 't')).toThrow('`rag t` takes one DIR, got 2: "src", "docs".');
  });

  it('says so in the help', () => {
    expect(formatHelp('t', 'test', withQuery, [])).toContain('(required; or as the words after the command)');
  });
});
