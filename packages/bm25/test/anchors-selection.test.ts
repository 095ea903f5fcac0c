import fc from 'fast-check';
import type { Hit } from '@rag/core';
import { describe, expect, it } from 'vitest';
import { anchorTexts, mentionedName } from '../src/anchors.js';
import { PROSE } from '../src/rerank/priors.js';
import { selectHits } from '@rag/core';
import { codeRanking, makeChunks } from './helpers.js';

// A tiny project: two functions whose code never uses the words people ask in, the docs
// page that explains them, and a long docs page about something else that repeats the
// question's words.
const corpus = makeChunks([
  { file_path: 'cli/term.py', symbol: 'launch', language: 'python', kind: 'function', text: 'def launch(url, wait=False, locate=False):\n    return _impl.open_url(url, wait=wait, locate=locate)' },
  { file_path: 'cli/term.py', symbol: 'pause', language: 'python', kind: 'function', text: 'def pause(info=None):\n    if not isatty(sys.stdin):\n        return\n    getchar()' },
  {
    file_path: 'docs/utils.rst',
    symbol: 'Utilities > Launching Applications',
    language: 'rst',
    kind: 'section',
    text: 'Launching Applications\n----------------------\n\nSupports launching applications through :func:`launch`.  This can be\nused to open the default application associated with a URL or filetype,\nor to reveal a file in the file manager.',
  },
  {
    file_path: 'docs/testing.rst',
    symbol: 'Testing > File System Isolation',
    language: 'rst',
    kind: 'section',
    text: 'File System Isolation\n---------------------\n\nFor a file manager or any tool that works on a file, the runner can open a\nfresh folder: a file system of its own for the file under test.',
  },
]);

describe('anchor text', () => {
  it('reads the name an inline-code mention refers to', () => {
    expect(mentionedName('~click.launch')).toBe('click.launch');
    expect(mentionedName('Session.mount()')).toBe('Session.mount');
    expect(mentionedName('Response <requests.Response>')).toBe('requests.Response');
    expect(mentionedName('pip install vllm')).toBeUndefined();
    expect(mentionedName('--load-format')).toBeUndefined();
  });

  it('gives a definition the docs paragraph that names it, with its heading path', () => {
    const anchors = anchorTexts(corpus);
    expect(anchors[0]).toContain('Utilities > Launching Applications');
    expect(anchors[0]).toContain('reveal a file in the file manager');
    // `pause` is named by no paragraph; prose chunks get no anchor text.
    expect(anchors[1]).toBe('');
    expect(anchors[2]).toBe('');
  });

  it('lets a question in the docs words reach the code that never uses them', () => {
    const query = 'How do I reveal a file in the file manager from a tool?';
    // The function is what the question asks for; its own text says `launch`, `url` and
    // `locate`, none of the question's words. The docs paragraph that names it as code
    // lends it "reveal", "file manager": with anchor text it outranks the unrelated
    // `pause`, without it the function has nothing in common with the question.
    expect(codeRanking(corpus, query, {}, 4)[0]).toBe('launch');
    expect(codeRanking(corpus, query, { context: { anchors: false } }, 4)).not.toContain('launch');
  });
});

describe('anchor text in a corpus of several projects', () => {
  // Two libraries side by side, each a folder holding a package of its own name (what
  // `CorpusProjects` recognises), both defining a `field`; only `alpha` defines `evolve`.
  const projects = makeChunks([
    { file_path: 'alpha/alpha/make.py', symbol: 'field', language: 'python', kind: 'function', text: 'def field(default=None):\n    return Attribute(default)' },
    { file_path: 'alpha/alpha/funcs.py', symbol: 'evolve', language: 'python', kind: 'function', text: 'def evolve(inst, **changes):\n    return copy(inst, changes)' },
    { file_path: 'beta/beta/forms.py', symbol: 'field', language: 'python', kind: 'function', text: 'def field(name, widget):\n    return Widget(name, widget)' },
    {
      file_path: 'alpha/docs/init.md',
      symbol: 'Initialization > Defaults',
      language: 'markdown',
      kind: 'section',
      text: '# Defaults\n\nA default value for an attribute is given with `field`, and a modified copy is made with `evolve`.',
    },
    { file_path: 'beta/docs/forms.md', symbol: 'Forms > Widgets', language: 'markdown', kind: 'section', text: '# Widgets\n\nEach input box of a form is declared with `field`; `evolve` is not part of this library.' },
    { file_path: 'NOTES.md', symbol: 'Notes', language: 'markdown', kind: 'section', text: '# Notes\n\nBoth libraries are used together: see `evolve` for copies.' },
  ]);

  it("links a page's mention to its own project's definition only", () => {
    const anchors = anchorTexts(projects);
    // alpha's page names `field`: alpha's definition gets the paragraph, beta's does not.
    expect(anchors[0]).toContain('default value for an attribute');
    expect(anchors[0]).not.toContain('input box');
    // beta's page names `field` too: beta's definition gets that paragraph alone.
    expect(anchors[2]).toContain('input box');
    expect(anchors[2]).not.toContain('default value');
  });

  it('never links a page to another project, and lets a page outside every project link anywhere', () => {
    const anchors = anchorTexts(projects);
    // beta's page mentions `evolve`, which only alpha defines: no link across projects.
    expect(anchors[1]).toContain('modified copy');
    expect(anchors[1]).not.toContain('not part of this library');
    // The corpus's own top-level notes belong to no project: their mention links.
    expect(anchors[1]).toContain('used together');
  });

  it('links across the whole corpus when it holds one project or none', () => {
    // Without its second project the corpus has no project boundaries to respect: the
    // page's `field` has only one definition left, and links to it from any folder.
    const single = makeChunks([
      { file_path: 'alpha/alpha/make.py', symbol: 'field', language: 'python', kind: 'function', text: 'def field(default=None):\n    return Attribute(default)' },
      { file_path: 'docs/forms.md', symbol: 'Forms', language: 'markdown', kind: 'section', text: '# Forms\n\nDeclared with `field`.' },
    ]);
    expect(anchorTexts(single)[0]).toContain('Declared with');
  });
});

