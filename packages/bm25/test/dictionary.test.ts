import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareUtf8Units, sampleTerms, TermDictionary } from '../src/dictionary.js';

// One, two, three and four UTF-8 bytes, and the two ranges whose UTF-16 order differs from
// their code-point order: U+E000–U+FFFF (lead byte EE/EF) sorts after the surrogate pairs
// of U+10000 and up (lead byte F0–F4) in JavaScript's string order.
const ALPHABET = ['a', 'b', 'z', '_', '0', 'é', 'ß', '中', '\u{e000}', '\u{fffd}', '😀', '\u{10000}', '\u{1f600}'];
const term = fc.array(fc.constantFrom(...ALPHABET), { minLength: 1, maxLength: 6 }).map((chars) => chars.join(''));

/** Where `term` would be inserted among `sorted` (JavaScript string order). */
function insertionPoint(sorted: readonly string[], term: string): number {
  let at = 0;
  while (at < sorted.length && sorted[at]! < term) at++;
  return at;
}

describe('TermDictionary', () => {
  it('finds every term, and where an absent one would go, in JavaScript string order, over bytes', () => {
    fc.assert(
      fc.property(fc.uniqueArray(term, { minLength: 1, maxLength: 40 }), fc.array(term, { maxLength: 20 }), (terms, probes) => {
        const present = [...terms].sort();
        const dictionary = TermDictionary.fromSorted(present);
        expect(dictionary.size).toBe(present.length);
        expect([...dictionary.terms()]).toEqual(present);
        present.forEach((t, id) => {
          expect(dictionary.lookup(t)).toBe(id);
          expect(dictionary.lowerBound(t)).toBe(id);
        });
        for (const probe of probes) {
          expect(dictionary.lookup(probe)).toBe(present.indexOf(probe));
          expect(dictionary.lowerBound(probe)).toBe(insertionPoint(present, probe));
        }
        // The bytes are the UTF-8 of the terms, one after another.
        expect(new TextDecoder().decode(dictionary.bytes)).toBe(present.join(''));
      }),
      { numRuns: 300 },
    );
  });

  it('reads back the same dictionary from its bytes and offsets (as a loaded index does)', () => {
    const terms = ['alloc', 'caché', 'naïve', 'zebra', '中文', '\u{e001}x', '😀'].sort();
    const built = TermDictionary.fromSorted(terms);
    const loaded = new TermDictionary(built.bytes.slice(), built.offsets.slice());
    expect(terms.map((t) => loaded.lookup(t))).toEqual(terms.map((_, i) => i));
    expect(loaded.termAt(terms.indexOf('naïve'))).toBe('naïve');
    expect(loaded.lookup('naive')).toBe(-1);
    // A term longer than the reusable probe buffer.
    expect(loaded.lookup('x'.repeat(1000))).toBe(-1);
  });

  it('samples every n-th term, and finds a term among a range of ids only', () => {
    fc.assert(
      fc.property(fc.uniqueArray(term, { minLength: 1, maxLength: 60 }), fc.integer({ min: 1, max: 9 }), (words, every) => {
        const dictionary = TermDictionary.fromSorted([...words].sort());
        const samples = sampleTerms(dictionary, every);
        expect(samples.size).toBe(Math.ceil(dictionary.size / every));
        for (let b = 0; b < samples.size; b++) expect(samples.termAt(b)).toBe(dictionary.termAt(b * every));
        for (let id = 0; id < dictionary.size; id++) {
          const term = dictionary.termAt(id);
          const block = Math.floor(id / every);
          expect(dictionary.lookupWithin(term, block * every, Math.min(dictionary.size, block * every + every))).toBe(id);
          // Outside its range it is not found, even though the dictionary holds it.
          if (id > 0) expect(dictionary.lookupWithin(term, 0, id)).toBe(-1);
        }
      }),
    );
  });

  it('orders lead bytes as UTF-16 code units order their characters', () => {
    // U+1F600 (F0 …) is a surrogate pair, below U+E000 (EE …) in UTF-16.
    expect(compareUtf8Units(0xf0, 0xee)).toBeLessThan(0);
    expect(compareUtf8Units(0xef, 0xf0)).toBeGreaterThan(0);
    expect(compareUtf8Units(0xe4, 0xf0)).toBeLessThan(0); // 中 (E4 …) < 😀 either way
    expect(compareUtf8Units(0x61, 0x62)).toBeLessThan(0);
    expect('😀' < '\u{e000}').toBe(true);
  });
});
