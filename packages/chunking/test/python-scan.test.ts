import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkText, type PythonReader } from '../src/index.js';
import { parseText, type TreeCursor } from '../src/parsers.js';
import { CLAUSES, COMPOUND } from '../src/python.js';
import { scanPythonStatements, SkeletonCursor } from '../src/python-scan.js';

// Small chunks, so that where a long definition is cut (the line facts) shows in the output.
const SMALL = { maxChunkSize: 160, targetChunkSize: 60, minChunkSize: 0, nestedChunkSize: 0 };

function chunksBy(text: string, pythonReader: PythonReader): unknown[] {
  return chunkText(text, 'm.py', 'python', { ...SMALL, pythonReader }).map((c) => [c.first_character_index, c.last_character_index, c.kind, c.symbol, c.start_line, c.end_line]);
}

/**
 * What the chunker's reader sees of a tree, through the cursor it uses: every statement of a
 * module or block (its kind — simple statements alike —, where it starts and the line it
 * ends on), the clauses and blocks of compound statements, and definitions' names.
 */
function outline(text: string, cursor: TreeCursor): string[] {
  const out: string[] = [];
  const lineOf = (index: number): number => text.slice(0, index).split('\n').length;
  const children = (visit: () => void): void => {
    if (!cursor.gotoFirstChild()) return;
    do visit();
    while (cursor.gotoNextSibling());
    cursor.gotoParent();
  };
  const statements = (depth: number): void =>
    children(() => {
      if (!cursor.nodeIsNamed) return;
      const type = cursor.nodeType;
      const kind = COMPOUND.has(type) || type === 'comment' ? type : 'simple';
      out.push(`${'  '.repeat(depth)}${kind} ${cursor.startIndex} line ${lineOf(Math.max(cursor.startIndex, cursor.endIndex - 1))}`);
      if (type === 'expression_statement') {
        // The reader's docstring test: one named child, a string.
        const named: string[] = [];
        children(() => {
          if (cursor.nodeIsNamed) named.push(cursor.nodeType);
        });
        if (named.length === 1 && named[0] === 'string') out.push(`${'  '.repeat(depth + 1)}a lone string`);
      }
      if (COMPOUND.has(type)) parts(depth + 1);
    });
  const parts = (depth: number): void =>
    children(() => {
      const type = cursor.nodeType;
      if (type === 'block') statements(depth);
      else if (CLAUSES.has(type)) {
        out.push(`${'  '.repeat(depth)}${type} ${cursor.startIndex}`);
        parts(depth + 1);
      } else if (type === 'function_definition' || type === 'class_definition') {
        out.push(`${'  '.repeat(depth)}${type}`);
        parts(depth + 1);
      } else if (cursor.currentFieldName === 'name') out.push(`${'  '.repeat(depth)}name ${text.slice(cursor.startIndex, cursor.endIndex)}`);
    });
  statements(0);
  return out;
}

function expectReadAlike(text: string): void {
  const tree = parseText('python', text);
  expect(tree.rootNode.hasError).toBe(false);
  const skeleton = scanPythonStatements(text);
  expect(skeleton).toBeDefined();
  expect(outline(text, new SkeletonCursor(skeleton!).asTreeCursor())).toEqual(outline(text, tree.walk()));
  expect(chunksBy(text, 'scan')).toEqual(chunksBy(text, 'parse'));
}

const lines = (...rows: string[]): string => `${rows.join('\n')}\n`;

