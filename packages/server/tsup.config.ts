import { defineConfig } from 'tsup';

// A library like the others: its dependencies (the workspace packages included) stay
// external, so an app that bundles it carries one copy of each package.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
