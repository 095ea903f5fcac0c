import type { Chunk } from '@rag/core';

/**
 * A class header and the docstring that opens its body: decorators, `class Name(bases):`
 * (bases may span lines and hold one level of nested parentheses), then a string literal as
 * the first statement — triple-quoted, or on one line in single or double quotes. Group 1 is
 * the class's name, group 3 a triple-quoted docstring's text, group 5 a one-line one's.
 */
const CLASS_WITH_DOCSTRING =
  /^\s*(?:@[^\n]*\n\s*)*class\s+([A-Za-z_]\w*)\s*(?:\((?:[^()]|\([^()]*\))*\))?\s*:[ \t]*(?:#[^\n]*)?\n\s*[rRuU]?(?:("""|''')([\s\S]*?)\2|(["'])((?:[^"'\\\n]|\\.)*)\4)/;
/** Any class header, with or without a docstring: a chunk that starts with one holds the class's own text. */
const CLASS_HEADER = /^\s*(?:@[^\n]*\n\s*)*class\s/;

/** Tunables of class summaries; each has a reason, none a corpus. */
export const CLASS_SUMMARY_LIMITS = Object.freeze({
  /** Longest summary carried (characters): a first sentence longer than this describes more than what the class is. */
  maxLength: 300,
});

/**
 * The summary line of a docstring (PEP 257: one sentence saying what the object is or
 * does): its first sentence, white space collapsed, '' when it has none.
 */
export function summaryLine(docstring: string): string {
  const paragraph = docstring.trim().split(/\n[ \t]*\n/)[0] ?? '';
  const sentence = paragraph.split(/(?<=[.!?])\s/)[0] ?? '';
  const line = sentence.replace(/\s+/g, ' ').trim();
  return line.length > CLASS_SUMMARY_LIMITS.maxLength ? '' : line;
}

/** The last dotted part of a symbol (`Outer.Inner` → `Inner`). */
function lastPart(symbol: string): string {
  return symbol.slice(symbol.lastIndexOf('.') + 1);
}

/**
 * The summary of the innermost documented class `symbol` belongs to (`Outer.Inner.run` →
 * `Outer.Inner`'s, else `Outer`'s), undefined for none; `self`: whether `symbol` names that
 * class itself rather than one of its members.
 */
function enclosingSummary(symbol: string, byClass: ReadonlyMap<string, string>): { summary: string; self: boolean } | undefined {
  for (let end = symbol.length; end > 0; end = symbol.lastIndexOf('.', end - 1)) {
    const summary = byClass.get(symbol.slice(0, end));
    if (summary !== undefined) return { summary, self: end === symbol.length };
  }
  return undefined;
}

/**
 * Per chunk, the summary line of the innermost documented class it belongs to (`''` for
 * none): every Python chunk whose symbol is a class or one of its members, except the
 * chunks that hold the class's own header and docstring. A class's docstring says what it
 * is for in the words a person uses ("The sandboxed environment", "Loads templates from the
 * file system"), while its methods say `is_safe_attribute` and `get_source`; indexed with
 * each method (in the anchor field, never in its text or span), those words let a question
 * that describes the class's role reach the method that does the work. Summaries come from
 * the chunk's own file only: a re-index of an unchanged file gives the same text.
 */
export function classSummaries(chunks: readonly Chunk[]): string[] {
  const summaries = new Array<string>(chunks.length).fill('');
  let start = 0;
  while (start < chunks.length) {
    const path = chunks[start]!.file_path;
    let end = start + 1;
    while (end < chunks.length && chunks[end]!.file_path === path) end++;
    if (chunks[start]!.language === 'python') summariseRun(chunks, start, end, summaries);
    start = end;
  }
  return summaries;
}

/**
 * `classSummaries`, a file at a time: chunk d's summary, its file's summarised when one of
 * its chunks is first asked about. An update asks about the chunks it analyses only.
 */
export function lazyClassSummaries(chunks: readonly Chunk[]): (d: number) => string {
  const summaries = new Array<string>(chunks.length).fill('');
  const done = new Uint8Array(chunks.length);
  return (d) => {
    if (done[d] === 0) {
      const path = chunks[d]!.file_path;
      let start = d;
      while (start > 0 && chunks[start - 1]!.file_path === path) start--;
      let end = d + 1;
      while (end < chunks.length && chunks[end]!.file_path === path) end++;
      if (chunks[start]!.language === 'python') summariseRun(chunks, start, end, summaries);
      done.fill(1, start, end);
    }
    return summaries[d]!;
  };
}

/** Fills `summaries` for the chunks `start … end` of one file. */
function summariseRun(chunks: readonly Chunk[], start: number, end: number, summaries: string[]): void {
  // Documented classes by their full symbol (`Outer.Inner` for a nested one).
  const byClass = new Map<string, string>();
  for (let i = start; i < end; i++) {
    const { symbol, kind } = chunks[i]!;
    // A class's header opens a chunk of kind `class` (`ChunkKind` of @rag/core: a whole class,
    // or its header and fields), so only those are read: an update whose texts load lazily
    // reads a tenth of the chunks' texts.
    if (kind !== 'class' || symbol === '' || byClass.has(symbol)) continue;
    // The chunk must define the class its symbol names (not merely start with some class).
    const match = CLASS_WITH_DOCSTRING.exec(chunks[i]!.text);
    if (match && match[1] === lastPart(symbol)) byClass.set(symbol, summaryLine(match[3] ?? match[5]!));
  }
  if (byClass.size === 0) return;
  for (let i = start; i < end; i++) {
    const { symbol } = chunks[i]!;
    if (symbol === '') continue;
    const found = enclosingSummary(symbol, byClass);
    // The chunk that opens the class holds its docstring already (its text is read only then).
    if (found && found.summary !== '' && !(found.self && CLASS_HEADER.test(chunks[i]!.text))) summaries[i] = found.summary;
  }
}
