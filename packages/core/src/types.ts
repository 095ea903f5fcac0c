/** A cited span of a corpus file, in the benchmark's field names. */
export interface Source {
  /** Path of the file (see each producer for what it is relative to). */
  file_path: string;
  /** Unicode code-point offset of the first character (inclusive). */
  first_character_index: number;
  /** Unicode code-point offset one past the last character (exclusive). */
  last_character_index: number;
}

export type Language = 'python' | 'markdown' | 'rst' | 'text';

/**
 * What a chunk covers. Code: `module` (top-level statements such as imports),
 * `function`, `class` (a whole class, or its header and fields when split),
 * `method`, `block` (part of an oversized node split at line boundaries).
 * Docs: `section` (a heading and its body), `code` (a fenced block kept whole),
 * `text` (a window of plain text).
 */
export type ChunkKind = 'module' | 'function' | 'class' | 'method' | 'block' | 'section' | 'code' | 'text';

/** A retrievable unit of a corpus file with its exact location. */
export interface Chunk {
  /** Dense id: the chunk's position in its index (0-based). */
  id: number;
  /** Path of the file inside the corpus root, with `/` separators. */
  file_path: string;
  /** Code-point offset of the first character in the file's text (inclusive). */
  first_character_index: number;
  /** Code-point offset one past the last character (exclusive). */
  last_character_index: number;
  /** 1-based line of the first character. */
  start_line: number;
  /**
   * 1-based line of the last character that is not whitespace (inclusive): the blank lines
   * a code chunk carries up to the next chunk (see `text`) are not counted.
   */
  end_line: number;
  kind: ChunkKind;
  /** Qualified symbol (`LLM.generate`) or heading path (`Install > GPU`); `''` if none. */
  symbol: string;
  language: Language;
  /**
   * The chunk's text: exactly the file's text between the two offsets. Code chunks of one
   * file meet (each starts at its first line's start and ends where the next begins), so
   * the texts of neighbours concatenate into the text of their joined span; prose chunks
   * are trimmed and may overlap.
   */
  text: string;
}

/** One indexed file: where it is and what it contained when indexed. */
export interface FileRecord {
  /** Path inside the corpus root, with `/` separators. */
  file_path: string;
  /** sha256 of the file's bytes, hex. */
  sha256: string;
  /** Size in bytes. */
  bytes: number;
  /** Length of the decoded text in code points. */
  length: number;
  language: Language;
  /**
   * The file's stat signature when it was read (inode, size, modification and change times;
   * see `statSignature`), recorded only when the file had last changed well
   * before it was read: a later write then always changes the signature, so a re-index takes
   * a file whose signature is unchanged as it was, without reading it. Absent otherwise.
   */
  stat?: string;
}

/** A scored retrieval result: which chunk, and how well it matched. */
export interface Hit {
  /** The chunk that matched (for a joined hit, the one whose score this is). */
  chunkId: number;
  score: number;
  /**
   * Set when the hit joins neighbouring code chunks of one file into one span (see
   * `SelectionLimits.joinSpan`): the ids of its first and last chunk, consecutive chunks
   * that meet, `chunkId` among them. Absent: the hit is `chunkId` alone. `chunkOfHit`
   * reads either kind as one chunk.
   */
  joined?: ChunkRange;
}

/** Chunks `first` to `last` (ids, inclusive). */
export interface ChunkRange {
  first: number;
  last: number;
}

/**
 * Why a hit scored what it did: a tree whose leaves are the terms' contributions
 * (tantivy-style). `value` of a node is computed from its `details`.
 */
export interface Explanation {
  value: number;
  description: string;
  details?: Explanation[];
}

/** Progress of a long operation, reported as it goes. */
export interface ProgressEvent {
  /** Short name of the phase, e.g. `chunk`, `fit`, `save`. */
  phase: string;
  done: number;
  total: number;
}

export type ProgressFn = (event: ProgressEvent) => void;
