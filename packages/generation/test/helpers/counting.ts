import type { Generator } from '../../src/index.js';

/** `generator` with a count of how often it really generated. */
export function counting(generator: Generator): Generator & { calls: number } {
  const wrapped = {
    name: generator.name,
    identity: generator.identity,
    calls: 0,
    generate(...args: Parameters<Generator['generate']>) {
      wrapped.calls++;
      return generator.generate(...args);
    },
    dispose: () => generator.dispose(),
  };
  return wrapped;
}
