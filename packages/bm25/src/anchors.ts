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

/** Where the last dotted component of a chunk symbol starts (`Session.mount` → 8). */
function lastPartStart(symbol: string): number {
  return symbol.lastIndexOf('.') + 1;
}

/** The last dotted component of a chunk symbol (`Session.mount` → `mount`); '' for none. */
function lastPart(symbol: string): string {
  return symbol.slice(lastPartStart(symbol));
}

/**
 * 32-bit FNV-1a of `text` from `start` on: the key of a definition's or a mention's last name
 * part (`mount` of `Session.mount`), hashed where it stands instead of sliced out first.
 */
export function hashName(text: string, start = 0): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  // Never 0, which `AnchorMentions.defined` keeps for a chunk that defines nothing (a hash
  // stands for its names, and two names may share one: 1 now stands for one more).
  return hash >>> 0 || 1;
}

/** Whether chunk `chunk` may be the target of anchor text: code that defines a symbol. */
function isDefinition(chunk: Chunk): boolean {
  return !PROSE.has(chunk.language) && chunk.symbol !== '';
}

/** The {@link hashName} of the last part of the symbol chunk `chunk` defines, 0 when it defines none (see {@link isDefinition}). */
function definedPart(chunk: Chunk): number {
  return isDefinition(chunk) ? hashName(chunk.symbol, lastPartStart(chunk.symbol)) : 0;
}

/** Code chunks by the last part of their symbol. */
function definitionsByName(chunks: readonly Chunk[]): Map<string, number[]> {
  const byName = new Map<string, number[]>();
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i]!;
    if (!isDefinition(chunk)) continue;
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

/** A paragraph of a prose chunk that can lend anchor text, and the names it mentions as inline code. */
interface Mentioning {
  paragraph: string;
  names: string[];
}

/** The paragraphs of a prose chunk's text that can lend anchor text (short enough, with a name in inline code). */
function mentioningParagraphs(text: string): Mentioning[] {
  const found: Mentioning[] = [];
  if (!text.includes('`')) return found;
  for (const paragraph of text.split(/\n[ \t]*\n/)) {
    if (paragraph.length > ANCHOR_LIMITS.maxParagraph || !paragraph.includes('`')) continue;
    const names: string[] = [];
    for (const match of paragraph.matchAll(INLINE_CODE)) {
      const name = mentionedName(match[1]!);
      if (name) names.push(name);
    }
    if (names.length > 0) found.push({ paragraph, names });
  }
  return found;
}

/** The distinct {@link hashName}s of the last parts of the names `paragraphs` mention, ascending. */
function mentionHashes(paragraphs: readonly Mentioning[]): number[] {
  const hashes = new Set<number>();
  for (const { names } of paragraphs) for (const name of names) hashes.add(hashName(name, lastPartStart(name)));
  return [...hashes].sort((a, b) => a - b);
}

/**
 * Per chunk, the {@link hashName}s of the last parts of the names its paragraphs mention as
 * inline code (only prose chunks mention; ascending, distinct), chunk d's at
 * `hashes[offsets[d]..offsets[d + 1])`, and the last part of the name it defines
 * (`defined[d]`, see {@link definedPart}). Stored with the index so that an update finds the
 * paragraphs an edit's names can change, and the definitions they can lend anchor text to,
 * without reading every page of the docs and every chunk's symbol again (see
 * {@link updateAnchorField}). `offsets` and `defined` are empty where they were not read (a
 * paged index).
 */
export interface AnchorMentions {
  offsets: Uint32Array;
  hashes: Uint32Array;
  defined: Uint32Array;
}

/** Mentions of no chunk: what a paged index holds, since only an update reads them. */
export const UNREAD_MENTIONS: AnchorMentions = Object.freeze({ offsets: new Uint32Array(0), hashes: new Uint32Array(0), defined: new Uint32Array(0) });

const NO_HASHES: readonly number[] = Object.freeze([]);

/** Packs per-chunk hash lists and the chunks' defined parts into {@link AnchorMentions}. */
function packMentions(chunks: readonly Chunk[], listOf: (d: number) => ArrayLike<number>): AnchorMentions {
  const count = chunks.length;
  const offsets = new Uint32Array(count + 1);
  let total = 0;
  for (let d = 0; d < count; d++) {
    total += listOf(d).length;
    offsets[d + 1] = total;
  }
  const hashes = new Uint32Array(total);
  for (let d = 0; d < count; d++) if (offsets[d + 1] !== offsets[d]) hashes.set(listOf(d), offsets[d]!);
  const defined = new Uint32Array(count);
  for (let d = 0; d < count; d++) defined[d] = definedPart(chunks[d]!);
  return { offsets, hashes, defined };
}

