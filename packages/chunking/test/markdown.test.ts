import { describe, expect, it } from 'vitest';
import { chunkText } from '../src/index.js';
import { expectValidChunks } from './helpers.js';

const chunk = (text: string, options = {}) => {
  const chunks = chunkText(text, 'doc.md', 'markdown', options);
  expectValidChunks(text, chunks, { maxChunkSize: 2000, ...options });
  return chunks;
};

const paragraph = (words: number, seed: string) => Array.from({ length: words }, (_, i) => `${seed}${i}`).join(' ');

describe('markdown chunking', () => {
  it('cuts at headings and names each chunk by its heading path', () => {
    const text = [
      '# Install',
      '',
      paragraph(40, 'intro'),
      '',
      '## GPU',
      '',
      paragraph(40, 'gpu'),
      '',
      '### CUDA',
      '',
      paragraph(40, 'cuda'),
      '',
      '## CPU',
      '',
      paragraph(40, 'cpu'),
      '',
    ].join('\n');
    expect(chunk(text).map((c) => [c.kind, c.symbol, c.start_line])).toEqual([
      ['section', 'Install', 1],
      ['section', 'Install > GPU', 5],
      ['section', 'Install > GPU > CUDA', 9],
      ['section', 'Install > CPU', 13],
    ]);
  });

  it('gives front matter and the preamble before the first heading their own chunks', () => {
    const text = ['---', 'title: Guide', '---', '', 'Preamble text.', '', '# First', '', paragraph(50, 'w'), ''].join('\n');
    const chunks = chunk(text);
    expect(chunks.map((c) => [c.symbol, c.text.split('\n')[0]])).toEqual([
      ['', '---'],
      ['', 'Preamble text.'],
      ['First', '# First'],
    ]);
  });

  it('glues a heading with almost no text of its own to its first subsection', () => {
    const text = ['# Guide', '', '## Setup', '', paragraph(50, 's'), '', '## Usage', '', paragraph(50, 'u'), ''].join('\n');
    const chunks = chunk(text);
    expect(chunks.map((c) => [c.symbol, c.start_line])).toEqual([
      ['Guide > Setup', 1],
      ['Guide > Usage', 7],
    ]);
    expect(chunk(text, { minChunkSize: 0 }).map((c) => c.symbol)).toEqual(['Guide', 'Guide > Setup', 'Guide > Usage']);
  });

  it('splits a section over the cap at its blocks and keeps fenced code whole', () => {
    const code = ['```python', ...Array.from({ length: 8 }, (_, i) => `value_${i} = compute(${i})`), '```'];
    const text = ['# Big', '', paragraph(30, 'a'), '', ...code, '', '- item one', '- item two', '', paragraph(30, 'b'), ''].join('\n');
    const chunks = chunk(text, { maxChunkSize: 220, targetChunkSize: 150 });
    expect(chunks.every((c) => c.symbol === 'Big')).toBe(true);
    const codeChunk = chunks.find((c) => c.kind === 'code');
    expect(codeChunk?.text).toBe(code.join('\n'));
    // Every piece starts at a block: the heading, a paragraph, the fence or the list.
    for (const c of chunks) expect(c.text).toMatch(/^(# Big|a0 |```python|- item one|b0 )/);
  });

  it('splits an oversized code block at line boundaries', () => {
    const code = ['```', ...Array.from({ length: 40 }, (_, i) => `line ${i} of a long listing`), '```'];
    const text = ['# Listing', '', ...code, ''].join('\n');
    const chunks = chunk(text, { maxChunkSize: 300 });
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.filter((c) => c.kind === 'code').length).toBeGreaterThan(1);
    for (const c of chunks.slice(1)) expect(c.text).toMatch(/^(line \d+ of|```)/);
  });

  it('starts a new chunk at a setext heading', () => {
    const text = ['Title', '=====', '', paragraph(40, 'x'), '', 'Other', '-----', '', paragraph(40, 'y'), ''].join('\n');
    const chunks = chunk(text);
    expect(chunks.map((c) => [c.symbol, c.start_line])).toEqual([
      ['Title', 1],
      ['Other', 6],
    ]);
  });

  it('reads headings line by line when the tree has a parse error', () => {
    // An HTML block then a fence inside a list item (as in the vLLM docs): the block
    // grammar answers with an ERROR node. The `#` inside the fence is not a heading.
    const text = ['# Report', '', '- x:', '    <details>', '', '    ```text', '    y', '    ```', '', '```sh', '# not a heading', '```', '', '## Next', '', 'More.', ''].join('\n');
    const chunks = chunk(text, { minChunkSize: 0 });
    expect(chunks.map((c) => c.symbol)).toEqual(['Report', 'Report > Next']);
  });

  it('counts offsets in code points in documents with emoji', () => {
    const text = `# 🚀 Launch\n\n${paragraph(60, 'go')}\n\n## Next 🚀\n\n${paragraph(60, 'n')}\n`;
    const chunks = chunk(text);
    expect(chunks[1]!.symbol).toBe('🚀 Launch > Next 🚀');
    expect(chunks[1]!.first_character_index).toBe(Array.from(text.slice(0, text.indexOf('## Next'))).length);
    expect(chunks[1]!.first_character_index).toBe(text.indexOf('## Next') - 1);
  });
});
