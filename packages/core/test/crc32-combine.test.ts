import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { combineCrc32 } from '../src/crc32-combine.js';

describe('combineCrc32', () => {
  it("gives the CRC-32 of two byte strings joined, as zlib computes it over the whole", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ maxLength: 300 }), (a, b) => {
        const joined = Buffer.concat([a, b]);
        expect(combineCrc32(crc32(a), crc32(b), b.length)).toBe(crc32(joined));
      }),
      { numRuns: 500 },
    );
  });

  it('folds a file page by page into its whole sum, pages of 8 KiB and a short last one', () => {
    const bytes = Buffer.alloc(8192 * 5 + 1234);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 2654435761) >>> 24;
    let whole = 0;
    for (let at = 0; at < bytes.length; at += 8192) {
      const page = bytes.subarray(at, Math.min(bytes.length, at + 8192));
      whole = combineCrc32(whole, crc32(page), page.length);
    }
    expect(whole).toBe(crc32(bytes));
  });
});
