import { integerIn, optionError, parseOptions, v } from '@rag/core';
import type { Language } from '@rag/core';

/**
 * Which way of cutting files this is. Raised whenever the same options cut a file
 * differently, so that an index records it with its chunking settings and an update of an
 * index cut another way is rebuilt instead of mixing old and new chunks. 2: code chunks
 * of a file meet (indentation and blank lines included). 3: Python statements are scanned
 * (`pythonReader` `'scan'`), which cuts a file tree-sitter rejects by its statements.
 * 4: configuration (YAML, TOML, INI, cfg) cut at its top-level entries, not into windows.
 */
export const CHUNKER_REVISION = 4;

/** Hard cap on a chunk's length in code points: the benchmark rejects longer sources. */
export const DEFAULT_MAX_CHUNK_SIZE = 2000;
/** Preferred length when runs of small blocks are packed or a large node is split. */
export const DEFAULT_TARGET_CHUNK_SIZE = 800;
/** Headings and other fragments shorter than this are glued to the chunk that follows. */
export const DEFAULT_MIN_CHUNK_SIZE = 200;
/** Characters a `.txt` window repeats from the end of the previous one. */
export const DEFAULT_TEXT_OVERLAP = 200;
/** Target size of the nested pieces cut inside long Markdown and RST sections. */
export const DEFAULT_NESTED_CHUNK_SIZE = 600;

/**
 * Extension (with the dot, lower case) → language, for files indexed by default. Besides the
 * Python sources and the prose docs, a project's own configuration is read as plain text:
 * YAML (CI workflows and GitHub's issue forms under `.github/`, which users ask about —
 * "what does CI run", "how do I report a bug"), TOML (`pyproject.toml`: dependencies,
 * supported Python versions, entry points) and INI / cfg (`setup.cfg`, `tox.ini`). JSON is
 * left out: in a repository it is mostly data (fixtures, recorded outputs), not prose.
 */
export const DEFAULT_EXTENSIONS: Readonly<Record<string, Language>> = Object.freeze({
  '.py': 'python',
  '.pyi': 'python',
  '.md': 'markdown',
  '.rst': 'rst',
  '.txt': 'text',
  '.yml': 'text',
  '.yaml': 'text',
  '.toml': 'text',
  '.cfg': 'text',
  '.ini': 'text',
});

/**
 * Stub extension → the extension of the source a stub describes. A type stub beside its
 * module (`app.pyi` next to `app.py`) repeats the module's signatures without bodies or
 * docstrings and would only compete with it; a stub alone (the interface of a compiled
 * extension, a stub-only package) is the one text that names what it declares, so it is
 * indexed.
 */
export const DEFAULT_STUBS: Readonly<Record<string, string>> = Object.freeze({
  '.pyi': '.py',
});

/** Folder names never descended into (besides every folder whose name starts with a dot). */
export const DEFAULT_IGNORED_DIRS: readonly string[] = Object.freeze([
  // version control
  '.git',
  '.hg',
  '.svn',
  '.bzr',
  // caches of Python tools
  '__pycache__',
  '.mypy_cache',
  '.pytest_cache',
  '.ruff_cache',
  '.hypothesis',
  '.ipynb_checkpoints',
  // virtual environments and installed packages
  '.venv',
  'venv',
  '.tox',
  '.nox',
  '.eggs',
  'site-packages',
  'node_modules',
]);

