import { createHash } from 'node:crypto';
import type { BigIntStats, Dirent } from 'node:fs';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { extname, join, relative, resolve, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { RagError, codePointLength, optionError, statSignature } from '@rag/core';
import type { FileRecord, Language } from '@rag/core';
import { ignoreRulePrefilter } from './ignore-prefilter.js';
import { MAX_MARKDOWN_NESTING, markdownNesting } from './nesting.js';
import { DEFAULT_EXTENSIONS, DEFAULT_IGNORED_DIRS, DEFAULT_STUBS } from './options.js';

/**
 * Files read between two yields to the event loop. Reads are synchronous: for the many small
 * files of a source tree, one `readFileSync` costs a fraction of the four thread-pool round
 * trips (open, stat, read, close) of an asynchronous read, and yielding now and then keeps
 * progress output and signals flowing.
 */
const READS_PER_YIELD = 64;

export interface WalkOptions {
  /**
   * File extension (with the dot, matched case-insensitively) → language. Only these
   * files are indexed. Default {@link DEFAULT_EXTENSIONS} (`.py`, `.pyi`, `.md`, `.rst`, `.txt`, and `.yml`, `.yaml`, `.toml`, `.cfg`, `.ini` as text).
   */
  extensions?: Readonly<Record<string, Language>>;
  /**
   * Stub extension → the extension of the source it describes (dots optional, matched
   * case-insensitively for the stub): a stub is skipped when a file of the same name with
   * that (lower-case) extension sits in the same folder, and indexed otherwise. `{}` indexes every stub.
   * Default {@link DEFAULT_STUBS} (`.pyi` → `.py`).
   */
  stubs?: Readonly<Record<string, string>>;
  /**
   * Folder names never descended into, compared exactly: version control, tool caches and
   * virtual environments. Other folders whose name starts with a dot (`.github` with its
   * issue templates and workflows) are walked. Default {@link DEFAULT_IGNORED_DIRS}.
   */
  ignoredDirs?: readonly string[];
  /**
   * Honour `.gitignore` and `.ignore` files, nested ones included, as git and ripgrep do:
   * generated and vendored files a repository ignores would otherwise compete with its
   * real sources. A deeper file's rules win over a shallower one's; a folder a rule
   * excludes is not descended into. Default `true`.
   */
  ignoreFiles?: boolean;
  /**
   * Files that need not be read: given a file's path and its stat signature (see
   * {@link statSignature}), the record of the file as it was indexed when that signature
   * was recorded, or undefined to read the file. An incremental index passes the records
   * of its previous build; such a file comes back as an {@link UnreadFile}. Default: every
   * file is read.
   */
  unchanged?: (filePath: string, stat: string) => FileRecord | undefined;
  /** Called once per skipped file (binary, not UTF-8, unreadable, link outside). Default: silent. */
  onWarning?: (message: string) => void;
  /**
   * Told the absolute path of every folder the walk lists (the root first; not the folders
   * it skips): where a file it would index can appear, which a watcher watches. Default: none.
   */
  onFolder?: (absolutePath: string) => void;
  /**
   * Files larger than this many bytes are skipped with a warning: one huge log or data file
   * would otherwise swamp the index and every search. 0 includes every size. Integer ≥ 0.
   * Default {@link DEFAULT_MAX_FILE_BYTES} (2 MB).
   */
  maxFileBytes?: number;
  /**
   * Files with a line longer than this many characters look minified or generated and are
   * skipped with a warning. 0 includes them. Integer ≥ 0. Default {@link DEFAULT_MAX_LINE_LENGTH}.
   */
  maxLineLength?: number;
}

/**
 * A {@link WalkOptions.unchanged} that vouches for a file whose stat signature is the one
 * `records` holds for it (a record without one vouches for nothing).
 */
export function unchangedByRecords(records: ReadonlyMap<string, FileRecord>): NonNullable<WalkOptions['unchanged']> {
  return (filePath, stat) => {
    const record = records.get(filePath);
    return record?.stat !== undefined && record.stat === stat ? record : undefined;
  };
}

/** Default {@link WalkOptions.maxFileBytes}: hand-written source and docs are far smaller. */
export const DEFAULT_MAX_FILE_BYTES = 2_000_000;
/**
 * Default {@link WalkOptions.maxLineLength}: minified and generated files have lines of
 * 100 k characters and more; the longest line in the vLLM corpus's text files is ~18 k.
 */
export const DEFAULT_MAX_LINE_LENGTH = 50_000;

function longestLine(text: string): number {
  let longest = 0;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    longest = Math.max(longest, i - start);
    start = i + 1;
  }
  return Math.max(longest, text.length - start);
}

