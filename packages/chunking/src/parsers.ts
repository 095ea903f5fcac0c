import { createRequire } from 'node:module';
import type ParserType from 'tree-sitter';

export type SyntaxNode = ParserType.SyntaxNode;
export type Tree = ParserType.Tree;
export type TreeCursor = ParserType.TreeCursor;

// tree-sitter and its grammars are CommonJS native addons.
const require = createRequire(import.meta.url);

const grammars = {
  python: 'tree-sitter-python',
  markdown: '@tree-sitter-grammars/tree-sitter-markdown',
} as const;

export type GrammarName = keyof typeof grammars;

const parsers = new Map<GrammarName, ParserType>();

/** The shared parser for a grammar, created on first use (loading the addon is not free). */
export function getParser(name: GrammarName): ParserType {
  let parser = parsers.get(name);
  if (!parser) {
    const Parser = require('tree-sitter') as typeof ParserType;
    parser = new Parser();
    parser.setLanguage(require(grammars[name]) as ParserType.Language);
    parsers.set(name, parser);
  }
  return parser;
}

/**
 * Parses `text`. The binding's default input buffer is kept: measured on the corpus, a
 * buffer sized to the whole file parsed more slowly (it is allocated per call), and
 * the default handles the largest file (235 kB) fine.
 */
export function parseText(name: GrammarName, text: string): Tree {
  parsedUnits += text.length;
  return getParser(name).parse(text);
}

let parsedUnits = 0;

/**
 * UTF-16 units parsed into trees by this thread so far: what holds native memory until the
 * trees are released (see `releaseParseTrees`). Python files that are scanned instead of
 * parsed add nothing.
 */
export function parsedSoFar(): number {
  return parsedUnits;
}
