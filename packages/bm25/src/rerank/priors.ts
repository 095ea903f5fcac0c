import { fileRunsOf, PROSE_FLAG, PROSE_LANGUAGES, type Chunk } from '@rag/core';
import type { Bm25IndexData } from '../build.js';
import { arrayPostings, type PostingSource } from '../postings.js';
import { FIELD_NAMES } from '../options.js';

/** Chunk flag: the chunk is prose (Markdown, RST, text); the bit `selectHits` of `@rag/core` reads. */
export const PROSE = PROSE_FLAG;
/** Chunk flag: the chunk lies in a test, example or benchmark file. */
export const AUXILIARY = 2;
/** Chunk flag: the chunk lies in a page of release notes, a changelog or news (see {@link isHistoryPath}). */
export const HISTORY = 4;

/**
 * Folder names that hold code which exercises or demonstrates a project rather than
 * implementing it: the conventions of Python projects (and most others), not names from
 * any one corpus.
 */
export const AUXILIARY_DIRS: ReadonlySet<string> = new Set(['test', 'tests', 'testing', 'example', 'examples', 'benchmark', 'benchmarks']);

/** Words in a query that ask for tests, examples or benchmarks (and so lift their penalty). */
export const AUXILIARY_QUERY_WORDS = 'test tests testing tested example examples benchmark benchmarks benchmarking';

/**
 * Words by which a question asks for documentation ("where is `x` documented?"): such a
 * question keeps the explanation signal even when its kind asks for a place (see
 * `RerankOptions.placeKinds`). Plain English words for written documentation, not any
 * project's vocabulary.
 */
export const DOCUMENTATION_QUERY_WORDS = 'doc docs documented documentation documenting explained explanation described description guide tutorial manual readme';

/**
 * Names of the pages, and of the folders of pages, that record a project's history rather
 * than its current behaviour: Keep a Changelog's `CHANGELOG`, setuptools' and towncrier's
 * `CHANGES`, `HISTORY` and `NEWS`, Sphinx projects' `docs/releases/` and `docs/whatsnew/`.
 * Each entry names the feature it changed in the words a question about that feature uses,
 * so without a discount release notes compete with the page or code that states it.
 * Conventions of Python projects (and most others), not names from any one corpus.
 */
export const HISTORY_NAMES: ReadonlySet<string> = new Set(['changelog', 'changes', 'history', 'news', 'release-notes', 'release_notes', 'releases', 'whatsnew']);

/**
 * Words in a query that ask about releases or history (and so lift the history discount).
 * "version", "changed" and "new" are not among them: they are as common in questions about
 * what the current release does ("the minimum version of bitsandbytes"), measured so on the
 * public docs set.
 */
export const HISTORY_QUERY_WORDS = 'release releases released changelog changelogs history';

const TEST_FILE = /(^|\/)(test_[^/]*|[^/]*_test|conftest)\.pyi?$/;
/** A folder of {@link AUXILIARY_DIRS} anywhere in a path: one regular expression, not a split per path (a one-shot search asks it of every file). */
const AUXILIARY_DIR = new RegExp(`(^|/)(${[...AUXILIARY_DIRS].join('|')})/`, 'i');

/** True for a file in a test, example or benchmark folder, or a test module by pytest's naming rules. */
export function isAuxiliaryPath(filePath: string): boolean {
  return TEST_FILE.test(filePath) || AUXILIARY_DIR.test(filePath);
}

/** A folder named in {@link HISTORY_NAMES}, or a page so named (no extension, or a prose one). */
const HISTORY_PATH = new RegExp(`(^|/)(${[...HISTORY_NAMES].join('|')})(/|\\.(rst|md|markdown|txt)$|$)`, 'i');

/**
 * True for a page of release notes, a changelog or news by its name or its folder's
 * ({@link HISTORY_NAMES}). Only prose is history: `chunkFlags` asks it of prose files, so a
 * module named `news.py` or a `releases/` package of code is not.
 */
export function isHistoryPath(filePath: string): boolean {
  return HISTORY_PATH.test(filePath);
}

