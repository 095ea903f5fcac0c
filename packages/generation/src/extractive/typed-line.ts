import { spellsAnswerType, type AnswerType } from '@rag/text';
import type { ScoredUnit } from './score.js';

/**
 * How many of the best sources are searched for a line that spells the asked type of value:
 * the best two (a code hit and the neighbour or docs page beside it). Past them a line that
 * spells, say, a status code is mostly about something else.
 */
export const TYPED_LINE_SOURCES = 2;

/**
 * A code line that does something with a value: assigns it, passes it to a call, returns or
 * raises it (`code = 308`, `Response(status=308)`, `return "ISO-8859-1"`). A bare literal
 * (`308,`, one item of a set spread over lines) says nothing about what the value is for.
 */
const VALUE_STATEMENT = /[A-Za-z_]\w*\s*(=|\()|\b(return|raise)\b/;

/**
 * The code line of the best {@link TYPED_LINE_SOURCES} sources that states a value of a type
 * the question asks for (`types`, see `answerTypesOf`: a status code, an encoding, a MIME
 * type, a duration, …) without sharing a word with the question; the best-ranked source's
 * first such line, or undefined. Scoring reaches only lines that repeat the question's words,
 * and the line with the value often repeats none: "which HTTP status does the redirect use?"
 * is answered by `code = 308`.
 */
export function findTypedValueLine(units: readonly ScoredUnit[], types: readonly AnswerType[]): ScoredUnit | undefined {
  if (types.length === 0) return undefined;
  let found: ScoredUnit | undefined;
  for (const unit of units) {
    if (unit.matched > 0 || unit.unit.kind !== 'code' || unit.sourceIndex >= TYPED_LINE_SOURCES) continue;
    if (found && found.sourceIndex <= unit.sourceIndex) continue;
    const line = unit.unit.display;
    if (VALUE_STATEMENT.test(line) && types.some((type) => spellsAnswerType(line, type))) found = unit;
  }
  return found;
}
