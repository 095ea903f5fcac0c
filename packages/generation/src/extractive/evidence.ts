import { codeCarriesKind, type AnswerKind } from '@rag/text';
import type { TextUnit } from './units.js';

const COMMAND = /^\s*(\$\s|pip3? |python3? |uv |git |docker |export |curl |npm |pnpm |[a-z][\w-]* --[a-z])/;
const IMPERATIVE = /^(run|use|set|pass|add|install|call|create|enable|disable|start|launch|configure|specify|put|write|import)\b/i;

/**
 * Whether `unit` carries the kind of fact the question asks for (see `AnswerKind`):
 * the assignment or documented default for a default question, the `raise` for an error
 * question, the command or instruction for a how-to, a list item or table row for a list,
 * a negation or condition for yes/no, a literal for a value. `fromDocs` says whether the
 * unit comes from documentation (a code line there is usually a command or an example).
 */
export function carriesKind(unit: TextUnit, kind: AnswerKind, fromDocs: boolean): boolean {
  const text = unit.display;
  if (unit.kind === 'code') return kind === 'how' ? fromDocs || COMMAND.test(text) : codeCarriesKind(text, kind);
  switch (kind) {
    case 'default':
      return /\bdefaults?\b|\bby default\b|\bunless\b/i.test(text);
    case 'error':
      return /\b(raises?|raised|errors?|exceptions?|fails?|throws?)\b/i.test(text);
    case 'how':
      return IMPERATIVE.test(text) || /`--?[a-z]/.test(text);
    case 'list':
      return unit.item === true || unit.context !== undefined || text.includes(' | ');
    case 'yesno':
      return /\b(not|no|only|cannot|can't|never|unsupported|supported|must|requires?)\b/i.test(text);
    case 'value':
      return /\d|`[^`]+`/.test(text);
    default:
      return false;
  }
}

/**
 * A type of value a question's focus can ask for ("which content type", "which environment
 * variable", "which flag"), and how such a value is spelled in a sentence or a line: the
 * unit that spells one is the likelier answer. Written from how the values look, not from
 * any question set. Measured on the development answer sets (`pnpm bench:answers`): the
 * content-type, flag and duration rows each answered one more question, the other three
 * none more and none less; a URL row (`https?://`) lost one and a size row (`64 MB`)
 * changed nothing, and neither is here.
 */
interface AnswerType {
  question: RegExp;
  value: RegExp;
}

const ANSWER_TYPES: readonly AnswerType[] = [
  { question: /\b(content|media|mime)[ -]types?\b/i, value: /\b(application|text|image|audio|video|multipart)\/[\w.+-]+/i },
  { question: /\benvironment variables?\b|\benv vars?\b/i, value: /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/ },
  { question: /\b(flags?|command[- ]line options?|cli options?)\b/i, value: /(^|[\s`'"(])--?[a-z][\w-]*/ },
  { question: /\bstatus( codes?)?\b|\bhttp codes?\b/i, value: /\b[1-5]\d\d\b/ },
  { question: /\b(encodings?|charsets?|codecs?)\b/i, value: /\b(utf-?(8|16|32)|ascii|latin-?1|iso-8859-\d+|cp\d{3,4})\b/i },
  // A duration: a number with its unit, or the call that waits or measures one.
  { question: /\bhow (often|long)\b|\b(timeout|interval|period|frequency|delay|lifetime|expir\w*)\b/i, value: /\b\d+(\.\d+)?\s*(ms|milliseconds?|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?)\b|\b(sleep|timedelta)\(/i },
];

/** The value patterns of the answer types `question` asks for (usually none or one). */
export function answerTypesOf(question: string): RegExp[] {
  return ANSWER_TYPES.filter((type) => type.question.test(question)).map((type) => type.value);
}