// Each case is a form tree-sitter-python reads in a particular way; the comments say where
// it puts what, since that is what the scanner has to match.
const CASES: Record<string, string> = {
  'simple statements, semicolons and trailing comments': lines('import os  # why', 'x = 1; y = 2;', 'z = (1,', '     2)  # after a bracket', 'w = a \\', '    + b'),
  'a lambda colon in a simple statement': lines('key = lambda item: item[0]', 'match = lambda m: m', 'case: int = 3'),
  'docstrings: a lone string, not a concatenation or a call': lines('"""Module doc."""', '"a" "b"', '("c")', '"d".strip()', "r'''raw", "  text'''", 'f"{x!r:>{width}}"', 'b"\\N{not a name}"'),
  'f-strings with nested quotes, braces and format specs': lines('a = f"{x["key"]}"', "b = f'{d[\"k\"]:{w}.{p}f} {{literal}}'", 'c = rf"\\d{n}"', 'd = f"""{', '  y', '}"""', 'e = f"\\N{BULLET} {z}"'),
  'comments between a header and its block are inside the statement': lines('def f(', '    a,', '):', '    # about the body', '    return a', 'class C:', '    # about the fields', '    x = 1'),
  'a comment dedented inside a block stays in it': lines('def f():', '    x = 1', '# at column 0', '    return x'),
  'comments at a dedent go with the indent they share': lines('class A:', '    def f(self):', '        pass', '        # still in f', '    # before g', '    def g(self): ...', '  # odd indent', 'X = 1'),
  'comments before a clause are inside the statement': lines('if a:', '    pass', '# before else', 'else:', '    pass', 'try:', '    pass', '    # in the try block', '# before except', 'except (A, B) as e:', '    pass', 'finally:', '    pass'),
  'clauses after inline bodies': lines('for i in x: pass', '# between', 'else: y = 1', 'while (n := next(it)): print(n)', 'if a: b = 1; c = 2  # trailing', 'elif d: pass', 'else: pass'),
  'decorators with comments between them': lines('# above', '@decorator', '# between', '@other(', '    1)', 'def f():  # on the header', '    """Doc."""', '    return 1'),
  'nested classes and async definitions': lines('class Outer(Base, metaclass=Meta):', '    class Inner:', '        x: int = 1', '    async def run(self) -> "a: b":', '        async with lock:', '            async for item in source:', '                yield item'),
  'match statements with comments': lines('match command.split():', '    # first', '    case [action]:', '        # inside', '        pass', '    # between cases', '    case [action, obj] if obj:', '        pass', '    case {"k": v}:', '        pass', 'match(x)'),
  'a long function cut at its statements': lines(
    'def long_one(argument):',
    '    """Explains.',
    '',
    '    More words here.',
    '    """',
    '    first = argument + 1',
    '    # a comment line',
    '    if first > 2:',
    '        second = first * 2',
    '    else:',
    '        second = 0',
    '    values = [',
    '        first,',
    '        second,',
    '    ]',
    '    for value in values:',
    '        print(value)',
    '    return second',
  ),
  'tabs, a form feed and CRLF': 'def f():\r\n\tx = 1\r\n\t# tab comment\r\n\treturn x\r\n\f\r\nclass A:\r\n\tpass\r\n',
  'a byte-order mark': '\ufeffimport os\n\n\ndef f():\n    pass\n',
  'soft keywords as names': lines('match = re.match(p, s)', 'match.group(1)', 'case = 3', 'type = 4', 'async_ = 5', 'print(match, case)'),
  'comments at the end of the file': lines('def f():', '    pass', '    # in f', '# at the module'),
};

