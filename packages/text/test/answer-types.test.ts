import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ANSWER_TYPE_RULES, answerTypesOf, spellsAnswerType } from '../src/index.js';

describe('answer types', () => {
  it.each([
    ['Which content type does a JSON body get?', 'text/plain', true],
    ['Which environment variable sets the log level?', 'export LOG_LEVEL=debug', true],
    ['Which flag turns the reloader on?', 'pass `--reload` to the serve command', true],
    ['Which status code does a redirect use?', 'code = 308', true],
    ['Which encoding is assumed?', 'falls back to utf-8', true],
    ['How often is the report sent?', 'Report usage every 10 minutes.', true],
    ['How long does a session last?', 'lifetime = timedelta(days=31)', true],
    ['Which Bash versions are too old?', 'supported for Bash 4.4 and up', true],
    ['Which flag turns the reloader on?', 'the reloader watches files', false],
    ['How often is the report sent?', 'The report lists 10 fields.', false],
    ['Why is the body form-encoded?', 'application/json', false],
  ])('%s spelled in "%s" → %s', (question, text, typed) => {
    expect(answerTypesOf(question).some((type) => spellsAnswerType(text, type))).toBe(typed);
  });

  it('reads no type from a question whose focus names none', () => {
    expect(answerTypesOf('Why is the body form-encoded?')).toEqual([]);
    expect(answerTypesOf('Which flag sets how long a session lasts?')).toEqual(['flag', 'duration']);
    // An exit status is no HTTP status; a timeout is asked as a default, not as a duration.
    expect(answerTypesOf('Which exit status does a usage error give?')).toEqual([]);
    expect(answerTypesOf('What is the default timeout?')).toEqual([]);
  });

  it('has one rule per type, in a fixed order (an index stores their bits in it)', () => {
    expect(ANSWER_TYPE_RULES.map((rule) => rule.type)).toEqual(['mime', 'envvar', 'flag', 'status', 'encoding', 'duration', 'version']);
  });

  it('spells a MIME type and a flag exactly where the plain forms of their patterns match', () => {
    // The plain forms the rules were first written in: the rules start at their fixed
    // character instead (see `AnswerTypeRule.value`), and must match the same texts.
    const plain = { mime: /\b(application|text|image|audio|video|multipart)\/[\w.+-]+/i, flag: /(^|[\s`'"(])--?[a-z][\w-]*/ } as const;
    const pieces = ['application', 'Text', 'image', 'xaudio', 'multipart', 'json', '/', '-', '--', 'p', 'P', '.', '+', '_', ' ', '`', "'", '"', '(', 'a', '\n', 'é'];
    const texts = fc.array(fc.constantFrom(...pieces), { maxLength: 10 }).map((chosen) => chosen.join(''));
    fc.assert(
      fc.property(texts, (text) => {
        for (const type of ['mime', 'flag'] as const) expect(spellsAnswerType(text, type)).toBe(plain[type].test(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('spells a duration exactly where the plain form of its pattern matches', () => {
    // The plain form: the rule starts at the digit or the `(` instead (see `AnswerTypeRule.value`).
    const plain = /\b\d+(\.\d+)?\s*(ms|milliseconds?|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?)\b|\b(sleep|timedelta)\(/i;
    const pieces = ['1', '25', '.', '5', ' ', 'ms', 'S', 'sec', 'seconds', 'min', 'h', 'hours', 'days', 'weeks', 'x', '_', 'a1', 'sleep', 'timedelta', 'Time.sleep', '(', ')', '\n', 'é'];
    const texts = fc.array(fc.constantFrom(...pieces), { maxLength: 10 }).map((chosen) => chosen.join(''));
    fc.assert(
      fc.property(texts, (text) => {
        expect(spellsAnswerType(text, 'duration')).toBe(plain.test(text));
      }),
      { numRuns: 5000 },
    );
  });
});
