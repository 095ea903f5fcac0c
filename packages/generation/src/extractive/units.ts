/**
 * Cuts a retrieved span into the pieces an extractive answer can quote: sentences of
 * prose, list items, table rows, and (in code or fenced blocks) logical lines. Offsets are
 * UTF-16 indices into the span's text.
 */
export interface TextUnit {
  kind: 'prose' | 'code';
  /** The unit as shown in an answer: whitespace collapsed, table cells joined by ` | `. */
  display: string;
  /** Shown after a code unit: the text of the comment lines just above the statement. */
  note?: string;
  /** Counted for matching but not shown: a table row's column headers. */
  context?: string;
  /** A list item of prose (its marker is not shown). */
  item?: true;
  /** Part of a Python docstring: what the code says about itself, not a statement of it. */
  doc?: true;
  /** The role of a docstring unit: its opening sentence (`summary`) or what it says is returned. */
  docRole?: 'summary' | 'returns';
  start: number;
  end: number;
}

const CODE_PATH = /(\.(py|pyi|pyx|js|mjs|ts|c|cc|cpp|h|hpp|cu|cuh|rs|go|java|sh|cmake|toml|ya?ml|json|cfg|ini)|(^|\/)(CMakeLists\.txt|Dockerfile[^/]*|Makefile))$/i;
const FENCE = /^\s*(```|~~~)/;
const RST_UNDERLINE = /^([=\-~^"'`#*+.])\1{2,}\s*$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;
const LIST_ITEM = /^\s*([-*+]|\d+[.)])\s+/;
/**
 * Lines that are markup only: HTML tags, an image, an RST directive (a Sphinx domain's too:
 * `.. py:function::`, `.. jinja:filters::`) or field, a mkdocs
 * admonition opener (`!!! note`, `??? tip`), a snippet include (`--8<-- "file"`). A line that
 * starts with an RST role (`:meth:`Foo.bar` does …`) is prose, not a field.
 */
