import { createHash } from 'node:crypto';
import { open, readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { RagError } from './errors.js';
import type { IndexFileReader } from './shared-files.js';

/** Size and sha256 of one file of an index, as the manifest records them. */
export interface FileChecksum {
  size: number;
  sha256: string;
}

/** Every file of an index generation but the manifest, by path relative to the generation (with `/`). */
export type IndexChecksums = Record<string, FileChecksum>;

/** Bytes hashed per read: large enough to stream at disk speed, small enough to keep memory flat. */
const READ_BLOCK = 1 << 20;

/** sha256 and size of a file, streamed. */
export async function checksumFile(path: string): Promise<FileChecksum> {
  const hash = createHash('sha256');
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(READ_BLOCK);
    let size = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, READ_BLOCK, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
      size += bytesRead;
    }
    return { size, sha256: hash.digest('hex') };
  } finally {
    await handle.close();
  }
}

/** sha256 of a string or bytes already in memory. */
export function sha256Of(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Every file below `root`, as sorted paths relative to it with `/` separators. */
export async function listFiles(root: string, dir = root): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(root, path)));
    else out.push(relative(root, path).split(sep).join('/'));
  }
  return out.sort();
}

/** Checksums of every file below `dir` except those named in `skip`. */
export async function checksumTree(dir: string, skip: readonly string[]): Promise<IndexChecksums> {
  const sums: IndexChecksums = {};
  for (const file of await listFiles(dir)) if (!skip.includes(file)) sums[file] = await checksumFile(join(dir, file));
  return sums;
}

function damaged(indexDir: string, file: string, what: string, cause?: unknown): RagError {
  return new RagError('INDEX_CORRUPT', `The index in ${indexDir} is damaged: ${file} ${what}.`, {
    hint: 'Rebuild it with `rag index --corpus_dir <dir>` (`rag verify` checks every file).',
    cause,
  });
}

/**
 * Checks the files of `generationDir` named in `sums` (all of them, or those under
 * `prefix`) against their recorded size and sha256. A missing, truncated or altered file
 * is `INDEX_CORRUPT` naming it, so nothing read from a damaged index reaches an output.
 */
export async function verifyChecksums(
  indexDir: string,
  generationDir: string,
  sums: IndexChecksums,
  prefix = '',
  read?: IndexFileReader,
): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for (const [file, expected] of Object.entries(sums)) {
    if (!file.startsWith(prefix)) continue;
    const path = join(generationDir, file);
    if (read) {
      // Hash the very bytes the loader will be handed (read once, not streamed and read again).
      const data = await read(path).catch((error: unknown) => {
        throw damaged(indexDir, file, 'is missing', error);
      });
      if (data.byteLength !== expected.size) throw damaged(indexDir, file, `has ${data.byteLength} bytes where ${expected.size} were written`);
      if (sha256Of(data) !== expected.sha256) throw damaged(indexDir, file, 'does not match its checksum');
      files++;
      bytes += data.byteLength;
      continue;
    }
    const info = await stat(path).catch((error: unknown) => {
      throw damaged(indexDir, file, 'is missing', error);
    });
    if (info.size !== expected.size) throw damaged(indexDir, file, `has ${info.size} bytes where ${expected.size} were written`);
    const actual = await checksumFile(path);
    if (actual.sha256 !== expected.sha256) throw damaged(indexDir, file, 'does not match its checksum');
    files++;
    bytes += actual.size;
  }
  return { files, bytes };
}

export { damaged as indexDamagedError };
