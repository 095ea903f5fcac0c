import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

/** What a published package's package.json must say, and why a consumer needs it. */
export interface PackageManifest {
  name: string;
  version: string;
  private?: boolean;
  description?: string;
  keywords?: string[];
  license?: string;
  repository?: { type?: string; url?: string; directory?: string };
  engines?: { node?: string };
  type?: string;
  bin?: Record<string, string>;
  exports?: Record<string, { types?: string; import?: string } | string>;
  files?: string[];
  publishConfig?: { access?: string };
  dependencies?: Record<string, string>;
}

export interface WorkspacePackage {
  /** Folder relative to the repository root, with forward slashes (`packages/bm25`). */
  dir: string;
  manifest: PackageManifest;
}

/** The folders whose packages are published: libraries and apps (tools stay private). */
export const PUBLISHED_FOLDERS = ['packages', 'apps'] as const;

/** The licence every package carries (the root LICENSE file, copied into each package). */
export const LICENSE = 'MIT';

/** Every package under the published folders, sorted by folder. */
export function listPublishedPackages(root: string): WorkspacePackage[] {
  const found: WorkspacePackage[] = [];
  for (const parent of PUBLISHED_FOLDERS) {
    for (const entry of readdirSync(join(root, parent)).sort()) {
      const file = join(root, parent, entry, 'package.json');
      if (!existsSync(file)) continue;
      found.push({ dir: `${parent}/${entry}`, manifest: JSON.parse(readFileSync(file, 'utf8')) as PackageManifest });
    }
  }
  return found;
}

/**
 * Problems that would make `pkg` unusable or unfindable once published, one line each:
 * private, no licence, no repository pointing at its folder, no engines, no keywords, an
 * `exports` entry whose `types` is not first (TypeScript picks the first matching condition),
 * a `bin` or export outside the packed files, or no README/LICENSE in the package.
 */
export function findManifestProblems(root: string, pkg: WorkspacePackage, repositoryUrl: string): string[] {
  const { manifest: m, dir } = pkg;
  const problems: string[] = [];
  const where = `${m.name} (${dir})`;
  if (m.private) problems.push(`${where} is private: it cannot be published`);
  if (m.license !== LICENSE) problems.push(`${where} has license ${String(m.license)}, expected ${LICENSE}`);
  if (m.repository?.url !== repositoryUrl || m.repository.directory !== dir) {
    problems.push(`${where} repository should be { url: ${repositoryUrl}, directory: ${dir} }`);
  }
  if (!m.engines?.node) problems.push(`${where} declares no engines.node`);
  if (!m.keywords || m.keywords.length === 0) problems.push(`${where} has no keywords`);
  if (!m.description) problems.push(`${where} has no description`);
  if (m.type !== 'module') problems.push(`${where} is not ESM ("type": "module")`);
  if (m.name.startsWith('@') && m.publishConfig?.access !== 'public') problems.push(`${where} is scoped but not publishConfig.access "public"`);
  const files = m.files ?? [];
  for (const required of ['dist', 'README.md', 'LICENSE']) {
    if (!files.includes(required)) problems.push(`${where} does not pack ${required} ("files")`);
  }
  for (const required of ['README.md', 'LICENSE']) {
    if (!existsSync(join(root, dir, required))) problems.push(`${where} has no ${required}`);
  }
  for (const [subpath, target] of Object.entries(m.exports ?? {})) {
    if (typeof target === 'string') continue;
    if (Object.keys(target)[0] !== 'types') problems.push(`${where} exports "${subpath}" without "types" first`);
  }
  for (const [name, target] of Object.entries(m.bin ?? {})) {
    if (!isPacked(target, files)) problems.push(`${where} bin ${name} → ${target} is not in the packed files`);
  }
  return problems;
}

function isPacked(target: string, files: readonly string[]): boolean {
  const path = posix.normalize(target).replace(/^\.\//, '');
  return files.some((entry) => path === entry || path.startsWith(`${entry}/`));
}

/** Markdown link targets `[text](target)` of a document, code blocks excluded. */
export function markdownLinks(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
}

/**
 * README links that break once the package is packed: relative targets that leave the
 * package folder or name a file the tarball does not hold. Absolute URLs and anchors are fine.
 */
export function findBrokenReadmeLinks(root: string, pkg: WorkspacePackage): string[] {
  const readme = join(root, pkg.dir, 'README.md');
  if (!existsSync(readme)) return [];
  const files = pkg.manifest.files ?? [];
  const broken: string[] = [];
  for (const link of markdownLinks(readFileSync(readme, 'utf8'))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith('#')) continue;
    const target = posix.normalize(link.split('#')[0]!).replace(/^\.\//, '').replace(/\/$/, '');
    if (target.startsWith('..') || !(isPacked(target, files) || target === 'package.json')) {
      broken.push(`${pkg.manifest.name} README links to ${link}, which is not in the published package`);
    }
  }
  return broken;
}