const MARKUP_ONLY =
  /^\s*(<[^>]*>\s*)+$|^\s*!\[[^\]]*\]\([^)]*\)\s*$|^\s*\.\.\s+(\w[\w-]*:)?\w[\w-]*::.*$|^\s*:\w[\w-]*:(?!`).*$|^\s*(!!!|\?\?\?\+?)\s+\w+.*$|^\s*-+8<-+/;
/**
 * An RST directive whose body is code or a session (`.. code-block:: zsh`, `.. doctest::`,
 * an extension's `.. domain:example::` or `.. domain:run::`): its indented body is quoted as
 * code lines, not run together as a sentence.
 */
const CODE_DIRECTIVE = /^\s*\.\.\s+([\w-]+:)?(code-block|code|sourcecode|testcode|doctest|parsed-literal|example|run)::/;
const DIRECTIVE_OPTION = /^\s*:[\w-]+:/;
/** A sentence ends at . ! or ? followed by space and something that can start a sentence. */
const SENTENCE_END = /([.!?])\s+(?=[A-Z0-9`"'(\[*_])/g;

interface Line {
  text: string;
  start: number;
  end: number;
}

function splitLines(text: string): Line[] {
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

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Trims the range [start, end) of `text` to its non-space characters. */
function trimmedRange(text: string, start: number, end: number): [number, number] {
  while (start < end && /\s/.test(text[start]!)) start++;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  return [start, end];
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
const COMMENT = /^\s*#/;
const DOCSTRING_OPEN = /^\s*[rRbBuUfF]{0,2}("""|\'\'\')/;
const PRAGMA = /^\s*#\s*(!|-\*-|noqa|type:|pylint|fmt:|SPDX|ruff)/;

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

function codeUnits(source: string, lines: readonly Line[], from: number, to: number, out: TextUnit[]): void {
  let comments: Line[] = [];
  const flushComments = () => {
    // Comment lines not attached to a statement read as prose.
    if (comments.length > 0) {
      const [start, end] = trimmedRange(source, comments[0]!.start, comments.at(-1)!.end);
      const display = collapse(comments.map((c) => c.text.replace(COMMENT, '')).join(' '));
      if (display) out.push({ kind: 'prose', display, start, end });
    }
    comments = [];
  };
  for (let i = from; i < to; i++) {
    const line = lines[i]!;
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
      docstringUnits(source, doc.start, doc.end, out);
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
    const note = collapse(comments.map((c) => c.text.replace(COMMENT, '')).join(' '));
    if (note) unit.note = note;
    out.push(unit);
    comments = [];
    i = last;
  }
  flushComments();
}

function proseUnits(source: string, start: number, end: number, out: TextUnit[]): void {
  const pieces: [number, number][] = [];
  let pieceStart = start;
  const paragraph = source.slice(start, end);
  for (const match of paragraph.matchAll(SENTENCE_END)) {
    const cut = start + match.index + 1;
    pieces.push([pieceStart, cut]);
    pieceStart = cut;
  }
  pieces.push([pieceStart, end]);
  for (const [a, b] of pieces) {
    const [s, e] = trimmedRange(source, a, b);
    const raw = source.slice(s, e);
    const display = collapse(raw.replace(LIST_ITEM, '').replace(/``([^`]+)``/g, '`$1`'));
    if (!/[\p{L}\p{N}]/u.test(display)) continue;
    const unit: TextUnit = { kind: 'prose', display, start: s, end: e };
    if (LIST_ITEM.test(raw)) unit.item = true;
    out.push(unit);
  }
}

/** An RST field (`:param name:`, `:raises KeyError:`, `:returns:`): one fact of a docstring each. */
const DOC_FIELD = /^\s*:[\w][\w ()|.,*-]*:(\s|$)/;
/** A Google- or NumPy-style section heading on its own line (`Args:`, `Returns:`, `Parameters`). */
const DOC_SECTION = /^\s*(Args|Arguments|Parameters|Params|Keyword Args|Keyword Arguments|Other Parameters|Returns?|Yields?|Raises|Exceptions?|Warns|Attributes|Examples?|Notes?|Warnings?|Todo|See Also|References)\s*:?\s*$/;
/** An entry of such a section: `name (type): text`, `name: text`, or NumPy's `name : type`. */
const DOC_ENTRY = /^\s*\**[A-Za-z_][\w.]*(\s*\([^)]*\))?(:\s+\S| : \S)/;
const DOCTEST = /^\s*>>>\s/;
/** What a function gives back, as an RST field or a section heading. */
const RETURNS_FIELD = /^\s*:(returns?|rtype):/;
const RETURNS_SECTION = /^(Returns?|Yields?)$/;
const INDENT = (text: string): number => text.length - text.trimStart().length;

/**
 * The units of a docstring's text (`start`–`end` of `source`): docstrings are small RST
 * documents, so each field (`:param x: …`), section entry (`x (int): …`) and list item is
 * a paragraph of its own, however the lines run on, a `::` or `.. code-block::` body and
 * `>>>` lines are code, and section headings (`Args:`, `Returns`) are dropped.
 */
function docstringUnits(source: string, start: number, end: number, out: TextUnit[]): void {
  const from = out.length;
  readDocstring(source, start, end, out);
  for (let u = from; u < out.length; u++) {
    const unit = out[u]!;
    unit.doc = true;
    if (unit.kind === 'prose') unit.display = readableField(unit.display);
  }
  // Only a whole docstring has an opening sentence: a span that starts inside one does not.
  const summary = out[from];
  if (summary?.kind === 'prose' && start > 0 && /["']$/.test(source.slice(Math.max(0, start - 3), start))) summary.docRole = 'summary';
}

/**
 * An RST field as a reader writes it: `:param int flags:` → "`flags`:", `:returns:` →
 * "Returns:", `:raises KeyError:` → "Raises `KeyError`:". Other text is returned as it is.
 */
export function readableField(display: string): string {
  const field = /^:(\w+)((?:\s+[^:\s]+)*)\s*:\s*/.exec(display);
  if (!field) return display;
  const [whole, name, args] = field;
  const words = args!.trim().split(/\s+/).filter(Boolean);
  const target = words.at(-1);
  const rest = display.slice(whole!.length);
  switch (name) {
    case 'param':
    case 'parameter':
    case 'arg':
    case 'argument':
    case 'key':
    case 'keyword':
      return target ? `\`${target}\`: ${rest}` : display;
    case 'type':
      return target ? `\`${target}\` type: ${rest}` : display;
    case 'return':
    case 'returns':
      return `Returns: ${rest}`;
    case 'rtype':
      return `Return type: ${rest}`;
    case 'raise':
    case 'raises':
    case 'except':
    case 'exception':
      return target ? `Raises \`${target}\`: ${rest}` : `Raises: ${rest}`;
    default:
      return display;
  }
}

function readDocstring(source: string, start: number, end: number, out: TextUnit[]): void {
  const lines = splitLines(source.slice(start, end)).map((line) => ({ text: line.text, start: line.start + start, end: line.end + start }));
  // The first line starts right after the quotes: it is as deep as the docstring's other lines.
  const rest = lines.slice(1).filter((line) => line.text.trim() !== '');
  const baseIndent = rest.length > 0 ? Math.min(...rest.map((line) => INDENT(line.text))) : 0;
  const indentOf = (i: number): number => (i === 0 && start > 0 && source[start - 1] !== '\n' ? baseIndent : INDENT(lines[i]!.text));
  let first = -1;
  let last = -1;
  let sectionIndent = -1;
  let heading = '';
  const flush = () => {
    if (first < 0) return;
    const from = out.length;
    proseUnits(source, lines[first]!.start, lines[last]!.end, out);
    // "Returns: the usage" answers "what does it return": the heading counts for matching.
    if (sectionIndent >= 0 && heading) for (let u = from; u < out.length; u++) out[u]!.context = heading;
    if (RETURNS_FIELD.test(lines[first]!.text) || (sectionIndent >= 0 && RETURNS_SECTION.test(heading))) out[from]!.docRole ??= 'returns';
    first = -1;
  };
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!.text;
    if (text.trim() === '') {
      flush();
      continue;
    }
    const indent = indentOf(i);
    if (sectionIndent >= 0 && indent <= sectionIndent && !DOC_SECTION.test(text)) sectionIndent = -1;
    if (DOC_SECTION.test(text) || RST_UNDERLINE.test(text.trim())) {
      flush();
      if (DOC_SECTION.test(text)) {
        sectionIndent = indent;
        heading = text.trim().replace(/:$/, '');
      }
      continue;
    }
    if (DOCTEST.test(text)) {
      // A session: each `>>>` statement with the output printed under it is one unit.
      flush();
      let j = i + 1;
      while (j < lines.length && lines[j]!.text.trim() !== '' && !DOCTEST.test(lines[j]!.text)) j++;
      const [unitStart, unitEnd] = trimmedRange(source, lines[i]!.start, lines[j - 1]!.end);
      out.push({ kind: 'code', display: collapse(source.slice(unitStart, unitEnd)), start: unitStart, end: unitEnd });
      i = j - 1;
      continue;
    }
    const directive = CODE_DIRECTIVE.test(text);
    if (directive || (/::\s*$/.test(text) && !/^\s*\.\./.test(text))) {
      // "Example::" ends its paragraph; the indented lines under it are code.
      if (!directive && !/^\s*::\s*$/.test(text)) {
        if (first < 0 || DOC_FIELD.test(text) || LIST_ITEM.test(text)) {
          flush();
          first = i;
        }
        last = i;
      }
      flush();
      let j = i + 1;
      while (j < lines.length && DIRECTIVE_OPTION.test(lines[j]!.text)) j++;
      const body = j;
      while (j < lines.length && (lines[j]!.text.trim() === '' || INDENT(lines[j]!.text) > indent)) j++;
      codeUnits(source, lines, body, j, out);
      i = j - 1;
      continue;
    }
    if (/^\s*\.\.\s/.test(text) || DOC_FIELD.test(text) || LIST_ITEM.test(text) || (sectionIndent >= 0 && indent <= sectionIndent + 4 && DOC_ENTRY.test(text))) flush();
    if (first < 0) first = i;
    last = i;
  }
  flush();
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
      codeUnits(text, lines, i + 1, close, out);
      i = close + 1;
      continue;
    }
    if (CODE_DIRECTIVE.test(line.text)) {
      endParagraph();
      const indent = line.text.length - line.text.trimStart().length;
      let j = i + 1;
      while (j < lines.length && DIRECTIVE_OPTION.test(lines[j]!.text)) j++;
      const body = j;
      while (j < lines.length && (lines[j]!.text.trim() === '' || lines[j]!.text.length - lines[j]!.text.trimStart().length > indent)) j++;
      codeUnits(text, lines, body, j, out);
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
      codeUnits(text, lines, i + 1, j, out);
      i = j;
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

const TRIPLE_QUOTE = /"""|'''/;
/** A line that a docstring can follow: a `def` or `class` header, or an assignment or call left open. */
const BEFORE_DOCSTRING = /(:|=|\(|,)\s*(#.*)?$/;

/**
 * Where the docstring a code span starts inside ends: a span cut from a long function or
 * class can begin in the middle of its docstring, and those lines are prose, not code. The
 * first triple quote closes a docstring when text precedes it on its line, or when it
 * stands alone after lines that no docstring could follow (not a `def` header, an open
 * assignment or call). -1 when the span starts in code.
 */
function docstringCloseAt(text: string, lines: readonly Line[]): number {
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const found = TRIPLE_QUOTE.exec(line.text);
    if (!found) continue;
    if (DOCSTRING_OPEN.test(line.text)) {
      const opensOnly = line.text.trim() === found[0];
      if (!opensOnly) return -1;
      // A lone quote opens when it follows what a docstring follows, or only comments (a
      // module docstring under a license header).
      const previous = lines.slice(0, i).reverse().find((l) => l.text.trim() !== '' && !COMMENT.test(l.text));
      return previous === undefined || BEFORE_DOCSTRING.test(previous.text) ? -1 : line.start + found.index;
    }
    // Text before the quote: an open string (`x = """…`, `f("""…`) or the end of a docstring.
    // A quote character before it could make it part of an ordinary string: keep reading it as code.
    const before = line.text.slice(0, found.index);
    return /["']/.test(before) || /(=|\(|,|\breturn)\s*[rRbBuUfF]{0,2}$/.test(before) ? -1 : line.start + found.index;
  }
  return -1;
}

/** A line only code writes: a statement keyword, an assignment, a decorator, or a line left open for the next. */
const CODE_STATEMENT =
  /^\s*(def|class|return|if|elif|else|for|while|with|try|except|finally|import|from|raise|assert|yield|async|await|pass|break|continue|lambda|del|global|nonlocal)\b|^\s*@\w|^\s*[\w.[\]'"]+\s*(:\s*[^=\s][^=]*)?[-+*/|&%]?=(?!=)|[([{,\\]\s*$|^\s*[)\]}]/;
/** Below this share of code statements among its lines (comments aside), a span is prose. */
const MAX_CODE_SHARE = 0.2;

/** Whether the lines of a span with no triple quotes read as a docstring's text rather than code. */
function readsAsProse(lines: readonly Line[]): boolean {
  let prose = 0;
  let code = 0;
  for (const line of lines) {
    if (line.text.trim() === '' || COMMENT.test(line.text)) continue;
    if (CODE_STATEMENT.test(line.text)) code++;
    else prose++;
  }
  return prose >= 3 && code <= MAX_CODE_SHARE * (prose + code);
}

/** The quotable units of one span, in text order. */
export function splitIntoUnits(text: string, filePath: string): TextUnit[] {
  if (isCodePath(filePath)) {
    const lines = splitLines(text);
    const out: TextUnit[] = [];
    const python = /\.pyi?$/i.test(filePath);
    if (python && !TRIPLE_QUOTE.test(text) && readsAsProse(lines)) {
      // A span cut from the middle of a long docstring, quotes on neither side.
      docstringUnits(text, 0, text.length, out);
      return out;
    }
    const close = python ? docstringCloseAt(text, lines) : -1;
    if (close < 0) {
      codeUnits(text, lines, 0, lines.length, out);
      return out;
    }
    docstringUnits(text, 0, close, out);
    const after = lines.findIndex((line) => line.end > close);
    codeUnits(text, lines, after + 1, lines.length, out);
    return out;
  }
  return docUnits(text);
}