describe('scanned Python statements', () => {
  for (const [name, text] of Object.entries(CASES)) {
    it(`reads ${name} as tree-sitter does`, () => expectReadAlike(text));
  }

  it('hands what it cannot read to the parser, which decides', () => {
    const unreadable = [
      'x = "unterminated\n',
      'x = (1,\n',
      'x = 1)\n',
      'x = 1\n    y = 2\n',
      'def f():\n        x = 1\n    y = 2\n',
      '@decorator\nx = 1\n',
      'else:\n    pass\n',
      'def f():\n',
      'match x:\n    y = 1\n',
      'x = 1 \\ y\n',
      'if x:\nelse:\n    pass\n',
    ];
    for (const text of unreadable) {
      expect(scanPythonStatements(text), text).toBeUndefined();
      expect(chunksBy(text, 'scan'), text).toEqual(chunksBy(text, 'parse'));
    }
  });

  it('reads hostile shapes (deep brackets and blocks, 200,000 statements), and hands what it cannot to the parser', () => {
    const deepBrackets = `x = ${'('.repeat(50_000)}1${')'.repeat(50_000)}\n`;
    expect(scanPythonStatements(deepBrackets)).toBeDefined();
    const deepFStrings = `x = ${'f"{'.repeat(20_000)}1${'}"'.repeat(20_000)}\n`;
    expect(scanPythonStatements(deepFStrings)).toBeUndefined();
    const manyStatements = 'a = 1; '.repeat(100_000) + '\n' + '# note\n'.repeat(100_000);
    expect(scanPythonStatements(manyStatements)!.children).toHaveLength(200_000);
    const deepBlocks = Array.from({ length: 200 }, (_, i) => `${' '.repeat(i)}if x:`).join('\n') + `\n${' '.repeat(200)}pass\n`;
    expect(scanPythonStatements(deepBlocks)).toBeDefined();
  }, 60_000);

  it('reads random programs of every statement form as tree-sitter does', () => {
    const simple = fc.constantFrom(
      'x = 1',
      'call(a,\n{i}    b)',
      '"""doc"""',
      "'''two\nlines'''",
      'a = 1; b = 2',
      'return f"{v[\'k\']}"',
      'y = lambda q: q',
      'z = p \\\n{i}    + q',
      'pass  # trailing',
      'match = 3',
      'data = {\n{i}    "k": [1, 2],\n{i}}',
    );
    const comment = fc.constantFrom('# c', '# ' + 'x'.repeat(30));
    // A statement list as lines (indent markers {i} filled in by depth), each with optional comment lines before it.
    type Block = string[];
    const indentBy = (depth: number) => '    '.repeat(depth);
    const block = (depth: number): fc.Arbitrary<Block> =>
      fc
        .array(
          fc.tuple(
            fc.array(fc.tuple(comment, fc.integer({ min: -1, max: 1 })), { maxLength: 2 }),
            depth >= 3 ? simple.map((s) => ({ simple: s })) : fc.oneof({ weight: 3, arbitrary: simple.map((s) => ({ simple: s })) }, { weight: 2, arbitrary: fc.constant(depth) }),
            fc.boolean(),
          ),
          { minLength: 1, maxLength: 4 },
        )
        .chain((items) =>
          fc.tuple(
            ...items.map(([comments, statement, blank]) => {
              const before = comments.map(([text, shift]) => `${indentBy(Math.max(0, depth + shift))}${text}`);
              const spacer = blank ? [''] : [];
              if (typeof statement === 'object') {
                const text = statement.simple.replaceAll('{i}', indentBy(depth));
                return fc.constant([...before, ...spacer, ...`${indentBy(depth)}${text}`.split('\n')]);
              }
              return compound(depth).map((rows) => [...before, ...spacer, ...rows]);
            }),
          ),
        )
        .map((groups) => groups.flat());
    const compound = (depth: number): fc.Arbitrary<Block> => {
      const pad = indentBy(depth);
      const body = block(depth + 1);
      return fc.oneof(
        fc.tuple(body, fc.option(body, { nil: undefined })).map(([a, b]) => [`${pad}if a:`, ...a, ...(b ? [`${pad}else:`, ...b] : [])]),
        fc.tuple(body, body).map(([a, b]) => [`${pad}try:`, ...a, `${pad}except ValueError as error:`, ...b]),
        fc.tuple(body, fc.boolean()).map(([a, decorated]) => [...(decorated ? [`${pad}@decorator`, `${pad}# between`, `${pad}@other(1)`] : []), `${pad}def f(self, a: int = 1) -> None:  # c`, ...a]),
        body.map((a) => [`${pad}class C(Base):`, ...a]),
        body.map((a) => [`${pad}for item in items:`, ...a]),
        body.map((a) => [`${pad}with open(p) as f:`, ...a]),
        body.map((a) => [`${pad}match value:`, `${pad}    case [x, *rest]:`, ...a.map((row) => (row ? `    ${row}` : row))]),
        fc.constant<Block>([`${pad}if x: pass  # inline`]),
      );
    };
    fc.assert(
      fc.property(block(0), (rows) => {
        const text = `${rows.join('\n')}\n`;
        // The generator writes valid Python; a form tree-sitter rejects would test nothing here.
        if (parseText('python', text).rootNode.hasError) return;
        expectReadAlike(text);
      }),
      { numRuns: 500 },
    );
  });
});
