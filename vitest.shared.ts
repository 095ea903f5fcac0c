/**
 * Settings every package's vitest config shares. The suites run side by side under turbo on
 * 2-core machines that may be busy with other work, so no hook or test may fail for being
 * slow: heavy fixtures (tiny ONNX models, real servers, a browser) get minutes, not vitest's
 * 5 s / 10 s defaults. Speed is measured by the benchmarks, never by a test's clock.
 */
export const SHARED_TEST_OPTIONS = {
  include: ['test/**/*.test.ts'],
  testTimeout: 120_000,
  hookTimeout: 240_000,
  teardownTimeout: 60_000,
} as const;
