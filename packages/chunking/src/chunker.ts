import { RagError } from '@rag/core';
import type { Chunk, Language } from '@rag/core';
import { TextLayout } from './layout.js';
import { chunkConfig, configFormatOf } from './config.js';
import { chunkMarkdown } from './markdown.js';
import { resolveChunkerOptions, type ChunkerOptions, type ResolvedChunkerOptions } from './options.js';
import { chunkPython } from './python.js';
import { toChunks, type Piece } from './regions.js';
import { chunkRst } from './rst.js';
import { windowText } from './text.js';

/** Cuts one file's text into chunks of one language. */
export interface Chunker {
  readonly language: Language;
  /** The options in effect, defaults filled in. */
  readonly options: Readonly<ResolvedChunkerOptions>;
  /**
   * Chunks of `text` in file order with ids 0..n-1 (chunkCorpus renumbers them).
   * `filePath` is copied into each chunk as is.
   */
  chunk(text: string, filePath: string): Chunk[];
}

const LANGUAGES: readonly Language[] = ['python', 'markdown', 'rst', 'text'];

function piecesFor(language: Language, layout: TextLayout, options: ResolvedChunkerOptions, filePath: string): Piece[] {
  switch (language) {
    case 'python':
      return chunkPython(layout, options);
    case 'markdown':
      return chunkMarkdown(layout, options);
    case 'rst':
      return chunkRst(layout, options);
    case 'text': {
      // Configuration is text too, cut at its top-level entries when it has any.
      const format = configFormatOf(filePath);
      return (format && chunkConfig(layout, options, format)) || windowText(layout, options, options.textOverlap);
    }
  }
}

/** A chunker for `language`; throws `RagError` `UNKNOWN_NAME` for an unknown language, `INVALID_ARGUMENT` for bad options. */
export function createChunker(language: Language, options: ChunkerOptions = {}): Chunker {
  if (!LANGUAGES.includes(language)) {
    throw new RagError('UNKNOWN_NAME', `Unknown language "${String(language)}".`, {
      hint: `Use one of: ${LANGUAGES.join(', ')}.`,
    });
  }
  const resolved = Object.freeze(resolveChunkerOptions(options));
  return {
    language,
    options: resolved,
    chunk(text, filePath) {
      const layout = new TextLayout(text);
      return toChunks(layout, piecesFor(language, layout, resolved, filePath), filePath, language);
    },
  };
}

/** One-off convenience: `createChunker(language, options).chunk(text, filePath)`. */
export function chunkText(text: string, filePath: string, language: Language, options: ChunkerOptions = {}): Chunk[] {
  return createChunker(language, options).chunk(text, filePath);
}
