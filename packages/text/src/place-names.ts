import { DEFAULT_QUESTION_WORDS } from './word-lists/question-words.js';
import { PLACE_QUERY_WORDS } from './word-lists/place-words.js';
import { DEFAULT_STOPWORDS } from './word-lists/stopwords.js';

/** Most adjacent words joined into one name ("sandboxed environment" → `SandboxedEnvironment`). */
export const MAX_JOINED_WORDS = 3;

/** Words that end a run: a name is not spelled across "the", "of", "is". */
const FUNCTION_WORDS = new Set([...DEFAULT_STOPWORDS, ...DEFAULT_QUESTION_WORDS]);
/** Words the rest of the question may hold: function words and place words. */
const IGNORABLE = new Set([...FUNCTION_WORDS, ...PLACE_QUERY_WORDS]);
const WORD = /[A-Za-z_][A-Za-z0-9_]*/g;

/**
 * The names a question asks for the place of in plain words: a run of two or three adjacent
 * words (no function word among them) joined the ways Python names things
 * (`SandboxedEnvironment`, `sandboxed_environment`), when every other word of the question
 * is a function word or a place word (`PLACE_QUERY_WORDS`). Callers ask only of place
 * questions; the names of a run that has no definition match nothing. "Where is the sandboxed environment implemented?" names the class;
 * "Where is the HTTP response status line parsed?" asks for an action ("parsed") on a
 * response, so the joined `HTTPResponse` is not what it asks for and no name is returned.
 */
export function namesSpelledInWords(question: string): string[] {
  const words = question.match(WORD) ?? [];
  const ignorable = words.map((word) => IGNORABLE.has(word.toLowerCase()));
  const functional = words.map((word) => FUNCTION_WORDS.has(word.toLowerCase()));
  const names: string[] = [];
  for (let start = 0; start < words.length; start++) {
    for (let n = 2; n <= MAX_JOINED_WORDS && start + n <= words.length; n++) {
      const run = words.slice(start, start + n);
      if (functional.slice(start, start + n).some(Boolean)) break;
      const rest = ignorable.filter((_, i) => i < start || i >= start + n);
      if (!rest.every(Boolean)) continue;
      names.push(run.map((word) => word[0]!.toUpperCase() + word.slice(1)).join(''), run.map((word) => word.toLowerCase()).join('_'));
    }
  }
  return names;
}
