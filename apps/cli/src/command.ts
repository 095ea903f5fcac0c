import { RagError } from '@rag/core';
import type { FlagSpec, ParsedFlags } from './args.js';

export interface Command {
  name: string;
  summary: string;
  flags: FlagSpec[];
  examples: string[];
  run(flags: ParsedFlags): Promise<void>;
}

export const INDEX_DIR_FLAG: FlagSpec = {
  name: 'index_dir',
  type: 'string',
  metavar: 'DIR',
  description: 'Where the index lives',
  defaultLabel: '$RAG_INDEX_DIR or ./.rag/index',
};

export const STORE_FLAG: FlagSpec = {
  name: 'store',
  type: 'string',
  metavar: 'URL',
  description: 'Keep the index in PostgreSQL instead of a folder (postgresql://user:password@host:port/db[?schema=name])',
  defaultLabel: 'the folder of --index_dir',
};

export const QUIET_FLAG: FlagSpec = { name: 'quiet', type: 'boolean', description: 'No progress bars or warnings on stderr' };
export const VERBOSE_FLAG: FlagSpec = { name: 'verbose', type: 'boolean', description: 'On error, print the underlying cause' };
export const JSON_FLAG: FlagSpec = { name: 'json', type: 'boolean', description: 'Write machine-readable JSON to stdout' };

export function writeOut(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

export function writeErr(text: string, quiet = false): void {
  if (!quiet) process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** The trimmed `--query`, refusing an empty one. */
export function readQuery(flags: ParsedFlags): string {
  const query = String(flags.query ?? '').trim();
  if (query.length === 0) {
    throw new RagError('INVALID_ARGUMENT', '--query is empty.', { hint: 'Pass a question, e.g. --query "How is the cache sized?"' });
  }
  return query;
}

/** Longest query echoed back in a message; a pasted log or file stays out of the terminal. */
const SHOWN_QUERY_CHARS = 80;

/** `query` as a message quotes it: on one line, cut to {@link SHOWN_QUERY_CHARS} characters. */
export function showQuery(query: string): string {
  const line = query.replace(/\s+/g, ' ');
  const points = [...line];
  return points.length <= SHOWN_QUERY_CHARS ? line : `${points.slice(0, SHOWN_QUERY_CHARS - 1).join('')}…`;
}

/** Refuses to write a command's output over its own input file. */
export function assertNotInput(outPath: string, inPath: string, flag: string): void {
  if (outPath === inPath) {
    throw new RagError('INVALID_ARGUMENT', `--${flag} would write the output over the input file ${inPath}.`, {
      hint: `Pick another --${flag}; the output keeps the input's file name.`,
    });
  }
}
