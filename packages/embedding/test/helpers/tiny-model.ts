/**
 * Writes a tiny BERT-shaped sentence encoder that transformers.js loads from a local
 * folder exactly as it would all-MiniLM-L6-v2: config.json (model_type "bert"), a
 * WordPiece tokenizer.json with BERT normalisation and a [CLS] … [SEP] template,
 * tokenizer_config.json and onnx/model.onnx. The graph is
 *
 *   last_hidden_state = tanh((E[input_ids] + T[token_type_ids] + P[position]) · W + b) · mask
 *
 * so it has the real inputs and output, and the position table makes inputs longer than
 * `maxPositions` fail inside onnxruntime, as a real encoder's would.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

export const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;

export interface TinyModelOptions {
  /** Whole-word vocabulary (lower case); `##` pieces may be included. */
  words: readonly string[];
  /** Hidden size. Default 16. */
  hidden?: number;
  /** Longest input the position table covers, specials included. Default 64. */
  maxPositions?: number;
  /** Seed of the weights: different seeds give different models of the same shape. Default 1. */
  seed?: number;
  /** File name inside onnx/. Default `model.onnx` (what dtype fp32 loads). */
  fileName?: string;
}

/** A small deterministic generator (mulberry32) so weights are reproducible. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function floatTensor(name: string, dims: number[], next: () => number, scale: number) {
  const size = dims.reduce((a, b) => a * b, 1);
  const values = Array.from({ length: size }, () => (next() * 2 - 1) * scale);
  return onnx.TensorProto.create({ name, dims, dataType: onnx.TensorProto.DataType.FLOAT, floatData: values });
}

function int64Tensor(name: string, dims: number[], values: number[]) {
  return onnx.TensorProto.create({ name, dims, dataType: onnx.TensorProto.DataType.INT64, int64Data: values });
}

function valueInfo(name: string, elemType: number, dims: (number | string)[]) {
  return onnx.ValueInfoProto.create({
    name,
    type: {
      tensorType: {
        elemType,
        shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
      },
    },
  });
}

function node(opType: string, inputs: string[], outputs: string[], attribute: object[] = []) {
  return onnx.NodeProto.create({ opType, input: inputs, output: outputs, name: outputs[0], attribute });
}

function encodeModel(vocabSize: number, hidden: number, maxPositions: number, seed: number): Uint8Array {
  const next = random(seed);
  const INT64 = onnx.TensorProto.DataType.INT64;
  const FLOAT = onnx.TensorProto.DataType.FLOAT;
  const graph = onnx.GraphProto.create({
    name: 'tiny-bert',
    input: [
      valueInfo('input_ids', INT64, ['batch', 'sequence']),
      valueInfo('attention_mask', INT64, ['batch', 'sequence']),
      valueInfo('token_type_ids', INT64, ['batch', 'sequence']),
    ],
    output: [valueInfo('last_hidden_state', FLOAT, ['batch', 'sequence', hidden])],
    initializer: [
      floatTensor('E', [vocabSize, hidden], next, 1),
      floatTensor('T', [2, hidden], next, 0.1),
      floatTensor('P', [maxPositions, hidden], next, 0.3),
      floatTensor('W', [hidden, hidden], next, 0.6),
      floatTensor('B', [hidden], next, 0.1),
      int64Tensor('one_index', [], [1]),
      int64Tensor('zero', [], [0]),
      int64Tensor('one', [], [1]),
      int64Tensor('axes', [1], [2]),
    ],
    node: [
      node('Shape', ['input_ids'], ['shape']),
      node('Gather', ['shape', 'one_index'], ['sequence_length']),
      node('Range', ['zero', 'sequence_length', 'one'], ['positions']),
      node('Gather', ['P', 'positions'], ['position_embeddings']),
      node('Gather', ['E', 'input_ids'], ['word_embeddings']),
      node('Gather', ['T', 'token_type_ids'], ['type_embeddings']),
      node('Add', ['word_embeddings', 'type_embeddings'], ['sum1']),
      node('Add', ['sum1', 'position_embeddings'], ['sum2']),
      node('MatMul', ['sum2', 'W'], ['projected']),
      node('Add', ['projected', 'B'], ['biased']),
      node('Tanh', ['biased'], ['activated']),
      node('Cast', ['attention_mask'], ['mask_float'], [{ name: 'to', type: onnx.AttributeProto.AttributeType.INT, i: FLOAT }]),
      node('Unsqueeze', ['mask_float', 'axes'], ['mask3']),
      node('Mul', ['activated', 'mask3'], ['last_hidden_state']),
    ],
  });
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'rag-embedding-tests',
    opsetImport: [{ domain: '', version: 14 }],
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}

function tokenizerJson(vocab: Record<string, number>) {
  const special = (content: string) => ({
    id: vocab[content],
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  const cls = { id: '[CLS]', ids: [vocab['[CLS]']], tokens: ['[CLS]'] };
  const sep = { id: '[SEP]', ids: [vocab['[SEP]']], tokens: ['[SEP]'] };
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map(special),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: { '[CLS]': cls, '[SEP]': sep },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
  };
}

/** Writes the model folder into `dir` (created if needed). */
export async function writeTinyBertModel(dir: string, options: TinyModelOptions): Promise<void> {
  const hidden = options.hidden ?? 16;
  const maxPositions = options.maxPositions ?? 64;
  const vocab: Record<string, number> = {};
  for (const token of [...SPECIAL_TOKENS, ...options.words]) if (!(token in vocab)) vocab[token] = Object.keys(vocab).length;
  const vocabSize = Object.keys(vocab).length;
  await mkdir(join(dir, 'onnx'), { recursive: true });
  const config = {
    _name_or_path: 'tiny-bert',
    architectures: ['BertModel'],
    model_type: 'bert',
    hidden_size: hidden,
    num_attention_heads: 1,
    num_hidden_layers: 1,
    intermediate_size: hidden,
    max_position_embeddings: maxPositions,
    type_vocab_size: 2,
    vocab_size: vocabSize,
    pad_token_id: 0,
  };
  const tokenizerConfig = {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    model_max_length: maxPositions,
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    pad_token: '[PAD]',
    unk_token: '[UNK]',
    mask_token: '[MASK]',
  };
  await writeFile(join(dir, 'config.json'), JSON.stringify(config, null, 1));
  await writeFile(join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson(vocab)));
  await writeFile(join(dir, 'tokenizer_config.json'), JSON.stringify(tokenizerConfig, null, 1));
  await writeFile(join(dir, 'onnx', options.fileName ?? 'model.onnx'), encodeModel(vocabSize, hidden, maxPositions, options.seed ?? 1));
}
