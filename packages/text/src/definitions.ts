// What may follow a defined name (after its edge underscores): `= …` or `: type = …` (an
// assignment, an annotated field, a keyword default), or `:` (a field, a docstring entry,
// a dictionary key when the name is quoted).
const ASSIGNMENT = /[ \t]*(?::[^=\n]{0,80})?=(?!=)/y;
const COLON = /[ \t]*:/y;

function isWordUnit(unit: number): boolean {
  return (unit >= 97 && unit <= 122) || (unit >= 48 && unit <= 57) || unit === 95 || (unit >= 65 && unit <= 90);
}

/**
 * The occurrence of `name` at `at` widened over its edge underscores (`__name_`), or
 * undefined when it is only part of a longer word (`rename`, `name2`).
 */
function wholeNameAt(lowered: string, name: string, at: number): { start: number; end: number } | undefined {
  let start = at;
  while (start > 0 && lowered.charCodeAt(start - 1) === 95) start--;
  let end = at + name.length;
  while (end < lowered.length && lowered.charCodeAt(end) === 95) end++;
  if ((start > 0 && isWordUnit(lowered.charCodeAt(start - 1))) || (end < lowered.length && isWordUnit(lowered.charCodeAt(end)))) return undefined;
  return { start, end };
}

/** True when only spaces and tabs stand between the start of the line and `index`. */
function startsLine(text: string, index: number): boolean {
  for (let i = index - 1; i >= 0; i--) {
    const unit = text.charCodeAt(i);
    if (unit === 10) return true;
    if (unit !== 32 && unit !== 9) return false;
  }
  return true;
}

/**
 * Does `text` define `name` (an identifier term: lowercase, pieces joined by `_`) rather
 * than merely mention it? A definition is `def name` / `class name`, an assignment or
 * annotated field (`name = …`, `self.name = …`, `name: int = …`, also a keyword default in
 * a signature), a line that starts with `name:` (a field without a default, or the entry
 * that documents an argument in a docstring), or a quoted dictionary key (`"name": …`, how
 * settings tables and registries are written). Case is ignored and edge underscores are
 * not part of the name (`_call_hf_processor` defines `call_hf_processor`). `lowered` is
 * `text` lowercased (the caller lowers a chunk once for all of a query's names).
 */
export function definesName(text: string, lowered: string, name: string): boolean {
  for (let at = lowered.indexOf(name); at >= 0; at = lowered.indexOf(name, at + 1)) {
    const whole = wholeNameAt(lowered, name, at);
    if (whole && definedAt(text, whole.start, whole.end)) return true;
  }
  return false;
}

/** Whether the name occupying [start, end) of `text` (edge underscores included) is defined there (see `definesName`). */
function definedAt(text: string, start: number, end: number): boolean {
  const before = text.charCodeAt(start - 1);
  const quoted = (before === 34 || before === 39) && text.charCodeAt(end) === before;
  if (quoted) {
    COLON.lastIndex = end + 1;
    return COLON.test(text);
  }
  ASSIGNMENT.lastIndex = end;
  if (ASSIGNMENT.test(text)) return true;
  if (followsDefOrClass(text, start)) return true;
  COLON.lastIndex = end;
  return startsLine(text, start) && COLON.test(text);
}

/** Whether `def` or `class`, then spaces or tabs, stand right before `start` (as a whole word). */
function followsDefOrClass(text: string, start: number): boolean {
  let i = start;
  while (i > 0 && (text.charCodeAt(i - 1) === 32 || text.charCodeAt(i - 1) === 9)) i--;
  if (i === start) return false;
  for (const keyword of ['def', 'class']) {
    const from = i - keyword.length;
    if (from >= 0 && text.startsWith(keyword, from) && (from === 0 || !isWordUnit(text.charCodeAt(from - 1)))) return true;
  }
  return false;
}

/** Whether position `start` of `lowered` lies inside an inline code span: an odd number of backtick runs before it on its line. */
function insideCodeSpan(lowered: string, start: number): boolean {
  let runs = 0;
  for (let i = start - 1; i >= 0; i--) {
    const unit = lowered.charCodeAt(i);
    if (unit === 10) break;
    if (unit === 96 && lowered.charCodeAt(i + 1) !== 96) runs++;
  }
  return runs % 2 === 1;
}

/**
 * Every name spelled with an inner `_` that `text` defines (`definesName` true) or, for
 * `explains`, that prose `text` explains (`explainsName` true): lowercased, edge underscores
 * dropped. Computed once per chunk when an index is built, so a search asks a set instead
 * of reading the text. One pass over the text's UTF-16 units; a run of word characters
 * without an inner underscore (most words) costs no allocation.
 */
