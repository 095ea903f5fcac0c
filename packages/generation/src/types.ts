import type { Source } from '@rag/core';

/**
 * A retrieved span handed to a generator: where it is (as the user sees the path), what
 * it says, and enough context to label it in a prompt.
 */
export interface SourceForAnswer extends Source {
  /** 1-based line of the first character; 0 when unknown (the label then shows offsets). */
  start_line: number;
  /** 1-based line of the last character (inclusive); 0 when unknown. */
  end_line: number;
  /** Qualified symbol or heading path (`LLM.generate`, `Install > GPU`); `''` if none. */
  symbol: string;
  /** The span's text: exactly the file's text between the two offsets. */
  text: string;
  /** sha256 (hex) of `text`; computed when absent. Keys the answer cache. */
  sha256?: string;
}

/** A character range of a file, in code points (end exclusive). */
export interface Span {
  first_character_index: number;
  last_character_index: number;
}

/** A source the answer cites, with the number the answer used for it. */
export interface CitedSource extends Source {
  /** The citation number, `[n]` in the answer; n-th source of the request (1-based). */
  n: number;
  start_line: number;
  end_line: number;
  /**
   * What the source is: its symbol or heading path, or (extractive generator) the definitions
   * its quotes belong to, a source that joins neighbouring chunks holding several.
   */
  symbol: string;
  /**
   * The exact sentences or lines quoted from this source, when the generator knows them
   * (the extractive generator does; an LLM does not).
   */
  quotes?: Span[];
}

export interface GenerateRequest {
  question: string;
  /** Retrieved sources, best first. Citation `[n]` refers to `sources[n - 1]`. */
  sources: readonly SourceForAnswer[];
  /**
   * Words of the question that no chunk of the indexed corpus holds (`Retriever.unindexedWords`),
   * when the caller knows them: the extractive generator answers "not found" when the
   * question's telling words are mostly among them; the LLM generator's prompt names them
   * (see `buildPrompt`). Absent: unknown (nothing is assumed).
   */
  unindexedWords?: readonly string[];
  /**
   * Words of the question that the corpus holds in very few chunks (`Retriever.rareWords`: one,
   * for bm25), when the caller knows them: the extractive generator also answers "not found"
   * when the question's telling words are mostly these or unindexed ones and no source holds
   * enough of its words. Absent: unknown.
   */
  rareWords?: readonly string[];
}

export interface AnswerResult {
  /** The answer text, `<think>` blocks removed and unknown citation numbers dropped. */
  answer: string;
  /** Sources the answer cites, in order of first citation. */
  citedSources: CitedSource[];
  /** Citation numbers the answer used that match no source shown to the generator. */
  droppedCitations: number[];
  /** Registry name of the generator that answered (`extractive`, `qwen3`, a model id). */
  generator: string;
  /** Model that answered (hub id or folder), when a model did. */
  modelId?: string;
  /** How many of the request's sources the generator saw (the token budget may stop early). */
  sourcesUsed: number;
  /** True when the last source shown was cut at a token boundary to fit the budget. */
  truncatedSource: boolean;
  /** Prompt length in model tokens (0 for the extractive generator). */
  promptTokens: number;
  /** Tokens generated (for the extractive generator: words in the answer). */
  generatedTokens: number;
  /** `length` when generation stopped at maxNewTokens, else `stop`. */
  finishReason: 'stop' | 'length';
  /** Wall time of this answer in milliseconds (of the original run for a cache hit). */
  elapsedMs: number;
  /** True when the answer came from the answer cache. */
  cached: boolean;
}

/** Streamed while answering: text as it is produced, then the final result once. */
export type GenerationEvent = { type: 'token'; text: string } | { type: 'done'; result: AnswerResult };

export interface GenerateOptions {
  /** Aborting stops generation after the current token; the stream then throws `CANCELLED`. */
  signal?: AbortSignal;
}

/** Everything about a generator that changes its answers; part of the answer cache key. */
export interface GeneratorIdentity {
  name: string;
  modelId?: string;
  /** Decoding and budget settings, dtype, algorithm options. */
  settings: Record<string, unknown>;
  /** Hash of the prompt template (or of the extractive algorithm's version and options). */
  templateHash: string;
}

/** What every answer generator implements; callers pick one by name from the registry. */
export interface Generator {
  /** Registry name, e.g. `extractive`, `qwen3`. */
  readonly name: string;
  /** Model id or folder, for generators backed by a model. */
  readonly modelId?: string;
  readonly identity: GeneratorIdentity;
  /**
   * Answers `request`, yielding `token` events as text is produced and one `done` event
   * last. The streamed text has `<think>` blocks removed; the final `answer` may differ
   * slightly (unknown citations dropped, whitespace trimmed).
   */
  generate(request: GenerateRequest, options?: GenerateOptions): AsyncIterable<GenerationEvent>;
  /** Frees the model (a no-op for generators without one). */
  dispose(): Promise<void>;
}
