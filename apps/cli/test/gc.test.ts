import { describe, expect, it } from 'vitest';
import { garbageCollector } from '../src/gc.js';

describe('garbageCollector', () => {
  it("gives V8's full collection without a command-line flag, and it runs", () => {
    const gc = garbageCollector();
    expect(typeof gc).toBe('function');
    expect(() => gc!()).not.toThrow();
  });
});
