import type { PreTrainedTokenizer } from '@huggingface/transformers';
import type { ChatMessage, PromptTokenizer } from './prompt.js';

/** The chat-template arguments every prompt is rendered with: generation prompt on, thinking off. */
export const CHAT_TEMPLATE_ARGS = Object.freeze({ add_generation_prompt: true, enable_thinking: false });

/** The prompt as text, exactly as the model sees it (for tests and `--verbose` output). */
export function renderChat(tokenizer: PreTrainedTokenizer, messages: readonly ChatMessage[]): string {
  return tokenizer.apply_chat_template(messages as ChatMessage[], { ...CHAT_TEMPLATE_ARGS, tokenize: false }) as string;
}

/** A transformers.js tokenizer as the prompt builder's `PromptTokenizer`. */
export function toPromptTokenizer(tokenizer: PreTrainedTokenizer): PromptTokenizer {
  return {
    encodeChat(messages) {
      // v4 returns { input_ids, attention_mask } with plain arrays when return_tensor is false.
      const out = tokenizer.apply_chat_template(messages as ChatMessage[], { ...CHAT_TEMPLATE_ARGS, return_tensor: false }) as unknown;
      const ids = Array.isArray(out) ? out : (out as { input_ids: number[] }).input_ids;
      return ids.map(Number);
    },
    encode(text) {
      return tokenizer.encode(text, { add_special_tokens: false });
    },
    decode(ids) {
      return tokenizer.decode(ids as number[], { skip_special_tokens: false });
    },
  };
}