export function separatedNamesIn(text: string, mode: 'defines' | 'explains'): Set<string> {
  const names = new Set<string>();
  let lowered: string | undefined;
  const length = text.length;
  // Only runs of word characters around an underscore can be such names: jump from one
  // underscore to the next (a native search) and widen each to its whole run.
  for (let underscore = text.indexOf('_'); underscore >= 0; ) {
    let start = underscore;
    while (start > 0 && isWordUnit(text.charCodeAt(start - 1))) start--;
    let end = underscore + 1;
    while (end < length && isWordUnit(text.charCodeAt(end))) end++;
    underscore = text.indexOf('_', end);
    let first = start;
    let last = end;
    while (first < last && text.charCodeAt(first) === 95) first++;
    while (last > first && text.charCodeAt(last - 1) === 95) last--;
    const inner = text.indexOf('_', first);
    if (inner < 0 || inner >= last) continue;
    const name = text.slice(first, last).toLowerCase();
    if (names.has(name)) continue;
    const found = mode === 'defines' ? definedAt(text, start, end) : insideCodeSpan((lowered ??= text.toLowerCase()), start);
    if (found) names.add(name);
  }
  return names;
}

/**
 * Does prose `text` explain `name` (an identifier term, see `definesName`): name it inside
 * an inline code span (`` `mm_kwargs` ``, ``self.mm_kwargs``, RST's ` ``name`` `)? Prose
 * cannot define a name, but documentation that spells it as code is where it is
 * explained; a plain-word mention ("the processor") is not. A name is inside a span
 * when an odd number of backtick runs precede it on its line. Case and edge underscores
 * are ignored as in `definesName`; `lowered` is `text` lowercased.
 */
export function explainsName(lowered: string, name: string): boolean {
  for (let at = lowered.indexOf(name); at >= 0; at = lowered.indexOf(name, at + 1)) {
    const whole = wholeNameAt(lowered, name, at);
    if (whole && insideCodeSpan(lowered, whole.start)) return true;
  }
  return false;
}

const LINE_ASSIGNED = /^\s*(?:self\.)?([A-Za-z_]\w*)\s*(?::[^=]+)?=(?!=)/;
const LINE_DEFINED = /^\s*(?:async\s+)?(?:def|class)\s+([A-Za-z_]\w*)/;
/** `name: type = default` or `name=default` inside a signature or call. */
const LINE_PARAMETER = /[(,]\s*([A-Za-z_]\w*)\s*(?::\s*[^=,()]+(?:\[[^\]]*\])?)?\s*=(?!=)/g;

/** `x=x,`, `self.x = x`, `x = x`: the whole line. */
const PASS_THROUGH = /^\s*(?:self\.)?([A-Za-z_]\w*)\s*=\s*([A-Za-z_]\w*)\s*,?\s*\)?\s*$/;

/** A statement that is one call: `f(…)`, `super().__init__(…)`, `CEmitter.__init__(self, …)`. */
const CALL_STATEMENT = /^\s*(?:[A-Za-z_]\w*(?:\(\))?\.)*[A-Za-z_]\w*\(/;
/** A keyword argument's name and `=`, wherever it stands in the line. */
const KEYWORD = /[(,]\s*[A-Za-z_]\w*\s*=(?!=)/g;
/** A keyword argument that passes on the name it is called by (`width=width`), up to the next comma or closing parenthesis. */
const FORWARDED_KEYWORD = /[(,]\s*([A-Za-z_]\w*)\s*=(?!=)\s*([A-Za-z_]\w*)\s*(?=[,)])/g;

/**
 * A line that only hands a name on — a keyword argument passed through (`x=x,`), a
 * parameter stored (`self.x = x`), a call whose every keyword argument passes a name of
 * the same spelling on (`Base.__init__(self, width=width, indent=indent)`, a wrapper
 * forwarding its parameters) — and so defines nothing and gives no value of its own.
 */
export function isPassThrough(line: string): boolean {
  const match = PASS_THROUGH.exec(line);
  if (match !== null) return match[1] === match[2];
  if (!CALL_STATEMENT.test(line)) return false;
  // Every keyword argument, nested calls' included, must be one that forwards its own name.
  const keywords = line.match(KEYWORD)?.length ?? 0;
  let forwarded = 0;
  for (const [, name, value] of line.matchAll(FORWARDED_KEYWORD)) if (name === value) forwarded++;
  return keywords > 0 && forwarded === keywords;
}

/**
 * The names one line of code defines, lowercased: the target of an assignment that starts
 * the line (`self.` allowed), a `def`/`class` name, and defaulted parameters; none for a
 * line that only hands a name on (`isPassThrough`). The
 * line-level sibling of {@link definesName}: it reads a single quoted line (an extractive
 * answer's unit), so it has no multi-line forms such as docstring entries or dict keys.
 */
export function definedNames(line: string): string[] {
  if (isPassThrough(line)) return [];
  const names: string[] = [];
  const assigned = LINE_ASSIGNED.exec(line)?.[1];
  if (assigned) names.push(assigned);
  const defined = LINE_DEFINED.exec(line)?.[1];
  if (defined) names.push(defined);
  for (const match of line.matchAll(LINE_PARAMETER)) names.push(match[1]!);
  return names.map((n) => n.toLowerCase());
}
