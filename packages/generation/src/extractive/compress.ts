import { tokenize } from '@rag/text';

/**
 * Shortening a long quoted sentence to the clauses that carry something: a word of the
 * question, a concrete value (inline code, a number, a flag, a path, a name in code
 * case, a quoted string), or a reason, condition or limit. Filler clauses ("which is useful when …", "as described
 * above") give way to " … ", so a short answer keeps the facts a long sentence holds.
 */

/** Sentences up to this many characters are quoted whole. */
export const COMPRESS_FROM = 160;
/** The shortened sentence is used only when it saves at least this share of the characters. */
const MIN_SAVING = 0.2;
/** Never shorten below this many characters: a fragment that short reads as noise. */
const MIN_KEPT = 40;
/** Concrete values: what a reader acts on, and what a reference answer's facts are made of. */
const CONCRETE = /`[^`]+`|\d|(?<![\w-])--?[A-Za-z][\w-]*|[\w.~-]*\/[\w./-]+|\b\w+_\w+\b|\b[a-z]+[A-Z]\w*\b|\b[A-Z][A-Z0-9]{2,}\b|"[^"\n]{2,60}"|'[^'\n]{2,60}'/;
/**
 * A clause that gives a reason, a condition, a limit or a contrast answers "why" and "when"
 * without repeating the question's words: it carries too.
 */
const QUALIFIER = /\b(because|since|unless|if|when|whenever|otherwise|except|until|only|but|however|instead|never|not|no|cannot|must|requires?)\b/i;
/** Where a clause may end: after a comma, semicolon, colon or dash followed by a space. */
const CLAUSE_END = new Set([',', ';', ':', '—']);
const OPENERS: Readonly<Record<string, string>> = { '(': ')', '[': ']', '{': '}' };

/** The clauses of `sentence` at nesting depth 0 (nothing inside code, brackets or quotes is cut). */
export function splitClauses(sentence: string): string[] {
  const clauses: string[] = [];
  const closers: string[] = [];
  let inCode = false;
  let start = 0;
  for (let i = 0; i < sentence.length; i++) {
    const c = sentence[i]!;
    if (c === '`') inCode = !inCode;
    if (inCode) continue;
    if (OPENERS[c]) closers.push(OPENERS[c]!);
    else if (closers.length > 0 && c === closers[closers.length - 1]) closers.pop();
    else if (closers.length === 0 && CLAUSE_END.has(c) && sentence[i + 1] === ' ') {
      clauses.push(sentence.slice(start, i + 1));
      start = i + 1;
    }
  }
  clauses.push(sentence.slice(start));
  return clauses.map((clause) => clause.trim()).filter((clause) => clause.length > 0);
}

function carries(clause: string, asked: ReadonlySet<string>): boolean {
  return CONCRETE.test(clause) || QUALIFIER.test(clause) || tokenize(clause).some((term) => asked.has(term));
}

/**
 * `sentence` itself when short or when every clause carries something; otherwise its
 * carrying clauses in order, a gap marked " … ".
 */
export function compressSentence(sentence: string, asked: ReadonlySet<string>): string {
  if (sentence.length <= COMPRESS_FROM) return sentence;
  const clauses = splitClauses(sentence);
  if (clauses.length < 2) return sentence;
  const keep = clauses.map((clause) => carries(clause, asked));
  if (keep.every(Boolean) || !keep.some(Boolean)) return sentence;
  let out = '';
  let gap = false;
  clauses.forEach((clause, i) => {
    if (!keep[i]) {
      gap = true;
      return;
    }
    // A clause followed by a gap loses its trailing comma: the " … " stands for what followed.
    const piece = i + 1 < clauses.length && !keep[i + 1] ? clause.replace(/[,;:—]$/, '') : clause;
    out += out === '' ? (i > 0 ? `… ${piece}` : piece) : gap ? ` … ${piece}` : ` ${piece}`;
    gap = false;
  });
  if (gap) out = `${out.replace(/[,;:—]$/, '')} …`;
  return out.length >= MIN_KEPT && out.length <= sentence.length * (1 - MIN_SAVING) ? out : sentence;
}
