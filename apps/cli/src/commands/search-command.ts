import { describeNoMatches, findStaleFiles, searchSources, type RankedSource } from '@rag/service/search';
import { markTerms, matchLines } from '@rag/text';
import { GLOB_FLAG, INDEX_DIR_FLAG, STORE_FLAG, JSON_FLAG, QUIET_FLAG, readGlobs, readQuery, showQuery, showText, VERBOSE_FLAG, writeErr, writeOut, type Command } from '../command.js';
import { openSessionFromFlags } from '../session.js';
import { describeStale } from '../stale.js';
import { EMBEDDING_MODEL_FLAG } from '../retrievers.js';

export const DEFAULT_K = 10;
export const MAX_K = 1000;

export const K_FLAG = { name: 'k', type: 'integer', metavar: 'N', min: 1, max: MAX_K, description: 'Number of sources to return', defaultLabel: String(DEFAULT_K) } as const;
export const RETRIEVER_FLAG = { name: 'retriever', type: 'string', metavar: 'NAME', description: 'Retriever to use', defaultLabel: 'the one the index was built with' } as const;

/** A hit in `--json` output: the benchmark's three fields first, then where and what it is. */
function jsonHit(s: RankedSource, text: string | undefined): Record<string, unknown> {
  const hit: Record<string, unknown> = {
    file_path: s.file_path,
    first_character_index: s.first_character_index,
    last_character_index: s.last_character_index,
    start_line: s.start_line,
    end_line: s.end_line,
    symbol: s.symbol,
    kind: s.kind,
    ...(s.alsoSymbols.length > 0 ? { also_symbols: s.alsoSymbols } : {}),
    rank: s.rank,
    score: s.score,
  };
  if (text !== undefined) hit.text = text;
  return hit;
}

/** Colour on a terminal unless NO_COLOR is set (https://no-color.org). */
function useColour(): boolean {
  return process.stdout.isTTY === true && !process.env.NO_COLOR;
}

export const searchCommand: Command = {
  name: 'search',
  flags: [
    { name: 'query', type: 'string', metavar: 'TEXT', required: true, positional: 'words', description: 'The question or keywords' },
    K_FLAG,
    INDEX_DIR_FLAG,
    STORE_FLAG,
    RETRIEVER_FLAG,
    EMBEDDING_MODEL_FLAG,
    GLOB_FLAG,
    JSON_FLAG,
    { name: 'text', type: 'boolean', description: "With --json, also give each hit's text" },
    QUIET_FLAG,
    VERBOSE_FLAG,
  ],
  examples: [
    'rag search "How do I set the maximum batch size?"',
    'rag search --query "How do I set the maximum batch size?" --k 5',
    'rag search --query "parse_config" --json',
    'rag search --query "parse_config" --json --text',
    'rag search --query "How are retries configured?" --glob "docs/,!docs/changes.rst"',
  ],
  async run(flags) {
    const query = readQuery(flags);
    const k = (flags.k as number | undefined) ?? DEFAULT_K;
    const globs = readGlobs(flags);
    const { session } = await openSessionFromFlags(flags, { oneQuestion: true });
    const sources = await searchSources(session, query, k, globs);
    const stale = new Set(await findStaleFiles(session, sources.map((s) => s.fileInCorpus)));
    const warning = describeStale([...stale]);
    if (warning) writeErr(warning, flags.quiet === true);
    if (flags.json) {
      const withText = flags.text === true;
      writeOut(JSON.stringify({ question: query, retrieved_sources: sources.map((s) => jsonHit(s, withText ? s.chunk.text : undefined)), ...(globs && globs.length > 0 ? { globs } : {}) }, null, 2));
      return;
    }
    if (sources.length === 0) {
      writeOut(`No matches for "${showQuery(query)}" (retriever ${session.retriever.name}${globs && globs.length > 0 ? `, files matching ${globs.map((glob) => `"${showText(glob)}"`).join(', ')}` : ''}).`);
      // Why, on stderr: the one line above stays what a script reads.
      const why = await describeNoMatches(session, query, globs);
      if (why) writeErr(`  ${showText(why)}`, flags.quiet === true);
      return;
    }
    const mark = useColour() ? (word: string) => `\u001b[1;33m${word}\u001b[0m` : undefined;
    const blocks = sources.map((s) => {
      const where = `${showText(s.file_path)}:${s.start_line}-${s.end_line}`;
      // A span joined from neighbouring chunks names the other definitions it holds too.
      const also = s.alsoSymbols.length > 0 ? ` (+ ${s.alsoSymbols.map((symbol) => showText(symbol)).join(', ')})` : '';
      const what = s.symbol ? `  ${s.kind} ${showText(s.symbol)}${also}` : `  ${s.kind}${also}`;
      const changed = stale.has(s.file_path) ? '  (changed since indexing)' : '';
      const header = `${String(s.rank).padStart(2)}. ${where}${what}  [chars ${s.first_character_index}-${s.last_character_index}]  score ${s.score.toFixed(3)}${changed}`;
      // The lines around the best match, numbered as in the file, as ripgrep shows them.
      const shown = matchLines(s.chunk.text, query).map(({ line, text, matches }) => {
        const number = String(s.start_line + line).padStart(6);
        const shownText = mark ? markTerms(showText(text), query, mark) : showText(text);
        return `${number}${matches ? ':' : '-'}${shownText ? ` ${shownText}` : ''}`;
      });
      return [header, ...shown].join('\n');
    });
    writeOut(blocks.join('\n'));
  },
};
