import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { statSignature } from '@rag/core';
import { chunkCorpus, DEFAULT_EXTENSIONS, SETTLED_MS, walkCorpus } from '../src/index.js';
import type { ProgressEvent } from '@rag/core';

let root: string;

async function put(path: string, content: string | Uint8Array): Promise<void> {
  const full = join(root, path);
  await mkdir(join(full, '..'), { recursive: true });
  await writeFile(full, content);
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'rag-chunking-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('walkCorpus', () => {
  it('indexes the default extensions in sorted order and skips VCS, cache and virtualenv folders', async () => {
    await put('b.py', 'x = 1\n');
    await put('a/readme.md', '# A\n');
    await put('a/notes.TXT', 'notes\n');
    await put('guide.rst', 'Guide\n=====\n');
    await put('image.png', 'not indexed');
    // Other dot-folders hold real project files: issue templates, workflows, contributing guides.
    await put('.github/ISSUE_TEMPLATE/bug.md', '# Bug report\n');
    // So is their configuration, read as text: a workflow, an issue form, the build's settings.
    await put('.github/workflows/ci.yml', 'on: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n');
    await put('.github/ISSUE_TEMPLATE/feature.yaml', 'name: Feature request\n');
    await put('pyproject.toml', '[project]\nrequires-python = ">=3.8"\n');
    await put('setup.cfg', '[metadata]\nname = demo\n');
    await put('tox.ini', '[tox]\nenvlist = py38\n');
    // JSON is data (fixtures, recorded outputs), not prose: left out.
    await put('fixtures/response.json', '{"status": 200}\n');
    for (const dir of ['node_modules', '.git', '__pycache__', '.venv', 'venv', '.tox', '.mypy_cache', '.pytest_cache', 'site-packages']) {
      await put(`${dir}/skipped.py`, 'x = 1\n');
    }
    const files = await walkCorpus(root);
    expect(files.map((f) => [f.file_path, f.language])).toEqual([
      ['.github/ISSUE_TEMPLATE/bug.md', 'markdown'],
      ['.github/ISSUE_TEMPLATE/feature.yaml', 'text'],
      ['.github/workflows/ci.yml', 'text'],
      ['a/notes.TXT', 'text'],
      ['a/readme.md', 'markdown'],
      ['b.py', 'python'],
      ['guide.rst', 'rst'],
      ['pyproject.toml', 'text'],
      ['setup.cfg', 'text'],
      ['tox.ini', 'text'],
    ]);
    // The skip list is an option: an empty list walks every folder.
    const all = await walkCorpus(root, { ignoredDirs: [] });
    expect(all.map((f) => f.file_path)).toContain('.venv/skipped.py');
  });

  it('honours .gitignore and .ignore files, nested ones included, unless told not to', async () => {
    await put('.gitignore', 'build/\n*.gen.py\n!keep.gen.py\n');
    await put('.ignore', 'vendor/\n');
    await put('src/app.py', 'x = 1\n');
    await put('src/schema.gen.py', 'x = 2\n');
    await put('src/keep.gen.py', 'x = 3\n');
    await put('build/out.py', 'x = 4\n');
    await put('vendor/lib.py', 'x = 5\n');
    // A deeper file's rules win: docs/.gitignore re-includes one generated page and drops a draft.
    await put('docs/.gitignore', '!api.gen.py\ndraft.md\n');
    await put('docs/api.gen.py', 'x = 6\n');
    await put('docs/draft.md', '# Draft\n');
    await put('docs/index.md', '# Docs\n');
    const files = await walkCorpus(root);
    expect(files.map((f) => f.file_path)).toEqual(['docs/api.gen.py', 'docs/index.md', 'src/app.py', 'src/keep.gen.py']);
    const everything = await walkCorpus(root, { ignoreFiles: false });
    expect(everything.map((f) => f.file_path)).toEqual([
      'build/out.py',
      'docs/api.gen.py',
      'docs/draft.md',
      'docs/index.md',
      'src/app.py',
      'src/keep.gen.py',
      'src/schema.gen.py',
      'vendor/lib.py',
    ]);
  });

  it('records bytes, code-point length, sha256, text and absolute path; keeps a BOM', async () => {
    const content = '\ufeffé🚀\r\n';
    await put('x.md', content);
    const [file] = await walkCorpus(root);
    const bytes = Buffer.from(content, 'utf8');
    expect(file).toMatchObject({
      file_path: 'x.md',
      bytes: bytes.length,
      length: 5,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      text: content,
      absolutePath: join(root, 'x.md'),
    });
  });

  it('skips binary and non-UTF-8 files with exactly one warning each', async () => {
    await put('good.py', 'x = 1\n');
    await put('binary.py', new Uint8Array([0x78, 0x00, 0x79]));
    await put('latin1.txt', new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const warnings: string[] = [];
    const files = await walkCorpus(root, { onWarning: (message) => warnings.push(message) });
    expect(files.map((f) => f.file_path)).toEqual(['good.py']);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/binary\.py.*binary/);
    expect(warnings[1]).toMatch(/latin1\.txt.*UTF-8/);
  });

  it('follows symbolic links inside the corpus but never loops', async () => {
    await put('pkg/mod.py', 'x = 1\n');
    await put('.hidden/docs/guide.md', '# Guide\n');
    await put('notes/todo.txt', 'todo\n');
    await symlink(join(root, 'pkg'), join(root, 'alias'));
    await symlink(root, join(root, 'pkg', 'loop'));
    await symlink(join(root, 'pkg', 'mod.py'), join(root, 'copy.py'));
    await symlink(join(root, '.hidden', 'docs'), join(root, 'docs'));
    await symlink(join(root, 'notes', 'todo.txt'), join(root, 'notes', 'todo-link.txt'));
    await symlink(join(root, 'notes', 'todo-link.txt'), join(root, 'todo-again.txt'));
    const files = await walkCorpus(root);
    // `alias`, `copy.py`, `loop`, `docs` and both links to todo.txt lead to files indexed
    // under their real paths (a dot-folder such as `.hidden` is walked like any other).
    expect(files.map((f) => f.file_path)).toEqual(['.hidden/docs/guide.md', 'notes/todo.txt', 'pkg/mod.py']);
  });

  it('skips links that lead outside the corpus, with a warning', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'rag-outside-'));
    try {
      await writeFile(join(outside, 'secret.py'), 'x = 1\n');
      await put('inside.py', 'y = 2\n');
      await symlink(join(outside, 'secret.py'), join(root, 'escape.py'));
      const warnings: string[] = [];
      const files = await walkCorpus(root, { onWarning: (m) => warnings.push(m) });
      expect(files.map((f) => f.file_path)).toEqual(['inside.py']);
      expect(warnings).toEqual([expect.stringMatching(/escape\.py.*outside the corpus/)]);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('warns about a broken or escaping link only when it could have been indexed', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'rag-outside-'));
    try {
      await writeFile(join(outside, 'app.js'), 'x\n');
      await put('inside.py', 'y = 2\n');
      await put('.gitignore', 'generated.py\n');
      await symlink(join(root, 'gone.py'), join(root, 'dangling.py')); // an indexed kind: worth a warning
      await symlink(join(root, 'gone'), join(root, 'vendor')); // no extension: may have been a folder
      await symlink(join(root, 'gone.js'), join(root, 'jquery.js')); // never indexed: nothing to say
      await symlink(join(root, 'gone.py'), join(root, 'generated.py')); // ignored by .gitignore
      await symlink(join(outside, 'app.js'), join(root, 'app.js')); // outside, and of a kind not indexed
      const warnings: string[] = [];
      const files = await walkCorpus(root, { onWarning: (m) => warnings.push(m) });
      expect(files.map((f) => f.file_path)).toEqual(['inside.py']);
      expect(warnings.sort()).toEqual(['Skipped dangling.py: broken symbolic link.', 'Skipped vendor: broken symbolic link.']);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('indexes a type stub that stands alone as Python, and skips one whose module sits beside it', async () => {
    // app.pyi only repeats app.py's signatures; _speedups.pyi is the one text that declares
    // what a compiled extension offers.
    await put('pkg/app.py', 'def run(port: int = 8000) -> None:\n    """Serve."""\n');
    await put('pkg/app.pyi', 'def run(port: int = ...) -> None: ...\n');
    await put('pkg/_speedups.pyi', 'def escape(s: str) -> str: ...\n');
    await put('other/app.pyi', 'def run() -> None: ...\n');
    const files = await walkCorpus(root);
    expect(files.map((f) => [f.file_path, f.language])).toEqual([
      ['other/app.pyi', 'python'],
      ['pkg/_speedups.pyi', 'python'],
      ['pkg/app.py', 'python'],
    ]);
    const { chunks } = await chunkCorpus(root);
    expect(chunks.find((c) => c.file_path === 'pkg/_speedups.pyi')).toMatchObject({ kind: 'function', symbol: 'escape' });
    // `{}` indexes every stub; the map is data, extensions matched in either case.
    expect((await walkCorpus(root, { stubs: {} })).map((f) => f.file_path)).toContain('pkg/app.pyi');
    await put('lib/Mod.PYI', 'X: int\n');
    await put('lib/Mod.py', 'X = 1\n');
    expect((await walkCorpus(root, { stubs: { PYI: 'py' } })).map((f) => f.file_path)).not.toContain('lib/Mod.PYI');
  });

  it('takes a custom extension map and ignored-folder list', async () => {
    await put('conf.cfg', 'a = b\n');
    await put('skip/x.cfg', 'a = b\n');
    await put('build/y.cfg', 'a = b\n');
    await put('z.py', 'x = 1\n');
    const files = await walkCorpus(root, { extensions: { cfg: 'text' }, ignoredDirs: ['skip'] });
    expect(files.map((f) => f.file_path)).toEqual(['build/y.cfg', 'conf.cfg']);
  });

  it('reports a missing folder, a file and an empty corpus with typed errors and hints', async () => {
    await expect(walkCorpus(join(root, 'missing'))).rejects.toMatchObject({
      code: 'CORPUS_NOT_FOUND',
      hint: expect.stringContaining('--corpus_dir'),
    });
    await put('file.py', 'x = 1\n');
    await expect(walkCorpus(join(root, 'file.py'))).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await mkdir(join(root, 'empty'));
    await put('empty/picture.png', 'png');
    await expect(walkCorpus(join(root, 'empty'))).rejects.toMatchObject({
      code: 'CORPUS_EMPTY',
      hint: expect.stringContaining(Object.keys(DEFAULT_EXTENSIONS).join(', ')),
    });
  });
});

