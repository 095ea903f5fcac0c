import type { Chunk, Language } from '@rag/core';
import { classSummaries, lazyClassSummaries } from './class-summaries.js';
import type { ContextOptions } from './options.js';
import { CorpusProjects } from './projects.js';

const PROSE: ReadonlySet<Language> = new Set<Language>(['markdown', 'rst', 'text']);

/** Inline code in Markdown and RST (`name`, ``name``), RST roles included (:func:`~pkg.name`). */
const INLINE_CODE = /``?([^`\n]{1,120}?)``?/g;
/** What a mention must look like once cleaned: a plain or dotted Python name. */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/** Tunables of anchor text; each has a reason, none a corpus. */
export const ANCHOR_LIMITS = Object.freeze({
  /** A name defined by more chunks than this (`__init__`, `forward`) says too little about which one a paragraph means. */
  maxDefinitions: 3,
  /** Longest paragraph carried (characters): past this a paragraph is about more than the name. */
  maxParagraph: 1200,
  /** Most anchor text one chunk collects (characters), so a name every page cites does not grow without bound. */
  maxPerChunk: 6000,
});

/**
 * The name an inline-code mention refers to: `~click.launch` → `click.launch`,
 * `Session.mount()` → `Session.mount`, `Response <requests.Response>` → `requests.Response`;
 * undefined for anything that is not a Python name (a command line, a literal, a path).
 */
export function mentionedName(code: string): string | undefined {
  let text = code.trim();
  const target = /<([^<>]+)>$/.exec(text);
  if (target) text = target[1]!.trim();
  text = text.replace(/^[~!.]+/, '').replace(/\(\)$/, '');
  return NAME.test(text) ? text : undefined;
}

/** The last dotted component of a chunk symbol (`Session.mount` → `mount`); '' for none. */
function lastPart(symbol: string): string {
  const dot = symbol.lastIndexOf('.');
  return dot < 0 ? symbol : symbol.slice(dot + 1);
}

/** Code chunks by the last part of their symbol. */
function definitionsByName(chunks: readonly Chunk[]): Map<string, number[]> {
  const byName = new Map<string, number[]>();
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i]!;
    if (PROSE.has(chunk.language) || chunk.symbol === '') continue;
    const name = lastPart(chunk.symbol);
    const list = byName.get(name);
    if (list) list.push(i);
    else byName.set(name, [i]);
  }
  return byName;
}

/** The code chunks a mention resolves to: the symbols that end with the whole dotted name, else with its last part. */
function resolveMention(name: string, chunks: readonly Chunk[], byName: Map<string, number[]>): number[] {
  const candidates = byName.get(lastPart(name)) ?? [];
  if (name.includes('.')) {
    // `click.launch` names a module-level function `launch`; `Session.mount` a method. Keep
    // the candidates whose symbol or module path agrees with the qualified part.
    const qualified = candidates.filter((id) => {
      const chunk = chunks[id]!;
      const module = chunk.file_path.replace(/\.pyi?$/, '').replaceAll('/', '.');
      const full = `${module}.${chunk.symbol}`;
      return full === name || full.endsWith(`.${name}`) || chunk.symbol === name || chunk.symbol.endsWith(`.${name}`);
    });
    if (qualified.length > 0) return qualified.length <= ANCHOR_LIMITS.maxDefinitions ? qualified : [];
  }
  return candidates.length <= ANCHOR_LIMITS.maxDefinitions ? candidates : [];
}

/**
 * Per chunk, anchor text (`''` for none): the documentation paragraphs that name a
 * function, class or method this code chunk defines, as inline code, each with the heading
 * path of its section. Documentation describes behaviour in the words people ask in
 * ("open the default application associated with a URL"), while the code says `launch`;
 * indexed with the definition (in a field of its own, never in its text or span), those
 * words let a question that never names the function reach it. Like a link's anchor text
 * on the web. A paragraph counts once per chunk however often it repeats (a section and
 * its nested pieces share paragraphs).
 */
export function anchorTexts(chunks: readonly Chunk[]): string[] {
  const anchors: string[] = new Array<string>(chunks.length).fill('');
  const byName = definitionsByName(chunks);
  if (byName.size === 0) return anchors;
  const seen: (Set<string> | undefined)[] = new Array(chunks.length);
  // In a corpus of several projects (`CorpusProjects`), a page's mention means a name of its
  // own project: one library's `field` is not another's, and with both counted a name looks
  // defined too often to link at all. A page outside every project may mean any of them.
  const projects = new CorpusProjects(chunks);
  const scoped = projects.names.length >= 2 ? projects.chunkProjects : undefined;
  const scopedByName = new Map<number, Map<string, number[]>>();
  const byNameFor = (project: number): Map<string, number[]> => {
    if (!scoped || project === 0) return byName;
    let map = scopedByName.get(project);
    if (!map) {
      map = new Map();
      for (const [name, ids] of byName) {
        const own = ids.filter((id) => scoped[id] === project);
        if (own.length > 0) map.set(name, own);
      }
      scopedByName.set(project, map);
    }
    return map;
  };
  for (let c = 0; c < chunks.length; c++) {
    const chunk = chunks[c]!;
    if (!PROSE.has(chunk.language)) continue;
    const names = byNameFor(scoped ? scoped[c]! : 0);
    for (const paragraph of chunk.text.split(/\n[ \t]*\n/)) {
      if (paragraph.length > ANCHOR_LIMITS.maxParagraph || !paragraph.includes('`')) continue;
      const targets = new Set<number>();
      for (const match of paragraph.matchAll(INLINE_CODE)) {
        const name = mentionedName(match[1]!);
        if (name) for (const id of resolveMention(name, chunks, names)) targets.add(id);
      }
      for (const id of targets) {
        const known = (seen[id] ??= new Set());
        if (known.has(paragraph)) continue;
        const addition = known.has(chunk.symbol) || chunk.symbol === '' ? paragraph : `${chunk.symbol}\n${paragraph}`;
        if (anchors[id]!.length + addition.length > ANCHOR_LIMITS.maxPerChunk) continue;
        known.add(paragraph);
        known.add(chunk.symbol);
        anchors[id] = anchors[id] === '' ? addition : `${anchors[id]}\n${addition}`;
      }
    }
  }
  return anchors;
}

