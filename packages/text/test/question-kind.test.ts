import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeCarriesKind, detectAnswerKind, QUESTION_KIND_RULES, type AnswerKind } from '../src/index.js';
import { LEADING_CLAUSE } from '../src/question-kind.js';

/** The kind the patterns alone give, every rule tried: what the `requires` words must never change. */
function kindByPatterns(question: string): AnswerKind {
  const asked = question.replace(LEADING_CLAUSE, '');
  for (const rule of QUESTION_KIND_RULES) if (rule.question.test(asked)) return rule.kind;
  return 'explain';
}

/** The development questions of this repository: real wording, every kind. */
function developmentQuestions(): string[] {
  const dir = join(import.meta.dirname, '../../../datasets/dev');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .flatMap((name) => (JSON.parse(readFileSync(join(dir, name), 'utf8')) as { rag_questions: { question: string }[] }).rag_questions.map((q) => q.question));
}

/** Question pieces that meet every rule's pattern somewhere, in upper and lower case. */
const PIECES = [
  'What', 'what', 'WHAT', 'How', 'how', 'Which', 'which', 'Where', 'When', 'Is', 'Does', 'Can', 'List', 'Name', 'In click, ', 'During training, ',
  ' is', ' are', ' does', ' do', ' I', ' you', ' the', ' default', ' DEFAULT', ' value', ' values', ' options', ' formats', ' timeout', ' many', ' long',
  ' error', ' exception', ' raised', ' fails', ' rejected', ' supported', ' available', ' order', ' in which order', ' in which file', ' defines',
  ' none', ' nothing', ' no', ' neither', ' not', " don't", ' unless', ' otherwise', ' assumed', ' given', ' set', ' passed', ' omitted', ' missing',
  ' happens', ' return', ' returned', ' if', ' when', ' computed', ' derived', ' decide', ' tell', ' steps to', ' command for', ' change', ' pick',
  ' names', ' gives', ' headers', ' characters', ' three', ' İS', ' ſet', ' K', '?', ',', ' ',
];

