import type { Chunk } from '@rag/core';
import { FIELD_NAMES } from './options.js';

/**
 * The path field's text: the directories and the file name without its extension joined
 * with dots, then the file name as written. The tokenizer turns it into each directory
 * and name part, the dotted module name (`vllm/entrypoints/llm.py` → `vllm.entrypoints.llm`,
 * how Python code and questions name a module) and the file name itself (`llm.py`, how
 * people name a file), so either spelling in a query reaches the file.
 */
export function pathFieldText(filePath: string): string {
  const parts = filePath.split('/').filter((part) => part.length > 0);
  const name = parts.pop();
  if (name === undefined) return '';
  const dot = name.lastIndexOf('.');
  parts.push(dot > 0 ? name.slice(0, dot) : name);
  return dot > 0 ? `${parts.join('.')} ${name}` : parts.join('.');
}

/**
 * Text of each indexed field of a chunk, in `FIELD_NAMES` order (body, path, symbol,
 * anchor). The symbol field also carries `context` (see `tableHeaderContexts`) on a line
 * of its own; `anchor` is the chunk's anchor text and class summary (see `anchorFieldTexts`).
 */
export function fieldTexts(chunk: Chunk, context = '', anchor = ''): [string, string, string, string] {
  return [chunk.text, pathFieldText(chunk.file_path), context === '' ? chunk.symbol : `${chunk.symbol}\n${context}`, anchor];
}

/** Fields whose text is a function of the chunk and the rest of its file only: all but the anchor field. */
export const FILE_LOCAL_FIELDS: readonly boolean[] = FIELD_NAMES.map((name) => name !== 'anchor');
