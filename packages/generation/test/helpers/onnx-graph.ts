// Writes the tiny decoder graphs the tests run through transformers.js. The graph has the
// interface of an exported causal LM with a KV cache (input_ids, attention_mask,
// position_ids, past_key_values.* → logits, present.*), but its logits come from a lookup
// table: the next token depends only on the current last token, so greedy output is known.
import onnxProto from 'onnx-proto';
import type { onnx as Onnx } from 'onnx-proto';

const { onnx } = onnxProto;
const { DataType } = onnx.TensorProto;
const INT64_MAX = 9223372036854775807n;

function int64Tensor(name: string, dims: number[], values: readonly (number | bigint)[]): Onnx.ITensorProto {
  const raw = new BigInt64Array(values.map((v) => BigInt(v)));
  return { name, dims, dataType: DataType.INT64, rawData: new Uint8Array(raw.buffer) };
}

function floatTensor(name: string, dims: number[], values: readonly number[]): Onnx.ITensorProto {
  const raw = new Float32Array(values);
  return { name, dims, dataType: DataType.FLOAT, rawData: new Uint8Array(raw.buffer) };
}

function valueInfo(name: string, elemType: number, dims: (number | string)[]): Onnx.IValueInfoProto {
  return {
    name,
    type: {
      tensorType: {
        elemType,
        shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
      },
    },
  };
}

function node(opType: string, inputs: string[], outputs: string[], attributes: Onnx.IAttributeProto[] = []): Onnx.INodeProto {
  return { opType, input: inputs, output: outputs, name: `${opType}_${outputs[0]}`, attribute: attributes };
}

function intAttribute(name: string, value: number): Onnx.IAttributeProto {
  return { name, type: onnx.AttributeProto.AttributeType.INT, i: value };
}

export interface LookupDecoderShape {
  /** Vocabulary size: the logits' last dimension. */
  vocabSize: number;
  numLayers: number;
  /** KV heads × head_dim of the cache tensors (the config must say the same). */
  numKvHeads: number;
  headDim: number;
}

/**
 * An ONNX decoder whose logits for the next token are `onOff[1]` at `next[last token]` and
 * `onOff[0]` elsewhere. `next` has one entry per vocabulary id.
 */
export function buildLookupDecoder(shape: LookupDecoderShape, next: Int32Array | number[], onOff: [number, number] = [0, 1]): Uint8Array {
  const { vocabSize, numLayers, numKvHeads, headDim } = shape;
  if (next.length !== vocabSize) throw new Error(`next table has ${next.length} entries, expected ${vocabSize}`);
  const inputs = [
    valueInfo('input_ids', DataType.INT64, ['batch', 'seq']),
    valueInfo('attention_mask', DataType.INT64, ['batch', 'total']),
    valueInfo('position_ids', DataType.INT64, ['batch', 'seq']),
  ];
  const outputs = [valueInfo('logits', DataType.FLOAT, ['batch', 1, vocabSize])];
  const nodes: Onnx.INodeProto[] = [
    node('Slice', ['input_ids', 'slice_start', 'slice_end', 'slice_axes'], ['last_ids']),
    node('Gather', ['next_table', 'last_ids'], ['next_ids'], [intAttribute('axis', 0)]),
    node('OneHot', ['next_ids', 'depth', 'on_off'], ['logits'], [intAttribute('axis', -1)]),
    node('Cast', ['input_ids'], ['ids_float'], [intAttribute('to', DataType.FLOAT)]),
    node('Unsqueeze', ['ids_float', 'unsqueeze_axes'], ['ids_4d']),
    node('Expand', ['ids_4d', 'kv_shape'], ['kv_new']),
  ];
  for (let layer = 0; layer < numLayers; layer++) {
    for (const part of ['key', 'value']) {
      const past = `past_key_values.${layer}.${part}`;
      const present = `present.${layer}.${part}`;
      inputs.push(valueInfo(past, DataType.FLOAT, ['batch', numKvHeads, 'past', headDim]));
      outputs.push(valueInfo(present, DataType.FLOAT, ['batch', numKvHeads, 'past_plus_seq', headDim]));
      nodes.push(node('Concat', [past, 'kv_new'], [present], [intAttribute('axis', 2)]));
    }
  }
  const initializer = [
    int64Tensor('slice_start', [1], [-1]),
    int64Tensor('slice_end', [1], [INT64_MAX]),
    int64Tensor('slice_axes', [1], [1]),
    int64Tensor('next_table', [vocabSize], Array.from(next)),
    int64Tensor('depth', [1], [vocabSize]),
    floatTensor('on_off', [2], onOff),
    int64Tensor('unsqueeze_axes', [2], [1, 3]),
    int64Tensor('kv_shape', [4], [1, numKvHeads, 1, headDim]),
  ];
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'rag-generation-tests',
    opsetImport: [{ domain: '', version: 17 }],
    graph: { name: 'lookup_decoder', node: nodes, input: inputs, output: outputs, initializer },
  });
  return onnx.ModelProto.encode(model).finish();
}
