import { describe, expect, it } from 'vitest';
import { chunkText } from '../src/index.js';
import { expectValidChunks } from './helpers.js';

/** [symbol, text] of each chunk of `text` read as the configuration file `path`. */
function cut(text: string, path: string, options = {}): [string, string][] {
  const chunks = chunkText(text, path, 'text', options);
  // Config chunks never overlap; the plain-text windows a file falls back to overlap by up to the default 200.
  expectValidChunks(text, chunks, { maxChunkSize: 2000, overlap: 200 });
  return chunks.map((chunk) => [chunk.symbol, chunk.text]);
}

describe('configuration files', () => {
  it('YAML: one chunk per top-level entry, with the comment above it, named by its key', () => {
    const text = [
      '# -- Image configuration',
      'image:',
      `  repository: "vllm/vllm-openai"  # ${'x'.repeat(200)}`,
      '',
      '# -- Autoscaling configuration',
      'autoscaling:',
      '  enabled: false',
      `  maxReplicas: 100  # ${'y'.repeat(200)}`,
      '',
    ].join('\n');
    // Each entry is over the minimum size, so each stands alone and says which setting it holds.
    expect(cut(text, 'chart/values.yaml').map(([symbol, body]) => [symbol, body.split('\n')[0]])).toEqual([
      ['image', '# -- Image configuration'],
      ['autoscaling', '# -- Autoscaling configuration'],
    ]);
  });

  it('YAML: entries under the minimum join the ones after them; a list item or a nested key opens nothing', () => {
    const text = ['version: 2', 'updates:', '  - package-ecosystem: "pip"', `    directory: "/"  # ${'z'.repeat(250)}`, 'extra: 1', ''].join('\n');
    // `version: 2` alone would be a ten-character chunk that wins on length: it goes with
    // `updates`, which then reaches the minimum; `extra` starts the next chunk.
    expect(cut(text, '.github/dependabot.yml').map(([symbol]) => symbol)).toEqual(['version, updates', 'extra']);
  });

  it('TOML and INI: a chunk per [table] (dotted names, arrays of tables, trailing comments)', () => {
    const padding = (c: string): string => `# ${c.repeat(200)}`;
    const text = ['[build-system]', 'requires = ["setuptools"]', padding('a'), '', '[[tool.mypy.overrides]] # one of several', 'module = "x"', padding('b'), '', '[tool.ruff]', 'line-length = 80', padding('c'), ''].join('\n');
    expect(cut(text, 'pyproject.toml').map(([symbol]) => symbol)).toEqual(['build-system', 'tool.mypy.overrides', 'tool.ruff']);
    // A comment right above a header belongs to the next table; after a blank line, to the one it ends.
    expect(cut('[metadata]\nname = demo\n' + padding('d') + '\n\n[options]\npackages = find:\n', 'setup.cfg').map(([symbol]) => symbol)).toEqual(['metadata', 'options']);
    expect(cut('[metadata]\nname = demo\n' + padding('d') + '\n[options]\npackages = find:\n', 'setup.cfg').map(([symbol]) => symbol)).toEqual(['metadata, options']);
  });

  it('an entry over the target size is cut near it, every piece keeping its name', () => {
    const steps = Array.from({ length: 40 }, (_, i) => `      - run: step number ${i} of the job\n`).join('');
    const text = `jobs:\n  test:\n    steps:\n${steps}`;
    const pieces = cut(text, '.github/workflows/ci.yml', { targetChunkSize: 400 });
    // 1,550 characters without a blank line: cut at line ends, into pieces well under the cap.
    expect(pieces.length).toBeGreaterThanOrEqual(2);
    for (const [symbol, body] of pieces) {
      expect(symbol).toBe('jobs');
      expect([...body].length).toBeLessThan(1000);
    }
  });

  it('each piece of a cut group is named by the entries it holds lines of', () => {
    const steps = Array.from({ length: 40 }, (_, i) => `      - run: step number ${i} of the job\n`).join('');
    // `name` and `on` are too small to stand alone and join `jobs`; once cut, only the first
    // piece holds their lines.
    const symbols = cut(`name: ci\non: push\njobs:\n  test:\n    steps:\n${steps}`, 'ci.yml', { targetChunkSize: 400 }).map(([symbol]) => symbol);
    expect(symbols[0]).toBe('name, on, jobs');
    expect(symbols.slice(1).every((symbol) => symbol === 'jobs')).toBe(true);
    expect(symbols.length).toBeGreaterThanOrEqual(2);
  });

  it('a file with no top-level entry it recognises, and any other extension, are cut into text windows', () => {
    const list = Array.from({ length: 30 }, (_, i) => `- item ${i}: value ${'v'.repeat(40)}`).join('\n');
    // A YAML document that is a list has no key to cut at: plain windows, no symbol.
    expect(cut(list, 'list.yaml', { targetChunkSize: 300 }).every(([symbol]) => symbol === '')).toBe(true);
    // The same key-like lines in a .txt file are prose, not configuration.
    expect(cut('name: ci\non: push\n', 'notes.txt')).toEqual([['', 'name: ci\non: push']]);
  });
});
