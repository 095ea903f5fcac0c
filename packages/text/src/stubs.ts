/**
 * Docs chunks that say nothing themselves: a section made of its title and markup only,
 * such as an autodoc page (`Redis Backend` over `.. automodule:: cachelib.redis` and its
 * options), whose words the docs tool fills in from the code when it builds the site. In
 * the sources a search reads, such a chunk is a few words long and wins on length alone.
 */

/** An RST or Markdown title underline or overline, or a transition: one punctuation character repeated. */
const ADORNMENT = /^\s*([=\-~^"'+*#`:._])\1{2,}\s*$/;
/**
 * A line that opens a block of markup: an RST explicit markup line — a directive
 * (`.. automodule:: x`), a target (`.. _name:`), a substitution or a comment — or a
 * MkDocs autodoc instruction (`::: package.module.Name`, as mkdocstrings and mkautodoc write it).
 */
const MARKUP_OPENER = /^\s*(\.\.(\s|$)|:::\s+[\w.]+\s*$)/;
/** A Markdown heading. */
const MARKDOWN_HEADING = /^\s{0,3}#{1,6}(\s|$)/;

const indentOf = (line: string): number => line.length - line.trimStart().length;

/**
 * Is this docs chunk nothing but titles and markup? True when every non-blank line is a
 * title (a line over an adornment line at least as long), an adornment, a Markdown heading, a line that opens
 * markup (`.. autoclass:: Name`, `.. _label:`, `..` comments, `::: pkg.Name`), or a line
 * indented under such an opener with no blank line between — its arguments and options
 * (`:members:`, `options:`), which the docs tool reads and the reader never sees. Any other
 * line — a sentence, a list item, a code block, a directive's content (after its blank line,
 * as a `.. note::`'s text is) — is content, and the chunk is no stub. An empty chunk is none.
 */
export function isMarkupStub(text: string): boolean {
  const lines = text.split('\n');
  let markup = 0;
  // The indentation of the opener whose head (arguments, options) the next lines may continue; -1 for none.
  let head = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') {
      head = -1;
      continue;
    }
    markup++;
    if (head >= 0 && indentOf(line) > head) continue;
    head = -1;
    if (MARKUP_OPENER.test(line)) {
      head = indentOf(line);
      continue;
    }
    if (ADORNMENT.test(line) || MARKDOWN_HEADING.test(line)) continue;
    // A title: the next line adorns it, at least as long as the title (a shorter run of
    // punctuation, such as a `:::` that closes a container, does not).
    const next = lines[i + 1];
    if (next !== undefined && ADORNMENT.test(next) && next.trim().length >= line.trim().length) continue;
    return false;
  }
  return markup > 0;
}
