import { createRequire } from 'node:module';

type NodeCrypto = typeof import('node:crypto');

let loaded: NodeCrypto | undefined;

/**
 * `node:crypto`, loaded on first use. Loading it brings its cipher, key and stream modules
 * (~8 ms of a one-shot search on this project's machines), and a search over an index whose
 * files carry CRC-32 sums (see `FileChecksum.crc32`) never hashes with it.
 */
export function nodeCrypto(): NodeCrypto {
  return (loaded ??= createRequire(import.meta.url)('node:crypto') as NodeCrypto);
}

/** sha256 (hex) of a string (as UTF-8) or bytes. */
export function sha256Hex(data: string | Uint8Array): string {
  return nodeCrypto().createHash('sha256').update(data).digest('hex');
}

/** `count` random bytes as hex (temporary and generation names). */
export function randomHex(count: number): string {
  return nodeCrypto().randomBytes(count).toString('hex');
}
