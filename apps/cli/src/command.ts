import { RagError } from '@rag/core';
import type { FlagSpec, ParsedFlags } from './args.js';

export interface Command {
  name: string;
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

export const GLOB_FLAG: FlagSpec = {
  name: 'glob',
  type: 'string',
  metavar: 'GLOBS',
  description: 'Only files matching these comma-separated globs (.gitignore syntax, relative to the indexed folder: "docs/", "*.py"; "!tests/" leaves out)',
  defaultLabel: 'every file',
};

/** The globs of `--glob` (comma-separated; blanks dropped), or undefined when the flag is absent. */
export function readGlobs(flags: ParsedFlags): string[] | undefined {
  if (flags.glob === undefined) return undefined;
  return (flags.glob as string).split(',').map((glob) => glob.trim()).filter((glob) => glob !== '');
}

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

/** C0 controls but tab, newline and carriage return; DEL; C1 controls. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
/** The same, newline and carriage return included: text that must stay on one line. */
const CONTROL_ONE_LINE = /[\u0000-\u0008\n-\u001f\u007f-\u009f]/g;
/** A carriage return that does not end a line (CRLF files end every line with one). */
const BARE_RETURN = /\r(?!\n|$)/g;
const NAMED_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\u001b': '\\e' };
const escape = (c: string): string => NAMED_ESCAPES[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;

/**
 * `text` for a terminal, its control characters written as escapes (`\n`, `\r`, `\e`,
 * `\x07`): a file's name or content may hold a newline, which would forge a line of the
 * listing, or an escape sequence, which would drive the terminal. Tabs stay. With
 * `keepNewlines` (text shown as lines) newlines stay, and so does a carriage return that
 * ends a line; otherwise both are escaped (a name on one line).
 */
export function showText(text: string, keepNewlines = false): string {
  if (!keepNewlines) return text.replace(CONTROL_ONE_LINE, escape);
  return text.replace(CONTROL, escape).replace(BARE_RETURN, escape);
}

/** Refuses to write a command's output over its own input file. */
export function assertNotInput(outPath: string, inPath: string, flag: string): void {
  if (outPath === inPath) {
    throw new RagError('INVALID_ARGUMENT', `--${flag} would write the output over the input file ${inPath}.`, {
      hint: `Pick another --${flag}; the output keeps the input's file name.`,
    });
  }
}
