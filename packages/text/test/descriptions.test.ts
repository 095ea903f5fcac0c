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

  it('counts the lines of a chunk that starts inside a docstring as code', () => {
    const tail = 'the rest of a sentence cut here\nand another line of it\n"""\nreturn 1\n';
    expect(readsAsDescription(tail)).toBe(false);
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