describe('QUESTION_KIND_RULES requires', () => {
  it('never changes the kind of a development question', () => {
    const questions = developmentQuestions();
    expect(questions.length).toBeGreaterThan(500);
    for (const question of questions) expect(detectAnswerKind(question), question).toBe(kindByPatterns(question));
  });

  it('never changes the kind of any question made of the patterns\' words', () => {
    const question = fc.array(fc.constantFrom(...PIECES), { maxLength: 14 }).map((pieces) => pieces.join(''));
    fc.assert(
      fc.property(question, (q) => detectAnswerKind(q) === kindByPatterns(q)),
      { numRuns: 3000 },
    );
  });
});

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
    ['What happens when the residual is None?', 'consequence'],
    ['What does the parser return if the input is empty?', 'consequence'],
    // "When does X happen?" asks for the condition: the branch that opens then answers it.
    ['When does the serializer compress its payload?', 'consequence'],
    ['When are credentials dropped from a redirected request?', 'consequence'],
    // A "when" clause that sets the scene is not the question.
    ['When a file is missing, which exception is raised?', 'error'],
    // A plural subject agreeing with its verb asks for several things, whatever the noun.
    ['Which characters are replaced when text is escaped?', 'list'],
    ['What unit names are used for binary sizes?', 'list'],
    ['Which headers were sent with the request?', 'list'],
    // "What are the <things>", "What three <things>": several things, however the sentence goes on.
    ['What are all the registered connector names?', 'list'],
    ['What are the system requirements for running it on a TPU?', 'list'],
    ['What three requirements must a custom model meet?', 'list'],
    // An order is a sequence of things: "in what order are the keys tried?"
    ['In what order are the candidate encodings tried?', 'list'],
    ['When unsigning, in which order are the signers tried?', 'list'],
    ['What are the default values of the two thresholds?', 'default'],
    ['What is the main configuration object?', 'explain'],
    // A singular subject, or "do" that belongs to a pronoun, does not.
    ['What flag do I pass to enable TLS?', 'explain'],
    ['Which encoding is used for headers?', 'explain'],
    ['What should you do after a failed build?', 'explain'],
    // How a value is computed or a decision made: the computation answers.
    ['How is the module name of a compiled template derived from its name?', 'mechanism'],
    ['How does the loader tell whether a cached template is stale?', 'mechanism'],
    ['How does the server handle slow clients?', 'explain'],
    ['What value is passed for ngroups when has_groups is False?', 'value'],
  ])('%s → %s', (question, kind) => {
    expect(detectAnswerKind(question)).toBe(kind);
  });

  it.each([
    ['In click, where is pass_context implemented?', 'where'],
    ['Using the OpenAI-compatible server, how do I pass extra parameters?', 'how'],
    ['During training, is the cache kept?', 'yesno'],
    ['With requests, what is the default timeout?', 'default'],
  ])('reads the question after a leading clause: %s → %s', (question, kind) => {
    // The clause sets the scene; the rules look for the question's first words after it.
    expect(detectAnswerKind(question)).toBe(kind);
  });

  it.each([
    ['Which port does the server bind when none is given?', 'default'],
    ['Which encoding is used when no charset header is passed?', 'default'],
    ['What status does a reply get when the caller names neither?', 'default'],
    ['How are slashes treated unless configured otherwise?', 'default'],
    ['What text encoding is assumed for a bare response?', 'default'],
    ['Which timeout applies unless you override it?', 'default'],
    ['What separator is used when I do not choose one?', 'default'],
    ["Which log level does the worker use if the caller doesn't set it?", 'default'],
    // Not about a value someone leaves out: what happens under a condition.
    ['What happens unless the lock is released?', 'consequence'],
    ['Why does the build fail when I do not install the headers?', 'error'],
    // A place, a how-to or a list says more about the answer's shape than "when none is given".
    ['Where is the cache kept when no folder is given?', 'where'],
    ['How do I pick a port when none is set?', 'how'],
    ['Which variables configure proxies when none are passed?', 'list'],
    // "no" that is not about a missing value.
    ['Why is no retry attempted after a timeout?', 'explain'],
  ])('reads a default asked without the word: %s → %s', (question, kind) => {
    expect(detectAnswerKind(question)).toBe(kind);
  });

  it.each([
    // An error, a default, a list or a value asked as "what happens" keeps that form.
    ['What happens when the upload fails?', 'error'],
    ['What happens when no timeout is given?', 'default'],
    ['What happens to values that are not allowed?', 'list'],
    // Only the question's opening decides: a "what happens" clause later on does not.
    ['Why does nothing happen when the lock is released?', 'explain'],
  ])('reads "what happens" after the more telling forms: %s → %s', (question, kind) => {
    expect(detectAnswerKind(question)).toBe(kind);
  });

  it('keeps a question that starts with "in which …" whole', () => {
    expect(detectAnswerKind('In which module is the parser defined?')).toBe('where');
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
    // Handing a name on gives no value: the keyword argument passed through, the parameter stored.
    ['fp8_min=fp8_min,', 'default', false],
    ['self.timeout = timeout', 'default', false],
    ['self.timeout = timeout or 30', 'default', true],
    ['FORMATS = ("json", "yaml")', 'list', true],
    ['if not ok:\n    return', 'yesno', true],
    ['size = 16', 'value', true],
    ['if shape.count(-1) > 1:', 'consequence', true],
    ['except KeyError:', 'consequence', true],
    ['x = 1\nwhile pending:\n    step()', 'consequence', true],
    ['return hidden', 'consequence', false],
    // What happens when a condition fails is often an exception raised under it.
    ['raise StreamBufferFullError("Reached maximum read buffer size")', 'consequence', true],
    ['error = raise_for_status', 'consequence', false],
    // A computed value given back or assigned; a bare name, None or a literal computes nothing.
    ['return "tmpl_" + sha1(name.encode("utf-8")).hexdigest()', 'mechanism', true],
    ['limit = days * 24 * 3600 + seconds', 'mechanism', true],
    ['return None', 'mechanism', false],
    ['return value', 'mechanism', false],
    ['size = 16', 'mechanism', false],
    ['def where(): pass', 'where', false],
    ['pip install x', 'how', false],
  ] as const)('%j carries %s: %s', (code, kind, expected) => {
    expect(codeCarriesKind(code, kind)).toBe(expected);
  });
});
