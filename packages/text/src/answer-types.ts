/**
 * The type of value a question's focus asks for — "which content type", "which environment
 * variable", "which flag", "which status code", "which encoding", "how often", "which
 * version" — and how a value of that type is spelled in a sentence or a line of code. A
 * chunk or a line that spells one is the likelier answer: retrieval lifts such chunks
 * (bm25's `rerank.answerType`, from bits computed when the index is built), the extractive
 * generator such lines. Written from how the values look, never from a question set; what
 * each rule changed on the development sets is in docs/retrieval.md ("Answer types").
 */
export type AnswerType = 'mime' | 'envvar' | 'flag' | 'status' | 'encoding' | 'duration' | 'version';

export interface AnswerTypeRule {
  type: AnswerType;
  /** Matched against the question: its focus names the type. */
  question: RegExp;
  /**
   * Tested against a sentence, a line or a chunk (`test`, not `exec`: what it matches need
   * not be the whole value): it spells a value of the type. Every chunk of an index is tested
   * against every rule, so a rule whose value holds a fixed character is written to start
   * there (`/` of a MIME type, `-` of a flag) and look behind for the rest: the engine then
   * skips to that character instead of trying an alternation at every position.
   */
  value: RegExp;
}

/** The rules, in the order their bits are stored (an index records which order it used). */
export const ANSWER_TYPE_RULES: readonly AnswerTypeRule[] = Object.freeze([
  // "application/json", "text/html; charset=utf-8".
  { type: 'mime', question: /\b(content|media|mime)[ -]types?\b/i, value: /\/(?<=\b(?:application|text|image|audio|video|multipart)\/)[\w.+-]/i },
  { type: 'envvar', question: /\benvironment variables?\b|\benv vars?\b/i, value: /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/ },
  // "--max-model-len", "-p": a dash that starts the text or follows a space, quote or parenthesis.
  { type: 'flag', question: /\b(flags?|command[- ]line options?|cli options?)\b/i, value: /-(?<=(?:^|[\s`'"(])-)-?[a-z]/ },
  // An HTTP status; a process's exit status is not one.
  { type: 'status', question: /(?<!\bexit )\bstatus( codes?)?\b|\bhttp codes?\b/i, value: /\b[1-5]\d\d\b/ },
  { type: 'encoding', question: /\b(encodings?|charsets?|codecs?)\b/i, value: /\b(utf-?(8|16|32)|ascii|latin-?1|iso-8859-\d+|cp\d{3,4})\b/i },
  // A duration: a number with its unit, or the call that waits or measures one. Not for
  // "timeout" or "delay": those are asked as defaults, whose values are mostly bare numbers
  // (`timeout: int = 10000`); reading them as durations moved no development question and
  // reordered a public one's sources.
  {
    type: 'duration',
    question: /\bhow (often|long)\b|\b(interval|period|frequency|lifetime|expir\w*)\b/i,
    // A number that starts a word, then its unit; or `sleep(`, `timedelta(` (from the `(`).
    value: /\d(?<=\b\d)\d*(\.\d+)?\s*(ms|milliseconds?|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?)\b|\((?<=\b(?:sleep|timedelta)\()/i,
  },
  // A release: two or three dotted numbers ("Bash 4.4 and up", "versionadded:: 2.1").
  { type: 'version', question: /\bversions?\b/i, value: /\b\d+\.\d+(\.\d+)?\b/ },
]);

/** The answer types `question` asks for (usually none or one). */
export function answerTypesOf(question: string): AnswerType[] {
  return ANSWER_TYPE_RULES.filter((rule) => rule.question.test(question)).map((rule) => rule.type);
}

const VALUE_OF: ReadonlyMap<AnswerType, RegExp> = new Map(ANSWER_TYPE_RULES.map((rule) => [rule.type, rule.value]));

/** Whether `text` spells a value of `type`. */
export function spellsAnswerType(text: string, type: AnswerType): boolean {
  return VALUE_OF.get(type)!.test(text);
}