describe('stat signatures (files left unread by an incremental index)', () => {
  it('records a signature only for files that settled before they were read, and leaves vouched-for files unread', async () => {
    await put('old.py', 'OLD = 1\n');
    await new Promise((done) => setTimeout(done, SETTLED_MS + 100));
    await put('new.py', 'NEW = 2\n');
    const [fresh, old] = [...(await walkCorpus(root))].sort((a, b) => (a.file_path < b.file_path ? -1 : 1));
    // new.py was written just now: a write in the same timestamp tick could go unseen, so no signature.
    expect(fresh!.file_path).toBe('new.py');
    expect(fresh!.stat).toBeUndefined();
    expect(old!.stat).toBe(statSignature(statSync(join(root, 'old.py'), { bigint: true })));

    // The caller vouches for old.py's signature: its record comes back as given, unread.
    const record = { file_path: 'old.py', sha256: 'recorded', bytes: 8, length: 8, language: 'python' as const, stat: old!.stat };
    const asked: string[] = [];
    const walked = await walkCorpus(root, { unchanged: (path, stat) => (asked.push(path), stat === record.stat ? record : undefined) });
    expect(asked.sort()).toEqual(['new.py', 'old.py']);
    const unread = walked.find((file) => file.file_path === 'old.py');
    expect(unread).toMatchObject({ sha256: 'recorded', absolutePath: join(root, 'old.py') });
    expect(unread!.text).toBeUndefined();
    expect(walked.find((file) => file.file_path === 'new.py')?.text).toBe('NEW = 2\n');

    // Once its content changes, so does its signature: it is read again.
    await put('old.py', 'OLD = 3\n');
    const again = await walkCorpus(root, { unchanged: (_, stat) => (stat === record.stat ? record : undefined) });
    expect(again.find((file) => file.file_path === 'old.py')?.text).toBe('OLD = 3\n');
  });

  it('chunkCorpus reads and chunks a file left unread when reuse offers no chunks for it', async () => {
    await put('a.py', 'def f():\n    return 1\n');
    const signature = statSignature(statSync(join(root, 'a.py'), { bigint: true }));
    const record = { file_path: 'a.py', sha256: 'recorded', bytes: 1, length: 1, language: 'python' as const, stat: signature };
    const corpus = await chunkCorpus(root, { unchanged: () => record, reuse: () => undefined });
    expect(corpus.counts).toEqual({ chunked: 1, reused: 0, unread: 0 });
    expect(corpus.files[0]!.sha256).toBe(createHash('sha256').update('def f():\n    return 1\n').digest('hex'));
    expect(corpus.chunks.map((c) => c.symbol)).toContain('f');
    const reused = await chunkCorpus(root, { unchanged: () => record, reuse: () => [] });
    expect(reused.counts).toEqual({ chunked: 0, reused: 1, unread: 1 });
    expect(reused.files[0]).toMatchObject({ sha256: 'recorded', stat: signature });
  });
});