/** Chunk `d`'s mention hashes. */
export function mentionsOf(mentions: AnchorMentions, d: number): Uint32Array {
  return mentions.hashes.subarray(mentions.offsets[d]!, mentions.offsets[d + 1]!);
}

/**
 * The anchor text the prose chunks `pages` (ascending) lend to the definitions `byName` lists
 * (see {@link anchorTexts}); a definition it does not list gets none here. In a corpus of
 * several projects a page's mention means a name of its own project.
 */
function collectAnchors(
  chunks: readonly Chunk[],
  pages: Iterable<number>,
  byName: Map<string, number[]>,
  paragraphsOf: (c: number) => readonly Mentioning[],
  projects: CorpusProjects | undefined = undefined,
): Map<number, string> {
  const anchors = new Map<number, string>();
  if (byName.size === 0) return anchors;
  const seen = new Map<number, Set<string>>();
  // In a corpus of several projects (`CorpusProjects`), a page's mention means a name of its
  // own project: one library's `field` is not another's, and with both counted a name looks
  // defined too often to link at all. A page outside every project may mean any of them.
  projects ??= new CorpusProjects(chunks);
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
  for (const c of pages) {
    const chunk = chunks[c]!;
    const names = byNameFor(scoped ? scoped[c]! : 0);
    for (const { paragraph, names: mentioned } of paragraphsOf(c)) {
      const targets = new Set<number>();
      for (const name of mentioned) for (const id of resolveMention(name, chunks, names)) targets.add(id);
      for (const id of targets) {
        let known = seen.get(id);
        if (!known) seen.set(id, (known = new Set()));
        if (known.has(paragraph)) continue;
        const addition = known.has(chunk.symbol) || chunk.symbol === '' ? paragraph : `${chunk.symbol}\n${paragraph}`;
        const text = anchors.get(id) ?? '';
        if (text.length + addition.length > ANCHOR_LIMITS.maxPerChunk) continue;
        known.add(paragraph);
        known.add(chunk.symbol);
        anchors.set(id, text === '' ? addition : `${text}\n${addition}`);
      }
    }
  }
  return anchors;
}

/** Anchor texts and mentions of every chunk, worked out from every docs page. */
function analyseAnchors(chunks: readonly Chunk[]): { texts: string[]; mentions: AnchorMentions } {
  const paragraphs: Mentioning[][] = new Array(chunks.length);
  const pages: number[] = [];
  for (let c = 0; c < chunks.length; c++) {
    if (!PROSE.has(chunks[c]!.language)) continue;
    pages.push(c);
    paragraphs[c] = mentioningParagraphs(chunks[c]!.text);
  }
  const collected = collectAnchors(chunks, pages, definitionsByName(chunks), (c) => paragraphs[c]!);
  const texts: string[] = new Array<string>(chunks.length).fill('');
  for (const [id, text] of collected) texts[id] = text;
  const lists = pages.map((c) => mentionHashes(paragraphs[c]!));
  const listOf = new Map(pages.map((c, i) => [c, lists[i]!]));
  return { texts, mentions: packMentions(chunks, (d) => listOf.get(d) ?? NO_HASHES) };
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
  return analyseAnchors(chunks).texts;
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
  /** Per chunk, what its paragraphs mention (see {@link AnchorMentions}), stored beside the hashes. */
  mentions: AnchorMentions;
  /** Chunk d's anchor field text (see {@link anchorFieldTexts}); undefined when the field is off. */
  textOf(d: number): string | undefined;
}

/**
 * The anchor field of `chunks` under `context`: the docs' anchor text of every chunk (any
 * page may name any definition, so all of it is found again), class summaries a file at a
 * time as chunks are asked about (`lazyClassSummaries`).
 */
export function anchorField(chunks: readonly Chunk[], context: ContextOptions): AnchorField {
  const analysed = context.anchors ? analyseAnchors(chunks) : undefined;
  const anchors = analysed?.texts;
  const summaryOf = context.classSummaries ? lazyClassSummaries(chunks) : undefined;
  return {
    hashes: hashAnchorTexts(anchors, chunks.length),
    mentions: analysed?.mentions ?? packMentions(chunks, () => NO_HASHES),
    textOf: (d) => (summaryOf ? joinAnchor(anchors?.[d] ?? '', summaryOf(d)) : anchors?.[d]),
  };
}

