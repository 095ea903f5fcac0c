import { describe, expect, it } from 'vitest';
import { chunkText } from '../src/index.js';
import { expectValidChunks } from './helpers.js';

const summary = (text: string, options = {}) =>
  chunkText(text, 'm.py', 'python', options).map((c) => ({ kind: c.kind, symbol: c.symbol, lines: [c.start_line, c.end_line] }));

describe('python chunking', () => {
  it('keeps decorators and the comment lines right above with their definition', () => {
    const text = ['import os', '', '# Explains f.', '# Second line.', '@decorator', '@other(1)', 'def f():', '    return 1', ''].join('\n');
    const chunks = chunkText(text, 'm.py', 'python');
    expect(chunks.map((c) => [c.kind, c.symbol, c.start_line, c.end_line])).toEqual([
      ['module', '', 1, 1],
      ['function', 'f', 3, 8],
    ]);
    expect(chunks[1]!.text.startsWith('# Explains f.\n# Second line.\n@decorator')).toBe(true);
  });

  it('leaves a comment separated by a blank line with the statements above', () => {
    const text = 'X = 1\n# about X\n\ndef f():\n    pass\n';
    expect(summary(text)).toEqual([
      { kind: 'module', symbol: '', lines: [1, 2] },
      { kind: 'function', symbol: 'f', lines: [4, 5] },
    ]);
  });

  it('merges consecutive imports and assignments into one module chunk, not functions', () => {
    const text = [
      'import os',
      'import sys',
      'from typing import Any',
      '',
      'LIMIT = 10',
      'logger = make_logger(__name__)',
      '',
      'def a():',
      '    return 1',
      '',
      'def b():',
      '    return 2',
      '',
    ].join('\n');
    expect(summary(text)).toEqual([
      { kind: 'module', symbol: '', lines: [1, 6] },
      { kind: 'function', symbol: 'a', lines: [8, 9] },
      { kind: 'function', symbol: 'b', lines: [11, 12] },
    ]);
  });

  it('keeps a class that fits whole', () => {
    const text = 'class Small:\n    x = 1\n\n    def m(self):\n        return self.x\n';
    expect(summary(text)).toEqual([{ kind: 'class', symbol: 'Small', lines: [1, 5] }]);
  });

  it('splits a large class into its header with fields and one chunk per method', () => {
    const method = (name: string) => [`    def ${name}(self):`, `        """Return the ${name} value of this engine."""`, `        return self.${name}_value`];
    const lines = [
      '@dataclass',
      'class Engine(Base):',
      '    """An engine."""',
      '',
      '    size: int = 1',
      '    """How big it is."""',
      '',
      ...method('start'),
      '',
      '    # Stops it.',
      '    @property',
      ...method('stop'),
      '',
      '    class Config:',
      '        strict = True',
      '',
      ...method('reset'),
      '',
    ];
    const text = lines.join('\n');
    const chunks = chunkText(text, 'm.py', 'python', { maxChunkSize: 200 });
    expectValidChunks(text, chunks, { maxChunkSize: 200 });
    expect(chunks.map((c) => [c.kind, c.symbol, c.start_line, c.end_line])).toEqual([
      ['class', 'Engine', 1, 6],
      ['method', 'Engine.start', 8, 10],
      ['method', 'Engine.stop', 12, 16],
      ['class', 'Engine.Config', 18, 19],
      ['method', 'Engine.reset', 21, 23],
    ]);
    expect(chunks[0]!.text).toContain('"""How big it is."""');
    // A method chunk starts at its line's start, its indentation included.
    expect(chunks[2]!.text.startsWith('    # Stops it.\n    @property\n    def stop')).toBe(true);
  });

  it('splits an oversized function at statement boundaries, keeping its name', () => {
    const body = Array.from({ length: 30 }, (_, i) => `    value_${i} = compute(${i}, option="some text")`);
    const text = ['def big(arg):', '    """Does a lot."""', ...body, '    return arg', ''].join('\n');
    const chunks = chunkText(text, 'm.py', 'python', { maxChunkSize: 400, targetChunkSize: 300 });
    expectValidChunks(text, chunks, { maxChunkSize: 400 });
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.every((c) => c.kind === 'block' && c.symbol === 'big')).toBe(true);
    // The header and docstring open the first piece; every later piece starts at a statement.
    expect(chunks[0]!.text.startsWith('def big(arg):\n    """Does a lot."""')).toBe(true);
    for (const chunk of chunks.slice(1)) expect(chunk.text).toMatch(/^ {4}(value_\d+ = |return arg)/);
  });

  it('prefers breaking between statements over inside a multi-line expression', () => {
    const call = (i: number) => [`    result_${i} = call(`, `        first=${i},`, `        second=${i},`, `    )`];
    const text = ['def f():', ...[0, 1, 2, 3, 4, 5].flatMap(call), ''].join('\n');
    const chunks = chunkText(text, 'm.py', 'python', { maxChunkSize: 150, targetChunkSize: 100 });
    expectValidChunks(text, chunks, { maxChunkSize: 150 });
    for (const chunk of chunks.slice(1)) expect(chunk.text).toMatch(/^ {4}result_\d = call\(/);
  });

  it('splits a line longer than the cap inside the line, after a space where possible', () => {
    const text = `WORDS = "${'lorem ipsum '.repeat(30)}"\n`;
    const chunks = chunkText(text, 'm.py', 'python', { maxChunkSize: 100 });
    expectValidChunks(text, chunks, { maxChunkSize: 100 });
    expect(chunks.length).toBeGreaterThan(3);
    // Each piece ends with the space it was cut after (pieces meet).
    for (const chunk of chunks.slice(0, -1)) expect(text[chunk.last_character_index - 1]).toBe(' ');
  });

  it('falls back to text chunking when the file does not parse', () => {
    const text = 'def broken(:\n    pass\n\nprint("ok")\n';
    const chunks = chunkText(text, 'm.py', 'python');
    expectValidChunks(text, chunks, { maxChunkSize: 2000 });
    expect(chunks.map((c) => c.kind)).toEqual(['text']);
  });

  it('counts offsets in code points past astral characters', () => {
    const text = 'ROCKET = "🚀🚀"\n\n\ndef after():\n    return ROCKET\n';
    const chunks = chunkText(text, 'm.py', 'python');
    expectValidChunks(text, chunks, { maxChunkSize: 2000 });
    // "ROCKET = "🚀🚀"" is 13 code points though 15 UTF-16 units; then three line ends.
    expect(chunks[1]!.first_character_index).toBe(16);
    expect(chunks[1]!.symbol).toBe('after');
  });

  it('keeps \\r inside spans of a CRLF file, the blank line with the chunk above', () => {
    const text = 'import os\r\n\r\ndef f():\r\n    return os\r\n';
    const chunks = chunkText(text, 'm.py', 'python');
    expectValidChunks(text, chunks, { maxChunkSize: 2000 });
    expect(chunks.map((c) => c.text)).toEqual(['import os\r\n\r\n', 'def f():\r\n    return os']);
    expect(chunks[0]).toMatchObject({ start_line: 1, end_line: 1 });
    expect(chunks[1]).toMatchObject({ first_character_index: 13, last_character_index: 36, start_line: 3, end_line: 4 });
  });

  it('gives async functions and top-level control flow sensible kinds', () => {
    const text = 'async def fetch():\n    await go()\n\nif __name__ == "__main__":\n    main()\n';
    expect(summary(text)).toEqual([
      { kind: 'function', symbol: 'fetch', lines: [1, 2] },
      { kind: 'module', symbol: '', lines: [4, 5] },
    ]);
  });

  it('makes code chunks meet, so neighbours concatenate into their joined span', () => {
    const methods = ['get', 'put', 'drop'].map((name) => `    def ${name}(self, key):\n        return self.items.${name}(key)  # ${'x'.repeat(60)}\n`);
    const text = `import os\n\n\nclass Store:\n    """Keeps things."""\n\n${methods.join('\n')}`;
    const chunks = chunkText(text, 'm.py', 'python', { maxChunkSize: 150, targetChunkSize: 100 });
    expectValidChunks(text, chunks, { maxChunkSize: 150 });
    expect(chunks.length).toBeGreaterThan(2);
    // Each chunk ends where the next starts; the blank lines go with the chunk above, the
    // indentation with the chunk below; together they are the file, but for its last newline.
    for (let i = 1; i < chunks.length; i++) expect(chunks[i]!.first_character_index).toBe(chunks[i - 1]!.last_character_index);
    expect(chunks.map((c) => c.text).join('')).toBe(text.trimEnd());
    const method = chunks.find((c) => c.symbol === 'Store.put')!;
    expect(method.text.startsWith('    def put(self, key):')).toBe(true);
    // Lines count what the chunk holds, not the blank lines it carries.
    expect(text.split('\n')[method.end_line - 1]).toContain('items.put');
  });

  it('returns no chunks for an empty or blank file', () => {
    expect(chunkText('', 'm.py', 'python')).toEqual([]);
    expect(chunkText('\n  \n\t\n', 'm.py', 'python')).toEqual([]);
  });
});
