import { execFileSync, type ExecFileSyncOptions } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkspacePackage } from './manifest.js';

/**
 * How to run pnpm from a test: the pnpm that runs this script (`npm_execpath`, set by
 * `pnpm run`), else `pnpm` on the PATH. Never a global install the test would add.
 */
export function pnpmCommand(): [string, string[]] {
  const execPath = process.env.npm_execpath;
  if (execPath && /pnpm[^/]*\.c?js$/.test(execPath)) return [process.execPath, [execPath]];
  return ['pnpm', []];
}

export function runPnpm(args: string[], options: ExecFileSyncOptions): string {
  const [command, prefix] = pnpmCommand();
  return execFileSync(command, [...prefix, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options }) as string;
}

/**
 * Packs each package with `pnpm pack` (which turns `workspace:*` into versions) into
 * `destination`; returns package name → tarball path.
 */
export function packPackages(root: string, packages: readonly WorkspacePackage[], destination: string): Map<string, string> {
  const tarballs = new Map<string, string>();
  for (const pkg of packages) {
    const before = new Set(readdirSync(destination));
    runPnpm(['pack', '--pack-destination', destination], { cwd: join(root, pkg.dir) });
    const added = readdirSync(destination).filter((name) => !before.has(name) && name.endsWith('.tgz'));
    if (added.length !== 1) throw new Error(`pnpm pack of ${pkg.manifest.name} wrote ${added.length} tarballs`);
    tarballs.set(pkg.manifest.name, join(destination, added[0]!));
  }
  return tarballs;
}

/** The settings a consumer needs to install the packages with pnpm 10 (see the root README). */
function rootPnpmSettings(root: string): Record<string, unknown> {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { pnpm?: Record<string, unknown> };
  const { onlyBuiltDependencies, ignoredBuiltDependencies, peerDependencyRules } = manifest.pnpm ?? {};
  return { onlyBuiltDependencies, ignoredBuiltDependencies, peerDependencyRules };
}

/**
 * Writes a consumer project in `dir` that depends on every tarball (and, through overrides,
 * resolves every `@rag/*` dependency to its tarball: nothing comes from a registry's `@rag`
 * scope) plus `extra` registry dependencies, and installs it. The pnpm store of the
 * workspace already holds every third-party package, so the install reads it first.
 */
export function installTarballs(root: string, dir: string, tarballs: ReadonlyMap<string, string>, extra: Record<string, string>): void {
  const files = Object.fromEntries([...tarballs].map(([name, path]) => [name, `file:${path}`]));
  const manifest = {
    name: 'rag-consumer',
    version: '0.0.0',
    private: true,
    type: 'module',
    dependencies: { ...files, ...extra },
    pnpm: { ...rootPnpmSettings(root), overrides: files },
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  runPnpm(['install', '--prefer-offline', '--no-frozen-lockfile', '--reporter=silent'], { cwd: dir, env: { ...process.env, CI: 'true' } });
}