/** What an update knows of the index it updates, enough to find the anchor texts an edit can change (see {@link updateAnchorField}). */
export interface AnchorHistory {
  /** The previous index's chunks. */
  chunks: readonly Chunk[];
  /** For each new chunk, the previous chunk it copies (same file, text and place), or -1. */
  sourceOf: Int32Array;
  /** The previous chunks' anchor hashes (two each, see {@link hashAnchorTexts}). */
  hashes: Uint32Array;
  /** The previous chunks' mentions (see {@link AnchorMentions}). */
  mentions: AnchorMentions;
  /** The new chunks whose anchor field text the update asks for, whether or not their anchor text changed. */
  needsText(d: number): boolean;
}

/**
 * {@link anchorField} for an update, without reading every docs page again: a chunk's anchor
 * text depends only on the definitions that share its symbol's last name part (whether a
 * mention resolves to it) and on the paragraphs that mention that part, in page order. So
 * only the parts that an added or removed definition has, or that an added or removed page
 * mentions, can change anyone's anchor text: for the definitions with those parts (and those
 * `needsText` asks for) it is worked out again from the pages that mention them, found by
 * their stored mentions; every other chunk takes over its previous chunk's hashes. Equal to
 * {@link anchorField} (a property test compares); undefined when the history does not allow
 * it (other projects, which scope mentions, or history missing), and the caller works the
 * field out whole.
 */
export function updateAnchorField(chunks: readonly Chunk[], context: ContextOptions, history: AnchorHistory): AnchorField | undefined {
  const count = chunks.length;
  const before = history.chunks.length;
  const { sourceOf } = history;
  const { offsets: oldOffsets, hashes: oldMentions, defined: oldDefined } = history.mentions;
  if (!context.anchors || sourceOf.length !== count || history.hashes.length !== before * 2 || oldOffsets.length !== before + 1 || oldDefined.length !== before) return undefined;
  const projects = new CorpusProjects(chunks);
  if (!sameProjects(projects, new CorpusProjects(history.chunks), sourceOf)) return undefined;
  // The name parts whose definitions or mentions were added or removed (`changed`), and those
  // whose definitions get their anchor text worked out again (`redo`: those, and the asked
  // ones'). Few passes, typed arrays and offsets: most of an update's chunks are copies, and
  // this runs over all of them, so a copy's mentions and defined part are its previous
  // chunk's stored ones, and its text and symbol are not read.
  const changed = new Set<number>();
  const redo = new Set<number>();
  const copied = new Uint8Array(before);
  const fresh = new Map<number, { paragraphs: Mentioning[]; hashes: number[] }>();
  const offsets = new Uint32Array(count + 1);
  const defined = new Uint32Array(count);
  for (let d = 0; d < count; d++) {
    const source = sourceOf[d]!;
    if (source >= 0) {
      copied[source] = 1;
      offsets[d + 1] = offsets[d]! + oldOffsets[source + 1]! - oldOffsets[source]!;
      const part = (defined[d] = oldDefined[source]!);
      if (part !== 0 && history.needsText(d)) redo.add(part);
      continue;
    }
    const chunk = chunks[d]!;
    let own = 0;
    const part = (defined[d] = definedPart(chunk));
    if (part !== 0) changed.add(part);
    else if (PROSE.has(chunk.language)) {
      const paragraphs = mentioningParagraphs(chunk.text);
      const hashes = mentionHashes(paragraphs);
      for (const hash of hashes) changed.add(hash);
      if (hashes.length > 0) fresh.set(d, { paragraphs, hashes });
      own = hashes.length;
    }
    offsets[d + 1] = offsets[d]! + own;
  }
  for (let p = 0; p < before; p++) {
    if (copied[p] === 1) continue;
    if (oldDefined[p] !== 0) changed.add(oldDefined[p]!);
    for (let i = oldOffsets[p]!; i < oldOffsets[p + 1]!; i++) changed.add(oldMentions[i]!);
  }
  for (const part of changed) redo.add(part);
  // The new chunks' mentions (a copy's are its previous chunk's), the pages that mention a
  // part to redo, and the definitions with such a part.
  const mentioned = new Uint32Array(offsets[count]!);
  const pages: number[] = [];
  // The parts to redo that some page mentions now: a definition with any other part to redo
  // has no anchor text now (nothing can name it), which needs neither its symbol nor a page.
  const named = new Set<number>();
  for (let d = 0; d < count; d++) {
    if (offsets[d + 1] === offsets[d]) continue;
    const source = sourceOf[d]!;
    let at = offsets[d]!;
    if (source < 0) for (const hash of fresh.get(d)!.hashes) mentioned[at++] = hash;
    else for (let i = oldOffsets[source]!; i < oldOffsets[source + 1]!; i++) mentioned[at++] = oldMentions[i]!;
    let redoes = false;
    for (let i = offsets[d]!; redo.size > 0 && i < at; i++) {
      if (!redo.has(mentioned[i]!)) continue;
      named.add(mentioned[i]!);
      redoes = true;
    }
    if (redoes) pages.push(d);
  }
  const byName = new Map<string, number[]>();
  const recomputed = new Uint8Array(count);
  for (let d = 0; d < count; d++) {
    const part = defined[d]!;
    if (redo.size === 0 || part === 0 || !redo.has(part)) continue;
    recomputed[d] = 1;
    if (!named.has(part)) continue;
    const { symbol } = chunks[d]!;
    const name = symbol.slice(lastPartStart(symbol));
    const list = byName.get(name);
    if (list) list.push(d);
    else byName.set(name, [d]);
  }
  const paragraphsOf = (c: number): readonly Mentioning[] => fresh.get(c)?.paragraphs ?? (sourceOf[c]! >= 0 ? mentioningParagraphs(chunks[c]!.text) : []);
  const redone = collectAnchors(chunks, pages, byName, paragraphsOf, projects);
  const hashes = new Uint32Array(count * 2);
  const empty = hashAnchorTexts([''], 1);
  for (let d = 0; d < count; d++) {
    const source = sourceOf[d]!;
    if (recomputed[d] === 1) hashAnchorText(redone.get(d) ?? '', hashes, d);
    else if (source >= 0) {
      hashes[2 * d] = history.hashes[2 * source]!;
      hashes[2 * d + 1] = history.hashes[2 * source + 1]!;
    } else {
      hashes[2 * d] = empty[0]!;
      hashes[2 * d + 1] = empty[1]!;
    }
  }
  // Asked for a definition whose text was not worked out again (no caller does): work the field out whole.
  let whole: AnchorField | undefined;
  const anchorOf = (d: number): string => {
    if (recomputed[d] === 1) return redone.get(d) ?? '';
    if (defined[d] === 0) return '';
    whole ??= anchorField(chunks, context);
    return whole.textOf(d) ?? '';
  };
  const summaryOf = context.classSummaries ? lazyClassSummaries(chunks) : undefined;
  return { hashes, mentions: { offsets, hashes: mentioned, defined }, textOf: (d) => (summaryOf ? joinAnchor(anchorOf(d), summaryOf(d)) : anchorOf(d)) };
}

