import { readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/index.js';
import { copyMiniCorpus, getJson, makeTempDir, postJson, startTestServer } from './helpers.js';

const SECRET = 'TOP-SECRET-OUTSIDE-THE-CORPUS';

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let corpusDir: string;
let server: RunningServer;

/** Python's `text[start:end]` on code points, the reference for every offset here. */
function slicePython(text: string, start: number, end: number): string {
  return Array.from(text).slice(start, end).join('');
}

async function fileText(path: string): Promise<string> {
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(await readFile(join(corpusDir, path)));
}

function sourcesUrl(filePath: string, start?: number, end?: number): string {
  const params = new URLSearchParams({ file_path: filePath });
  if (start !== undefined) params.set('start', String(start));
  if (end !== undefined) params.set('end', String(end));
  return `${server.url}/sources?${params}`;
}

beforeAll(async () => {
  temp = await makeTempDir('rag-server-sources-');
  await writeFile(join(temp.dir, 'secret.py'), `PASSWORD = "${SECRET}"\n`);
  const copy = await copyMiniCorpus(temp.dir);
  corpusDir = copy.corpusDir;
  // After indexing: an indexed file becomes a link to a file outside the corpus, another
  // is edited, one is deleted, and a new link outside appears (never indexed).
  await rm(join(corpusDir, 'tinyserve', 'middleware.py'));
  await symlink(join(temp.dir, 'secret.py'), join(corpusDir, 'tinyserve', 'middleware.py'));
  await writeFile(join(corpusDir, 'CHANGELOG.txt'), 'Rewritten after indexing.\n');
  await rm(join(corpusDir, 'tinyserve', 'broken_plugin.py'));
  await symlink(join(temp.dir, 'secret.py'), join(corpusDir, 'docs', 'leak.py'));
  server = await startTestServer({ indexDir: copy.indexDir, pathBase: temp.dir, staleCheckIntervalMs: 0 });
});

afterAll(async () => {
  await server?.close();
  await temp?.remove();
});

describe('GET /sources', () => {
  it('returns the exact text of a span, by code points, with its lines', async () => {
    const { status, body } = await getJson(sourcesUrl('corpus/tinyserve/defaults.py', 293, 377));
    expect(status).toBe(200);
    const text = await fileText('tinyserve/defaults.py');
    expect(body.text).toBe(slicePython(text, 293, 377));
    expect(body.text).toContain('DEFAULT_PORT = 8421');
    expect(body).toMatchObject({ file_path: 'corpus/tinyserve/defaults.py', first_character_index: 293, last_character_index: 377, stale: false });
    expect(body.start_line).toBe(text.slice(0, 293).split('\n').length);
    expect(body.end_line).toBe(body.start_line + body.text.trimEnd().split('\n').length - 1);
  });

  it('counts astral characters (emoji) as one code point, like Python', async () => {
    const text = await fileText('docs/guide.md');
    const chars = Array.from(text);
    const emoji = chars.findIndex((c) => c.codePointAt(0)! > 0xffff);
    expect(emoji).toBeGreaterThanOrEqual(0);
    // A span starting after the emoji: UTF-16 indices would be off by one here.
    const start = emoji + 1;
    const { body } = await getJson(sourcesUrl('corpus/docs/guide.md', start, start + 40));
    expect(body.text).toBe(slicePython(text, start, start + 40));
    expect(body.file_length).toBe(chars.length);
  });

  it('accepts paths inside the corpus too, and defaults to the whole file', async () => {
    const { status, body } = await getJson(sourcesUrl('README.md'));
    expect(status).toBe(200);
    expect(body.text).toBe(await fileText('README.md'));
    expect(body.file_path).toBe('corpus/README.md');
    expect(body.first_character_index).toBe(0);
    expect(body.last_character_index).toBe(body.file_length);
  });

  it('serves every span /search returns, with the same text the index holds', async () => {
    const search = await postJson(`${server.url}/search`, { query: 'route handler methods', k: 5 });
    // Files this fixture changed after indexing (one became a symlink out) are flagged stale and may be refused.
    const fresh = search.body.hits.filter((hit: { stale: boolean }) => !hit.stale);
    expect(fresh.length).toBeGreaterThan(2);
    for (const hit of fresh) {
      const { status, body } = await getJson(sourcesUrl(hit.file_path, hit.first_character_index, hit.last_character_index));
      expect(status).toBe(200);
      expect(body.start_line).toBe(hit.lines.start);
      expect(body.end_line).toBe(hit.lines.end);
    }
  });

  it('refuses ranges outside the file, naming the offset', async () => {
    const past = await getJson(sourcesUrl('README.md', 0, 10_000));
    expect(past.status).toBe(400);
    expect(past.body.message).toMatch(/end 10000 is past the end/);
    const reversed = await getJson(sourcesUrl('README.md', 20, 10));
    expect(reversed.status).toBe(400);
    expect(reversed.body.message).toMatch(/end 10 is before start 20/);
  });
});

describe('GET /sources refuses everything outside the indexed corpus', () => {
  /** Raw query strings, sent exactly as written (no re-encoding). */
  const attempts: [string, string][] = [
    ['a ../ climb', 'file_path=../secret.py'],
    ['a ../ climb inside a corpus path', 'file_path=corpus/../../secret.py'],
    ['an absolute path', 'file_path=/etc/passwd'],
    ['an absolute path to the secret', `file_path=${encodeURIComponent('/tmp/secret.py')}`],
    ['a percent-encoded ../', 'file_path=%2e%2e%2fsecret.py'],
    ['an upper-case encoded ../', 'file_path=%2E%2E%2Fsecret.py'],
    ['a double-encoded ../', 'file_path=%252e%252e%252fsecret.py'],
    ['a backslash climb', `file_path=${encodeURIComponent('..\\secret.py')}`],
    ['a Windows drive path', `file_path=${encodeURIComponent('C:\\secret.py')}`],
    ['a NUL byte', 'file_path=README.md%00.py'],
    ['a home-relative path', 'file_path=~/secret.py'],
  ];
  for (const [what, query] of attempts) {
    it(`refuses ${what}`, async () => {
      const response = await fetch(`${server.url}/sources?${query}`);
      const text = await response.text();
      expect([400, 404]).toContain(response.status);
      expect(text).not.toContain(SECRET);
      expect(JSON.parse(text).code).toMatch(/INVALID_ARGUMENT|NOT_FOUND/);
    });
  }

  it('answers 400 for traversal and 404 for a file that is simply not indexed', async () => {
    expect((await fetch(`${server.url}/sources?file_path=%2e%2e%2fsecret.py`)).status).toBe(400);
    expect((await fetch(`${server.url}/sources?file_path=/etc/passwd`)).status).toBe(400);
    // Not indexed: a PNG, a Latin-1 file, an ignored folder's file.
    for (const path of ['docs/logo.png', 'docs/legacy_notes.txt', 'tinyserve/__pycache__/app_stale.py']) {
      const response = await getJson(sourcesUrl(path));
      expect(response.status, path).toBe(404);
      expect(response.body.code).toBe('NOT_FOUND');
    }
  });

  it('refuses an indexed file that became a symlink leading outside the corpus', async () => {
    const response = await fetch(sourcesUrl('tinyserve/middleware.py'));
    const text = await response.text();
    expect(response.status).toBe(404);
    expect(text).toMatch(/outside the indexed corpus/);
    expect(text).not.toContain(SECRET);
  });

  it('refuses a symlink out that was never indexed', async () => {
    const response = await fetch(sourcesUrl('docs/leak.py'));
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain(SECRET);
  });
});

describe('staleness', () => {
  it('flags spans, hits and stats of files changed or deleted since indexing', async () => {
    const span = await getJson(sourcesUrl('CHANGELOG.txt', 0, 10));
    expect(span.status).toBe(200);
    expect(span.body.stale).toBe(true);
    expect(span.body.text).toBe('Rewritten ');

    const fresh = await getJson(sourcesUrl('README.md', 0, 10));
    expect(fresh.body.stale).toBe(false);

    const deleted = await getJson(sourcesUrl('tinyserve/broken_plugin.py'));
    expect(deleted.status).toBe(404);
    expect(deleted.body.message).toMatch(/no longer exists/);

    const stats = await getJson(`${server.url}/stats`);
    expect(stats.body.stale).toBe(true);
    // middleware.py is now a link to other bytes: changed too.
    expect(stats.body.changed_files).toEqual(['corpus/CHANGELOG.txt', 'corpus/tinyserve/middleware.py']);
    expect(stats.body.missing_files).toEqual(['corpus/tinyserve/broken_plugin.py']);
    expect(stats.body.changed_count).toBe(2);
    expect(stats.body.missing_count).toBe(1);
  });

  it('marks search hits from changed files', async () => {
    const search = await postJson(`${server.url}/search`, { query: 'changelog release version', k: 10 });
    const changelog = search.body.hits.filter((h: { file_path: string }) => h.file_path === 'corpus/CHANGELOG.txt');
    expect(changelog.length).toBeGreaterThan(0);
    expect(changelog.every((h: { stale: boolean }) => h.stale)).toBe(true);
    const others = search.body.hits.filter((h: { file_path: string }) => !['corpus/CHANGELOG.txt', 'corpus/tinyserve/middleware.py', 'corpus/tinyserve/broken_plugin.py'].includes(h.file_path));
    expect(others.every((h: { stale: boolean }) => !h.stale)).toBe(true);
  });
});
