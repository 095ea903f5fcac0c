import { spawnSync, type spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLI_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_ROOT = resolve(CLI_DIR, '..', '..');
export const CLI = join(CLI_DIR, 'dist', 'cli.js');
export const MINI_CORPUS = 'datasets/mini/corpus';
export const MINI_QUESTIONS = 'datasets/mini/questions.json';

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the bundled CLI as a user would: a separate process, from `cwd` (default: repo root). */
export function rag(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): CliResult {
  const env = { ...process.env, ...options.env };
  delete env.INIT_CWD;
  delete env.npm_lifecycle_event;
  Object.assign(env, options.env);
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd: options.cwd ?? REPO_ROOT, encoding: 'utf8', env });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The URL `rag serve` prints once it listens; rejects if it exits first. */
export function listeningUrl(child: ReturnType<typeof spawn>): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let stderr = '';
    child.stderr!.on('data', (data: Buffer) => {
      stderr += data.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`rag serve exited with ${code}: ${stderr}`)));
  });
}
