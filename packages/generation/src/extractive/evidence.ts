import type { AnswerKind } from '../answer-kind.js';
import type { TextUnit } from './units.js';

/** An assignment, annotated field or keyword default that gives a value: `x = 16`, `x: int = 16`, `f(x=None)`. */
const ASSIGNS = /(^|[\s(,])[A-Za-z_][\w.]*\s*(:\s*[^=\n]{1,60})?=(?!=)\s*[^\s=]/;
/** A lookup with a fallback: `d.get(k, 5)`, `getattr(o, "x", False)`, `os.environ.get("X", "1")`. */
const FALLBACK = /\b(get|getattr|pop|setdefault|getenv)\(\s*[^()]+,\s*[^()]+\)/;
/** A literal value on the right of `=`: a number, string, container, None/True/False. */
const LITERAL_VALUE = /=(?!=)\s*(-?\d|["'[({]|None\b|True\b|False\b)/;
const RAISES = /\b(raise|except)\b/;
const COMMAND = /^\s*(\$\s|pip3? |python3? |uv |git |docker |export |curl |npm |pnpm |[a-z][\w-]* --[a-z])/;
const IMPERATIVE = /^(run|use|set|pass|add|install|call|create|enable|disable|start|launch|configure|specify|put|write|import)\b/i;
const SEQUENCE_LITERAL = /[[({]\s*("[^"]*"|'[^']*'|[\w.]+)\s*,\s*("[^"]*"|'[^']*'|[\w.]+)/;

/**
 * Whether `unit` carries the kind of fact the question asks for (see `AnswerKind`):
 * the assignment or documented default for a default question, the `raise` for an error
 * question, the command or instruction for a how-to, a list item or table row for a list,
 * a negation or condition for yes/no, a literal for a value. `fromDocs` says whether the
 * unit comes from documentation (a code line there is usually a command or an example).
 */
export function carriesKind(unit: TextUnit, kind: AnswerKind, fromDocs: boolean): boolean {
  const text = unit.display;
  const code = unit.kind === 'code';
  switch (kind) {
    case 'default':
      return code ? ASSIGNS.test(text) || FALLBACK.test(text) : /\bdefaults?\b|\bby default\b|\bunless\b/i.test(text);
    case 'error':
      return code ? RAISES.test(text) : /\b(raises?|raised|errors?|exceptions?|fails?|throws?)\b/i.test(text);
    case 'how':
      return code ? fromDocs || COMMAND.test(text) : IMPERATIVE.test(text) || /`--?[a-z]/.test(text);
    case 'list':
      return code ? SEQUENCE_LITERAL.test(text) : unit.item === true || unit.context !== undefined || text.includes(' | ');
    case 'yesno':
      return code ? /\b(if not|raise|assert)\b/.test(text) : /\b(not|no|only|cannot|can't|never|unsupported|supported|must|requires?)\b/i.test(text);
    case 'value':
      return code ? LITERAL_VALUE.test(text) : /\d|`[^`]+`/.test(text);
    default:
      return false;
  }
}
