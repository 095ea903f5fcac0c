import { codeCarriesKind, type AnswerKind } from '@rag/text';
import { isListPiece, type TextUnit } from './units.js';

const COMMAND = /^\s*(\$\s|pip3? |python3? |uv |git |docker |export |curl |npm |pnpm |[a-z][\w-]* --[a-z])/;
/**
 * A sentence that tells the reader what doing something brings: "If you click on the header,
 * the view switches to …". (Wider forms — "To enable X, …", "you can …" — were measured:
 * they lost more public docs answers than they gained development ones.)
 */
const READER_STEP = /^if you\b/i;
const IMPERATIVE = /^(run|use|set|pass|add|install|call|create|enable|disable|start|launch|configure|specify|put|write|import)\b/i;

/**
 * Whether `unit` carries the kind of fact the question asks for (see `AnswerKind`):
 * the assignment or documented default for a default question, the `raise` for an error
 * question, the command or instruction for a how-to, a list item or table row for a list,
 * a negation or condition for yes/no, a literal for a value, a branch or a conditional
 * sentence for what happens under a condition, a line that computes a value for how
 * something is computed or decided. `fromDocs` says whether the
 * unit comes from documentation (a code line there is usually a command or an example).
 */
export function carriesKind(unit: TextUnit, kind: AnswerKind, fromDocs: boolean): boolean {
  const text = unit.display;
  // A docs code line is a step to take, unless a program printed it (a session's output).
  if (unit.kind === 'code') return kind === 'how' ? (fromDocs && unit.output !== true) || COMMAND.test(text) : codeCarriesKind(text, kind);
  switch (kind) {
    case 'default':
      return /\bdefaults?\b|\bby default\b|\bunless\b/i.test(text);
    case 'error':
      return /\b(raises?|raised|errors?|exceptions?|fails?|throws?)\b/i.test(text);
    case 'how':
      return IMPERATIVE.test(text) || /`--?[a-z]/.test(text) || READER_STEP.test(text);
    case 'list':
      return isListPiece(unit);
    case 'yesno':
      return /\b(not|no|only|cannot|can't|never|unsupported|supported|must|requires?)\b/i.test(text);
    case 'value':
      return /\d|`[^`]+`/.test(text);
    case 'consequence':
      return /\b(if|when|whenever|unless|otherwise)\b/i.test(text);
    case 'mechanism':
      // Prose says how in too many ways ("by", "using", "checks"): as carriers they lost a
      // development answer for every one they gained.
      return false;
    default:
      return false;
  }
}

