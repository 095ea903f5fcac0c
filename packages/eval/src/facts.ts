/**
 * Key facts of a reference answer: what an answer must contain to be of use without
 * opening the source. Inline code, quoted strings, flags, paths, identifiers (snake_case,
 * dotted, camelCase, PascalCase with an inner capital, UPPER_CASE) and numbers, lower-cased;
 * prose words are not facts ("The default is 16" has one fact, `16`).
 */
/**
 * Latin abbreviations English prose writes with inner dots ("e.g.", "i.e."), which the dotted
 * identifier pattern would otherwise take for a name: they introduce a fact, they are not one
 * (27 of the 801 answered questions here use one).
 */
const PROSE_ABBREVIATIONS: ReadonlySet<string> = new Set(['e.g', 'i.e', 'a.k.a', 'et.al', 'n.b', 'q.v', 'viz']);

/**
 * A quoted string: in double quotes, or in single quotes that stand apart from words, so the
 * apostrophes of "the model's … the parent's" enclose no string.
 */
const QUOTED = /"([^"\n]{2,60})"|(?<![\p{L}\p{N}])'([^'\n]{2,60})'(?![\p{L}\p{N}])/gu;

export function keyFacts(reference: string): string[] {
  const facts = new Set<string>();
  const add = (fact: string): void => {
    const normal = fact.trim().replace(/[.,;:]+$/, '').toLowerCase();
    if (normal.length > 0) facts.add(normal);
  };
  for (const m of reference.matchAll(/`([^`\n]+)`/g)) add(m[1]!);
  let rest = reference.replace(/`[^`\n]+`/g, ' ');
  for (const m of rest.matchAll(QUOTED)) add((m[1] ?? m[2])!);
  rest = rest.replace(QUOTED, ' ');
  for (const m of rest.matchAll(/(?<![\w-])--?[A-Za-z][\w-]*/g)) add(m[0]);
  rest = rest.replace(/(?<![\w-])--?[A-Za-z][\w-]*/g, ' ');
  for (const m of rest.matchAll(/[\w.~-]*\/[\w./-]+/g)) if (/[A-Za-z]/.test(m[0])) add(m[0]);
  rest = rest.replace(/[\w.~-]*\/[\w./-]+/g, ' ');
  const identifier =
    /\b[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+\b|\b[A-Za-z0-9]*_[A-Za-z0-9_]+\b|\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\b|\b[A-Z][A-Z0-9]{2,}\b/g;
  for (const m of rest.matchAll(identifier)) if (!PROSE_ABBREVIATIONS.has(m[0].toLowerCase())) add(m[0]);
  for (const m of rest.matchAll(/(?<![\w.])\d+(?:\.\d+)*(?:e-?\d+)?(?!\w)/gi)) add(m[0]);
  return [...facts];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** How many of `facts` (from `keyFacts`) `text` contains; a number counts only standing alone (16 is not in 160). */
export function countFacts(text: string, facts: readonly string[]): number {
  const lowered = text.toLowerCase();
  let found = 0;
  for (const fact of facts) {
    if (/^[\d.e-]+$/.test(fact)) {
      if (new RegExp(`(?<![\\d.])${escapeRegExp(fact)}(?!\\d|\\.\\d)`).test(lowered)) found++;
    } else if (lowered.includes(fact)) found++;
  }
  return found;
}

/** Whether `text` states the fact: it holds at least half of the reference's key facts (false when there are none). */
export function statesFacts(text: string, facts: readonly string[]): boolean {
  return facts.length > 0 && countFacts(text, facts) * 2 >= facts.length;
}
