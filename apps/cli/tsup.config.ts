import { defineConfig } from 'tsup';

// The CLI is bundled: the workspace packages are inlined, so `node dist/cli.js` runs it.
// Native addons (tree-sitter, onnxruntime, hnswlib) and transformers.js stay external and load from node_modules.
export default defineConfig({
  // chunk-worker: @rag/chunking's worker-thread entry, looked up beside the bundle.
  entry: { cli: 'src/cli.ts', 'chunk-worker': '../../packages/chunking/src/chunk-worker.ts' },
  format: ['esm'],
  dts: false,
  sourcemap: true,
  clean: true,
  target: 'node20',
  noExternal: [/^@rag\//, 'zod'],
  external: ['tree-sitter', 'tree-sitter-python', '@tree-sitter-grammars/tree-sitter-markdown', '@huggingface/transformers', 'onnxruntime-node', 'hnswlib-node', 'sharp'],
  banner: { js: '#!/usr/bin/env node\nimport { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
});
