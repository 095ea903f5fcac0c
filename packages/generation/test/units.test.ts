import { describe, expect, it } from 'vitest';
import { splitIntoUnits } from '../src/internals.js';

function displays(text: string, path: string): string[] {
  return splitIntoUnits(text, path).map((u) => (u.note ? `${u.display} // ${u.note}` : u.display));
}

describe('splitIntoUnits for code', () => {
  const code = [
    '"""Default settings. Every value can be overridden',
    'by an environment variable."""',
    '',
    'import os',
    '',
    '# TCP port the development server listens on.',
    'DEFAULT_PORT = 8421',
    '',
    'HEADERS = {',
    '    "Server": "tinyserve",',
    '}',
    '',
    'def f(a, b=2):',
    '    return a + b',
  ].join('\n');

  it('reads docstrings as sentences, attaches comments to their statement, joins bracketed lines', () => {
    expect(displays(code, 'pkg/defaults.py')).toEqual([
      'Default settings.',
      'Every value can be overridden by an environment variable.',
      'import os',
      'DEFAULT_PORT = 8421 // TCP port the development server listens on.',
      'HEADERS = { "Server": "tinyserve", }',
      'def f(a, b=2):',
      'return a + b',
    ]);
  });

  it('gives offsets that cover the unit in the text (a statement with its comment)', () => {
    const port = splitIntoUnits(code, 'pkg/defaults.py').find((u) => u.display.startsWith('DEFAULT_PORT'))!;
    expect(code.slice(port.start, port.end)).toBe('# TCP port the development server listens on.\nDEFAULT_PORT = 8421');
  });
});

describe('splitIntoUnits for docs', () => {
  const doc = [
    '# Configuration',
    '',
    '!!! note',
    '    Every setting has a default. Arguments win over the environment.',
    '',
    '| Setting | Default |',
    '|---|---|',
    '| port | `8421` |',
    '',
    '- first item',
    '  continues here.',
    '- second item',
    '',
    '```bash',
    'pip install tinyserve==0.3.1 \\',
    '  --no-deps',
    '```',
    '',
    'Section',
    '=======',
    '',
    'Run it like this::',
    '',
    '    app.run(port=9000)',
  ].join('\n');

  it('splits sentences, keeps table rows with their header as context, and reads fences and literal blocks as code', () => {
    const units = splitIntoUnits(doc, 'docs/guide.md');
    expect(units.map((u) => `${u.kind}: ${u.display}`)).toEqual([
      'prose: Every setting has a default.',
      'prose: Arguments win over the environment.',
      'prose: port | `8421`',
      'prose: first item continues here.',
      'prose: second item',
      'code: pip install tinyserve==0.3.1 --no-deps',
      'prose: Run it like this::',
      'code: app.run(port=9000)',
    ]);
    expect(units[2]!.context).toBe('Setting Default');
  });

  it('reads a line that starts with an RST role as prose, not as a field list entry', () => {
    const text = 'For tools that touch files, the\n:meth:`CliRunner.isolated_filesystem` method sets up an empty folder.\n\n:maxdepth: 2\n';
    expect(splitIntoUnits(text, 'docs/testing.rst').map((u) => u.display)).toEqual([
      'For tools that touch files, the :meth:`CliRunner.isolated_filesystem` method sets up an empty folder.',
    ]);
  });

  it('treats CMakeLists.txt as code', () => {
    expect(splitIntoUnits('set(A 1)\nset(B 2)', 'x/CMakeLists.txt').map((u) => u.kind)).toEqual(['code', 'code']);
  });
});
