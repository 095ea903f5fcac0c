import { StalenessTracker, createOutputPathMapper, type Source } from '@rag/core';
import type { SourceForAnswer } from '@rag/generation';
import { CorpusReader } from './corpus-reader.js';
import { openStore } from './stores.js';

/**
 * Reads the cited spans of a search-results file for answering, under the same path rules
 * as every other reader: only files of the index in `indexDir` are read, whether named by
 * their output path (relative to `pathBase`, as `rag search_dataset` writes them) or by
 * their path inside the corpus. Any other path, `/etc/passwd` included, is refused.
 */
export async function createIndexedSpanReader(indexDir: string, pathBase: string): Promise<(source: Source) => Promise<SourceForAnswer>> {
  const store = openStore(indexDir);
  const manifest = await store.open().then((opened) => opened.manifest).finally(() => store.close());
  const tracker = new StalenessTracker(manifest.corpusDir, manifest.files, Number.POSITIVE_INFINITY);
  const reader = new CorpusReader(manifest, createOutputPathMapper(manifest.corpusDir, pathBase), tracker);
  return async (source) => {
    const span = await reader.read({ file_path: source.file_path, start: source.first_character_index, end: source.last_character_index });
    return {
      file_path: source.file_path,
      first_character_index: source.first_character_index,
      last_character_index: source.last_character_index,
      start_line: span.start_line,
      end_line: span.end_line,
      symbol: '',
      text: span.text,
    };
  };
}
