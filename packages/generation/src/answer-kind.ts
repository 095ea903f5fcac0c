/**
 * What form a question's answer takes, read from the question's wording: a default value,
 * an error and when it is raised, a place in the code, steps or a command, a list, a yes or
 * no with its condition, a single value, or (anything else) an explanation. Both generators
 * use it: the extractive one prefers the sentences and lines that carry that kind of fact,
 * the LLM gets a one-line instruction about the answer's form. English question forms
 * only; nothing here names a project.
 */
export type AnswerKind = 'default' | 'error' | 'where' | 'how' | 'list' | 'yesno' | 'value' | 'explain';

export interface AnswerKindRule {
  kind: Exclude<AnswerKind, 'explain'>;
  /** Matched against the question; the first rule that matches decides. */
  question: RegExp;
  /** Told to an LLM about the answer's form. */
  instruction: string;
}

/**
 * The rules, most specific first: "what is the default timeout" is a default question
 * before it is a value question, "which error is raised" an error question before a list.
 */
export const ANSWER_KIND_RULES: readonly AnswerKindRule[] = Object.freeze([
  {
    kind: 'default',
    question: /\bdefaults?\b|\bdefault(ed)? (value|setting)\b|\bwhen (it is |they are )?(omitted|absent|missing|not (given|set|specified|provided|passed))\b|\bif (it is |they are )?(omitted|absent|missing|not (given|set|specified|provided|passed))\b/i,
    instruction: 'Start with the default value itself, as the code or docs write it, and where it is set.',
  },
  {
    kind: 'error',
    question: /\b(exceptions?|errors?|raises?|raised|throws?|thrown|fails?|failure|rejected|refused)\b/i,
    instruction: 'Start with the exception or error that is raised, then the condition that raises it.',
  },
  {
    kind: 'where',
    question: /^\s*where\b|\bin which (file|module|class|function|method|package)\b|\bwhich (file|module|class|function|method) (defines|implements|contains|handles|holds|sets)\b/i,
    instruction: 'Start with the place: the file and the function or class, then what it does there.',
  },
  {
    kind: 'how',
    question: /^\s*how (do|can|should|would|could) (i|we|you|one|users?)\b|^\s*how to\b|\b(steps|command|commands) (to|for)\b/i,
    instruction: 'Start with the command, setting or call to use, then at most a few steps.',
  },
  {
    kind: 'yesno',
    question: /^\s*(is|are|can|could|does|do|did|should|may|will|must|has|have)\b/i,
    instruction: 'Start with yes or no, then the condition or limit that decides it.',
  },
  {
    kind: 'list',
    question: /\b(supported|available|allowed|accepted|valid|possible)\b|^\s*(list|name)\b|^\s*(which|what)\s+(\w+\s+){0,2}(options|values|formats|types|kinds|modes|backends|methods|platforms|architectures|flags|variables|fields|parameters|arguments|strings|answers|versions)\b/i,
    instruction: 'Start with the list itself, one item per entry, as the sources spell them.',
  },
  {
    kind: 'value',
    question: /^\s*what (is|are) the (\w+\s+){0,3}(value|size|number|length|limit|type|unit|name|format|path|port|version|timeout|rate|width|threshold|shape)s?\b|\bhow (many|much|long|large|big|often|wide)\b/i,
    instruction: 'Start with the value itself, with its unit, as the sources write it.',
  },
]);

/** The kind of answer `question` asks for; `explain` when no rule matches. */
export function detectAnswerKind(question: string): AnswerKind {
  for (const rule of ANSWER_KIND_RULES) if (rule.question.test(question)) return rule.kind;
  return 'explain';
}

/** The one-line instruction about the answer's form for an LLM; '' for `explain`. */
export function answerKindInstruction(kind: AnswerKind): string {
  return ANSWER_KIND_RULES.find((rule) => rule.kind === kind)?.instruction ?? '';
}