export interface ChunkerOptions {
  /**
   * Hard cap on a chunk's length in Unicode code points; no chunk is ever longer.
   * Integer ≥ 20. Default {@link DEFAULT_MAX_CHUNK_SIZE} (2000).
   */
  maxChunkSize?: number;
  /**
   * Preferred length in code points when small neighbours are packed together or an
   * oversized node is split: pieces come out near this size, never above the cap.
   * Definitions (functions, methods, classes) and document sections that fit the cap are
   * kept whole regardless. Integer in [1, maxChunkSize]. Default {@link DEFAULT_TARGET_CHUNK_SIZE} (800).
   */
  targetChunkSize?: number;
  /**
   * Markdown/RST sections whose own text (heading plus body before the first subsection)
   * is shorter than this many code points are glued to the start of their first
   * subsection instead of standing alone. 0 disables. Integer in [0, maxChunkSize].
   * Default {@link DEFAULT_MIN_CHUNK_SIZE} (200).
   */
  minChunkSize?: number;
  /**
   * Code points a plain-text window repeats from the end of the previous window (snapped
   * to a line start, so usually a little less). Integer in [0, maxChunkSize / 2]; an
   * overlap is also never more than half its window. Default {@link DEFAULT_TEXT_OVERLAP} (200).
   */
  textOverlap?: number;
  /**
   * Markdown and RST sections longer than twice this many code points are also cut into
   * nested chunks near this size (paragraphs, list items, table rows), which overlap the
   * section chunk and come right after it. 0 disables. Integer in [0, maxChunkSize].
   * Default {@link DEFAULT_NESTED_CHUNK_SIZE} (600).
   */
  nestedChunkSize?: number;
  /**
   * How Python files are read into statements. `'scan'`: from their lines, brackets,
   * strings, comments and indentation, which finds the statements tree-sitter would (checked
   * on whole corpora by `packages/chunking/scripts/compare-python-readers.mjs`) at a fraction
   * of the cost; a file whose structure it cannot read is parsed instead. `'parse'`: every
   * file parsed with tree-sitter-python. They differ only on a file tree-sitter rejects for
   * an expression: parsed, it is cut as plain text; scanned, by its statements. Default
   * {@link DEFAULT_PYTHON_READER} (`'scan'`).
   */
  pythonReader?: PythonReader;
}

/** The ways of reading Python files into statements (see `ChunkerOptions.pythonReader`). */
export const PYTHON_READERS = ['scan', 'parse'] as const;
export type PythonReader = (typeof PYTHON_READERS)[number];
export const DEFAULT_PYTHON_READER: PythonReader = 'scan';

export type ResolvedChunkerOptions = Required<ChunkerOptions>;

const CONTEXT = { subject: 'chunking' } as const;

/** The schema of {@link ChunkerOptions}; bounds that depend on `maxChunkSize` are checked after it. */
export const CHUNKER_OPTIONS_SCHEMA = v.strictObject({
  maxChunkSize: v.optional(integerIn(20, 1_000_000)),
  targetChunkSize: v.optional(v.int()),
  minChunkSize: v.optional(v.int()),
  textOverlap: v.optional(v.int()),
  nestedChunkSize: v.optional(v.int()),
  pythonReader: v.optional(v.enum(PYTHON_READERS)),
});

/** `value` (or `fallback`) when it lies in [min, max]; the same error shape as the schema's otherwise. */
function withinCap(name: keyof ChunkerOptions, value: number | undefined, fallback: number, min: number, max: number): number {
  const chosen = value ?? fallback;
  if (chosen < min || chosen > max) throw optionError(CONTEXT, [name], `an integer in [${min}, ${max}]`, chosen);
  return chosen;
}

/** Fills defaults and validates ranges; throws `RagError('INVALID_ARGUMENT')` on a bad value. */
export function resolveChunkerOptions(options: ChunkerOptions = {}): ResolvedChunkerOptions {
  const parsed = parseOptions(CHUNKER_OPTIONS_SCHEMA, options, CONTEXT);
  const maxChunkSize = parsed.maxChunkSize ?? DEFAULT_MAX_CHUNK_SIZE;
  const half = Math.floor(maxChunkSize / 2);
  return {
    maxChunkSize,
    targetChunkSize: withinCap('targetChunkSize', parsed.targetChunkSize, Math.min(DEFAULT_TARGET_CHUNK_SIZE, maxChunkSize), 1, maxChunkSize),
    minChunkSize: withinCap('minChunkSize', parsed.minChunkSize, Math.min(DEFAULT_MIN_CHUNK_SIZE, maxChunkSize), 0, maxChunkSize),
    textOverlap: withinCap('textOverlap', parsed.textOverlap, Math.min(DEFAULT_TEXT_OVERLAP, half), 0, half),
    nestedChunkSize: withinCap('nestedChunkSize', parsed.nestedChunkSize, Math.min(DEFAULT_NESTED_CHUNK_SIZE, maxChunkSize), 0, maxChunkSize),
    pythonReader: parsed.pythonReader ?? DEFAULT_PYTHON_READER,
  };
}
