import { findStaleFiles, searchSources, toMinimalSource } from '@rag/service';
import { INDEX_DIR_FLAG, JSON_FLAG, QUIET_FLAG, readQuery, VERBOSE_FLAG, writeErr, writeOut, type Command } from '../command.js';
import { openSessionFromFlags } from '../session.js';
import { describeStale } from '../stale.js';
import { EMBEDDING_MODEL_FLAG } from '../retrievers.js';

export const DEFAULT_K = 10;
export const MAX_K = 1000;

export const K_FLAG = { name: 'k', type: 'integer', metavar: 'N', min: 1, max: MAX_K, description: 'Number of sources to return', defaultLabel: String(DEFAULT_K) } as const;
export const RETRIEVER_FLAG = { name: 'retriever', type: 'string', metavar: 'NAME', description: 'Retriever to use', defaultLabel: 'the one the index was built with' } as const;

export const searchCommand: Command = {
  name: 'search',
  summary: 'Find the spans of the indexed corpus that best match a question.',
  flags: [
    { name: 'query', type: 'string', metavar: 'TEXT', required: true, description: 'The question or keywords' },
    K_FLAG,
    INDEX_DIR_FLAG,
    RETRIEVER_FLAG,
    EMBEDDING_MODEL_FLAG,
    JSON_FLAG,
    QUIET_FLAG,
    VERBOSE_FLAG,
  ],
  examples: ['rag search --query "How do I set the maximum batch size?" --k 5', 'rag search --query "parse_config" --json'],
  async run(flags) {
    const query = readQuery(flags);
    const k = (flags.k as number | undefined) ?? DEFAULT_K;
    const { session } = await openSessionFromFlags(flags);
    const sources = await searchSources(session, query, k);
    const stale = new Set(await findStaleFiles(session, sources.map((s) => s.fileInCorpus)));
    const warning = describeStale([...stale]);
    if (warning) writeErr(warning, flags.quiet === true);
    if (flags.json) {
      writeOut(JSON.stringify({ question: query, retrieved_sources: sources.map(toMinimalSource) }, null, 2));
      return;
    }
    if (sources.length === 0) {
      writeOut(`No matches for "${query}" (retriever ${session.retriever.name}).`);
      return;
    }
    const lines = sources.map((s) => {
      const where = `${s.file_path}:${s.start_line}-${s.end_line}`;
      const what = s.symbol ? `  ${s.kind} ${s.symbol}` : `  ${s.kind}`;
      const changed = stale.has(s.file_path) ? '  (changed since indexing)' : '';
      return `${String(s.rank).padStart(2)}. ${where}${what}  [chars ${s.first_character_index}-${s.last_character_index}]  score ${s.score.toFixed(3)}${changed}`;
    });
    writeOut(lines.join('\n'));
  },
};
