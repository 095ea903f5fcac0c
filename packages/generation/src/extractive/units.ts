/**
 * Cuts a retrieved span into the pieces an extractive answer can quote: sentences of
 * prose, list items, table rows, and (in code or fenced blocks) logical lines; docstrings
 * by `docstrings.ts`. Offsets are UTF-16 indices into the span's text.
 */
import { docstringCloseAt, docstringUnits, readsAsProse, TRIPLE_QUOTE } from './docstrings.js';
import {
  CODE_DIRECTIVE,
  COMMENT,
  DIRECTIVE_OPTION,
  DOCSTRING_OPEN,
  LIST_ITEM,
  RST_UNDERLINE,
  collapse,
  proseUnits,
  splitLines,
  trimmedRange,
  type Line,
  type TextUnit,
} from './text-lines.js';

export type { TextUnit } from './text-lines.js';

const CODE_PATH = /(\.(py|pyi|pyx|js|mjs|ts|c|cc|cpp|h|hpp|cu|cuh|rs|go|java|sh|cmake|toml|ya?ml|json|cfg|ini)|(^|\/)(CMakeLists\.txt|Dockerfile[^/]*|Makefile))$/i;
const FENCE = /^\s*(```|~~~)/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;
/**
 * Lines that are markup only: HTML tags, an image, an RST directive (a Sphinx domain's too:
 * `.. jinja:filters::`; those that document an API object are read first, see
 * `API_DIRECTIVE`) or field, a mkdocs
 * admonition opener (`!!! note`, `??? tip`), a snippet include (`--8<-- "file"`). A line that
 * starts with an RST role (`:meth:`Foo.bar` does …`) is prose, not a field.
 */
const MARKUP_ONLY =
  /^\s*(<[^>]*>\s*)+$|^\s*!\[[^\]]*\]\([^)]*\)\s*$|^\s*\.\.\s+(\w[\w-]*:)?\w[\w-]*::.*$|^\s*:\w[\w-]*:(?!`).*$|^\s*(!!!|\?\?\?\+?)\s+\w+.*$|^\s*-+8<-+/;

/**
 * A Sphinx directive that documents one API object (`.. autoclass:: MultiDict`,
 * `.. py:function:: make_server(host, port)`, `.. exception:: NotFound`): the object it names
 * is the page's content, so it is quoted as a list item ("class `MultiDict`") rather than
 * dropped as markup. Groups: the directive's kind, the object's name and signature.
 */
const API_DIRECTIVE = /^\s*\.\.\s+(?:py:)?(?:auto)?(class|function|method|attribute|data|exception|decorator|module|property)::\s+(\S.*?)\s*$/;

/**
 * Directives whose body lists pages or index entries, not sentences: a `toctree`'s page
 * names read as one run-on "sentence" (`core dates languages lists …`) that says nothing.
 * Their options and indented body are skipped whole.
 */
const NAVIGATION_DIRECTIVE = /^\s*\.\.\s+(toctree|contents|index)::/;

/**
 * An admonition or version note whose first words stand on the directive's line
 * (`.. note:: Loaders are cached.`, `.. deprecated:: 2.1 Use \`evolve\` instead.`): those
 * words are the note itself, prose like the indented lines that may follow, and start a
 * paragraph. Group 1 is the text after the `::`.
 */
const INLINE_NOTE = /^\s*\.\.\s+(?:note|warning|tip|hint|important|caution|attention|danger|error|seealso|deprecated|versionadded|versionchanged|admonition)::[ \t]+(\S.*)$/;

/** The unit an API directive line reads as, or undefined for any other line. */
function apiObjectUnit(source: string, line: Line): TextUnit | undefined {
  const found = API_DIRECTIVE.exec(line.text);
  if (!found) return undefined;
  const [start, end] = trimmedRange(source, line.start, line.end);
  return { kind: 'prose', display: `${found[1]} \`${found[2]}\``, item: true, start, end };
}

