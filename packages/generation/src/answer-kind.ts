import { detectAnswerKind, QUESTION_KIND_RULES, type AnswerKind } from '@rag/text';

// The question side (which kind of answer a question asks for) lives in @rag/text, shared
// with retrieval; what an LLM is told about each kind's form lives here.
export { detectAnswerKind, type AnswerKind };

export interface AnswerKindRule {
  kind: Exclude<AnswerKind, 'explain'>;
  /** Matched against the question; the first rule that matches decides. */
  question: RegExp;
  /** Told to an LLM about the answer's form. */
  instruction: string;
}

const INSTRUCTIONS: Readonly<Record<AnswerKindRule['kind'], string>> = Object.freeze({
  default: 'Start with the default value itself, as the code or docs write it, and where it is set.',
  error: 'Start with the exception or error that is raised, then the condition that raises it.',
  where: 'Start with the place: the file and the function or class, then what it does there.',
  how: 'Start with the command, setting or call to use, then at most a few steps.',
  yesno: 'Start with yes or no, then the condition or limit that decides it.',
  list: 'Start with the list itself, one item per entry, as the sources spell them.',
  value: 'Start with the value itself, with its unit, as the sources write it.',
  mechanism: 'Start with how it is done: the computation, check or rule as the code or docs write it.',
  consequence: 'Start with what happens (the value returned, the error raised, the step taken) and the condition under which it does, as the sources write them.',
});

/** The question rules of @rag/text (most specific first), each with its instruction for an LLM. */
export const ANSWER_KIND_RULES: readonly AnswerKindRule[] = Object.freeze(QUESTION_KIND_RULES.map((rule) => ({ ...rule, instruction: INSTRUCTIONS[rule.kind] })));

/** The one-line instruction about the answer's form for an LLM; '' for `explain`. */
export function answerKindInstruction(kind: AnswerKind): string {
  return kind === 'explain' ? '' : INSTRUCTIONS[kind];
}