/** `PROSE` / `AUXILIARY` / `HISTORY` flags per chunk: facts of its file, so computed once per file. */
export function chunkFlags(chunks: readonly Chunk[]): Uint8Array {
  const flags = new Uint8Array(chunks.length);
  const { starts, files } = fileRunsOf(chunks);
  for (let r = 0; r < files.length; r++) {
    const file = files[r]!;
    const prose = PROSE_LANGUAGES.has(file.language);
    const flag = (prose ? PROSE : 0) | (isAuxiliaryPath(file.file_path) ? AUXILIARY : 0) | (prose && isHistoryPath(file.file_path) ? HISTORY : 0);
    if (flag !== 0) flags.fill(flag, starts[r]!, starts[r + 1]!);
  }
  return flags;
}

/**
 * Per term, ln(P(term | prose) / P(term | code)): the two collections' smoothed term
 * frequencies in chunk bodies, each over its collection's total length. Learned from the
 * corpus, so "supported", "install" and "recommend" lean to the docs of this corpus, and
 * `self`, `tensor` and `dtype` to its code. A term's ratio is computed the first time a
 * query asks for it (a one-shot search reads a dozen terms, not the whole vocabulary's
 * postings) and kept, rounded to float32 as a stored table would be.
 */
export class TermModalities {
  readonly #data: Bm25IndexData;
  readonly #postings: PostingSource;
  readonly #flags: Uint8Array;
  readonly #logLengthRatio: number;
  readonly #ratios: Float32Array;
  readonly #known: Uint8Array;

  /** `undefined` when the corpus has no prose or no code (there is nothing to choose between). */
  static learn(data: Bm25IndexData, flags: Uint8Array, postings: PostingSource = arrayPostings(data)): TermModalities | undefined {
    const body = data.fields[FIELD_NAMES.indexOf('body')]!;
    let proseLength = 0;
    let codeLength = 0;
    for (let d = 0; d < data.docCount; d++) {
      if (flags[d]! & PROSE) proseLength += body.lengths[d]!;
      else codeLength += body.lengths[d]!;
    }
    if (proseLength === 0 || codeLength === 0) return undefined;
    return new TermModalities(data, flags, postings, Math.log(codeLength / proseLength));
  }

  private constructor(data: Bm25IndexData, flags: Uint8Array, postings: PostingSource, logLengthRatio: number) {
    this.#data = data;
    this.#postings = postings;
    this.#flags = flags;
    this.#logLengthRatio = logLengthRatio;
    this.#ratios = new Float32Array(data.dictionary.size);
    this.#known = new Uint8Array(data.dictionary.size);
  }

  /** Term `id`'s log ratio of prose to code frequency; 0 for a term seen only in paths or symbols. */
  ratio(id: number): number {
    if (this.#known[id] === 0) {
      const body = FIELD_NAMES.indexOf('body');
      const { offsets } = this.#data.fields[body]!;
      let prose = 0;
      let code = 0;
      if (offsets[id + 1] !== offsets[id]) {
        const { docs, tfs } = this.#postings.postings(body, id);
        for (let p = 0; p < docs.length; p++) {
          if (this.#flags[docs[p]!]! & PROSE) prose += tfs[p]!;
          else code += tfs[p]!;
        }
      }
      // Half a count of smoothing: a term seen only in code is not infinitely unlikely in prose.
      this.#ratios[id] = prose + code === 0 ? 0 : Math.log((prose + 0.5) / (code + 0.5)) + this.#logLengthRatio;
      this.#known[id] = 1;
    }
    return this.#ratios[id]!;
  }
}

/** Every term's ratio at once (see {@link TermModalities}); `undefined` as `TermModalities.learn`. */
export function termModalities(data: Bm25IndexData, flags: Uint8Array): Float32Array | undefined {
  const modalities = TermModalities.learn(data, flags);
  if (!modalities) return undefined;
  const ratios = new Float32Array(data.dictionary.size);
  for (let t = 0; t < ratios.length; t++) ratios[t] = modalities.ratio(t);
  return ratios;
}
