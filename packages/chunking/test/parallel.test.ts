import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chunkCorpus, chunkFiles, chunkFilesReleasing, defaultConcurrency, TREE_RELEASE_CHARS, WORKERS_MIN_CORES, type FileToChunk } from '../src/index.js';

// The worker thread runs the built script (dist/chunk-worker.js): `pnpm test` builds first.
const dist = new URL('../dist/index.js', import.meta.url);

function sampleFiles(): FileToChunk[] {
  const files: FileToChunk[] = [];
  for (let i = 0; i < 30; i++) {
    const body = Array.from({ length: 40 + i }, (_, j) => `def f_${i}_${j}(x):\n    """Doc 🚀 ${j}."""\n    return x + ${j}\n`).join('\n');
    files.push({ text: `import os\r\n\r\n${body}`, file_path: `pkg/m${i}.py`, language: 'python' });
    files.push({ text: `# Title ${i}\n\n${'Some prose, é and 🚀. '.repeat(60 + i)}\n\n## Part\n\n| a | b |\n|---|---|\n| 1 | 2 |\n`, file_path: `docs/d${i}.md`, language: 'markdown' });
  }
  return files;
}

describe('parallel chunking', () => {
  it('gives exactly the in-thread chunks, in file order, with 2 and 3 threads', async () => {
    expect(existsSync(fileURLToPath(new URL('../dist/chunk-worker.js', import.meta.url))), 'build @rag/chunking first').toBe(true);
    const { chunkFilesInParallel } = (await import(dist.href)) as typeof import('../src/index.js');
    const files = sampleFiles();
    const expected = chunkFiles(files, {});
    for (const threads of [2, 3]) {
      let last = 0;
      const got = await chunkFilesInParallel(files, {}, threads, (done) => (last = done), 0);
      expect(got).toEqual(expected);
      expect(last).toBe(files.length);
    }
  });

  it('fails with a RagError, never an unhandled rejection, when a worker or this thread fails', async () => {
    const { chunkFilesInParallel } = (await import(dist.href)) as typeof import('../src/index.js');
    const files = sampleFiles();
    // Every file of an unknown language: this thread fails at once, while the workers are still running.
    const unknown = files.map((file) => ({ ...file, language: 'cobol' as FileToChunk['language'] }));
    await expect(chunkFilesInParallel(unknown, {}, 3, () => undefined, 0)).rejects.toMatchObject({ code: 'UNKNOWN_NAME' });
    // One bad file among many: it lands in one of the buckets; whichever thread meets it, the
    // call rejects with a RagError that names the problem.
    const oneBad = files.map((file, i) => (i === files.length - 1 ? { ...file, language: 'cobol' as FileToChunk['language'] } : file));
    const error = await chunkFilesInParallel(oneBad, {}, 3, () => undefined, 0).then(
      () => undefined,
      (caught: unknown) => caught as { code?: string; message: string },
    );
    expect(error?.message).toMatch(/Unknown language "cobol"/);
    // Let any worker still running report; an unhandled rejection fails this file's run.
    await new Promise((done) => setTimeout(done, 200));
  });

  it('stops its workers between files when this thread fails, never in the middle of a parse', async () => {
    // Stopping a worker by terminating it while tree-sitter parses (the parser calls back into
    // JavaScript for the text) aborts the whole process with a C++ exception; run it often
    // enough that some stop lands mid-parse. Reaching the end of this test is the assertion.
    const { chunkFilesInParallel } = (await import(dist.href)) as typeof import('../src/index.js');
    const big = Array.from({ length: 4 }, () => sampleFiles()).flat();
    // The largest file goes to this thread's bucket (see `balance`), and its language is unknown: this thread fails at once.
    const files = big.map((file, i) => (i === 0 ? { ...file, text: 'x'.repeat(200_000), language: 'cobol' as FileToChunk['language'] } : file));
    for (let round = 0; round < 8; round++) {
      await expect(chunkFilesInParallel(files, {}, 3, () => undefined, 0)).rejects.toMatchObject({ code: 'UNKNOWN_NAME' });
      await new Promise((done) => setTimeout(done, 5 * round));
    }
    await new Promise((done) => setTimeout(done, 300));
  }, 60_000);

  it('releasing parse trees as it goes changes no chunk (many releases on a small budget of characters)', async () => {
    // Eight copies of the sample (~1.1 M characters), every file parsed (Python too), cross
    // TREE_RELEASE_CHARS more than once.
    const files = Array.from({ length: 8 }, () => sampleFiles()).flat();
    expect(files.reduce((n, f) => n + f.text.length, 0)).toBeGreaterThan(2 * TREE_RELEASE_CHARS);
    let seen = 0;
    const got = await chunkFilesReleasing(files, { pythonReader: 'parse' }, () => seen++);
    expect(got).toEqual(chunkFiles(files, { pythonReader: 'parse' }));
    expect(got).toEqual(chunkFiles(files, {}));
    expect(seen).toBe(files.length);
  });

  it('chunks on every core by default from three cores on, at most 4, and in one thread on one or two', () => {
    expect(WORKERS_MIN_CORES).toBe(3);
    expect([1, 2, 3, 4, 8, 64].map((cores) => defaultConcurrency(cores))).toEqual([1, 1, 3, 4, 4, 4]);
  });

  it('refuses a concurrency outside [1, 64], naming the option', async () => {
    await expect(chunkCorpus('.', { concurrency: 0 })).rejects.toThrow(/concurrency must be an integer in \[1, 64\]/);
  });
});
