import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Language } from '@rag/core';
import { chunkText } from '../src/index.js';
import { expectValidChunks } from './helpers.js';

// The benchmark corpus every checkout finds at ../shared (see shared/README.md).
const raw = fileURLToPath(new URL('../../../../shared/data/raw/vllm-0.10.1/', import.meta.url));

const files: [string, Language, string][] = [
  ['vllm/third_party/pynvml.py', 'python', 'the largest Python file (235 kB)'],
  ['tests/quantization/test_cpu_offload.py', 'python', 'CRLF line ends'],
  ['vllm/model_executor/layers/quantization/utils/__init__.py', 'python', 'mixed CRLF and LF'],
  ['docs/usage/v1_guide.md', 'markdown', '30 emoji'],
  ['docs/contributing/ci/failures.md', 'markdown', 'emoji and a tree-sitter parse error'],
  ['docs/models/supported_models.md', 'markdown', 'the largest Markdown file, big tables'],
  ['CMakeLists.txt', 'text', 'a .txt that is code'],
];

// A user's clone has no ../shared; CI and developer checkouts do, and run these.
describe.skipIf(!existsSync(raw))('real corpus files', () => {
  for (const [path, language, why] of files) {
    it(`${path} (${why}) keeps every span invariant`, () => {
      const text = readFileSync(raw + path, 'utf8');
      const chunks = chunkText(text, path, language);
      expect(chunks.length).toBeGreaterThan(0);
      expectValidChunks(text, chunks, { maxChunkSize: 2000, overlap: language === 'text' ? 200 : 0 });
      if (language === 'python') expect(chunks.some((c) => c.kind === 'text')).toBe(false);
    });
  }
});
