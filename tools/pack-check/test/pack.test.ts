import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBrokenReadmeLinks, findManifestProblems, installTarballs, listPublishedPackages, markdownLinks, packPackages } from '../src/index.js';

/** The first ```js block of a Markdown document. */
function firstJsExample(markdown: string): string | undefined {
  return /^```js\n([\s\S]*?)^```/m.exec(markdown)?.[1];
}

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const ROOT_MANIFEST = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  repository: { url: string };
  devDependencies: Record<string, string>;
};
const REPOSITORY = ROOT_MANIFEST.repository.url;
const PACKAGES = listPublishedPackages(ROOT);

describe('package manifests', () => {
  it('finds every library and app', () => {
    expect(PACKAGES.map((pkg) => pkg.manifest.name)).toEqual(expect.arrayContaining(['@rag/core', '@rag/bm25', '@rag/cli', '@rag/server-app']));
    expect(PACKAGES.length).toBeGreaterThanOrEqual(13);
  });

  it('every package is publishable: licence, repository folder, engines, keywords, types first, README and LICENSE packed', () => {
    expect(PACKAGES.flatMap((pkg) => findManifestProblems(ROOT, pkg, REPOSITORY))).toEqual([]);
  });

  it('each package carries the root licence text', () => {
    const license = readFileSync(join(ROOT, 'LICENSE'), 'utf8');
    for (const pkg of PACKAGES) expect(readFileSync(join(ROOT, pkg.dir, 'LICENSE'), 'utf8'), pkg.dir).toBe(license);
  });

  it('no README link breaks once packed', () => {
    expect(PACKAGES.flatMap((pkg) => findBrokenReadmeLinks(ROOT, pkg))).toEqual([]);
  });

  it('the checks catch what they are for', () => {
    const broken = { dir: 'packages/x', manifest: { name: '@rag/x', version: '0.1.0', private: true, exports: { '.': { import: './dist/index.js', types: './dist/index.d.ts' } }, files: ['dist'], bin: { x: './bin/x.js' } } };
    const problems = findManifestProblems(ROOT, broken, REPOSITORY).join('\n');
    for (const expected of ['is private', 'license', 'repository', 'engines', 'keywords', 'not ESM', 'publishConfig', 'does not pack README.md', 'has no LICENSE', 'without "types" first', 'bin x']) {
      expect(problems).toContain(expected);
    }
    expect(markdownLinks('See [a](../../docs/x.md), [b](https://x.y/z) and\n```md\n[c](../skip.md)\n```\n')).toEqual(['../../docs/x.md', 'https://x.y/z']);
  });
});

/**
 * The real thing: pack every package, install the tarballs into a project outside the
 * workspace (no workspace links, no hoisting from the repo), type-check a consumer written
 * against the public types, run it, and run the installed `rag` and `rag-server` bins.
 */
describe('packed packages installed into a scratch project', () => {
  let scratch: string;
  let consumer: string;

  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'rag-pack-'));
    const tarballs = join(scratch, 'tarballs');
    consumer = join(scratch, 'consumer');
    mkdirSync(tarballs);
    mkdirSync(consumer);
    const packed = packPackages(ROOT, PACKAGES, tarballs);
    installTarballs(ROOT, consumer, packed, {
      typescript: ROOT_MANIFEST.devDependencies.typescript!,
      '@types/node': ROOT_MANIFEST.devDependencies['@types/node']!,
    });
  }, 900_000);

  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  const run = (command: string, args: string[]): string =>
    execFileSync(command, args, { cwd: consumer, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

  it('installs only from the tarballs: no workspace links', () => {
    const installed = JSON.parse(readFileSync(join(consumer, 'node_modules/@rag/bm25/package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(installed.dependencies['@rag/core']).toBe('0.1.0');
    expect(existsSync(join(consumer, 'node_modules/@rag/bm25/LICENSE'))).toBe(true);
    expect(existsSync(join(consumer, 'node_modules/@rag/bm25/src'))).toBe(false);
  });

  it('a TypeScript consumer type-checks against the published types and runs', () => {
    writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, types: ['node'], outDir: 'out', skipLibCheck: false },
      include: ['consumer.ts'],
    }));
    writeFileSync(join(consumer, 'consumer.ts'), [
      "import { chunkCorpus } from '@rag/chunking';",
      "import { createBm25Retriever } from '@rag/bm25';",
      "import { RagError, type Chunk } from '@rag/core';",
      "import { tokenize } from '@rag/text';",
      "import { iou } from '@rag/eval';",
      '',
      'const corpus = await chunkCorpus(process.argv[2]!);',
      'const chunks: Chunk[] = corpus.chunks;',
      'const retriever = createBm25Retriever(chunks);',
      "const hits = await retriever.search('What TCP port does the development server listen on by default?', { k: 3 });",
      'const top = chunks[hits[0]!.chunkId]!;',
      "const error = new RagError('INVALID_ARGUMENT', 'demo', { hint: 'none' });",
      "console.log(JSON.stringify({ files: corpus.files.length, top: top.file_path, tokens: tokenize('max_num_seqs'), code: error.code, overlap: iou({ file_path: 'a', first_character_index: 0, last_character_index: 10 }, { file_path: 'a', first_character_index: 5, last_character_index: 10 }) }));",
      '',
    ].join('\n'));
    run(process.execPath, [join(consumer, 'node_modules/typescript/bin/tsc'), '-p', '.']);
    const output = JSON.parse(run(process.execPath, ['out/consumer.js', join(ROOT, 'datasets/mini/corpus')])) as Record<string, unknown>;
    expect(output.files).toBeGreaterThan(3);
    expect(output.top).toMatch(/tinyserve/);
    expect(output.tokens).toEqual(['max_num_seqs', 'max', 'num', 'seq']);
    expect(output.code).toBe('INVALID_ARGUMENT');
    expect(output.overlap).toBeGreaterThan(0.4);
    expect(output.overlap).toBeLessThan(0.6);
  });

  it('the installed rag bin indexes and searches, and rag-server starts', () => {
    const bin = join(consumer, 'node_modules/.bin');
    // Into the default index folder (.rag/index), which the server's README example opens.
    run(join(bin, 'rag'), ['index', '--corpus_dir', join(ROOT, 'datasets/mini/corpus')]);
    const index = join(consumer, '.rag/index');
    const result = JSON.parse(run(join(bin, 'rag'), ['search', '--json', '--query', 'default port of the development server', '--k', '3', '--index_dir', index])) as { retrieved_sources: { file_path: string }[] };
    const hits = result.retrieved_sources;
    expect(hits.length).toBe(3);
    expect(hits[0]!.file_path).toMatch(/tinyserve/);
    expect(run(join(bin, 'rag'), ['--version'])).toMatch(/0\.1\.0/);
    expect(run(join(bin, 'rag-server'), ['--help'])).toMatch(/rag-server/);
  });

  // Each library's README opens with a runnable example; run it as a user would paste it.
  for (const pkg of PACKAGES.filter((candidate) => candidate.dir.startsWith('packages/'))) {
    it(`the README example of ${pkg.manifest.name} runs against the installed package`, () => {
      const example = firstJsExample(readFileSync(join(ROOT, pkg.dir, 'README.md'), 'utf8'));
      expect(example, `${pkg.dir}/README.md has no js example`).toBeDefined();
      const file = join(consumer, `example-${pkg.dir.replace('/', '-')}.mjs`);
      writeFileSync(file, example!);
      run(process.execPath, [file]);
    });
  }
});
