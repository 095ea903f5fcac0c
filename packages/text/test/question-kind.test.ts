import { describe, expect, it } from 'vitest';
import { codeCarriesKind, detectAnswerKind } from '../src/index.js';

describe('detectAnswerKind', () => {
  it.each([
    ['What is the default value of max_tokens?', 'default'],
    ['Which exception is raised when the file is missing?', 'error'],
    ['Where is the retry policy implemented?', 'where'],
    ['How do I enable prefix caching?', 'how'],
    ['Is HTTP/2 supported?', 'yesno'],
    ['Which formats are supported?', 'list'],
    ['How many connections does the pool keep?', 'value'],
    ['Why are blocks hashed?', 'explain'],
  ])('%s → %s', (question, kind) => {
    expect(detectAnswerKind(question)).toBe(kind);
  });
});

describe('codeCarriesKind', () => {
  it.each([
    ['raise ValueError("bad")', 'error', true],
    ['except KeyError:\n    pass', 'error', true],
    ['return value', 'error', false],
    ['timeout: float = 5.0', 'default', true],
    ['os.environ.get("X", "1")', 'default', true],
    ['return compute(x)', 'default', false],
    ['FORMATS = ("json", "yaml")', 'list', true],
    ['if not ok:\n    return', 'yesno', true],
    ['size = 16', 'value', true],
    ['def where(): pass', 'where', false],
    ['pip install x', 'how', false],
  ] as const)('%j carries %s: %s', (code, kind, expected) => {
    expect(codeCarriesKind(code, kind)).toBe(expected);
  });
});
