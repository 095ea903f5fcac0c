/**
 * Where a chunk defines a name rather than mentions it: `def name` / `class name`, an
 * assignment or annotated field (`name = …`, `name: int = …`, also a keyword default in a
 * signature), a line that starts with `name:` (a field without a default, or the entry
 * that documents an argument in a docstring), or a dictionary key (`"name": …`, how
 * settings tables and registries are written). Built once per query from the identifiers
 * it names.
 */
export function definitionPatterns(identifiers: readonly string[]): RegExp[] {
  return identifiers.map((identifier) => {
    // Spell `-` and `_` alike, so `--max-num-seqs` finds `max_num_seqs = …`.
    const name = identifier
      .split(/[-_]/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[-_]');
    // Edge underscores are not part of the name (the query may drop them: `_call_hf_processor`).
    const word = `(?<!\\w)_*${name}_*(?!\\w)`;
    const forms = [
      `\\b(?:def|class)\\s+${word}`,
      `${word}[ \\t]*(?::[^=\\n]{0,80})?=(?!=)`,
      `^[ \\t]*${word}[ \\t]*:`,
      `['"]${word}['"][ \\t]*:`,
    ];
    return new RegExp(forms.map((form) => `(?:${form})`).join('|'), 'im');
  });
}

/** The index term of an identifier spelling: its pieces between `_` and `-`, lowercased, joined by `_`. */
export function identifierTerm(identifier: string): string {
  return identifier
    .split(/[-_]+/)
    .filter((piece) => piece.length > 0)
    .join('_')
    .toLowerCase();
}
