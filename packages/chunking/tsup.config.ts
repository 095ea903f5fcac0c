import { defineConfig } from 'tsup';

export default defineConfig({
  // chunk-worker is the worker-thread entry of parallel chunking; it must sit beside index.js.
  entry: ['src/index.ts', 'src/chunk-worker.ts'],
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
