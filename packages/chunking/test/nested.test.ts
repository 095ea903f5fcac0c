import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chunkCorpus, chunkText, DEFAULT_NESTED_CHUNK_SIZE } from '../src/index.js';
import { expectValidChunks, splitNested } from './helpers.js';

// The project's own test corpus.
const mini = fileURLToPath(new URL('../../../datasets/mini/corpus/', import.meta.url));
const guide = readFileSync(`${mini}docs/guide.md`, 'utf8');
const deployment = readFileSync(`${mini}docs/deployment.rst`, 'utf8');

function describeChunks(text: string, path: string, language: 'markdown' | 'rst', nestedChunkSize: number): string[] {
  return chunkText(text, path, language, { nestedChunkSize }).map(
    (c) => `${c.kind} ${c.first_character_index}-${c.last_character_index} ${c.text.split('\n')[0]!.slice(0, 30)}`,
  );
}

describe('nested chunks', () => {
  it('are off for every section of the mini guide at the default size (all sections are short)', () => {
    const chunks = chunkText(guide, 'docs/guide.md', 'markdown');
    expect(DEFAULT_NESTED_CHUNK_SIZE).toBe(600);
    expect(splitNested(chunks).top).toHaveLength(chunks.length);
  });

  it('cut a long Markdown section into its paragraphs, code block and table rows', () => {
    // With pieces of about 150 characters, the 375-character Quick start splits into its
    // sentence and its code block (kind code), and the Configuration section into its
    // intro and the two halves of its table; each section chunk stays, followed by them.
    expect(describeChunks(guide, 'docs/guide.md', 'markdown', 150).slice(2, 9)).toEqual([
      'section 483-858 ## Quick start',
      'section 483-594 ## Quick start',
      'code 596-858 ```python',
      'section 860-1364 ## Configuration',
      'section 860-952 ## Configuration',
      'section 954-1136 | Setting | Environment variab',
      'section 1137-1364 | workers | `TINYSERVE_WORKERS',
    ]);
    expectValidChunks(guide, chunkText(guide, 'docs/guide.md', 'markdown', { nestedChunkSize: 150 }), { maxChunkSize: 2000 });
  });

  it('cut long RST sections at paragraphs and directives', () => {
    expect(describeChunks(deployment, 'docs/deployment.rst', 'rst', 150).slice(3, 6)).toEqual([
      'section 440-769 Behind a reverse proxy',
      'section 440-647 Behind a reverse proxy',
      'section 649-769 .. code-block:: nginx',
    ]);
    expectValidChunks(deployment, chunkText(deployment, 'docs/deployment.rst', 'rst', { nestedChunkSize: 150 }), { maxChunkSize: 2000 });
  });

  it('keep the symbol of their section', () => {
    const chunks = chunkText(guide, 'docs/guide.md', 'markdown', { nestedChunkSize: 150 });
    for (const [parent, children] of splitNested(chunks).nested) for (const child of children) expect(child.symbol).toBe(parent.symbol);
  });

  it('are never made for code or plain text, and not at all with nestedChunkSize 0', async () => {
    const { chunks } = await chunkCorpus(mini, { nestedChunkSize: 150, onWarning: () => undefined });
    const byFile = new Map<string, typeof chunks>();
    for (const chunk of chunks) byFile.set(chunk.file_path, [...(byFile.get(chunk.file_path) ?? []), chunk]);
    for (const [path, fileChunks] of byFile) {
      const { top } = splitNested(fileChunks);
      if (!/\.(md|rst)$/.test(path)) expect(top, path).toHaveLength(fileChunks.length);
    }
    const plain = chunkText(guide, 'docs/guide.md', 'markdown', { nestedChunkSize: 0 });
    expect(splitNested(plain).top).toHaveLength(plain.length);
  });

  // The benchmark corpus sits beside developer and CI checkouts, not in a user's clone.
  const raw = fileURLToPath(new URL('../../../../shared/data/raw/vllm-0.10.1/docs/models/supported_models.md', import.meta.url));
  it.skipIf(!existsSync(raw))('split a long real section (supported_models.md) into pieces near the size', () => {
    const text = readFileSync(raw, 'utf8');
    const chunks = chunkText(text, 'supported_models.md', 'markdown');
    const { nested } = splitNested(chunks);
    const children = [...nested.values()].flat();
    expect(children.length).toBeGreaterThan(0);
    const sizes = children.map((c) => c.last_character_index - c.first_character_index);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(2000);
    // Balanced pieces: their mean is within a factor of two of the target.
    const mean = sizes.reduce((a, b) => a + b, 0) / sizes.length;
    expect(mean).toBeGreaterThan(DEFAULT_NESTED_CHUNK_SIZE / 2);
    expect(mean).toBeLessThan(DEFAULT_NESTED_CHUNK_SIZE * 2);
  });
});