function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/** A file to index: its record, its decoded text and where it is on disk. */
export interface CorpusFile extends FileRecord {
  text: string;
  /** Absolute path of the file (of the link, for a symlinked file). */
  absolutePath: string;
}

/** A file `WalkOptions.unchanged` vouched for: its record as indexed before, not read now. */
export interface UnreadFile extends FileRecord {
  text?: undefined;
  absolutePath: string;
}

/** What a walk finds: files read, and (with `WalkOptions.unchanged`) files left unread. */
export type WalkedFile = CorpusFile | UnreadFile;

/**
 * How long before its read a file must have last changed for its stat signature to be
 * recorded. Timestamps have a granularity (a few milliseconds on most file systems, 2 s on
 * FAT): a write in the same tick as the one before our read could leave the signature as it
 * was. Past this, any later write gives a later modification time. Git calls such files racy.
 */
export const SETTLED_MS = 2_000;

/** Whether a file last changed long enough before `now` (ms) for its signature to be trusted later. */
function isSettled(stats: BigIntStats, now: number): boolean {
  const changed = stats.mtimeNs > stats.ctimeNs ? stats.mtimeNs : stats.ctimeNs;
  return BigInt(Math.floor(now - SETTLED_MS)) * 1_000_000n > changed;
}

interface Candidate {
  relativePath: string;
  absolutePath: string;
  language: Language;
}

function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

async function openRoot(dir: string): Promise<string> {
  const absolute = resolve(dir);
  let info;
  try {
    info = await stat(absolute);
  } catch (error) {
    throw new RagError('CORPUS_NOT_FOUND', `Corpus directory ${dir} does not exist.`, {
      hint: 'Check the path passed as --corpus_dir (relative paths start from the current directory).',
      cause: error,
    });
  }
  if (!info.isDirectory()) {
    throw new RagError('INVALID_ARGUMENT', `Corpus path ${dir} is not a directory.`, {
      hint: 'Pass the folder that contains the files to index, not a single file.',
    });
  }
  return realpath(absolute);
}

/**
 * Candidate files under `root` in sorted order. Real folders are walked first; linked
 * folders afterwards, and only when their target was not reached already, so the real
 * path wins and a link back up never loops. A linked file whose target is indexed
 * under its own path is dropped for the same reason. Links leading outside the corpus
 * are skipped with a warning.
 */
/** The rules of one folder's ignore files, for paths relative to that folder. */
interface IgnoreRules {
  base: string;
  rules: Ignore;
  /** Matches every path (relative to `base`) a rule may speak about; undefined: any path (see `ignoreRulePrefilter`). */
  concerns: RegExp | undefined;
}

/** Files whose rules say what not to index, in the order they are read (later wins). */
const IGNORE_FILES = ['.gitignore', '.ignore'];

/** The rules of `dir`'s ignore files (those among `names`, its entries), or undefined when it has none. */
function readIgnoreRules(dir: string, base: string, names: ReadonlySet<string>): IgnoreRules | undefined {
  let rules: Ignore | undefined;
  const texts: string[] = [];
  for (const name of IGNORE_FILES) {
    if (!names.has(name)) continue;
    let text: string;
    try {
      text = readFileSync(join(dir, name), 'utf8');
    } catch {
      continue;
    }
    (rules ??= ignore()).add(text);
    texts.push(text);
  }
  return rules ? { base, rules, concerns: ignoreRulePrefilter(texts) } : undefined;
}