/** Whether the projects are the same ones and every copied chunk is in the same one as before (so mentions resolve as they did). */
function sameProjects(now: CorpusProjects, then: CorpusProjects, sourceOf: Int32Array): boolean {
  if (now.names.length !== then.names.length || now.names.some((name, i) => name !== then.names[i])) return false;
  if (now.names.length < 2) return true;
  const [a, b] = [now.chunkProjects, then.chunkProjects];
  for (let d = 0; d < sourceOf.length; d++) if (sourceOf[d]! >= 0 && a[d] !== b[sourceOf[d]!]) return false;
  return true;
}

/** Writes the two hashes of `text` (see {@link hashAnchorTexts}) at [2d] and [2d + 1] of `out`. */
function hashAnchorText(text: string, out: Uint32Array, d: number): void {
  let a = 0x811c9dc5;
  let b = 0x2f6e5a1d;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    a = Math.imul(a ^ unit, 0x01000193);
    b = Math.imul(b ^ unit, 0x01000193) ^ (b >>> 15);
  }
  out[2 * d] = a >>> 0;
  out[2 * d + 1] = b >>> 0;
}

/**
 * Two 32-bit FNV-1a hashes (different seeds) of each chunk's anchor text, chunk d's at
 * [2d] and [2d + 1]: stored with the index so that a re-index tells which anchors changed
 * without analysing them all again. `anchors` undefined (anchor text off): every text is ''.
 */
export function hashAnchorTexts(anchors: readonly string[] | undefined, docCount: number): Uint32Array {
  const hashes = new Uint32Array(docCount * 2);
  for (let d = 0; d < docCount; d++) hashAnchorText(anchors?.[d] ?? '', hashes, d);
  return hashes;
}
