/**
 * Words of a question mapped to the term Python spells the same concept with, so a
 * question that says "constructor" reaches `__init__` (indexed as `init`). Keys are terms
 * as the tokenizer emits them (stemmed); only language conventions belong here, never
 * names from a particular codebase.
 * (Source: Python's data-model method names, `__init__`, `__del__`, `__iter__`.)
 */
export const DEFAULT_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  constructor: 'init',
  initializer: 'init',
  initialization: 'init',
  initializ: 'init',
  destructor: 'del',
  iterator: 'iter',
  // English: "cannot" is "can not", and `can` is a stopword; the negation is what code spells
  // (`TemplateNotFound`, `is not None`).
  cannot: 'not',
  // Python names its exception classes …Error (PEP 8): "which exception" asks for one.
  exception: 'error',
});
