import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { checkLayout, parseDiagram } from '../src/index.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

describe('the repository', () => {
  it('keeps its layout rules and ARCHITECTURE.md’s dependency list true', () => {
    expect(checkLayout(REPO_ROOT)).toEqual([]);
  });
});

// A tiny tree per rule: one package, one app, a diagram that matches; each test breaks one thing.
let root: string;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

function write(path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

function tree(overrides: { appImport?: string; packageImport?: string; diagram?: string } = {}): string {
  root = mkdtempSync(join(tmpdir(), 'rag-layout-'));
  write('packages/core/package.json', JSON.stringify({ name: '@rag/core' }));
  write('packages/core/src/index.ts', 'export const x = 1;\n');
  write('packages/lib/package.json', JSON.stringify({ name: '@rag/lib', dependencies: { '@rag/core': 'workspace:*' } }));
  write('packages/lib/src/index.ts', `${overrides.packageImport ?? "import { x } from '@rag/core';"}\nexport const y = x;\n`);
  write('apps/one/package.json', JSON.stringify({ name: '@rag/one', dependencies: { '@rag/lib': 'workspace:*' } }));
  write('apps/one/src/main.ts', "import { y } from '@rag/lib';\nconsole.log(y);\n");
  write('apps/two/package.json', JSON.stringify({ name: '@rag/two', dependencies: { '@rag/lib': 'workspace:*' } }));
  write('apps/two/src/main.ts', `${overrides.appImport ?? "import { y } from '@rag/lib';"}\nconsole.log(y);\n`);
  const diagram = overrides.diagram ?? '@rag/core → none\n@rag/lib → @rag/core\n@rag/one → @rag/lib\n@rag/two → @rag/lib';
  write('ARCHITECTURE.md', `# A\n\n<!-- dependencies:start -->\n\`\`\`\n${diagram}\n\`\`\`\n<!-- dependencies:end -->\n`);
  return root;
}

describe('checkLayout', () => {
  it('passes a tree that keeps every rule', () => {
    expect(checkLayout(tree())).toEqual([]);
  });

  it('fails when an app imports another app by name', () => {
    const problems = checkLayout(tree({ appImport: "import { y } from '@rag/one';" }));
    expect(problems.map((p) => p.rule)).toContain('app-imports-app');
  });

  it('fails when an app reaches into another app by a relative path', () => {
    const problems = checkLayout(tree({ appImport: "import { y } from '../../one/src/main.js';" }));
    expect(problems.map((p) => p.rule)).toEqual(['app-imports-app']);
  });

  it('fails when a package imports a package its package.json does not declare', () => {
    const dir = tree({ packageImport: "import { x } from '@rag/core';\nimport { z } from '@rag/extra';" });
    write('packages/extra/package.json', JSON.stringify({ name: '@rag/extra' }));
    write('ARCHITECTURE.md', '<!-- dependencies:start -->\n@rag/core → none\n@rag/extra → none\n@rag/lib → @rag/core\n@rag/one → @rag/lib\n@rag/two → @rag/lib\n<!-- dependencies:end -->\n');
    const problems = checkLayout(dir);
    expect(problems).toEqual([expect.objectContaining({ rule: 'undeclared-import', message: expect.stringContaining('@rag/extra') })]);
  });

  it('fails when the diagram disagrees with package.json, in either direction', () => {
    expect(checkLayout(tree({ diagram: '@rag/core → none\n@rag/lib → none\n@rag/one → @rag/lib\n@rag/two → @rag/lib' })).map((p) => p.rule)).toEqual(['diagram-mismatch']);
    rmSync(root, { recursive: true, force: true });
    expect(checkLayout(tree({ diagram: '@rag/core → none\n@rag/lib → @rag/core\n@rag/one → @rag/lib' })).map((p) => p.message)).toEqual([
      'the dependency list does not show @rag/two',
    ]);
    rmSync(root, { recursive: true, force: true });
    expect(checkLayout(tree({ diagram: '@rag/core → none\n@rag/lib → @rag/core\n@rag/one → @rag/lib\n@rag/two → @rag/lib\n@rag/ghost → none' })).map((p) => p.rule)).toEqual(['diagram-mismatch']);
  });

  it('fails when ARCHITECTURE.md has no dependency list', () => {
    const dir = tree();
    write('ARCHITECTURE.md', '# nothing here\n');
    expect(checkLayout(dir).map((p) => p.rule)).toEqual(['diagram-missing']);
  });
});

describe('parseDiagram', () => {
  it('reads one workspace per line, `none` for no dependencies', () => {
    const edges = parseDiagram('x\n<!-- dependencies:start -->\n@rag/a → none\n@rag/b → @rag/a, @rag/c\n<!-- dependencies:end -->');
    expect(edges).toEqual(new Map([['@rag/a', new Set()], ['@rag/b', new Set(['@rag/a', '@rag/c'])]]));
  });
});
