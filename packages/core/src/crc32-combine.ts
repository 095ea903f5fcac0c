/**
 * The CRC-32 of two byte strings joined, from their own CRC-32s and the second one's length
 * (zlib's `crc32_combine`, which Node does not expose): a file whose pages are summed one by
 * one gets its whole sum without a second pass over its bytes. A CRC is linear over GF(2),
 * so appending n zero bytes to a message is a fixed 32×32 bit matrix applied to its CRC;
 * the matrix for a length is built by squaring the one for a single zero bit.
 */

/** The reflected CRC-32 polynomial (IEEE 802.3), as `node:zlib`'s `crc32` uses. */
const POLYNOMIAL = 0xedb88320;

/** `matrix` (32 columns, column i the image of bit i) applied to `vector`. */
function times(matrix: Uint32Array, vector: number): number {
  let sum = 0;
  for (let i = 0; vector !== 0; i++, vector >>>= 1) if (vector & 1) sum ^= matrix[i]!;
  return sum >>> 0;
}

/** `a` after `b`: the matrix that applies `b`, then `a`. */
function compose(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(32);
  for (let i = 0; i < 32; i++) out[i] = times(a, b[i]!);
  return out;
}

/** The matrix that appends `length` zero bytes to a message's CRC-32. */
function zeroBytesOperator(length: number): Uint32Array {
  // One zero bit: shift right, folding in the polynomial when the low bit falls out.
  let power: Uint32Array = new Uint32Array(32);
  power[0] = POLYNOMIAL;
  for (let i = 1; i < 32; i++) power[i] = (1 << (i - 1)) >>> 0;
  // Squared three times: one zero byte.
  for (let i = 0; i < 3; i++) power = compose(power, power);
  let result: Uint32Array = new Uint32Array(32);
  for (let i = 0; i < 32; i++) result[i] = (1 << i) >>> 0;
  for (let n = length; n > 0; n = Math.floor(n / 2)) {
    if (n % 2 === 1) result = compose(power, result);
    if (n > 1) power = compose(power, power);
  }
  return result;
}

/** Operators built so far, by length (a file's pages all have one length). */
const operators = new Map<number, Uint32Array>();

/** The CRC-32 of A followed by B, given `crcA`, `crcB` and B's length in bytes. */
export function combineCrc32(crcA: number, crcB: number, lengthB: number): number {
  if (lengthB === 0) return crcA >>> 0;
  let operator = operators.get(lengthB);
  if (!operator) {
    operator = zeroBytesOperator(lengthB);
    // A few lengths recur (the page size, a last page's); any other is built when asked.
    if (operators.size < 16) operators.set(lengthB, operator);
  }
  return (times(operator, crcA >>> 0) ^ crcB) >>> 0;
}
