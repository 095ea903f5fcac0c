/**
 * Deepest container nesting (block quotes and list levels) Markdown is parsed with
 * tree-sitter at. Its Markdown scanner serializes its container stack into 1 KiB and aborts
 * the whole process (SIGABRT) past about 250 levels; the margin keeps well clear of that.
 * Deeper files are chunked line by line instead.
 */
export const MAX_MARKDOWN_NESTING = 100;

/**
 * The deepest container nesting of any line: its `>` markers plus half its leading
 * whitespace (each list level indents by two or more). An over-estimate where code is
 * indented deeply, which only costs the line-based chunking.
 */
export function markdownNesting(text: string): number {
  let deepest = 0;
  let depth = 0;
  let indent = 0;
  let inPrefix = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      deepest = Math.max(deepest, depth + (indent >> 1));
      depth = 0;
      indent = 0;
      inPrefix = true;
      continue;
    }
    if (!inPrefix) continue;
    if (c === 62) depth++; // >
    else if (c === 32) indent++;
    else if (c === 9) indent += 4;
    else inPrefix = false;
  }
  return Math.max(deepest, depth + (indent >> 1));
}
