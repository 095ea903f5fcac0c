import { RagError } from '@rag/core';
import { nearestName } from './suggest.js';

export type FlagType = 'string' | 'integer' | 'boolean';

export interface FlagSpec {
  /** Canonical snake_case name, as the seed systems spell it (`corpus_dir`). */
  name: string;
  type: FlagType;
  description: string;
  required?: boolean;
  /** Shown in --help; the command applies it. */
  defaultLabel?: string;
  /** Smallest accepted value of an integer flag. */
  min?: number;
  /** Largest accepted value of an integer flag. */
  max?: number;
  /** Placeholder in --help, e.g. DIR. */
  metavar?: string;
  /**
   * The command's words that are not flags fill this string flag: `'words'` joins them by
   * spaces, so that `rag search "how is the cache sized"` (or the same words unquoted) means
   * `--query …`; `'one'` takes a single word (`rag index path/to/repo`) and refuses more.
   * Words after `--` are always taken as such, flag-like or not. At most one flag of a
   * command may say so.
   */
  positional?: 'words' | 'one';
}

export type ParsedFlags = Record<string, string | number | boolean | undefined>;

/** `--corpus-dir`, `--corpus_dir` and `--CORPUS_DIR` all name the same flag. */
function normalizeFlagName(raw: string): string {
  return raw.toLowerCase().replaceAll('-', '_');
}

function convert(spec: FlagSpec, raw: string): string | number {
  if (spec.type === 'string') {
    // An empty value is never meant: `--corpus_dir ''` would silently mean the current folder.
    if (raw.trim() === '') {
      throw new RagError('INVALID_ARGUMENT', `--${spec.name} is empty.`, { hint: `Pass a value: --${spec.name} ${spec.metavar ?? 'VALUE'}.` });
    }
    return raw;
  }
  const value = Number(raw);
  const range = `${spec.min ?? '…'} to ${spec.max ?? '…'}`;
  const hint = `Pass a whole number from ${range}: --${spec.name} ${spec.metavar ?? 'N'}.`;
  if (!/^[+-]?\d+$/.test(raw.trim()) || !Number.isSafeInteger(value)) {
    throw new RagError('INVALID_ARGUMENT', `--${spec.name} must be a whole number, got "${raw}".`, { hint });
  }
  if (spec.min !== undefined && value < spec.min) {
    throw new RagError('INVALID_ARGUMENT', `--${spec.name} must be at least ${spec.min}, got ${value}.`, { hint });
  }
  if (spec.max !== undefined && value > spec.max) {
    throw new RagError('INVALID_ARGUMENT', `--${spec.name} must be at most ${spec.max}, got ${value}.`, { hint });
  }
  return value;
}

/**
 * Whether `token` names one of the command's flags (`--k`, `--no-json`, `--k=5`): after a
 * flag that takes a value, such a token means the value was left out. Anything else that
 * starts with dashes is the value itself — a question about a command-line option
 * (`--query "--max-model-len default"`), which holds a space or names no flag of `rag`.
 */
function namesFlag(token: string, byName: ReadonlyMap<string, FlagSpec>): boolean {
  if (!token.startsWith('--') || token.length <= 2 || /\s/.test(token)) return false;
  const equals = token.indexOf('=');
  const name = normalizeFlagName(token.slice(2, equals === -1 ? undefined : equals));
  return byName.has(name) || (name.startsWith('no_') && byName.get(name.slice(3))?.type === 'boolean');
}

/**
 * Parses `--flag value`, `--flag=value` and boolean `--flag` / `--no-flag`. Unknown flags
 * and stray positional words are errors that list what the command accepts.
 */
