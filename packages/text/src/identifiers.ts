/** The index term of an identifier spelling: its pieces between `_` and `-`, lowercased, joined by `_`. */
export function identifierTerm(identifier: string): string {
  return identifier
    .split(/[-_]+/)
    .filter((piece) => piece.length > 0)
    .join('_')
    .toLowerCase();
}

const INNER_SEPARATOR = /[A-Za-z0-9][_-][A-Za-z0-9]/;
const CAMEL = /[a-z0-9][A-Z]|[A-Z]{2}[a-z]/;

/** True for a name that only code would spell so: snake_case, kebab-case, camelCase, PascalCase with two words. */
export function isIdentifierSpelling(part: string): boolean {
  return INNER_SEPARATOR.test(part) || CAMEL.test(part);
}

/** True for an identifier spelled with `_` or `-` inside it: a variable, parameter, function, setting or flag. */
export function hasInnerSeparator(name: string): boolean {
  return INNER_SEPARATOR.test(name);
}
