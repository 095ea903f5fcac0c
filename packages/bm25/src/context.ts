import { codePointLength, type Chunk } from '@rag/core';

const TABLE_ROW = /^[ \t]*\|/;
const DELIMITER_ROW = /^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(\||$)/;

interface TableHeader {
  /** Code-point offset of the header row in its file. */
  offset: number;
  text: string;
}

/** Header rows (the line above a `|---|` row) of the pipe tables that start in `chunk`, in order. */
function tableHeaders(chunk: Chunk): TableHeader[] {
  const headers: TableHeader[] = [];
  const lines = chunk.text.split('\n');
  let at = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (i + 1 < lines.length && TABLE_ROW.test(line) && DELIMITER_ROW.test(lines[i + 1]!)) {
      headers.push({ offset: chunk.first_character_index + codePointLength(chunk.text.slice(0, at)), text: line.trim() });
    }
    at += line.length + 1;
  }
  return headers;
}

/**
 * Per chunk, the text indexed with it as context (`''` for none). A long Markdown table is
 * split across chunks, and only the first piece holds the header row that names the
 * columns; a later piece is a list of names and check marks that no question about
 * "LoRA support" could reach. So a chunk that starts inside a table gets the header row of
 * the table it continues: the last header row before its start in its file and section
 * (same symbol). Chunks must come in file order, as `@rag/chunking` emits them (a nested
 * chunk after the section it lies in).
 */
export function tableHeaderContexts(chunks: readonly Chunk[]): string[] {
  const contexts: string[] = new Array<string>(chunks.length).fill('');
  let headers: TableHeader[] = [];
  let file = '';
  let symbol = '';
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i]!;
    if (chunk.file_path !== file || chunk.symbol !== symbol) {
      headers = [];
      file = chunk.file_path;
      symbol = chunk.symbol;
    }
    if (chunk.language !== 'markdown') continue;
    if (TABLE_ROW.test(chunk.text)) {
      let header: TableHeader | undefined;
      for (const candidate of headers) {
        if (candidate.offset < chunk.first_character_index && (!header || candidate.offset > header.offset)) header = candidate;
      }
      if (header) contexts[i] = header.text;
    }
    for (const found of tableHeaders(chunk)) {
      if (!headers.some((known) => known.offset === found.offset)) headers.push(found);
    }
  }
  return contexts;
}
