import { defineConfig } from 'tsup';

// Two bundles: `index` (the typed API, with declarations) and `server` (the `rag-server`
// entry). The workspace packages are inlined; fastify, the MCP SDK and zod stay external
// and load from this package's node_modules. No `require` banner: nothing bundled here
// needs one, and the CLI, which bundles this package again, adds its own.
export default defineConfig({
  entry: { server: 'src/server.ts', index: 'src/index.ts' },
  format: ['esm'],
  dts: { entry: { index: 'src/index.ts' } },
  sourcemap: true,
  clean: true,
  target: 'node20',
  noExternal: [/^@rag\//],
  external: ['tree-sitter', 'tree-sitter-python', '@tree-sitter-grammars/tree-sitter-markdown', '@huggingface/transformers', 'onnxruntime-node', 'hnswlib-node'],
});