describe('selection under file and kind shares', () => {
  const chunks = makeChunks(
    Array.from({ length: 12 }, (_, i) => ({ text: `chunk ${i}`, file_path: `f${i % 3}.${i < 8 ? 'md' : 'py'}`, language: i < 8 ? ('markdown' as const) : ('python' as const) })),
  );
  // Non-overlapping spans: each chunk gets its own range in its file.
  chunks.forEach((chunk, i) => {
    chunk.first_character_index = i * 100;
    chunk.last_character_index = i * 100 + 50;
  });
  const flags = new Uint8Array(chunks.map((chunk) => (chunk.language === 'markdown' ? PROSE : 0)));
  const ranked: Hit[] = chunks.map((chunk) => ({ chunkId: chunk.id, score: 100 - chunk.id }));

  it('keeps the best code hit among the first 5 when docs outscore it (kind share 0.7)', () => {
    // Docs chunks 0–7 all score above code chunks 8–11; a question that does not say which
    // it wants still sees the best code hit by the 4th place (at most 3 of the first 4,
    // 4 of the first 5, may be docs).
    const top = selectHits(ranked, chunks, flags, 5, { dedupe: true, fileShare: 1, kindShare: 0.7 }).map((hit) => hit.chunkId);
    expect(top).toEqual([0, 1, 2, 8, 3]);
    expect(selectHits(ranked, chunks, flags, 5, { dedupe: true, fileShare: 1, kindShare: 1 }).map((hit) => hit.chunkId)).toEqual([0, 1, 2, 3, 4]);
  });

  it('limits one file to its share of every prefix', () => {
    // Files rotate f0, f1, f2; at share 0.34 a file may hold 1 of the first 2, 2 of 5.
    const top = selectHits(ranked, chunks, flags, 6, { dedupe: true, fileShare: 0.34, kindShare: 1 });
    for (let n = 1; n <= top.length; n++) {
      const counts = new Map<string, number>();
      for (const hit of top.slice(0, n)) counts.set(chunks[hit.chunkId]!.file_path, (counts.get(chunks[hit.chunkId]!.file_path) ?? 0) + 1);
      expect(Math.max(...counts.values())).toBeLessThanOrEqual(Math.max(1, Math.ceil(0.34 * n)));
    }
  });

  it('only reorders, and the first 5 of a search for 10 are the search for 5 (property)', () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray(ranked, { minLength: 0, maxLength: ranked.length }),
        fc.double({ min: 0.1, max: 1, noNaN: true }),
        fc.double({ min: 0.1, max: 1, noNaN: true }),
        (order, fileShare, kindShare) => {
          const limits = { dedupe: true, fileShare, kindShare };
          const ten = selectHits(order, chunks, flags, 10, limits);
          const five = selectHits(order, chunks, flags, 5, limits);
          expect(five).toEqual(ten.slice(0, 5));
          expect(ten.length).toBe(Math.min(10, order.length));
          expect(new Set(ten.map((hit) => hit.chunkId)).size).toBe(ten.length);
          const plain = new Set(order.slice(0, 10).map((hit) => hit.chunkId));
          // Everything a plain top 10 holds stays, unless the limits pushed it past 10.
          expect(ten.every((hit) => order.includes(hit))).toBe(true);
          if (fileShare === 1 && kindShare === 1) expect(new Set(ten.map((hit) => hit.chunkId))).toEqual(plain);
        },
      ),
    );
  });
});
