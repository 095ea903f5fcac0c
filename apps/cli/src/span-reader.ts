import { readFile } from 'node:fs/promises';
import { OffsetMap, RagError, type Source } from '@rag/core';
import type { SourceForAnswer } from '@rag/generation';
import { resolveUserPath } from './paths.js';

interface LoadedFile {
  text: string;
  map: OffsetMap;
  /** UTF-16 index of the start of each line. */
  lineStarts: number[];
}

function lineOf(lineStarts: readonly number[], index: number): number {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (lineStarts[mid]! <= index) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/**
 * Reads cited spans of a search-results file from disk: `file_path` is relative to the
 * directory the command runs from (as `rag search_dataset` writes it), offsets are code points.
 */
export function createSpanReader(): (source: Source) => Promise<SourceForAnswer> {
  const files = new Map<string, Promise<LoadedFile>>();
  const load = (path: string): Promise<LoadedFile> => {
    let file = files.get(path);
    if (!file) {
      file = readFile(resolveUserPath(path), 'utf8').then(
        (text) => {
          const lineStarts = [0];
          for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
          return { text, map: new OffsetMap(text), lineStarts };
        },
        (error: unknown) => {
          throw new RagError('INVALID_ARGUMENT', `Cannot read cited file ${path}: ${(error as Error).message}`, {
            hint: 'Run the command from the directory the search results were produced in (file_path is relative to it).',
            cause: error,
          });
        },
      );
      files.set(path, file);
    }
    return file;
  };
  return async (source) => {
    const file = await load(source.file_path);
    if (source.last_character_index > file.map.codePointLength) {
      throw new RagError('INVALID_ARGUMENT', `Span ${source.first_character_index}-${source.last_character_index} lies past the end of ${source.file_path} (${file.map.codePointLength} characters).`, {
        hint: 'The file changed since it was searched; search again.',
      });
    }
    const start = file.map.toUtf16(source.first_character_index);
    const end = file.map.toUtf16(source.last_character_index);
    return {
      ...source,
      start_line: lineOf(file.lineStarts, start),
      end_line: lineOf(file.lineStarts, Math.max(start, end - 1)),
      symbol: '',
      text: file.text.slice(start, end),
    };
  };
}