/** Whether the innermost rules that speak about `path` (relative to the root) exclude it. */
function isIgnored(stack: readonly IgnoreRules[], path: string, isDir: boolean): boolean {
  for (let i = stack.length - 1; i >= 0; i--) {
    const { base, rules, concerns } = stack[i]!;
    const inner = base === '' ? path : path.slice(base.length + 1);
    const tested = isDir ? `${inner}/` : inner;
    // No rule of this file can speak about the path: no verdict, as the matcher would find.
    if (concerns !== undefined && !concerns.test(tested)) continue;
    const verdict = rules.test(tested);
    if (verdict.ignored) return true;
    if (verdict.unignored) return false;
  }
  return false;
}

async function listCandidates(
  root: string,
  extensions: ReadonlyMap<string, Language>,
  stubs: ReadonlyMap<string, string>,
  ignored: ReadonlySet<string>,
  useIgnoreFiles: boolean,
  warn: (message: string) => void,
  onFolder?: (absolutePath: string) => void,
): Promise<Candidate[]> {
  const candidates: (Candidate & { real: string; linked: boolean })[] = [];
  const visited = new Set<string>();
  const linkedDirs: { path: string; stack: IgnoreRules[] }[] = [];
  const skipDir = (name: string): boolean => ignored.has(name);
  const visit = async (dir: string, real: string, parentStack: IgnoreRules[]): Promise<void> => {
    if (visited.has(real)) return;
    visited.add(real);
    const base = toPosix(relative(root, dir));
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch (error) {
      warn(`Skipped folder ${base || '.'}: ${(error as Error).message}`);
      return;
    }
    onFolder?.(dir);
    const names = new Set(entries.map((entry) => entry.name));
    const own = useIgnoreFiles ? readIgnoreRules(dir, base, names) : undefined;
    const stack = own ? [...parentStack, own] : parentStack;
    const excluded = (relativePath: string, isDir: boolean): boolean => stack.length > 0 && isIgnored(stack, relativePath, isDir);
    const subdirs: string[] = [];
    for (const entry of entries) {
      // Built by concatenation: `join` and `relative` normalise every path again, a sizeable
      // share of a walk that reads nothing (an update whose files are all unchanged).
      const path = dir.endsWith(sep) ? dir + entry.name : dir + sep + entry.name;
      const relativePath = base === '' ? entry.name : `${base}/${entry.name}`;
      // Node decodes a name that is not UTF-8 with U+FFFD, a path that then names nothing.
      if (entry.name.includes('\uFFFD') && !(await stat(path).then(() => true, () => false))) {
        warn(`Skipped ${relativePath}: its name is not valid UTF-8 (rename it to index it).`);
        continue;
      }
      if (entry.isDirectory()) {
        if (!skipDir(entry.name) && !excluded(relativePath, true)) subdirs.push(entry.name);
      } else if (entry.isFile()) {
        const language = extensions.get(extname(entry.name).toLowerCase());
        if (language && !excluded(relativePath, false) && !hasSource(entry.name, names, stubs)) candidates.push({ relativePath, absolutePath: path, language, real: join(real, entry.name), linked: false });
      } else if (entry.isSymbolicLink()) {
        const language = extensions.get(extname(entry.name).toLowerCase());
        const fileCounts = language !== undefined && !excluded(relativePath, false) && !hasSource(entry.name, names, stubs);
        const folderCounts = !skipDir(entry.name) && !excluded(relativePath, true);
        let target: string;
        try {
          target = await realpath(path);
        } catch {
          // Only a link that could have been indexed is worth a warning: one named like an
          // indexed file, or one without an extension (it may have named a folder).
          if (fileCounts || (folderCounts && extname(entry.name) === '')) warn(`Skipped ${relativePath}: broken symbolic link.`);
          continue;
        }
        const info = await stat(target).catch(() => undefined);
        if (!isInside(root, target)) {
          if (info?.isDirectory() ? folderCounts : fileCounts) warn(`Skipped ${relativePath}: symbolic link to ${target}, outside the corpus.`);
          continue;
        }
        if (info?.isDirectory()) {
          if (folderCounts) linkedDirs.push({ path, stack });
        } else if (info?.isFile()) {
          if (fileCounts) candidates.push({ relativePath, absolutePath: path, language: language!, real: target, linked: true });
        }
      }
    }
    for (const name of subdirs) await visit(join(dir, name), join(real, name), stack);
  };
  await visit(root, root, []);
  for (let i = 0; i < linkedDirs.length; i++) {
    const link = linkedDirs[i]!;
    await visit(link.path, await realpath(link.path), link.stack);
  }
  candidates.sort((a, b) => (a.relativePath < b.relativePath ? -1 : a.relativePath > b.relativePath ? 1 : 0));
  const taken = new Set(candidates.filter((c) => !c.linked).map((c) => c.real));
  const kept: Candidate[] = [];
  for (const { relativePath, absolutePath, language, real, linked } of candidates) {
    if (linked) {
      if (taken.has(real)) continue;
      taken.add(real);
    }
    kept.push({ relativePath, absolutePath, language });
  }
  return kept;
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

interface ReadLimits {
  maxFileBytes: number;
  maxLineLength: number;
}

/**
 * The file, left unread when `unchanged` vouches for its signature, or the warning saying why
 * it was skipped.
 */
function readCandidate(candidate: Candidate, limits: ReadLimits, unchanged: WalkOptions['unchanged']): WalkedFile | string {
  let bytes: Buffer;
  let stat: string | undefined;
  try {
    const stats = statSync(candidate.absolutePath, { bigint: true });
    const signature = statSignature(stats);
    const known = unchanged?.(candidate.relativePath, signature);
    if (known) return { ...known, file_path: candidate.relativePath, language: candidate.language, absolutePath: candidate.absolutePath, stat: signature };
    const size = Number(stats.size);
    if (limits.maxFileBytes > 0 && size > limits.maxFileBytes) {
      return `Skipped ${candidate.relativePath}: ${megabytes(size)}, over the ${megabytes(limits.maxFileBytes)} file size limit (raise --max_file_size, or 0 to include every size).`;
    }
    bytes = readFileSync(candidate.absolutePath);
    // A file that changed just before this read could change again without changing its signature.
    if (isSettled(stats, Date.now()) && bytes.length === size) stat = signature;
  } catch (error) {
    return `Skipped ${candidate.relativePath}: ${(error as Error).message}`;
  }
  if (bytes.includes(0)) return `Skipped ${candidate.relativePath}: binary file (contains NUL bytes).`;
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return `Skipped ${candidate.relativePath}: not valid UTF-8.`;
  }
  if (limits.maxLineLength > 0) {
    const longest = longestLine(text);
    if (longest > limits.maxLineLength) {
      return `Skipped ${candidate.relativePath}: a line of ${longest} characters looks minified or generated (raise --max_line_length, or 0 to include such files).`;
    }
  }
  return {
    file_path: candidate.relativePath,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    bytes: bytes.length,
    length: codePointLength(text),
    language: candidate.language,
    ...(stat === undefined ? {} : { stat }),
    text,
    absolutePath: candidate.absolutePath,
  };
}

