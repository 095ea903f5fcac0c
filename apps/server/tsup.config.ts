import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { server: 'src/server.ts', index: 'src/index.ts' },
  format: ['esm'],
  dts: false,
  sourcemap: true,
  clean: true,
  target: 'node20',
  noExternal: [/^@rag\//],
  external: ['tree-sitter', 'tree-sitter-python', '@tree-sitter-grammars/tree-sitter-markdown', '@huggingface/transformers', 'onnxruntime-node', 'hnswlib-node'],
  banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
});
