import { describe, expect, it } from 'vitest';
import { BACKGROUND_FREQUENCIES, BACKGROUND_MIN_PIECES, BACKGROUND_PIECES, backgroundRarity, isPhrasingWord } from '../src/background.js';
import { PHRASING_WORD_LINES } from '../src/word-lists/phrasing-words.js';
import { tokenize } from '../src/index.js';

const rarity = (word: string): number => backgroundRarity(tokenize(word)[0]!);

describe('backgroundRarity', () => {
  it('orders words by how much they tell about a text in any Python codebase', () => {
    // Keywords and the vocabulary of every module say little; a subject's own words much.
    expect(rarity('return')).toBeLessThan(rarity('default'));
    expect(rarity('default')).toBeLessThan(rarity('cache'));
    expect(rarity('cache')).toBeLessThan(rarity('immutable'));
    expect(rarity('immutable')).toBeLessThan(rarity('banner'));
  });

  it('is positive everywhere and the same for every unlisted term', () => {
    for (const [term, pieces] of Object.entries(BACKGROUND_FREQUENCIES)) {
      expect(pieces).toBeGreaterThanOrEqual(BACKGROUND_MIN_PIECES);
      expect(pieces).toBeLessThanOrEqual(BACKGROUND_PIECES);
      expect(backgroundRarity(term)).toBeGreaterThan(0);
    }
    expect(backgroundRarity('zzzunlisted')).toBe(backgroundRarity('qqqunlisted'));
    expect(backgroundRarity('zzzunlisted')).toBeGreaterThan(Math.max(...Object.keys(BACKGROUND_FREQUENCIES).map(backgroundRarity)));
  });

  it('lists terms as the tokenizer emits them, so a lookup of tokenized text finds them', () => {
    // Stemmed forms: a table written by another tokenizer would miss these (run the script).
    for (const word of ['return', 'values', 'False', 'closing', 'parser', 'response', 'default']) {
      expect(BACKGROUND_FREQUENCIES[tokenize(word)[0]!], word).toBeDefined();
    }
  });
});

describe('isPhrasingWord', () => {
  it('knows the verbs, adjectives and adverbs that are never nouns, in any case and form', () => {
    // How questions phrase what they ask: "refused", "leaking", "polite", "twice", "stronger".
    for (const word of ['refused', 'Leaking', 'polite', 'twice', 'stronger', 'avoid', 'suitable', 'outright']) expect(isPhrasingWord(word), word).toBe(true);
  });

  it('leaves out every word that can be a noun, and what English does not know', () => {
    // A question's subject: "the cookie", "the topic", "a switch", "the disk" — and names.
    for (const word of ['cookie', 'topic', 'switch', 'disk', 'hang', 'Kafka', 'vLLM', 'max_tokens', 'cache']) expect(isPhrasingWord(word), word).toBe(false);
  });

  it('lists lower-case words, sorted, each once', () => {
    const words = PHRASING_WORD_LINES.flatMap((line) => line.split(' '));
    expect(words.every((word) => /^[a-z]{3,}$/.test(word))).toBe(true);
    expect(words).toEqual([...new Set(words)].sort());
  });
});