/** Reads a file a walk left unread (see `WalkOptions.unchanged`): the file, or why it cannot be indexed now. */
export function readUnreadFile(file: UnreadFile, options: Pick<WalkOptions, 'maxFileBytes' | 'maxLineLength'> = {}): CorpusFile | string {
  // Without `unchanged`, a candidate is always read.
  return readCandidate({ relativePath: file.file_path, absolutePath: file.absolutePath, language: file.language }, readLimits(options), undefined) as CorpusFile | string;
}

/** Whether `name` is a stub (see `WalkOptions.stubs`) whose source is among `names`, the entries of its folder. */
function hasSource(name: string, names: ReadonlySet<string>, stubs: ReadonlyMap<string, string>): boolean {
  if (stubs.size === 0) return false;
  const extension = extname(name);
  const source = stubs.get(extension.toLowerCase());
  if (source === undefined) return false;
  return names.has(name.slice(0, name.length - extension.length) + source);
}

/** `{ '.pyi': '.py' }` with every extension lower case and dotted. */
function stubMap(stubs: Readonly<Record<string, string>>): Map<string, string> {
  const dotted = (extension: string): string => {
    const key = extension.toLowerCase();
    return key.startsWith('.') ? key : `.${key}`;
  };
  return new Map(Object.entries(stubs).map(([stub, source]) => [dotted(stub), dotted(source)]));
}

