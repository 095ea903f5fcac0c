/**
 * Least share of a Python chunk's visible characters that its docstrings and comments must
 * hold for the chunk to read as a description. In [0, 1]. A class header, module preamble
 * or abstract method is mostly words about behaviour that lives elsewhere.
 */
export const DESCRIPTION_MIN_PROSE_SHARE = 0.6;
/**
 * Most lines of code (outside docstrings and comments) a description may have: a `def` or
 * `class` line, a `pass` or `raise NotImplementedError`, a few class attributes. A class
 * that declares its fields, each with its own docstring, has more, and its defaults are
 * answers.
 */
export const DESCRIPTION_MAX_CODE_LINES = 5;

/** A line that opens a statement string: an optional `r`/`u`/`b`/`f` prefix, then `"""` or `'''`. */
const STRING_STATEMENT = /^[rRuUbBfF]{0,2}("""|''')/;

/**
 * A line only code writes: a statement keyword, an assignment, a decorator, or a line left
 * open for the next. Shared with the extractive reader of `@rag/generation`; tested with
 * {@link isCodeStatement}, which gives the same answer faster.
 */
export const CODE_STATEMENT =
  /^\s*(def|class|return|if|elif|else|for|while|with|try|except|finally|import|from|raise|assert|yield|async|await|pass|break|continue|lambda|del|global|nonlocal)\b|^\s*@\w|^\s*[\w.[\]'"]+\s*(:\s*[^=\s][^=]*)?[-+*/|&%]?=(?!=)|[([{,\\]\s*$|^\s*[)\]}]/;

/** The alternatives of {@link CODE_STATEMENT} that start the line, in one anchored pattern. */
const CODE_STATEMENT_START = /^\s*(?:(?:def|class|return|if|elif|else|for|while|with|try|except|finally|import|from|raise|assert|yield|async|await|pass|break|continue|lambda|del|global|nonlocal)\b|@\w|[\w.[\]'"]+\s*(?::\s*[^=\s][^=]*)?[-+*/|&%]?=(?!=)|[)\]}])/;
/** What a line left open for the next ends with (before trailing white space). */
const OPENERS = '([{,\\';

/**
 * Whether `line` matches {@link CODE_STATEMENT}: its alternatives that start the line tried
 * once, at the start, and "left open" read off the line's last visible character, instead of
 * the engine trying that alternative at every position (every line of every chunk passes here).
 */
export function isCodeStatement(line: string): boolean {
  if (CODE_STATEMENT_START.test(line)) return true;
  const end = line.trimEnd();
  return end !== '' && OPENERS.includes(end[end.length - 1]!);
}

/** Most share of code-like lines among the words before a closing quote (prose lines can end in a comma). */
const MAX_TAIL_CODE_SHARE = 0.2;

/**
 * How many of `lines` a chunk that starts inside a docstring (a long one cut in two) holds
 * before the docstring's closing quotes, those included; 0 when it does not start so. It
 * does when the first triple quote closes (text before it on its line, or alone on it) and
 * at most a fifth of the lines before it read as code.
 */
function docstringTailLength(lines: readonly string[]): number {
  let words = 0;
  let code = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const trimmed = line.trim();
    const at = line.search(/"""|'''/);
    if (at < 0) {
      // Comments before a lone quote are a license header above a module docstring.
      if (trimmed === '' || trimmed.startsWith('#')) continue;
      if (isCodeStatement(line)) code++;
      else words++;
      continue;
    }
    const before = line.slice(0, at).trim();
    // `"""Summary…` opens; so does a lone quote with nothing but comments above it.
    if (before === '' && (trimmed.length > 3 || words + code === 0)) return 0;
    // `x = """…`, `f("""…`, `return """…` open a string value.
    if (/["'=(,]$|\breturn$/.test(before)) return 0;
    return code <= MAX_TAIL_CODE_SHARE * (words + code) ? i + 1 : 0;
  }
  return 0;
}

/**
 * Does this Python chunk describe rather than do? True when its docstrings (a triple-quoted
 * string that is a statement of its own, not a value after `=` or `(`) and its `#` comments
 * hold at least `minProseShare` of its non-space characters and at most `maxCodeLines` of
 * its lines are code. A chunk that starts inside a docstring (a long one cut in two) counts
 * its first lines as code, so it reads as a description only when they are few.
 */
export function readsAsDescription(code: string, minProseShare = DESCRIPTION_MIN_PROSE_SHARE, maxCodeLines = DESCRIPTION_MAX_CODE_LINES): boolean {
  let prose = 0;
  let total = 0;
  let codeLines = 0;
  let closing: string | undefined;
  const lines = code.split('\n');
  const tail = docstringTailLength(lines);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const trimmed = line.trim();
    if (i < tail) {
      const visible = countVisible(trimmed);
      total += visible;
      prose += visible;
      continue;
    }
    const visible = countVisible(trimmed);
    total += visible;
    if (closing !== undefined) {
      prose += visible;
      if (trimmed.includes(closing)) closing = undefined;
      continue;
    }
    if (trimmed === '') continue;
    if (trimmed.startsWith('#')) {
      prose += visible;
      continue;
    }
    const opened = STRING_STATEMENT.exec(trimmed);
    if (opened) {
      prose += visible;
      const quotes = opened[1]!;
      if (!trimmed.slice(opened[0].length).includes(quotes)) closing = quotes;
      continue;
    }
    codeLines++;
    if (codeLines > maxCodeLines) return false;
  }
  return total > 0 && prose >= minProseShare * total;
}

function countVisible(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit !== 32 && unit !== 9 && unit !== 13) n++;
  }
  return n;
}
