import { defineConfig, type Options } from 'tsup';

/**
 * The build every library package shares: ESM for Node 20 with declarations, its
 * dependencies (workspace packages included) left external, so an app that bundles several
 * libraries carries one copy of each. `entry` lists the package's public entry points.
 */
export function libraryConfig(entry: string[]): ReturnType<typeof defineConfig> {
  return defineConfig({ entry, format: ['esm'], dts: true, sourcemap: true, clean: true, target: 'node20' });
}

/** Native addons, transformers.js and pg (whose optional native binding a bundler cannot resolve) load from node_modules at run time; everything else is bundled. */
const RUNTIME_EXTERNALS = ['tree-sitter', 'tree-sitter-python', '@tree-sitter-grammars/tree-sitter-markdown', '@huggingface/transformers', 'onnxruntime-node', 'hnswlib-node', 'sharp', 'pg'];

/**
 * The build of an app's command: one executable ESM bundle with the workspace packages and zod
 * inlined (one copy of each), a shebang, and `require` for the CommonJS addons it loads.
 */
export function appConfig(entry: Record<string, string>): ReturnType<typeof defineConfig> {
  const options: Options = {
    entry,
    format: ['esm'],
    dts: false,
    sourcemap: true,
    clean: true,
    target: 'node20',
    noExternal: [/^@rag\//, 'zod'],
    external: RUNTIME_EXTERNALS,
    banner: { js: '#!/usr/bin/env node\nimport { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
  };
  return defineConfig(options);
}
