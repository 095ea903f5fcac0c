import { exitCodeOf, formatRagError, isRagError } from '@rag/core';
import { formatHelp, parseFlags } from './args.js';
import { COMMANDS, type CommandEntry } from './catalogue.js';
import { nearestName } from './suggest.js';
import { VERSION } from './version.js';

function findCommand(name: string): CommandEntry | undefined {
  const normalized = name.replaceAll('-', '_');
  return COMMANDS.find((c) => c.name === normalized);
}

function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
  return [
    `rag ${VERSION} — answer questions about a codebase with exactly-cited sources`,
    '',
    'Usage: rag <command> [--flags]',
    '',
    'Start here:',
    '  rag index .                          index this folder into ./.rag/index (again after edits: only changes are redone)',
    '  rag search "where is X configured"   the spans that best match, with file:lines',
    '  rag answer "what is the default Y"   an answer written from those spans, with citations',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'Run `rag <command> --help` for its flags. Data goes to stdout, logs and progress to stderr.',
  ].join('\n');
}

/** Exit codes: 0 ok, 1 the work failed, 2 the command line was wrong. */
async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === 'help' && rest[0] !== undefined) return main([rest[0], '--help']);
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${mainHelp()}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const entry = findCommand(name);
  if (!entry) {
    const near = nearestName(name.replaceAll('-', '_'), COMMANDS.map((c) => c.name));
    process.stderr.write(`error: unknown command "${name}"${near ? ` (did you mean ${near}?)` : ''}.\n  hint: Valid commands: ${COMMANDS.map((c) => c.name).join(', ')}.\n`);
    return 2;
  }
  const command = await entry.load();
  // Words after `--` are a question's, not flags: `rag search -- "--help"` searches for it.
  const end = rest.indexOf('--');
  const flagPart = end === -1 ? rest : rest.slice(0, end);
  if (flagPart.includes('--help') || flagPart.includes('-h')) {
    process.stdout.write(`${formatHelp(command.name, entry.summary, command.flags, command.examples)}\n`);
    return 0;
  }
  const verbose = flagPart.includes('--verbose') || process.env.RAG_DEBUG === '1';
  try {
    const flags = parseFlags(rest, command.flags, command.name);
    await command.run(flags);
    return 0;
  } catch (error) {
    if (isRagError(error)) {
      process.stderr.write(`error: ${formatRagError(error)}\n`);
      if (verbose && error.cause) process.stderr.write(`  cause: ${String((error.cause as Error).stack ?? error.cause)}\n`);
      return exitCodeOf(error);
    }
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`error: unexpected failure in \`rag ${command.name}\`: ${message}\n`);
    if (verbose && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    else process.stderr.write('  hint: rerun with --verbose for details, and please report it.\n');
    return 1;
  }
}

// A closed pipe (`rag search … | head`) is not an error worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

/**
 * Ends the process once what it wrote is out. A command has finished its work when `run`
 * returns (a server's waits for its shutdown), so nothing left on the event loop is needed,
 * and waiting for the loop to empty and the heap to be torn down costs a one-shot search
 * several percent of its time (a file handle's close in the thread pool, the heap's teardown).
 */
function exitWhenWritten(code: number): void {
  process.exitCode = code;
  const pending = [process.stdout, process.stderr].filter((stream) => stream.writableLength > 0);
  if (pending.length === 0) process.exit(code);
  // An empty write's callback runs once everything written before it is out.
  void Promise.all(pending.map((stream) => new Promise((done) => stream.write('', done)))).then(() => process.exit(code));
}

main(process.argv.slice(2)).then(exitWhenWritten, (error: unknown) => {
  process.stderr.write(`error: ${String(error)}\n`);
  exitWhenWritten(1);
});