export function parseFlags(argv: readonly string[], specs: readonly FlagSpec[], command: string): ParsedFlags {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const positional = specs.find((s) => s.positional);
  const flags: ParsedFlags = {};
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (positional && token === '--') {
      words.push(...argv.slice(i + 1));
      break;
    }
    if (!token.startsWith('--') || token === '--') {
      if (positional) {
        words.push(token);
        continue;
      }
      throw new RagError('INVALID_ARGUMENT', `Unexpected argument "${token}" for \`rag ${command}\`.`, {
        hint: `Flags take the form --name value. Run \`rag ${command} --help\` for the list.`,
      });
    }
    const equals = token.indexOf('=');
    const rawName = normalizeFlagName(token.slice(2, equals === -1 ? undefined : equals));
    let spec = byName.get(rawName);
    let negated = false;
    if (!spec && rawName.startsWith('no_') && byName.get(rawName.slice(3))?.type === 'boolean') {
      spec = byName.get(rawName.slice(3));
      negated = true;
    }
    if (!spec) {
      const near = nearestName(rawName, specs.map((s) => s.name));
      throw new RagError('INVALID_ARGUMENT', `Unknown flag --${rawName} for \`rag ${command}\`${near ? ` (did you mean --${near}?)` : ''}.`, {
        hint: `Valid flags: ${specs.map((s) => `--${s.name}`).join(', ')}.`,
      });
    }
    if (spec.type === 'boolean') {
      if (equals !== -1) {
        const value = token.slice(equals + 1).toLowerCase();
        if (!['true', 'false', '1', '0', 'yes', 'no'].includes(value)) {
          throw new RagError('INVALID_ARGUMENT', `--${spec.name} is a switch; got "${value}".`, {
            hint: `Use --${spec.name} or --no-${spec.name}.`,
          });
        }
        flags[spec.name] = ['true', '1', 'yes'].includes(value) !== negated;
      } else {
        flags[spec.name] = !negated;
      }
      continue;
    }
    let raw: string | undefined;
    if (equals !== -1) {
      raw = token.slice(equals + 1);
    } else {
      raw = argv[i + 1];
      if (raw === undefined || namesFlag(raw, byName)) {
        throw new RagError('INVALID_ARGUMENT', `--${spec.name} needs a value.`, {
          hint: `Example: --${spec.name} ${spec.metavar ?? 'VALUE'} (a value that starts with "--" can also be written --${spec.name}=VALUE).`,
        });
      }
      i++;
    }
    flags[spec.name] = convert(spec, raw);
  }
  if (positional && words.length > 0) {
    // Both forms at once leave no way to tell which was meant.
    if (flags[positional.name] !== undefined) {
      throw new RagError('INVALID_ARGUMENT', `Both --${positional.name} and the words "${words.join(' ')}" were given to \`rag ${command}\`.`, {
        hint: `Give it once: rag ${command} "…" or rag ${command} --${positional.name} "…".`,
      });
    }
    if (positional.positional === 'one' && words.length > 1) {
      throw new RagError('INVALID_ARGUMENT', `\`rag ${command}\` takes one ${positional.metavar ?? 'value'}, got ${words.length}: ${words.map((word) => `"${word}"`).join(', ')}.`, {
        hint: `Give one: rag ${command} ${positional.metavar ?? 'VALUE'} (or --${positional.name} ${positional.metavar ?? 'VALUE'}).`,
      });
    }
    flags[positional.name] = convert(positional, words.join(' '));
  }
  for (const spec of specs) {
    if (spec.required && flags[spec.name] === undefined) {
      throw new RagError('INVALID_ARGUMENT', `Missing required flag --${spec.name} for \`rag ${command}\`${spec.positional ? ' (or its words after the command)' : ''}.`, {
        hint: `Run \`rag ${command} --help\` for an example.`,
      });
    }
  }
  return flags;
}

/** The help text of one command, generated from its flag specs. */
export function formatHelp(command: string, summary: string, specs: readonly FlagSpec[], examples: readonly string[]): string {
  const lines = [`rag ${command} — ${summary}`, '', 'Flags (snake_case or kebab-case):'];
  const labels = specs.map((s) => `  --${s.name}${s.type === 'boolean' ? '' : ` ${s.metavar ?? 'VALUE'}`}`);
  const width = Math.max(...labels.map((l) => l.length)) + 2;
  specs.forEach((spec, i) => {
    const extra = [spec.required ? 'required' : '', spec.positional ? 'or as the words after the command' : '', spec.defaultLabel ? `default: ${spec.defaultLabel}` : '']
      .filter(Boolean)
      .join('; ');
    lines.push(`${labels[i]!.padEnd(width)}${spec.description}${extra ? ` (${extra})` : ''}`);
  });
  if (examples.length > 0) lines.push('', 'Examples:', ...examples.map((e) => `  ${e}`));
  return lines.join('\n');
}
