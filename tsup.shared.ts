import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';

const PACKAGES = join(dirname(fileURLToPath(import.meta.url)), 'packages');

/**
 * Bundles a workspace package from its sources (`@rag/x` → `packages/x/src/index.ts`,
 * `@rag/x/sub` → `packages/x/src/sub.ts`) rather than from its one-file `dist`, so the
 * bundler sees every source file as a module of its own and can leave out, or split into a
 * lazily loaded chunk, each file a command does not reach: a one-shot search then compiles
 * neither the indexer nor the answer generators.
 */
const fromSources: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'rag-workspace-sources',
  setup(build) {
    build.onResolve({ filter: /^@rag\/[a-z0-9-]+(\/[a-z0-9-]+)?$/ }, (args) => {
      const [, name, sub] = /^@rag\/([a-z0-9-]+)(?:\/([a-z0-9-]+))?$/.exec(args.path)!;
      const path = join(PACKAGES, name!, 'src', `${sub ?? 'index'}.ts`);
      return existsSync(path) ? { path } : undefined;
    });
  },
};

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
    esbuildPlugins: [fromSources],
    // Less source for every process start to read and pre-parse (a one-shot search compiles
    // ~450 KB of it); names are kept, so stack traces and profiles still read as the sources.
    esbuildOptions(o) {
      o.minifyWhitespace = true;
      o.minifySyntax = true;
    },
    banner: { js: '#!/usr/bin/env node\nimport { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
  };
  return defineConfig(options);
}
