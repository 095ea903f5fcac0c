import fc from 'fast-check';
import type { Chunk } from '@rag/core';
import { describe, expect, it } from 'vitest';
import { anchorField, hashAnchorTexts, updateAnchorField, type AnchorField } from '../src/anchors.js';
import { DEFAULT_CONTEXT_OPTIONS } from '../src/options.js';
import { CorpusProjects } from '../src/projects.js';
import { makeChunks, type ChunkSpec } from './helpers.js';

// Files of two projects side by side (`alpha/alpha/`, `beta/beta/` hold packages of their
// folders' names, so mentions are scoped to a page's project), and pages outside both.
const CODE_PATHS = ['alpha/alpha/make.py', 'alpha/alpha/funcs.py', 'beta/beta/forms.py', 'tools.py'];
const PAGE_PATHS = ['alpha/docs/init.md', 'beta/docs/forms.md', 'NOTES.md', 'guide.rst'];
// Symbols whose last parts collide across files (a name defined by more chunks than
// `maxDefinitions` links nowhere), methods and module-level functions.
const SYMBOLS = ['field', 'evolve', 'Session.mount', 'mount', 'launch', 'Widget.field', 'copy', ''];
// Mentions plain, qualified, as a role or with a call; and words that are not names.
const MENTIONS = ['`field`', '`evolve()`', ':func:`~alpha.make.field`', '`Session.mount`', '`mount`', '`launch`', '`beta.forms.field`', '``copy``', '`pip install x`', 'plain words', 'the copy'];

interface FileSpec {
  path: string;
  pieces: { symbol: string; paragraphs: number[][] }[];
}

const codeFile = (path: string): fc.Arbitrary<FileSpec> =>
  fc.record({
    path: fc.constant(path),
    pieces: fc.array(fc.record({ symbol: fc.constantFrom(...SYMBOLS), paragraphs: fc.constant([]) }), { minLength: 1, maxLength: 3 }),
  });

const page = (path: string): fc.Arbitrary<FileSpec> =>
  fc.record({
    path: fc.constant(path),
    pieces: fc.array(
      fc.record({
        symbol: fc.constantFrom('Guide > Setup', 'Notes', ''),
        paragraphs: fc.array(fc.array(fc.nat(MENTIONS.length - 1), { maxLength: 4 }), { minLength: 1, maxLength: 3 }),
      }),
      { minLength: 1, maxLength: 2 },
    ),
  });

function toChunks(files: readonly FileSpec[]): Chunk[] {
  const specs: ChunkSpec[] = [];
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const python = file.path.endsWith('.py');
    file.pieces.forEach((piece, i) => {
      const text = python ? `def ${piece.symbol.split('.').pop() || 'f'}_${i}():\n    pass` : piece.paragraphs.map((words) => words.map((w) => MENTIONS[w]).join(' ')).join('\n\n');
      specs.push({ file_path: file.path, symbol: piece.symbol, language: python ? 'python' : file.path.endsWith('.rst') ? 'rst' : 'markdown', kind: python ? 'function' : 'section', text });
    });
  }
  return makeChunks(specs);
}

/** For each new chunk, the old chunk of an unchanged file at the same place in it. */
function sourcesOf(oldFiles: readonly FileSpec[], oldChunks: readonly Chunk[], newFiles: readonly FileSpec[], newChunks: readonly Chunk[]): Int32Array {
  const unchanged = new Set(newFiles.filter((file) => oldFiles.some((o) => JSON.stringify(o) === JSON.stringify(file))).map((file) => file.path));
  const sourceOf = new Int32Array(newChunks.length).fill(-1);
  for (const path of unchanged) {
    const before = oldChunks.filter((chunk) => chunk.file_path === path);
    newChunks.filter((chunk) => chunk.file_path === path).forEach((chunk, i) => (sourceOf[chunk.id] = before[i]!.id));
  }
  return sourceOf;
}

