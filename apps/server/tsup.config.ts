import { defineConfig } from 'tsup';

// The `rag-server` entry, bundled like the CLI: the workspace packages are inlined (one copy
// each); native addons and transformers.js stay external and load from node_modules.
export default defineConfig({
  entry: { server: 'src/server.ts' },
  format: ['esm'],
  dts: false,
  sourcemap: true,
  clean: true,
  target: 'node20',
  noExternal: [/^@rag\//, 'zod'],
  external: ['tree-sitter', 'tree-sitter-python', '@tree-sitter-grammars/tree-sitter-markdown', '@huggingface/transformers', 'onnxruntime-node', 'hnswlib-node', 'sharp'],
  banner: { js: '#!/usr/bin/env node\nimport { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
});
