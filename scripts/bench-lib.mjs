// Shared helpers of the benchmark scripts: where the benchmark data is, how to run the CLI.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const CLI = join(REPO_ROOT, 'apps', 'cli', 'dist', 'cli.js');

/** Recreates the tree `from` under `to` with hard links: a copy of a corpus that costs no space (for the n× benchmarks). */
export function linkTree(from, to) {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) linkTree(source, target);
    else if (entry.isFile()) linkSync(source, target);
  }
}

/** The shared benchmark folder: $RAG_SHARED_DIR, else ../shared beside the repository. */
export function findSharedDir() {
  const dir = resolve(process.env.RAG_SHARED_DIR ?? join(REPO_ROOT, '..', 'shared'));
  if (!existsSync(join(dir, 'data', 'raw'))) {
    console.error(`error: benchmark data not found in ${dir}/data/raw.\n  hint: set RAG_SHARED_DIR to the folder that contains data/ (see README).`);
    process.exit(2);
  }
  if (!existsSync(CLI)) {
    console.error(`error: ${CLI} is missing.\n  hint: run \`pnpm build\` first.`);
    process.exit(2);
  }
  return dir;
}

export const DATASETS = ['dataset_code_public', 'dataset_docs_public'];

/** Runs the CLI with `cwd`, returning stdout; stderr passes through unless quiet. */
export function runCli(args, { cwd, quiet = true } = {}) {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', quiet ? 'pipe' : 'inherit'], maxBuffer: 1 << 28 });
  if (result.status !== 0) {
    throw new Error(`rag ${args.join(' ')} failed (${result.status}):\n${result.stderr ?? ''}`);
  }
  return result.stdout;
}

/** Command-line flags of a bench script: `--name value` or `--switch`. */
export function parseBenchArgs(argv) {
  const flags = {};
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (token === '--') continue;
    if (!token.startsWith('--')) throw new Error(`unexpected argument ${token}`);
    const name = token.slice(2).replaceAll('-', '_');
    const next = argv[i + 1];
    if (next === undefined || next.startsWith('--')) flags[name] = true;
    else {
      flags[name] = next;
      i++;
    }
  }
  return flags;
}

export function gitRevision() {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

export function formatTable(header, rows) {
  const all = [header, ...rows].map((r) => r.map(String));
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  const line = (r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(all[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...all.slice(1).map(line)].join('\n');
}
