/**
 * Configuration files (YAML; TOML, INI and cfg) cut at their top-level entries instead of
 * into plain-text windows: a question about a setting ("is autoscaling on by default?") is
 * answered by one entry, which a window cuts through or buries among unrelated keys, and the
 * entries' names become the chunk's symbol — the field a setting's name is searched in.
 */
import type { ResolvedChunkerOptions } from './options.js';
import type { TextLayout } from './layout.js';
import { cutRegions, type Piece, type Region } from './regions.js';
import { proseBreakCost } from './text.js';

/** How a configuration format marks its top-level entries. */
export type ConfigFormat = 'yaml' | 'tables';

/** Extension (lower case, with the dot) → format: YAML keys at column 0, or `[table]` headers. */
const CONFIG_FORMATS: Readonly<Record<string, ConfigFormat>> = Object.freeze({
  '.yml': 'yaml',
  '.yaml': 'yaml',
  '.toml': 'tables',
  '.cfg': 'tables',
  '.ini': 'tables',
});

/** Most entry names a chunk's symbol lists; the rest are summed up as "…". */
const MAX_SYMBOL_NAMES = 6;

/** The configuration format of `filePath` by its extension, or undefined for any other file. */
export function configFormatOf(filePath: string): ConfigFormat | undefined {
  const dot = filePath.lastIndexOf('.');
  return dot > filePath.lastIndexOf('/') ? CONFIG_FORMATS[filePath.slice(dot).toLowerCase()] : undefined;
}

/** A YAML mapping key at column 0 (`image:`, `"quoted key":`, `on:`), not a list item, comment or document marker. */
const YAML_KEY = /^(?:"([^"\n]*)"|'([^'\n]*)'|([A-Za-z0-9_$][^:#\n]*?))[ \t]*:(?:[ \t]|$)/;
/** A TOML / INI table header: `[tool.ruff]`, `[[tool.mypy.overrides]]`, `[metadata]`. */
const TABLE_HEADER = /^[ \t]*\[\[?[ \t]*([^\]\n]+?)[ \t]*\]\]?[ \t]*(?:[#;].*)?$/;

/** The name of the top-level entry that line `text` opens, or undefined. */
function entryName(text: string, format: ConfigFormat): string | undefined {
  if (format === 'yaml') {
    const match = YAML_KEY.exec(text);
    return match ? (match[1] ?? match[2] ?? match[3]!).trim() : undefined;
  }
  return TABLE_HEADER.exec(text)?.[1];
}

const isComment = (text: string): boolean => /^[ \t]*[#;]/.test(text);

/** Line `line`'s text without its line break. */
const lineText = (layout: TextLayout, line: number): string => layout.text.slice(layout.lineStart(line), layout.contentEnd(line));

/** Lines that open a top-level entry, each moved up over the comment block right above it. */
function entryStarts(layout: TextLayout, format: ConfigFormat): { row: number; name: string }[] {
  const starts: { row: number; name: string }[] = [];
  for (let line = 0; line < layout.lineCount; line++) {
    const name = entryName(lineText(layout, line), format);
    if (name === undefined) continue;
    let row = line;
    const floor = starts.at(-1)?.row ?? -1;
    while (row - 1 > floor && !layout.isBlankLine(row - 1) && isComment(lineText(layout, row - 1))) row--;
    starts.push({ row, name });
  }
  return starts;
}

/** "image, containerPort, serviceName" (at most {@link MAX_SYMBOL_NAMES} names). */
function symbolOf(names: readonly string[]): string {
  const listed = names.slice(0, MAX_SYMBOL_NAMES).join(', ');
  return names.length > MAX_SYMBOL_NAMES ? `${listed}, …` : listed;
}

/**
 * Pieces of a configuration file: its top-level entries (each with the comments right above
 * it), one under the minimum size joined with the entries after it until they reach it, an
 * entry or group over the target cut near it, at blank lines first, like prose. Undefined
 * for a file with no entry it recognises (it is cut like plain text).
 */
export function chunkConfig(layout: TextLayout, options: ResolvedChunkerOptions, format: ConfigFormat): Piece[] | undefined {
  const starts = entryStarts(layout, format);
  if (starts.length === 0) return undefined;
  // Entries as line ranges; the lines before the first entry (a header comment, a
  // `version:` line the pattern took) go with it.
  const entries = starts.map((start, i) => ({ from: i === 0 ? 0 : start.row, to: i + 1 < starts.length ? starts[i + 1]!.row : layout.lineCount, name: start.name }));
  const size = (from: number, to: number): number => layout.codePoints(layout.lineStart(from), layout.lineStart(to));
  const regions: Region[] = [];
  let group: typeof entries = [];
  const flush = (): void => {
    if (group.length === 0) return;
    // An entry (or group) over the target is cut near it like prose, at blank lines first: a
    // setting is a line or a few, which a long entry (a workflow's `jobs:`) would bury.
    const mode = size(group[0]!.from, group.at(-1)!.to) > options.targetChunkSize ? 'pack' : 'whole';
    regions.push({ from: group[0]!.from, to: group.at(-1)!.to, kind: 'text', symbol: symbolOf(group.map((entry) => entry.name)), mode, splitKind: 'text' });
    group = [];
  };
  for (const entry of entries) {
    // An entry is a chunk of its own once it reaches the minimum; a smaller one (`version:
    // 2`, `[tool.ruff]` with one setting) joins the entries after it, since a fragment that
    // short wins on length alone. (Packed up to the target size instead, the config questions
    // of the development sets found their entry less often: R@5 0.54 → 0.46.)
    if (group.length > 0 && size(group[0]!.from, group.at(-1)!.to) >= options.minChunkSize) flush();
    group.push(entry);
  }
  flush();
  const pieces = cutRegions(layout, regions, proseBreakCost(layout), { max: options.maxChunkSize, target: options.targetChunkSize });
  // A piece of a cut group is named by the entries it holds lines of, not by the whole group
  // (the third piece of `name, on, jobs` holds only `jobs`).
  return pieces.map((piece) => {
    const first = layout.lineOf(piece.start);
    const last = layout.lineOf(piece.end - 1);
    const held = entries.filter((entry) => entry.from <= last && entry.to > first).map((entry) => entry.name);
    return held.length > 0 ? { ...piece, symbol: symbolOf(held) } : piece;
  });
}
