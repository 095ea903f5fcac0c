import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stripThinking, ThinkingFilter } from '../src/internals.js';

function streamThrough(chunks: readonly string[]): string {
  const filter = new ThinkingFilter();
  return chunks.map((c) => filter.push(c)).join('') + filter.flush();
}

describe('stripThinking', () => {
  it('removes think blocks anywhere', () => {
    expect(stripThinking('<think>plan</think>\n\nAnswer [1].')).toBe('Answer [1].');
    expect(stripThinking('A <think>x</think>B<think>\ny\n</think> C')).toBe('A B C');
  });

  it('drops an unclosed block (the budget ran out while thinking)', () => {
    expect(stripThinking('Answer.<think>still going')).toBe('Answer.');
    expect(stripThinking('<think>never closed')).toBe('');
  });

  it('drops reasoning before a stray close tag whose open tag was in the prompt', () => {
    expect(stripThinking('reasoning here</think>\n\nThe answer.')).toBe('The answer.');
  });

  it('leaves text without tags as it is, trimmed', () => {
    expect(stripThinking('  plain <b>text</b>\n')).toBe('plain <b>text</b>');
  });
});

describe('ThinkingFilter', () => {
  it('hides a block whose tags are split across chunks', () => {
    expect(streamThrough(['<th', 'ink>x</t', 'hink>', 'Port', ' 8421'])).toBe('Port 8421');
  });

  it('releases a held-back tag prefix that turns out to be text', () => {
    expect(streamThrough(['a <', 'b> c <thi'])).toBe('a <b> c <thi');
  });

  it('never joins the text around a removed block into a new tag (found by the property below)', () => {
    expect(stripThinking('<<think></think>think>')).toBe('<think>');
    expect(streamThrough(['<', '<think></think>', 'th', 'ink>'])).toBe('<think>');
  });

  it('gives what stripThinking gives, however the text is chunked', () => {
    // Text made of tag fragments, whole blocks and open tags, but never a close tag before
    // its open tag: that one case needs hindsight, which a stream does not have.
    const fragment = fc.constantFrom('<think>', 'a', ' ', '<', 'th', 'ink>', '\n', 'x [1]');
    const block = fc.string({ maxLength: 5 }).map((s) => `<think>${s.replaceAll('<', '')}</think>`);
    const texts = fc.array(fc.oneof(fragment, block), { maxLength: 8 });
    fc.assert(
      fc.property(texts, fc.array(fc.nat(), { maxLength: 8 }), (parts, cuts) => {
        const text = parts.join('');
        const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
        const chunks = [0, ...points, text.length].slice(1).map((end, i, ends) => text.slice(i === 0 ? 0 : ends[i - 1]!, end));
        expect(streamThrough(chunks).trim()).toBe(stripThinking(text));
      }),
    );
  });
});
