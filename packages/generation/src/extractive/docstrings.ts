/**
 * Docstrings read as the small RST documents they are: fields, section entries, literal
 * blocks and `>>>` sessions become units of their own. Also: where a code span that starts
 * inside a docstring leaves it.
 */
import { isCodeStatement } from '@rag/text';
import { CODE_DIRECTIVE, COMMENT, DIRECTIVE_OPTION, DOCSTRING_OPEN, LIST_ITEM, RST_UNDERLINE, collapse, proseUnits, splitLines, trimmedRange, type Line, type TextUnit } from './text-lines.js';

/** How the code lines of a docstring's literal block are read (the code reader of `units.ts`). */
export type ReadCode = (source: string, lines: readonly Line[], from: number, to: number, out: TextUnit[]) => void;

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
export function docstringUnits(source: string, start: number, end: number, out: TextUnit[], readCode: ReadCode): void {
  const from = out.length;
  readDocstring(source, start, end, out, readCode);
  for (let u = from; u < out.length; u++) {
    const unit = out[u]!;
    unit.doc = true;
    if (unit.kind === 'prose') {
      unit.display = readableField(unit.display);
      if (unit.matched !== undefined) unit.matched = readableField(unit.matched);
    }
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

function readDocstring(source: string, start: number, end: number, out: TextUnit[], readCode: ReadCode): void {
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
      readCode(source, lines, body, j, out);
      i = j - 1;
      continue;
    }
    if (/^\s*\.\.\s/.test(text) || DOC_FIELD.test(text) || LIST_ITEM.test(text) || (sectionIndent >= 0 && indent <= sectionIndent + 4 && DOC_ENTRY.test(text))) flush();
    if (first < 0) first = i;
    last = i;
  }
  flush();
}

export const TRIPLE_QUOTE = /"""|'''/;
/** A line that a docstring can follow: a `def` or `class` header, or an assignment or call left open. */
const BEFORE_DOCSTRING = /(:|=|\(|,)\s*(#.*)?$/;

/**
 * Where the docstring a code span starts inside ends: a span cut from a long function or
 * class can begin in the middle of its docstring, and those lines are prose, not code. The
 * first triple quote closes a docstring when text precedes it on its line, or when it
 * stands alone after lines that no docstring could follow (not a `def` header, an open
 * assignment or call). -1 when the span starts in code.
 */
export function docstringCloseAt(text: string, lines: readonly Line[]): number {
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

/** Below this share of code statements among its lines (comments aside), a span is prose. */
const MAX_CODE_SHARE = 0.2;

/** Whether the lines of a span with no triple quotes read as a docstring's text rather than code. */
export function readsAsProse(lines: readonly Line[]): boolean {
  let prose = 0;
  let code = 0;
  for (const line of lines) {
    if (line.text.trim() === '' || COMMENT.test(line.text)) continue;
    if (isCodeStatement(line.text)) code++;
    else prose++;
  }
  return prose >= 3 && code <= MAX_CODE_SHARE * (prose + code);
}