/**
 * Per chunk, the text of its `anchor` field under `context`: its anchor text from the docs
 * (`context.anchors`, see {@link anchorTexts}), then its class's summary line
 * (`context.classSummaries`, see `classSummaries`), each on lines of its own; undefined when
 * both are off.
 */
export function anchorFieldTexts(chunks: readonly Chunk[], context: ContextOptions): string[] | undefined {
  if (!context.anchors && !context.classSummaries) return undefined;
  const anchors = context.anchors ? anchorTexts(chunks) : undefined;
  if (!context.classSummaries) return anchors;
  const summaries = classSummaries(chunks);
  if (!anchors) return summaries;
  return anchors.map((text, i) => joinAnchor(text, summaries[i]!));
}

function joinAnchor(text: string, summary: string): string {
  return summary === '' ? text : text === '' ? summary : `${text}\n${summary}`;
}

/** The anchor field of an index's chunks, as a build or an update needs it (see {@link anchorField}). */
export interface AnchorField {
  /**
   * Per chunk, the hashes of its anchor text from the docs (`hashAnchorTexts`), what an index
   * stores to tell an update which anchors changed. Class summaries are not in them: they
   * come from the chunk's own file, and a chunk an update copies comes from an unchanged file.
   */
  hashes: Uint32Array;
  /** Chunk d's anchor field text (see {@link anchorFieldTexts}); undefined when the field is off. */
  textOf(d: number): string | undefined;
}

/**
 * The anchor field of `chunks` under `context`: the docs' anchor text of every chunk (any
 * page may name any definition, so all of it is found again), class summaries a file at a
 * time as chunks are asked about (`lazyClassSummaries`).
 */
export function anchorField(chunks: readonly Chunk[], context: ContextOptions): AnchorField {
  const anchors = context.anchors ? anchorTexts(chunks) : undefined;
  const summaryOf = context.classSummaries ? lazyClassSummaries(chunks) : undefined;
  return {
    hashes: hashAnchorTexts(anchors, chunks.length),
    textOf: (d) => (summaryOf ? joinAnchor(anchors?.[d] ?? '', summaryOf(d)) : anchors?.[d]),
  };
}

/**
 * Two 32-bit FNV-1a hashes (different seeds) of each chunk's anchor text, chunk d's at
 * [2d] and [2d + 1]: stored with the index so that a re-index tells which anchors changed
 * without analysing them all again. `anchors` undefined (anchor text off): every text is ''.
 */
export function hashAnchorTexts(anchors: readonly string[] | undefined, docCount: number): Uint32Array {
  const hashes = new Uint32Array(docCount * 2);
  for (let d = 0; d < docCount; d++) {
    const text = anchors?.[d] ?? '';
    let a = 0x811c9dc5;
    let b = 0x2f6e5a1d;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      a = Math.imul(a ^ unit, 0x01000193);
      b = Math.imul(b ^ unit, 0x01000193) ^ (b >>> 15);
    }
    hashes[2 * d] = a >>> 0;
    hashes[2 * d + 1] = b >>> 0;
  }
  return hashes;
}