describe('chunkCorpus', () => {
  it('returns file records and chunks with dense global ids, reporting progress', async () => {
    await put('a.py', 'import os\n\n\ndef f():\n    return os\n');
    await put('b.md', '# Title\n\nBody text.\n');
    const events: ProgressEvent[] = [];
    const { files, chunks } = await chunkCorpus(root, { onProgress: (e) => events.push(e) });
    expect(files.map((f) => f.file_path)).toEqual(['a.py', 'b.md']);
    expect(files[0]).not.toHaveProperty('text');
    expect(chunks.map((c) => [c.id, c.file_path, c.kind])).toEqual([
      [0, 'a.py', 'module'],
      [1, 'a.py', 'function'],
      [2, 'b.md', 'section'],
    ]);
    expect(events).toEqual([
      { phase: 'chunk', done: 1, total: 2 },
      { phase: 'chunk', done: 2, total: 2 },
    ]);
  });

  it('rejects bad options before reading anything', async () => {
    await expect(chunkCorpus(join(root, 'missing'), { maxChunkSize: 0 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});

describe('files that would swamp or crash the index are handled with one warning each', () => {
  it('skips a file over the size limit, saying how to include it; 0 lifts the limit', async () => {
    await put('small.py', 'x = 1\n');
    await put('huge.txt', 'word '.repeat(1000));
    const warnings: string[] = [];
    const files = await walkCorpus(root, { maxFileBytes: 1000, onWarning: (w) => warnings.push(w) });
    expect(files.map((f) => f.file_path)).toEqual(['small.py']);
    expect(warnings).toEqual([expect.stringMatching(/^Skipped huge\.txt: 0\.0 MB, over the 0\.0 MB file size limit \(raise --max_file_size, or 0 to include every size\)\.$/)]);
    expect((await walkCorpus(root, { maxFileBytes: 0 })).map((f) => f.file_path)).toEqual(['huge.txt', 'small.py']);
  });

  it('skips a file whose lines look minified or generated; 0 includes it', async () => {
    await put('app.py', 'x = 1\n');
    await put('bundle.md', `${'a'.repeat(60_000)}\n`);
    const warnings: string[] = [];
    expect((await walkCorpus(root, { onWarning: (w) => warnings.push(w) })).map((f) => f.file_path)).toEqual(['app.py']);
    expect(warnings).toEqual([expect.stringContaining('Skipped bundle.md: a line of 60000 characters looks minified or generated')]);
    expect((await walkCorpus(root, { maxLineLength: 0 })).map((f) => f.file_path)).toEqual(['app.py', 'bundle.md']);
  });

  it('chunks deeply nested Markdown by lines instead of crashing the parser, with a warning', async () => {
    // 255 nested block quotes made tree-sitter's Markdown scanner abort the whole process.
    await put('quotes.md', `# Deep\n\n${'>'.repeat(255)} hi\n`);
    await put('lists.md', `${Array.from({ length: 300 }, (_, i) => `${' '.repeat(i * 2)}- item ${i}`).join('\n')}\n`);
    const warnings: string[] = [];
    const { chunks } = await chunkCorpus(root, { onWarning: (w) => warnings.push(w) });
    expect(new Set(chunks.map((c) => c.file_path))).toEqual(new Set(['lists.md', 'quotes.md']));
    expect(warnings).toHaveLength(2);
    expect(warnings.every((w) => /nests block quotes or lists \d+ levels deep; it is chunked by lines/.test(w))).toBe(true);
  });

  it('skips a file whose name is not valid UTF-8 with a true message, not ENOENT', async () => {
    await put('ok.py', 'x = 1\n');
    await writeFile(Buffer.concat([Buffer.from(join(root, 'bad-')), Buffer.from([0xff]), Buffer.from('.py')]), 'y = 2\n');
    const warnings: string[] = [];
    expect((await walkCorpus(root, { onWarning: (w) => warnings.push(w) })).map((f) => f.file_path)).toEqual(['ok.py']);
    expect(warnings).toEqual([expect.stringMatching(/its name is not valid UTF-8 \(rename it to index it\)/)]);
  });

  it('refuses negative limits naming the option', async () => {
    await put('ok.py', 'x = 1\n');
    await expect(walkCorpus(root, { maxFileBytes: -1 })).rejects.toThrow(/maxFileBytes must be an integer ≥ 0/);
  });
});
