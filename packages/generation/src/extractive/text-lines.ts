/**
 * What the unit readers share: the unit type, lines with their offsets, and sentences.
 */

/** A piece an extractive answer can quote; offsets are UTF-16 indices into the span's text. */
export interface TextUnit {
  kind: 'prose' | 'code';
  /** The unit as shown in an answer: whitespace collapsed, table cells joined by ` | `. */
  display: string;
  /** Shown after a code unit: the text of the comment lines just above the statement. */
  note?: string;
  /** Counted for matching but not shown: a table row's column headers. */
  context?: string;
  /**
   * Matched instead of `display` when set: the sentence with its RST markup as written
   * (`:exc:\`~requests.exceptions.ConnectionError\``), whose role names and full targets
   * say what a thing is, where the display shows it as a reader sees it rendered.
   */
  matched?: string;
  /** A list item of prose (its marker is not shown). */
  item?: true;
  /** Part of a Python docstring: what the code says about itself, not a statement of it. */
  doc?: true;
  /** The role of a docstring unit: its opening sentence (`summary`) or what it says is returned. */
  docRole?: 'summary' | 'returns';
  /** A line of a docs session that a program printed (not typed after a prompt): it shows a result, it is no step. */
  output?: true;
  start: number;
  end: number;
}

export const RST_UNDERLINE = /^([=\-~^"'`#*+.])\1{2,}\s*$/;
export const LIST_ITEM = /^\s*([-*+]|\d+[.)])\s+/;
/**
 * An RST directive whose body is code or a session (`.. code-block:: zsh`, `.. doctest::`,
 * an extension's `.. domain:example::` or `.. domain:run::`): its indented body is quoted as
 * code lines, not run together as a sentence.
 */
export const CODE_DIRECTIVE = /^\s*\.\.\s+([\w-]+:)?(code-block|code|sourcecode|testcode|doctest|parsed-literal|example|run)::/;
export const DIRECTIVE_OPTION = /^\s*:[\w-]+:/;
/** A sentence ends at . ! or ? followed by space and something that can start a sentence. */
const SENTENCE_END = /([.!?])\s+(?=[A-Z0-9`"'(\[*_])/g;
/**
 * Latin and English abbreviations whose period never ends a sentence, though a capital,
 * a backtick or a parenthesis may follow ("(e.g. ``-u``)", "cf. `Loader`", "vs. HTTP/2"):
 * "etc." is not among them, since it often does end one.
 */
const NOT_AN_END = /(?:^|[^\p{L}])(?:e\.g|i\.e|cf|vs|viz|approx|incl)$/iu;
/** What stands before the period of a numbered list item's marker on its line: the number alone. */
const NUMBERED_MARKER = /^\s*\d+$/;
export const COMMENT = /^\s*#/;
export const DOCSTRING_OPEN = /^\s*[rRbBuUfF]{0,2}("""|\'\'\')/;

export interface Line {
  text: string;
  start: number;
  end: number;
}

export function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (;;) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    const lineEnd = end > start && text[end - 1] === '\r' ? end - 1 : end;
    lines.push({ text: text.slice(start, lineEnd), start, end: lineEnd });
    if (newline < 0) return lines;
    start = newline + 1;
  }
}

/** Whitespace other than a lone space: what `collapse` would change inside a text. */
const OTHER_SPACE = /\s\s|[^\S ]/;

export function collapse(text: string): string {
  // Most units are one line with single spaces: no new string to make for them (a unit is
  // collapsed for every answer that reads its source).
  if (!OTHER_SPACE.test(text)) return isSpaceAt(text, 0) || isSpaceAt(text, text.length - 1) ? text.trim() : text;
  return text.replace(/\s+/g, ' ').trim();
}

/** Whether the character at `i` is whitespace (`\s`), without a one-character string for the ASCII ones. */
function isSpaceAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return /\s/.test(text[i]!);
}

/** Trims the range [start, end) of `text` to its non-space characters. */
export function trimmedRange(text: string, start: number, end: number): [number, number] {
  while (start < end && isSpaceAt(text, start)) start++;
  while (end > start && isSpaceAt(text, end - 1)) end--;
  return [start, end];
}

/** A Sphinx role: `:class:\`Name\``, `:py:meth:\`~pkg.Class.method\``, `:ref:\`title <label>\``. */
const ROLE = /:(?:[a-z][\w-]*:)?([a-z][\w-]*):`([^`]+)`/g;
/**
 * Roles whose text is words, not code: a glossary term, an abbreviation, a label of the user
 * interface. (A page or section reference is words when it has a title; its bare label,
 * `features/settings:debug`, is a name and stays code.)
 */
const PROSE_ROLES = new Set(['term', 'abbr', 'dfn', 'guilabel', 'menuselection', 'pep', 'rfc']);
const REFERENCE_ROLES = new Set(['ref', 'doc', 'numref']);
/** An RST hyperlink with its target: `` `ws4py <https://…>`_ `` (`__` for an anonymous one). */
const RST_LINK = /`([^`<]+?)\s*<([^`>]+)>`__?/g;
/** A reference to a target named elsewhere: `` `the FAQ`_ ``. */
const RST_REFERENCE = /`([^`<]+)`__?(?![\w`])/g;