const corpus = fc.tuple(fc.tuple(...CODE_PATHS.map(codeFile)), fc.tuple(...PAGE_PATHS.map(page)));
const actions = fc.array(fc.constantFrom('keep', 'keep', 'edit', 'delete'), { minLength: CODE_PATHS.length + PAGE_PATHS.length, maxLength: CODE_PATHS.length + PAGE_PATHS.length });

/** Chunks whose `text` counts its reads in `reads`. */
function counted(chunks: readonly Chunk[], reads: Set<number>): Chunk[] {
  return chunks.map((chunk) => {
    const copy = { ...chunk };
    Object.defineProperty(copy, 'text', { get: () => (reads.add(chunk.id), chunk.text), enumerable: true });
    return copy;
  });
}

/** The project names, and the project of each chunk an update copies (by its new id). */
function projectsOf(chunks: readonly Chunk[], sourceOf?: Int32Array, copiedBy?: Int32Array): { names: readonly string[]; copied: number[] } {
  const projects = new CorpusProjects(chunks);
  const copied: number[] = [];
  if (sourceOf) sourceOf.forEach((source, d) => source >= 0 && copied.push(projects.projectOf(d)));
  if (copiedBy) copiedBy.forEach((source) => source >= 0 && copied.push(projects.projectOf(source)));
  return { names: projects.names, copied: projects.names.length >= 2 ? copied : [] };
}

function expectSameField(update: AnchorField, whole: AnchorField, chunks: readonly Chunk[], asked: (d: number) => boolean): void {
  expect([...update.hashes]).toEqual([...whole.hashes]);
  expect([...update.mentions.offsets]).toEqual([...whole.mentions.offsets]);
  expect([...update.mentions.hashes]).toEqual([...whole.mentions.hashes]);
  expect([...update.mentions.defined]).toEqual([...whole.mentions.defined]);
  for (let d = 0; d < chunks.length; d++) {
    const changed = update.hashes[2 * d] !== whole.hashes[2 * d] || asked(d);
    if (changed || chunks[d]!.symbol === '') expect(update.textOf(d)).toBe(whole.textOf(d));
  }
}

