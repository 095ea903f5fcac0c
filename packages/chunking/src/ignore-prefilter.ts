/**
 * A quick test that no rule of a set of `.gitignore` lines can speak about a path, so that
 * the exact matcher (the `ignore` package, which tries every rule in turn) runs only for the
 * few paths a rule may concern. A walk tests every folder and indexable file against the
 * rules above it, and a repository's `.gitignore` has a hundred rules or more: without this,
 * matching was most of a walk that reads nothing (an update, an unchanged `rag index`).
 *
 * Each rule becomes a pattern that every path the rule matches contains somewhere (a
 * necessary condition, never a sufficient one): its literal characters in order, any single
 * character for `?`, anything at all for `*`, `**` and a bracket expression. A path one rule
 * or one of its folders matches contains the rule's text, so a path that holds none of the
 * patterns gets no verdict from the set: neither ignored nor re-included.
 */

/** A piece of a rule's necessary pattern: literal text, any one character, or anything. */
type Piece = { literal: string } | 'one' | 'any';

/** Members of a bracket expression that end it at the first `]`: letters, digits, `_`, `.` and ranges. */
const PLAIN_MEMBERS = /^[A-Za-z0-9_.-]+$/;

/** Lines that are no rule: empty, spaces only (trimmed to nothing), or a comment. */
const NO_RULE = /^ *$|^#/;

/** The pieces of a rule, and whether characters of a name may have been dropped from its end. */
interface RulePieces {
  pieces: Piece[];
  /** Trailing spaces or backslashes were left out: the rule's last character may not end a name. */
  cutEnd: boolean;
}

/**
 * The pieces of the necessary pattern of one `.gitignore` line; undefined for a line that is
 * no rule. Dropping characters from either end only widens a pattern, which is how the
 * line's edges are read: a negation's `!`, an anchoring or folder-only `/`, trailing spaces
 * (escaped or not) and a dangling backslash are left out.
 */
function piecesOf(line: string): RulePieces | undefined {
  let text = line.endsWith('\r') ? line.slice(0, -1) : line;
  // A byte order mark is no part of a name (the matcher drops it too).
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  if (NO_RULE.test(text)) return undefined;
  const trimmed = text.replace(/[ \\]+$/, '');
  const cutEnd = trimmed.length !== text.length;
  text = trimmed;
  if (text.startsWith('!')) text = text.slice(1);
  const pieces: Piece[] = [];
  const literal = (char: string): void => {
    const last = pieces.at(-1);
    if (last !== undefined && typeof last === 'object') last.literal += char;
    else pieces.push({ literal: char });
  };
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\\') {
      literal(text[++i]!);
    } else if (char === '*') {
      pieces.push('any');
    } else if (char === '?') {
      pieces.push('one');
    } else if (char === '[') {
      // A bracket expression of plain members (`[cod]`, `[!a]`, `[0-9]`) ends at the first
      // `]` and stands for one character. Where it ends otherwise takes git's rules (`[]a]`,
      // `[[:alpha:]]`, escapes): the rest of the rule is then anything.
      const end = text.indexOf(']', i + 2);
      const members = end < 0 ? '' : text.slice(text[i + 1] === '!' || text[i + 1] === '^' ? i + 2 : i + 1, end);
      if (!PLAIN_MEMBERS.test(members)) {
        pieces.push('any');
        break;
      }
      pieces.push('one');
      i = end;
    } else {
      literal(char);
    }
  }
  return { pieces, cutEnd };
}

/** Regular-expression source of a piece. */
function pieceSource(piece: Piece): string {
  if (piece === 'any') return '[\\s\\S]*';
  if (piece === 'one') return '[\\s\\S]';
  return piece.literal.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Literal characters a pattern of `pieces` requires. */
function literalLength(pieces: readonly Piece[]): number {
  let length = 0;
  for (const piece of pieces) if (typeof piece === 'object') length += piece.literal.length;
  return length;
}

/**
 * The source of a regular expression that every path matching `pieces` matches, trying each
 * start in linear time: at most one `*` is kept, so no rule of many stars can make matching
 * slow. Either the pieces before the first star and after the last one (what lies between
 * is anything), or the longest literal piece alone (every literal piece is in the path),
 * whichever requires more characters. A `/` beside a star (`**` matches across folders) or
 * at either end is dropped. '' when any path may match.
 *
 * A rule that starts with literal text matches from the start of a path segment (a rule
 * without a slash matches a whole name at any depth, one with a slash from the rules' own
 * folder), and one that ends with literal text matches up to the end of a segment: the
 * prefix and suffix are anchored there (`(^|/)build(/|$)` for `build/`), so that a path that
 * only holds the text inside a name (`distributed` for `dist/`, `library` for `lib/`) does
 * not pass, unless characters of the rule's end were dropped (`cutEnd`).
 */
function sourceOf({ pieces, cutEnd }: RulePieces): string {
  const first = pieces.indexOf('any');
  const copy = (piece: Piece): Piece => (typeof piece === 'object' ? { literal: piece.literal } : piece);
  let kept: Piece[] = first < 0 ? pieces.map(copy) : [...pieces.slice(0, first), 'any' as const, ...pieces.slice(pieces.lastIndexOf('any') + 1)].map(copy);
  const star = kept.indexOf('any');
  const trim = (piece: Piece | undefined, side: 'start' | 'end'): void => {
    if (piece === undefined || typeof piece !== 'object') return;
    piece.literal = side === 'start' ? piece.literal.replace(/^\/+/, '') : piece.literal.replace(/\/+$/, '');
  };
  trim(kept[0], 'start');
  trim(kept.at(-1), 'end');
  if (star >= 0) {
    trim(kept[star - 1], 'end');
    trim(kept[star + 1], 'start');
  }
  kept = kept.filter((piece, i) => !(piece === 'any' && (i === 0 || i === kept.length - 1)));
  let longest = '';
  for (const piece of pieces) if (typeof piece === 'object' && piece.literal.replace(/^\/+|\/+$/g, '').length > longest.length) longest = piece.literal.replace(/^\/+|\/+$/g, '');
  const chosen = longest.length > literalLength(kept) ? [{ literal: longest }] : kept;
  const source = chosen.map(pieceSource).join('');
  if (source === '' || source === '[\\s\\S]*') return '';
  if (chosen !== kept) return source;
  // The kept pieces begin with the rule's first piece and end with its last whenever those are literal text.
  const start = typeof pieces[0] === 'object' ? '(?:^|\\/)' : '';
  const end = !cutEnd && typeof pieces.at(-1) === 'object' ? '(?=\\/|$)' : '';
  return `${start}${source}${end}`;
}

const NEVER = /(?!)/;

/**
 * A regular expression that every path (relative to the rules' folder, a folder's with a
 * trailing `/`) some rule of `texts` (the contents of ignore files) could match or re-include
 * matches; undefined when a rule may match any path. Case-insensitive, as the `ignore`
 * package matches by default.
 */
export function ignoreRulePrefilter(texts: readonly string[]): RegExp | undefined {
  const sources: string[] = [];
  for (const text of texts) {
    for (const line of text.split(/\r?\n/)) {
      const pieces = piecesOf(line);
      if (pieces === undefined) continue;
      const source = sourceOf(pieces);
      if (source === '') return undefined;
      sources.push(`(?:${source})`);
    }
  }
  return sources.length === 0 ? NEVER : new RegExp(sources.join('|'), 'i');
}
