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

/** Code statements up to this many characters are quoted whole. */
export const COMPRESS_CODE_FROM = 120;
/** Fewest arguments or items a bracketed list needs before some may give way to " … ". */
const MIN_ARGUMENTS = 4;
const CLOSERS = new Set([')', ']', '}']);

/** The depth-1 pieces of the first bracketed list of `code`: its opener's index, its closer's (or -1 when cut off), and the comma-separated pieces. */
function firstArgumentList(code: string): { open: number; close: number; pieces: string[] } | undefined {
  let depth = 0;
  let quote = '';
  let open = -1;
  let pieceStart = 0;
  const pieces: string[] = [];
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      continue;
    }
    if (OPENERS[c]) {
      depth++;
      if (depth === 1 && open < 0) {
        open = i;
        pieceStart = i + 1;
      }
      continue;
    }
    if (CLOSERS.has(c)) {
      depth--;
      if (depth === 0 && open >= 0) {
        pieces.push(code.slice(pieceStart, i));
        return { open, close: i, pieces };
      }
      continue;
    }
    if (c === ',' && depth === 1 && open >= 0) {
      pieces.push(code.slice(pieceStart, i));
      pieceStart = i + 1;
    }
  }
  if (open < 0) return undefined;
  pieces.push(code.slice(pieceStart));
  return { open, close: -1, pieces };
}

/**
 * A long call, signature or literal list shortened to the arguments or items that hold a
 * word of the question: `def __init__(…, trust_remote_code: bool = False, …)` for a question
 * about that parameter, where the whole signature would run past the answer's budget and
 * lose it. The statement itself when short, when it has few arguments, when none or all of
 * them hold a word of the question, or when shortening saves little.
 */
export function compressCode(code: string, asked: ReadonlySet<string>): string {
  if (code.length <= COMPRESS_CODE_FROM) return code;
  const list = firstArgumentList(code);
  if (!list) return code;
  const pieces = list.pieces.map((piece) => piece.trim()).filter((piece) => piece.length > 0);
  if (pieces.length < MIN_ARGUMENTS) return code;
  const keep = pieces.map((piece) => tokenize(piece).some((term) => asked.has(term)));
  if (keep.every(Boolean) || !keep.some(Boolean)) return code;
  const shown: string[] = [];
  pieces.forEach((piece, i) => {
    if (keep[i]) shown.push(piece);
    else if (shown.at(-1) !== '…') shown.push('…');
  });
  const tail = list.close >= 0 ? code.slice(list.close) : '';
  const out = `${code.slice(0, list.open + 1)}${shown.join(', ')}${tail}`;
  return out.length <= code.length * (1 - MIN_SAVING) ? out : code;
}
