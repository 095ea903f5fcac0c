import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

/** One rule the tree breaks, with where. */
export interface LayoutProblem {
  rule: 'app-imports-app' | 'undeclared-import' | 'diagram-mismatch' | 'diagram-missing';
  where: string;
  message: string;
}

interface Workspace {
  name: string;
  dir: string;
  kind: 'package' | 'app' | 'tool';
  /** `@rag/*` names in `dependencies`. */
  dependencies: Set<string>;
  /** `@rag/*` names in `dependencies` and `devDependencies` (what tests may import). */
  allDependencies: Set<string>;
}

const WORKSPACE_FOLDERS = { packages: 'package', apps: 'app', tools: 'tool' } as const;
/** Static imports and re-exports (a statement starting a line, possibly spanning lines), and dynamic imports. */
const IMPORT = /^\s*(?:import|export)\b[^;]*?\bfrom\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;
const DIAGRAM_START = '<!-- dependencies:start -->';
const DIAGRAM_END = '<!-- dependencies:end -->';

function ragNames(record: Record<string, string> | undefined): string[] {
  return Object.keys(record ?? {}).filter((name) => name.startsWith('@rag/'));
}

function readWorkspaces(root: string): Workspace[] {
  const found: Workspace[] = [];
  for (const [folder, kind] of Object.entries(WORKSPACE_FOLDERS)) {
    const parent = join(root, folder);
    if (!existsSync(parent)) continue;
    for (const entry of readdirSync(parent).sort()) {
      const manifest = join(parent, entry, 'package.json');
      if (!existsSync(manifest)) continue;
      const json = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
      const dependencies = new Set(ragNames(json.dependencies));
      found.push({ name: json.name, dir: join(parent, entry), kind, dependencies, allDependencies: new Set([...dependencies, ...ragNames(json.devDependencies)]) });
    }
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|mts|mjs|js)$/.test(entry)) out.push(path);
  }
  return out;
}

/** The workspace package an import specifier names (`@rag/bm25/internals` → `@rag/bm25`). */
function packageOf(specifier: string): string | undefined {
  const match = /^(@rag\/[^/]+)/.exec(specifier);
  return match?.[1];
}

/**
 * Parses the dependency list in ARCHITECTURE.md: between the two markers, one line per
 * workspace, `@rag/name → @rag/a, @rag/b` (or `→ none`), inside a fenced block or not.
 */
export function parseDiagram(markdown: string): Map<string, Set<string>> | undefined {
  const start = markdown.indexOf(DIAGRAM_START);
  const end = markdown.indexOf(DIAGRAM_END);
  if (start < 0 || end < start) return undefined;
  const edges = new Map<string, Set<string>>();
  for (const line of markdown.slice(start + DIAGRAM_START.length, end).split('\n')) {
    const match = /^\s*(@rag\/[\w-]+)\s*→\s*(.*)$/.exec(line);
    if (!match) continue;
    const targets = match[2]!.trim() === 'none' ? [] : match[2]!.split(',').map((t) => t.trim()).filter((t) => t.length > 0);
    edges.set(match[1]!, new Set(targets));
  }
  return edges;
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((x) => b.has(x));
}

/**
 * Checks the tree at `root` against the layout rules: no app imports another app (by name
 * or by a relative path); a package's sources import only the workspace packages its
 * `dependencies` declare (tests: its dev dependencies too); and the dependency list in
 * ARCHITECTURE.md equals the `@rag/*` dependencies of every workspace package.json.
 */
export function checkLayout(root: string): LayoutProblem[] {
  const problems: LayoutProblem[] = [];
  const workspaces = readWorkspaces(root);
  const apps = workspaces.filter((w) => w.kind === 'app');
  const appNames = new Set(apps.map((w) => w.name));
  const appDirs = apps.map((w) => resolve(w.dir) + sep);

  for (const workspace of workspaces) {
    for (const [folder, allowed] of [
      ['src', workspace.dependencies],
      ['test', workspace.allDependencies],
    ] as const) {
      for (const file of sourceFiles(join(workspace.dir, folder))) {
        const text = readFileSync(file, 'utf8');
        const where = relative(root, file);
        for (const match of text.matchAll(IMPORT)) {
          const specifier = (match[1] ?? match[2] ?? match[3])!;
          if (specifier.startsWith('.')) {
            const target = resolve(file, '..', specifier);
            const intoApp = appDirs.find((dir) => target.startsWith(dir));
            if (intoApp && !resolve(workspace.dir).startsWith(intoApp.slice(0, -1))) {
              problems.push({ rule: 'app-imports-app', where, message: `${where} reaches into ${relative(root, intoApp)} by a relative path` });
            }
            continue;
          }
          const name = packageOf(specifier);
          if (name === undefined || name === workspace.name) continue;
          if (appNames.has(name)) {
            problems.push({ rule: 'app-imports-app', where, message: `${where} imports the app ${name}; apps are wiring, nothing imports them` });
          } else if (!allowed.has(name)) {
            problems.push({ rule: 'undeclared-import', where, message: `${where} imports ${name}, which ${workspace.name}'s package.json does not declare${folder === 'test' ? ' (dependencies or devDependencies)' : ' in dependencies'}` });
          }
        }
      }
    }
  }

  const architecture = join(root, 'ARCHITECTURE.md');
  const diagram = existsSync(architecture) ? parseDiagram(readFileSync(architecture, 'utf8')) : undefined;
  if (!diagram) {
    problems.push({ rule: 'diagram-missing', where: 'ARCHITECTURE.md', message: `ARCHITECTURE.md has no dependency list between ${DIAGRAM_START} and ${DIAGRAM_END}` });
    return problems;
  }
  for (const workspace of workspaces.filter((w) => w.kind !== 'tool')) {
    const drawn = diagram.get(workspace.name);
    if (!drawn) {
      problems.push({ rule: 'diagram-mismatch', where: 'ARCHITECTURE.md', message: `the dependency list does not show ${workspace.name}` });
    } else if (!sameSet(drawn, workspace.dependencies)) {
      problems.push({
        rule: 'diagram-mismatch',
        where: 'ARCHITECTURE.md',
        message: `the dependency list gives ${workspace.name} → ${[...drawn].sort().join(', ') || 'none'}, its package.json → ${[...workspace.dependencies].sort().join(', ') || 'none'}`,
      });
    }
  }
  for (const name of diagram.keys()) {
    if (!workspaces.some((w) => w.name === name)) problems.push({ rule: 'diagram-mismatch', where: 'ARCHITECTURE.md', message: `the dependency list shows ${name}, which no workspace is` });
  }
  return problems;
}