describe('the anchor field of an update', () => {
  it('equals the field worked out from every page, for any edits and deletions of code and pages, twice over', () => {
    fc.assert(
      fc.property(corpus, corpus, actions, actions, ([code0, pages0], [code1, pages1], first, second) => {
        const files0 = [...code0, ...pages0];
        const apply = (files: readonly FileSpec[], edited: readonly FileSpec[], steps: readonly string[]): FileSpec[] =>
          files.flatMap((file) => {
            const step = steps[[...CODE_PATHS, ...PAGE_PATHS].indexOf(file.path)];
            if (step === 'delete') return [];
            return [step === 'edit' ? edited.find((e) => e.path === file.path)! : file];
          });
        const edited = [...code1, ...pages1];
        let files = files0;
        let chunks = toChunks(files);
        let field = anchorField(chunks, DEFAULT_CONTEXT_OPTIONS);
        for (const steps of [first, second]) {
          const nextFiles = apply(files, edited, steps);
          const next = toChunks(nextFiles);
          const sourceOf = sourcesOf(files, chunks, nextFiles, next);
          const asked = (d: number): boolean => sourceOf[d]! < 0 || d % 3 === 0;
          const update = updateAnchorField(next, DEFAULT_CONTEXT_OPTIONS, { chunks, sourceOf, hashes: field.hashes, mentions: field.mentions, needsText: asked });
          const whole = anchorField(next, DEFAULT_CONTEXT_OPTIONS);
          if (update) expectSameField(update, whole, next, asked);
          // Only a change of the corpus's projects asks for the whole field.
          else expect(projectsOf(next, sourceOf)).not.toEqual(projectsOf(chunks, undefined, sourceOf));
          [files, chunks, field] = [nextFiles, next, whole];
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reads only the pages that mention a name an edit added or removed', () => {
    const before = makeChunks([
      { file_path: 'lib/net.py', symbol: 'connect', language: 'python', kind: 'function', text: 'def connect(host):\n    return Socket(host)' },
      { file_path: 'lib/net.py', symbol: 'retry', language: 'python', kind: 'function', text: 'def retry(call):\n    return call()' },
      { file_path: 'docs/net.md', symbol: 'Network', language: 'markdown', kind: 'section', text: 'Open a link to a server with `connect`.' },
      { file_path: 'docs/retry.md', symbol: 'Retries', language: 'markdown', kind: 'section', text: 'Failed calls are made again by `retry`.' },
      { file_path: 'docs/other.md', symbol: 'Other', language: 'markdown', kind: 'section', text: 'Nothing here names code.' },
    ]);
    const field = anchorField(before, DEFAULT_CONTEXT_OPTIONS);
    // `retry` is rewritten (its file's chunks are new); the pages stay as they were.
    const after = makeChunks([
      { file_path: 'docs/net.md', symbol: 'Network', language: 'markdown', kind: 'section', text: 'Open a link to a server with `connect`.' },
      { file_path: 'docs/other.md', symbol: 'Other', language: 'markdown', kind: 'section', text: 'Nothing here names code.' },
      { file_path: 'docs/retry.md', symbol: 'Retries', language: 'markdown', kind: 'section', text: 'Failed calls are made again by `retry`.' },
      { file_path: 'lib/net.py', symbol: 'connect', language: 'python', kind: 'function', text: 'def connect(host):\n    return Socket(host)' },
      { file_path: 'lib/net.py', symbol: 'retry', language: 'python', kind: 'function', text: 'def retry(call, times=3):\n    return call()' },
    ]);
    const sourceOf = Int32Array.from([2, 4, 3, -1, -1]);
    const reads = new Set<number>();
    const update = updateAnchorField(counted(after, reads), DEFAULT_CONTEXT_OPTIONS, { chunks: before, sourceOf, hashes: field.hashes, mentions: field.mentions, needsText: (d) => sourceOf[d]! < 0 })!;
    expect(update).toBeDefined();
    // The edited file defines `connect` and `retry` (its chunks are new, and a new definition
    // can change what a mention resolves to): the two pages naming them are read again, the
    // page that names nothing is not.
    expect([...reads].sort()).toEqual([0, 2]);
    expect(update.textOf(4)).toContain('made again');
    expect([...update.hashes]).toEqual([...anchorField(after, DEFAULT_CONTEXT_OPTIONS).hashes]);
  });

  it('reads no page when an edit changes no definition', () => {
    const before = makeChunks([
      { file_path: 'docs/a.md', symbol: 'A', language: 'markdown', kind: 'section', text: 'See `launch`.' },
      { file_path: 'lib/a.py', symbol: 'launch', language: 'python', kind: 'function', text: 'def launch():\n    pass' },
      { file_path: 'lib/b.py', symbol: '', language: 'python', kind: 'module', text: 'X = 1' },
    ]);
    const field = anchorField(before, DEFAULT_CONTEXT_OPTIONS);
    const after = makeChunks([...before.slice(0, 2), { file_path: 'lib/b.py', symbol: '', language: 'python', kind: 'module', text: 'X = 2' }]);
    const sourceOf = Int32Array.from([0, 1, -1]);
    const reads = new Set<number>();
    const update = updateAnchorField(counted(after, reads), DEFAULT_CONTEXT_OPTIONS, { chunks: before, sourceOf, hashes: field.hashes, mentions: field.mentions, needsText: (d) => sourceOf[d]! < 0 })!;
    expect([...reads]).toEqual([]);
    expect([...update.hashes]).toEqual([...field.hashes.subarray(0, 4), ...hashAnchorTexts([''], 1)]);
  });

  it("reads the symbols of the new chunks and of the definitions whose anchor text it works out again, not every copy's", () => {
    const before = makeChunks([
      { file_path: 'docs/a.md', symbol: 'A', language: 'markdown', kind: 'section', text: 'Start a browser with `launch`.' },
      { file_path: 'lib/a.py', symbol: 'launch', language: 'python', kind: 'function', text: 'def launch():\n    pass' },
      { file_path: 'lib/b.py', symbol: 'halt', language: 'python', kind: 'function', text: 'def halt():\n    pass' },
      { file_path: 'lib/c.py', symbol: 'Browser.launch', language: 'python', kind: 'method', text: 'def launch(self):\n    pass' },
      { file_path: 'lib/c.py', symbol: 'Browser.close', language: 'python', kind: 'method', text: 'def close(self):\n    pass' },
      { file_path: 'lib/d.py', symbol: 'close', language: 'python', kind: 'function', text: 'def close():\n    pass' },
    ]);
    const field = anchorField(before, DEFAULT_CONTEXT_OPTIONS);
    // lib/c.py is edited: its `launch` and `close` are new, so every `launch` may gain or lose
    // the page's text; no page names `close`, so lib/d.py's `close` has none either way.
    const edited = (symbol: string, text: string) => ({ file_path: 'lib/c.py', symbol, language: 'python' as const, kind: 'method' as const, text });
    const after = makeChunks([...before.slice(0, 3), before[5]!, edited('Browser.launch', 'def launch(self, url):\n    pass'), edited('Browser.close', 'def close(self, force):\n    pass')]);
    const symbolReads = new Set<number>();
    const watched = after.map((chunk) => {
      const copy = { ...chunk };
      Object.defineProperty(copy, 'symbol', { get: () => (symbolReads.add(chunk.id), chunk.symbol), enumerable: true });
      return copy;
    });
    const sourceOf = Int32Array.from([0, 1, 2, 5, -1, -1]);
    const update = updateAnchorField(watched, DEFAULT_CONTEXT_OPTIONS, { chunks: before, sourceOf, hashes: field.hashes, mentions: field.mentions, needsText: (d) => sourceOf[d]! < 0 })!;
    expectSameField(update, anchorField(after, DEFAULT_CONTEXT_OPTIONS), after, (d) => sourceOf[d]! < 0);
    // The page (its heading goes into the anchor text), both `launch`es and the new `close`;
    // not `halt`, and not the copied `close` no page names.
    expect([...symbolReads].sort()).toEqual([0, 1, 4, 5]);
  });

  it('works out the text of a copied definition it is asked for from the pages that name it only', () => {
    const chunks = makeChunks([
      { file_path: 'docs/a.md', symbol: 'A', language: 'markdown', kind: 'section', text: 'Start a browser with `launch`.' },
      { file_path: 'docs/b.md', symbol: 'B', language: 'markdown', kind: 'section', text: 'Stop it with `halt`.' },
      { file_path: 'lib/a.py', symbol: 'launch', language: 'python', kind: 'function', text: 'def launch():\n    pass' },
      { file_path: 'lib/a.py', symbol: 'halt', language: 'python', kind: 'function', text: 'def halt():\n    pass' },
    ]);
    const field = anchorField(chunks, DEFAULT_CONTEXT_OPTIONS);
    const reads = new Set<number>();
    // Nothing changed, but the caller analyses `launch` again (as an overlay does a chunk of an earlier overlay).
    const update = updateAnchorField(counted(chunks, reads), DEFAULT_CONTEXT_OPTIONS, { chunks, sourceOf: Int32Array.from([0, 1, 2, 3]), hashes: field.hashes, mentions: field.mentions, needsText: (d) => d === 2 })!;
    expect(update.textOf(2)).toBe(field.textOf(2));
    expect([...reads].filter((d) => d < 2)).toEqual([0]);
  });
});
