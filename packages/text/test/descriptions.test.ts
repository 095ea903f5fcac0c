import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DESCRIPTION_MAX_CODE_LINES, readsAsDescription } from '../src/index.js';

const CLASS_HEADER = `class ProgressTracker:
    """Tracks how far a long job has come.

    The tracker keeps the last few step times and estimates the time left from
    their average, so a slow start does not skew the estimate for long.
    """
`;

const ABSTRACT_METHOD = `    def resolve(self, name):
        """Find the object a dotted name refers to.

        Subclasses decide where to look; the base class only says what is asked.
        """
        raise NotImplementedError
`;

const BEHAVIOUR = `    def eta(self):
        # average of the recent steps
        if not self.steps:
            return 0.0
        per_step = sum(self.steps) / len(self.steps)
        return per_step * (self.length - self.position)
`;

const FIELDS = `class ServerArgs:
    host: str = "127.0.0.1"
    """Address to bind."""
    port: int = 8000
    """Port to listen on."""
    workers: int = 1
    """How many processes serve requests."""
    timeout: float = 30.0
    """Seconds before an idle connection is closed."""
    reload: bool = False
    """Restart when a source file changes."""
    log_level: str = "info"
    """Least severity that is logged."""
`;

const PROMPT_VALUE = `SYSTEM_PROMPT = """You are a helpful assistant.
Answer the question in one sentence and say when you are unsure.
Never invent a source; cite the file you read.
"""
`;

describe('readsAsDescription: a chunk that describes behaviour that lives elsewhere', () => {
  it('holds for a class header and an abstract method, which are mostly their docstrings', () => {
    expect(readsAsDescription(CLASS_HEADER)).toBe(true);
    expect(readsAsDescription(ABSTRACT_METHOD)).toBe(true);
  });

  it('does not hold for code with a comment, nor for fields that each carry a docstring', () => {
    expect(readsAsDescription(BEHAVIOUR)).toBe(false);
    // Six fields are six lines of code: their defaults are answers, not descriptions.
    expect(readsAsDescription(FIELDS)).toBe(false);
  });

  it('reads a triple-quoted value as code, not as a docstring', () => {
    expect(readsAsDescription(PROMPT_VALUE)).toBe(false);
  });

  it('reads the lines of a chunk that starts inside a docstring as its text, up to the closing quotes', () => {
    // The second piece of a class whose docstring was cut in two: words, the closing quotes, an attribute.
    const tail = '    the rest of a long explanation cut here, and its last line.\n\n    :param lazy: open the file on first use.\n    """\n\n    name = "filename"\n';
    expect(readsAsDescription(tail)).toBe(true);
    // The same words ending in code instead: they were never a docstring.
    expect(readsAsDescription('    x = compute(a)\n    explain the rest of it here in words\n    """\n    y = 1\n    z = 2\n    w = 3\n    v = 4\n    u = 5\n')).toBe(false);
    // A license header in comments above a module docstring: the lone quote opens.
    // (Read as a closing quote instead, the six lines of the docstring would be six lines of code.)
    const preamble = '# Copyright the authors\n# Licensed under the MIT license\n"""\nHelpers for reading the configuration\nfiles from every place a user keeps them,\nin the order they are searched:\nthe project folder, the user folder\nand the system folder, the first\none found wins.\n"""\nimport os\n';
    expect(readsAsDescription(preamble)).toBe(true);
  });

  it('is false for empty or blank text', () => {
    expect(readsAsDescription('')).toBe(false);
    expect(readsAsDescription('\n   \n')).toBe(false);
  });

  it('never holds with more code lines than the limit, whatever the docstrings around them', () => {
    const piece = fc.constantFrom('x = 1', '"""A long sentence about what this does and why."""', '# why it is so', '', 'def f():');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (lines) => {
        const codeLines = lines.filter((line) => line === 'x = 1' || line === 'def f():').length;
        if (codeLines > DESCRIPTION_MAX_CODE_LINES) expect(readsAsDescription(lines.join('\n'))).toBe(false);
      }),
    );
  });
});