/** A Markdown image: `![alt](path)`; its alt text is what a reader learns from it. */
const MD_IMAGE = /!\[([^\][]*)\]\([^()[\]\s]+(?:\s+"[^"]*")?\)/g;
/** A Markdown link: `[text](https://…)`, `[text](../page.md "title")`. */
const MD_LINK = /\[([^\][]+)\]\(([^()[\]\s]+)(?:\s+"[^"]*")?\)/g;
/** A Markdown reference link: `[text][target]`, `[text][]`. */
const MD_REFERENCE = /\[([^\][]+)\]\[([^\][]*)\]/g;
/** A reference target that names a Python object (`vllm.LLM.embed`), as API docs link to it. */
const DOTTED_NAME = /^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$/;
/** The end of the backtick run that starts at `i` of `text`. */
function runEnd(text: string, i: number): number {
  while (i < text.length && text[i] === '`') i++;
  return i;
}

/**
 * `replace` applied to the parts of `text` outside code spans (a run of backticks up to the
 * next run of the same length; a run with none is literal), in one pass: a regular
 * expression for the spans backtracks quadratically on a long run of backticks.
 */
function outsideCode(text: string, replace: (part: string) => string): string {
  let out = '';
  let plain = 0;
  let i = text.indexOf('`');
  while (i >= 0) {
    const open = runEnd(text, i);
    let close = -1;
    for (let at = text.indexOf('`', open); at >= 0; ) {
      const end = runEnd(text, at);
      if (end - at === open - i) {
        close = end;
        break;
      }
      at = text.indexOf('`', end);
    }
    if (close < 0) {
      i = text.indexOf('`', open);
      continue;
    }
    out += replace(text.slice(plain, i)) + text.slice(i, close);
    plain = close;
    i = text.indexOf('`', close);
  }
  return out + replace(text.slice(plain));
}

/** An address a reader can open elsewhere (`https://…`, `mailto:…`), not a page of the same docs. */
const ABSOLUTE = /^[a-z][\w+.-]*:/i;

/**
 * RST and Markdown markup as a reader sees it rendered: a role's target as code (the last name
 * of a `~` target), its title when it has one (as words for a page or section reference), a
 * glossary term as words; an RST link's text, with its address in brackets when it leads
 * outside the docs; a Markdown link's text with its address in brackets; a Markdown reference
 * to a Python object as the object's name in code (`vllm.LLM.embed`), to a label as its text;
 * an image's alt text; literals in single backticks. Code spans are left as written.
 */
export function readableMarkup(text: string): string {
  // Every form below has a backtick or a bracket: most sentences have neither, and skip them all.
  if (!text.includes('`') && !text.includes('[')) return text;
  const rst = text
    .replace(ROLE, (_, role: string, content: string) => {
      const titled = /^(.*?)\s*<([^<>]+)>$/.exec(content);
      let shown = titled && titled[1] ? titled[1] : content.replace(/^!/, '');
      if (!titled && shown.startsWith('~')) shown = shown.slice(shown.lastIndexOf('.') + 1);
      return PROSE_ROLES.has(role) || (titled && REFERENCE_ROLES.has(role)) ? shown : `\`${shown}\``;
    })
    .replace(RST_LINK, (_, title: string, target: string) => (ABSOLUTE.test(target) ? `${title} (${target})` : title))
    .replace(RST_REFERENCE, '$1')
    .replace(/``([^`]+)``/g, '`$1`');
  return outsideCode(rst, (part) =>
    part
      .replace(MD_IMAGE, '$1')
      // A page's address is what a "where can I find" question asks for: it stays.
      .replace(MD_LINK, (_, title: string, target: string) => `${title} (${target})`)
      .replace(MD_REFERENCE, (_, title: string, target: string) => (DOTTED_NAME.test(target) ? `\`${target}\`` : title)),
  );
}

/** The sentences of the prose in `start`–`end` of `source`, list items marked. */
export function proseUnits(source: string, start: number, end: number, out: TextUnit[]): void {
  const pieces: [number, number][] = [];
  let pieceStart = start;
  const paragraph = source.slice(start, end);
  for (const match of paragraph.matchAll(SENTENCE_END)) {
    if (match[1] === '.' && NOT_AN_END.test(paragraph.slice(Math.max(0, match.index - 8), match.index))) continue;
    // The period of a numbered item's marker ("1. `kwargs` passed down …") opens the item.
    if (match[1] === '.' && NUMBERED_MARKER.test(paragraph.slice(paragraph.lastIndexOf('\n', match.index) + 1, match.index))) continue;
    const cut = start + match.index + 1;
    pieces.push([pieceStart, cut]);
    pieceStart = cut;
  }
  pieces.push([pieceStart, end]);
  for (const [a, b] of pieces) {
    const [s, e] = trimmedRange(source, a, b);
    const raw = source.slice(s, e);
    const written = raw.replace(LIST_ITEM, '');
    const display = collapse(readableMarkup(written));
    if (!/[\p{L}\p{N}]/u.test(display)) continue;
    const unit: TextUnit = { kind: 'prose', display, start: s, end: e };
    const matched = collapse(written.replace(/``([^`]+)``/g, '`$1`'));
    if (matched !== display) unit.matched = matched;
    if (LIST_ITEM.test(raw)) unit.item = true;
    out.push(unit);
  }
}