function extensionMap(extensions: Readonly<Record<string, Language>>): Map<string, Language> {
  const map = new Map<string, Language>();
  for (const [extension, language] of Object.entries(extensions)) {
    const key = extension.toLowerCase();
    map.set(key.startsWith('.') ? key : `.${key}`, language);
  }
  return map;
}

function readLimits(options: Pick<WalkOptions, 'maxFileBytes' | 'maxLineLength'>): ReadLimits {
  return {
    maxFileBytes: checkLimit('maxFileBytes', options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES),
    maxLineLength: checkLimit('maxLineLength', options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH),
  };
}

function checkLimit(name: 'maxFileBytes' | 'maxLineLength', value: number): number {
  if (!Number.isInteger(value) || value < 0) throw optionError({ subject: 'chunking' }, [name], 'an integer ≥ 0', value);
  return value;
}

/**
 * Finds and reads the indexable files under `dir`, sorted by path. Binary and non-UTF-8
 * files, files over the size limit, minified-looking files and names that are not UTF-8
 * are skipped with one warning each. Throws `CORPUS_NOT_FOUND` for a missing
 * folder, `INVALID_ARGUMENT` for a file, `CORPUS_EMPTY` when nothing is left to index.
 */
export async function walkCorpus(dir: string, options?: WalkOptions & { unchanged?: undefined }): Promise<CorpusFile[]>;
export async function walkCorpus(dir: string, options: WalkOptions): Promise<WalkedFile[]>;
export async function walkCorpus(dir: string, options: WalkOptions = {}): Promise<WalkedFile[]> {
  const extensions = options.extensions ?? DEFAULT_EXTENSIONS;
  const warn = options.onWarning ?? (() => undefined);
  const root = await openRoot(dir);
  const map = extensionMap(extensions);
  const candidates = await listCandidates(root, map, stubMap(options.stubs ?? DEFAULT_STUBS), new Set(options.ignoredDirs ?? DEFAULT_IGNORED_DIRS), options.ignoreFiles ?? true, warn, options.onFolder);
  const limits = readLimits(options);
  const read: WalkedFile[] = [];
  for (let index = 0; index < candidates.length; index++) {
    if (index > 0 && index % READS_PER_YIELD === 0) await new Promise((done) => setImmediate(done));
    const result = readCandidate(candidates[index]!, limits, options.unchanged);
    if (typeof result === 'string') warn(result);
    else {
      if (result.text !== undefined && result.language === 'markdown') {
        const nesting = markdownNesting(result.text);
        if (nesting > MAX_MARKDOWN_NESTING) warn(`${result.file_path} nests block quotes or lists ${nesting} levels deep; it is chunked by lines, not parsed.`);
      }
      read.push(result);
    }
  }
  if (read.length === 0) {
    const names = [...map.keys()].join(', ');
    throw new RagError('CORPUS_EMPTY', `No indexable files in ${dir}.`, {
      hint: `Only files ending in ${names || '(no extensions configured)'} are indexed, outside skipped folders and what .gitignore/.ignore files exclude; point --corpus_dir at a folder with such files.`,
    });
  }
  return read;
}
