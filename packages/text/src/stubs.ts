/**
 * Docs chunks that say nothing themselves: a section made of its title and markup only,
 * such as an autodoc page (`Redis Backend` over `.. automodule:: cachelib.redis` and its
 * options), whose words Sphinx fills in from the code when it builds the site. In the
 * sources a search reads, such a chunk is a few words long and wins on length alone.
 */

/** An RST or Markdown title underline or overline, or a transition: one punctuation character repeated. */
const ADORNMENT = /^\s*([=\-~^"'+*#`:._])\1{2,}\s*$/;
/** An explicit markup line: a directive (`.. automodule:: x`), a target (`.. _name:`), a substitution or a comment. */
const EXPLICIT_MARKUP = /^\s*\.\.(\s|$)/;
/** A directive option under its directive (`   :members:`, `   :show-inheritance:`). */
const DIRECTIVE_OPTION = /^\s+:[\w -]+:/;
/** A Markdown heading. */
const MARKDOWN_HEADING = /^\s{0,3}#{1,6}(\s|$)/;

/**
 * Is this docs chunk nothing but titles and markup? True when every non-blank line is a
 * title (a line over an adornment line), an adornment, a Markdown heading, an explicit
 * markup line (`.. autoclass:: Name`, `.. _label:`, `..` comments) or an option indented
 * under a directive. Any other line — a sentence, a list item, a code block, the indented
 * body of a `.. note::` — is content, and the chunk is no stub. An empty chunk is none.
 * (Mostly-markup chunks — an API page's directives with a one-line description under each
 * attribute — are left alone: counted as stubs, they cost the public docs questions and
 * moved no development one; see docs/retrieval.md.)
 */
export function isMarkupStub(text: string): boolean {
  const lines = text.split('\n');
  let markup = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    markup++;
    if (ADORNMENT.test(line) || EXPLICIT_MARKUP.test(line) || DIRECTIVE_OPTION.test(line) || MARKDOWN_HEADING.test(line)) continue;
    // A title: the next line adorns it.
    if (i + 1 < lines.length && ADORNMENT.test(lines[i + 1]!)) continue;
    return false;
  }
  return markup > 0;
}
