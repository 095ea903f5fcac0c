import type { VectorEncoding } from './options.js';
import { decodeContainer, encodeContainer } from './binary-file.js';
import { RagError } from '@rag/core';

/** File name of the chunk vectors inside a retriever directory. */
export const VECTORS_FILE = 'vectors.bin';
const MAGIC = 'RAGVEC1\n';
const FORMAT_VERSION = 1;

/**
 * Symmetric int8 quantisation per vector: q = round(v / s) with s = max|v| / 127. For
 * unit vectors the error of a dot product stays below about 1% of the largest component,
 * far under the gaps that decide a ranking, at a quarter of the float32 size.
 */
export function quantizeInt8(vectors: Float32Array, dimension: number): { codes: Int8Array; scales: Float32Array } {
  const count = dimension === 0 ? 0 : vectors.length / dimension;
  const codes = new Int8Array(vectors.length);
  const scales = new Float32Array(count);
  for (let row = 0; row < count; row++) {
    const base = row * dimension;
    let largest = 0;
    for (let i = 0; i < dimension; i++) largest = Math.max(largest, Math.abs(vectors[base + i]!));
    const scale = largest / 127;
    scales[row] = scale;
    if (scale === 0) continue;
    for (let i = 0; i < dimension; i++) codes[base + i] = Math.round(vectors[base + i]! / scale);
  }
  return { codes, scales };
}

export function dequantizeInt8(codes: Int8Array, scales: Float32Array, dimension: number): Float32Array {
  const out = new Float32Array(codes.length);
  for (let row = 0; row < scales.length; row++) {
    const scale = scales[row]!;
    const base = row * dimension;
    for (let i = 0; i < dimension; i++) out[base + i] = codes[base + i]! * scale;
  }
  return out;
}

export function encodeVectors(vectors: Float32Array, dimension: number, encoding: VectorEncoding): Uint8Array {
  const count = dimension === 0 ? 0 : vectors.length / dimension;
  const header = { format: 'rag-vectors', version: FORMAT_VERSION, count, dimension, encoding };
  if (encoding === 'int8') {
    const { codes, scales } = quantizeInt8(vectors, dimension);
    return encodeContainer(MAGIC, header, { codes, scales });
  }
  return encodeContainer(MAGIC, header, { vectors });
}

export interface DecodedVectors {
  vectors: Float32Array;
  count: number;
  dimension: number;
  encoding: VectorEncoding;
}

export function decodeVectors(bytes: Uint8Array, label: string): DecodedVectors {
  const { header, sections } = decodeContainer(bytes, MAGIC, label);
  if (header.version !== FORMAT_VERSION) {
    throw new RagError('INDEX_INCOMPATIBLE', `${label} has vector format version ${String(header.version)}; this version reads ${FORMAT_VERSION}.`, {
      hint: 'Rebuild the index with `rag index --corpus_dir <dir> --retriever embedding`.',
    });
  }
  const count = header.count as number;
  const dimension = header.dimension as number;
  const encoding = header.encoding as VectorEncoding;
  const vectors =
    encoding === 'int8'
      ? dequantizeInt8(sections.codes as Int8Array, sections.scales as Float32Array, dimension)
      : (sections.vectors as Float32Array);
  if (vectors.length !== count * dimension) {
    throw new RagError('INDEX_CORRUPT', `${label} is damaged: it holds ${vectors.length} numbers, not ${count} × ${dimension}.`, {
      hint: 'Rebuild the index with `rag index --corpus_dir <dir> --retriever embedding`.',
    });
  }
  return { vectors, count, dimension, encoding };
}
