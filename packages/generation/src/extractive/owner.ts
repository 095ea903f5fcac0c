/**
 * Which function or class a quoted line of Python belongs to, read from the source's own
 * text. A source's symbol is the one of the chunk that matched; a hit that joins its file's
 * next chunks (`rerank.joinSpan` of @rag/bm25) covers other definitions too, and a line of the
 * second one (`class NotFound`'s docstring under `HTTPError.handle`) belongs to that one.
 */

/** A `def`, `async def` or `class` line: its indentation and the name it defines. */
const HEADER = /^([ \t]*)(?:async[ \t]+def|def|class)[ \t]+([A-Za-z_]\w*)/;

function indentOf(line: string): number {
  let i = 0;
  while (i < line.length && (line[i] === ' ' || line[i] === '\t')) i++;
  return i;
}

/** A line that closes a bracket (`) -> int:`, `]`): the end of a multi-line expression, not a block. */
const CLOSER = /^[ \t]*[)\]}]/;

/**
 * The indentation of one level of nesting in `text`: the smallest step between two of its
 * lines' indentations (4 when every line stands at one indentation).
 */
function indentStep(text: string): number {
  const levels = new Set<number>();
  for (const line of text.split('\n')) if (line.trim() !== '') levels.add(indentOf(line));
  const sorted = [...levels].sort((a, b) => a - b);
  let step = Number.POSITIVE_INFINITY;
  for (let i = 1; i < sorted.length; i++) step = Math.min(step, sorted[i]! - sorted[i - 1]!);
  return Number.isFinite(step) ? step : 4;
}

/**
 * The qualified name (`Class.method`) of the definition that holds the line `offset` lies on
 * in the Python `text` (that line itself when it is a `def` or `class` line), read by walking
 * up to the less indented lines; `fallback` (the source's symbol) when no definition line
 * holds it within `text`. When the outermost definition found is itself indented (what holds
 * it starts before `text`), it is qualified by as many of `fallback`'s names as it is
 * indented steps deep: the chunks a hit joins are neighbours in one file, so a method found
 * one step in is a sibling of the matched method (`Class.other`), a function two steps in
 * is nested in the matched method (`Class.method.inner`).
 */
export function ownerAt(text: string, offset: number, fallback: string): string {
  const names: string[] = [];
  let lineEnd = text.indexOf('\n', offset);
  if (lineEnd < 0) lineEnd = text.length;
  let lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  let threshold = Number.POSITIVE_INFINITY;
  let outermost = -1;
  let first = true;
  for (;;) {
    const line = text.slice(lineStart, lineEnd);
    if (line.trim() !== '' && !CLOSER.test(line)) {
      const indent = indentOf(line);
      const header = HEADER.exec(line);
      if (first || indent < threshold) {
        if (header) {
          names.unshift(header[2]!);
          outermost = indent;
          threshold = indent;
        } else {
          // A block (`if`, `try`, a docstring's line) or the quoted line itself: only a line
          // indented less can hold what holds it.
          threshold = first ? indent : Math.min(threshold, indent);
          if (!first && indent === 0) break;
        }
        if (header && indent === 0) break;
      }
      first = false;
    }
    if (lineStart === 0) break;
    lineEnd = lineStart - 1;
    lineStart = text.lastIndexOf('\n', lineEnd - 1) + 1;
  }
  if (names.length === 0) return fallback;
  const found = names.join('.');
  // The matched chunk's own definition: its symbol may say more (`paths.safe_join`).
  if (fallback === found || fallback.endsWith(`.${found}`)) return fallback;
  if (outermost > 0) {
    const depth = Math.max(1, Math.round(outermost / indentStep(text)));
    return [...fallback.split('.').slice(0, depth), ...names].join('.');
  }
  return found;
}