/** A list item or a table row: one piece of a list, whose introduction says what it lists. */
export function isListPiece(unit: TextUnit): boolean {
  return unit.kind === 'prose' && (unit.item === true || unit.context !== undefined || unit.display.includes(' | '));
}

function bracketBalance(line: string): number {
  // Strings and comments can hold brackets; a rough strip is enough to join continuations.
  const code = line.replace(/(["'])(?:\\.|(?!\1).)*\1/g, '').replace(/#.*$/, '');
  let balance = 0;
  for (const ch of code) {
    if (ch === '(' || ch === '[' || ch === '{') balance++;
    else if (ch === ')' || ch === ']' || ch === '}') balance--;
  }
  return balance;
}

/** Lines that say nothing on their own: closing brackets, bare quotes, `pass`. */
function isNoiseCodeLine(text: string): boolean {
  return /^\s*([)\]},;:]+|"""|'''|r"""|pass|else:|try:|finally:|return|\.\.\.)\s*$/.test(text);
}

const MAX_JOINED_LINES = 6;
/** A statement that names an attribute: `name = value`, `name: type = value`, `name: type`. */
const ATTRIBUTE = /^[A-Za-z_][\w.]*\s*(:[^=]+)?(=(?!=).*)?$/;
/** What an example prints: markup, a list, a dict, a tuple, a string, a number, a constant. */
const PRINTED_OUTPUT = /^([<[{(]|['"]|u['"]|b['"]|-?\d|(True|False|None)\b)/;
/** A run of drawing characters in a comment (`# -------`, `# ======`): a banner's rule, not words. */
const RULE = /[-=*#~_+]{4,}/g;
const PRAGMA = /^\s*#\s*(!|-\*-|noqa|type:|pylint|fmt:|SPDX|ruff)/;
/**
 * A line typed at a prompt in a docs session: Python's `>>>`, a shell's `$ ` or `% `,
 * IPython's `In [1]:`, a command loop's `(Cmd) `. In a block that has one, the other lines
 * (but Python's `...` continuations) are what the program printed. (`...` alone opens no
 * session: it is also the body of a stub.)
 */
const PROMPT = /^\s*(>>>|[$%]\s|In \[\d*\]:|\([A-Za-z][\w-]*\)\s)/;
const CONTINUATION = /^\s*\.\.\.(\s|$)/;

/** Lines i.. of a docstring: the index of its last line and the range of its text. */
function docstringExtent(source: string, lines: readonly Line[], i: number, to: number): { last: number; start: number; end: number } {
  const line = lines[i]!;
  const open = DOCSTRING_OPEN.exec(line.text)!;
  const quote = open[1]!;
  const start = line.start + open[0].length;
  const closeOnFirst = line.text.indexOf(quote, open[0].length);
  if (closeOnFirst >= 0) return { last: i, start, end: line.start + closeOnFirst };
  for (let j = i + 1; j < to; j++) {
    const at = lines[j]!.text.indexOf(quote);
    if (at >= 0) return { last: j, start, end: lines[j]!.start + at };
  }
  return { last: to - 1, start, end: lines[to - 1]!.end };
}

function codeUnits(source: string, lines: readonly Line[], from: number, to: number, out: TextUnit[], inDocs = false): void {
  let comments: Line[] = [];
  let session = false;
  if (inDocs) for (let i = from; i < to && !session; i++) session = PROMPT.test(lines[i]!.text);
  const flushComments = () => {
    // Comment lines not attached to a statement read as prose; in a docs example, a comment
    // that is the example's printed output (`# [<a href="…">…</a>]`, `# 'body strikeout'`)
    // is a value, not a sentence.
    if (comments.length > 0) {
      const [start, end] = trimmedRange(source, comments[0]!.start, comments.at(-1)!.end);
      const display = collapse(comments.map((c) => c.text.replace(COMMENT, '')).join(' '));
      if (display) out.push({ kind: inDocs && PRINTED_OUTPUT.test(display) ? 'code' : 'prose', display, start, end });
    }
    comments = [];
  };
  // The statement the previous line ended, if it did: what a docstring right under it documents.
  let lastStatement: TextUnit | undefined;
  for (let i = from; i < to; i++) {
    const line = lines[i]!;
    const follows = lastStatement;
    lastStatement = undefined;
    if (line.text.trim() === '') {
      flushComments();
      continue;
    }
    if (PRAGMA.test(line.text)) continue;
    if (COMMENT.test(line.text)) {
      comments.push(line);
      continue;
    }
    if (DOCSTRING_OPEN.test(line.text)) {
      flushComments();
      const doc = docstringExtent(source, lines, i, to);
      // An attribute's docstring (a string right under `name = value` or `name: type`, the
      // convention Sphinx's autodoc reads) says what the attribute is: the assignment carries
      // its words, as it carries the comment above it.
      const attribute = follows;
      if (attribute && attribute.kind === 'code' && ATTRIBUTE.test(attribute.display)) {
        const words = collapse(source.slice(doc.start, doc.end));
        if (words) attribute.note = attribute.note ? `${attribute.note} ${words}` : words;
      }
      docstringUnits(source, doc.start, doc.end, out, codeUnits);
      i = doc.last;
      continue;
    }
    if (isNoiseCodeLine(line.text)) {
      flushComments();
      continue;
    }
    // One statement: open brackets or a trailing backslash continue it on the next line.
    let last = i;
    let balance = bracketBalance(line.text);
    while ((balance > 0 || /\\\s*$/.test(lines[last]!.text)) && last + 1 < to && last - i < MAX_JOINED_LINES - 1) {
      last++;
      balance += bracketBalance(lines[last]!.text);
    }
    const [start, end] = trimmedRange(source, comments[0]?.start ?? line.start, lines[last]!.end);
    const [codeStart] = trimmedRange(source, line.start, lines[last]!.end);
    const display = collapse(source.slice(codeStart, end).replace(/\\\s*\n/g, ' '));
    const unit: TextUnit = { kind: 'code', display, start, end };
    if (session && !PROMPT.test(line.text) && !CONTINUATION.test(line.text)) unit.output = true;
    const note = collapse(comments.map((c) => c.text.replace(COMMENT, '').replace(RULE, ' ')).join(' '));
    if (note) unit.note = note;
    out.push(unit);
    lastStatement = unit;
    comments = [];
    i = last;
  }
  flushComments();
}

function tableCells(line: Line): string[] {
  return line.text.split('|').map((c) => c.trim()).filter((c) => c.length > 0);
}

function tableRow(source: string, line: Line, header: readonly string[], out: TextUnit[]): void {
  const cells = tableCells(line);
  if (cells.length === 0) return;
  const [start, end] = trimmedRange(source, line.start, line.end);
  const unit: TextUnit = { kind: 'prose', display: cells.join(' | '), start, end };
  if (header.length > 0) unit.context = header.join(' ');
  out.push(unit);
}

function docUnits(text: string): TextUnit[] {
  const lines = splitLines(text);
  const out: TextUnit[] = [];
  let paragraphStart = -1;
  let paragraphEnd = -1;
  let header: string[] = [];
  const endParagraph = () => {
    if (paragraphStart >= 0) proseUnits(text, paragraphStart, paragraphEnd, out);
    paragraphStart = -1;
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const next = lines[i + 1];
    if (FENCE.test(line.text)) {
      endParagraph();
      let close = i + 1;
      while (close < lines.length && !FENCE.test(lines[close]!.text)) close++;
      codeUnits(text, lines, i + 1, close, out, true);
      i = close + 1;
      continue;
    }
    if (NAVIGATION_DIRECTIVE.test(line.text)) {
      endParagraph();
      const indent = line.text.length - line.text.trimStart().length;
      let j = i + 1;
      while (j < lines.length && (lines[j]!.text.trim() === '' || lines[j]!.text.length - lines[j]!.text.trimStart().length > indent)) j++;
      i = j;
      continue;
    }
    const note = INLINE_NOTE.exec(line.text);
    if (note) {
      endParagraph();
      paragraphStart = line.end - note[1]!.length;
      paragraphEnd = line.end;
      i++;
      continue;
    }
    if (CODE_DIRECTIVE.test(line.text)) {
      endParagraph();
      const indent = line.text.length - line.text.trimStart().length;
      let j = i + 1;
      while (j < lines.length && DIRECTIVE_OPTION.test(lines[j]!.text)) j++;
      const body = j;
      while (j < lines.length && (lines[j]!.text.trim() === '' || lines[j]!.text.length - lines[j]!.text.trimStart().length > indent)) j++;
      codeUnits(text, lines, body, j, out, true);
      i = j;
      continue;
    }
    // reStructuredText literal block: a paragraph ending in `::`, then indented lines.
    if (/::\s*$/.test(line.text) && !/^\s*\.\./.test(line.text)) {
      if (!/^\s*::\s*$/.test(line.text)) {
        if (paragraphStart < 0) paragraphStart = line.start;
        paragraphEnd = line.end;
      }
      endParagraph();
      const indent = line.text.length - line.text.trimStart().length;
      let j = i + 1;
      while (j < lines.length && (lines[j]!.text.trim() === '' || lines[j]!.text.length - lines[j]!.text.trimStart().length > indent)) j++;
      codeUnits(text, lines, i + 1, j, out, true);
      i = j;
      continue;
    }
    const api = apiObjectUnit(text, line);
    if (api) {
      endParagraph();
      out.push(api);
      i++;
      continue;
    }
    const isHeading = /^\s*#{1,6}\s/.test(line.text) || (next !== undefined && RST_UNDERLINE.test(next.text) && line.text.trim() !== '');
    if (line.text.trim() === '' || isHeading || RST_UNDERLINE.test(line.text) || MARKUP_ONLY.test(line.text) || TABLE_SEPARATOR.test(line.text)) {
      endParagraph();
      i += isHeading && next !== undefined && RST_UNDERLINE.test(next.text) ? 2 : 1;
      continue;
    }
    if (/^\s*\|/.test(line.text)) {
      endParagraph();
      // A row followed by a separator is the header: it labels the rows instead of being one.
      if (next !== undefined && TABLE_SEPARATOR.test(next.text)) {
        header = tableCells(line);
        i += 2;
        continue;
      }
      tableRow(text, line, header, out);
      i++;
      continue;
    }
    header = [];
    if (LIST_ITEM.test(line.text)) endParagraph();
    if (paragraphStart < 0) paragraphStart = line.start;
    paragraphEnd = line.end;
    i++;
  }
  endParagraph();
  return out;
}

export function isCodePath(filePath: string): boolean {
  return CODE_PATH.test(filePath);
}
/** The quotable units of one span, in text order. */
export function splitIntoUnits(text: string, filePath: string): TextUnit[] {
  if (isCodePath(filePath)) {
    const lines = splitLines(text);
    const out: TextUnit[] = [];
    const python = /\.pyi?$/i.test(filePath);
    if (python && !TRIPLE_QUOTE.test(text) && readsAsProse(lines)) {
      // A span cut from the middle of a long docstring, quotes on neither side.
      docstringUnits(text, 0, text.length, out, codeUnits);
      return out;
    }
    const close = python ? docstringCloseAt(text, lines) : -1;
    if (close < 0) {
      codeUnits(text, lines, 0, lines.length, out);
      return out;
    }
    docstringUnits(text, 0, close, out, codeUnits);
    const after = lines.findIndex((line) => line.end > close);
    codeUnits(text, lines, after + 1, lines.length, out);
    return out;
  }
  return docUnits(text);
}

