/**
 * Qwen3 and other reasoning models may emit `<think>…</think>` even with thinking turned
 * off in the chat template; the reasoning is not part of the answer.
 */
const OPEN = '<think>';
const CLOSE = '</think>';

/**
 * Removes every `<think>…</think>` block, an unclosed trailing one, and a stray leading
 * `…</think>`. Blocks are removed in one left-to-right scan (the same as the streaming
 * {@link ThinkingFilter}), so text on both sides of a removed block never joins into a new tag.
 */
export function stripThinking(text: string): string {
  let out = text;
  const firstClose = out.indexOf(CLOSE);
  const firstOpen = out.indexOf(OPEN);
  // A close tag with no open tag before it: everything before it was reasoning whose
  // open tag sat in the prompt.
  if (firstClose >= 0 && (firstOpen < 0 || firstOpen > firstClose)) out = out.slice(firstClose + CLOSE.length);
  const filter = new ThinkingFilter();
  return (filter.push(out) + filter.flush()).trim();
}

/** Longest suffix of `text` that is a proper prefix of `tag`. */
function partialTagLength(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (tag.startsWith(text.slice(text.length - n))) return n;
  }
  return 0;
}

/**
 * The streaming counterpart of `stripThinking`: feed chunks as they arrive, get back the
 * visible text. A chunk ending in a possible tag prefix (`<th`) is held back until the next
 * chunk decides it. Leading whitespace of the visible text is dropped, as in the final answer.
 */
export class ThinkingFilter {
  #inside = false;
  #pending = '';
  #started = false;

  push(chunk: string): string {
    let text = this.#pending + chunk;
    this.#pending = '';
    let visible = '';
    while (text.length > 0) {
      const tag = this.#inside ? CLOSE : OPEN;
      const at = text.indexOf(tag);
      if (at >= 0) {
        if (!this.#inside) visible += text.slice(0, at);
        this.#inside = !this.#inside;
        text = text.slice(at + tag.length);
        continue;
      }
      const hold = partialTagLength(text, tag);
      if (!this.#inside) visible += text.slice(0, text.length - hold);
      this.#pending = text.slice(text.length - hold);
      break;
    }
    return this.#emit(visible);
  }

  /** Whatever was held back, once the stream has ended. */
  flush(): string {
    const rest = this.#inside ? '' : this.#pending;
    this.#pending = '';
    return this.#emit(rest);
  }

  #emit(text: string): string {
    if (this.#started) return text;
    const trimmed = text.trimStart();
    if (trimmed.length > 0) this.#started = true;
    return trimmed;
  }
}
