import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLI, MINI_CORPUS, rag, REPO_ROOT } from './helpers.js';

let work: string;
let indexDir: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'rag-cli-mcp-'));
  indexDir = join(work, 'index');
  expect(rag(['index', '--corpus_dir', MINI_CORPUS, '--index_dir', indexDir, '--quiet']).status).toBe(0);
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

it('`rag mcp` serves the three tools over stdio to the SDK client', async () => {
  const client = new Client({ name: 'rag-cli-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--index_dir', indexDir], cwd: REPO_ROOT, stderr: 'pipe' }));
  try {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['index_stats', 'read_span', 'search_code']);
    const result = await client.callTool({ name: 'search_code', arguments: { query: 'What TCP port does the development server listen on by default?', k: 2 } });
    expect(result.isError).toBeFalsy();
    const hits = (result.structuredContent as { hits: { file_path: string; text: string }[] }).hits;
    expect(hits[0]!.file_path).toBe(`${MINI_CORPUS}/tinyserve/defaults.py`);
    expect(hits[0]!.text).toContain('DEFAULT_PORT = 8421');
    const stats = await client.callTool({ name: 'index_stats', arguments: {} });
    expect((stats.structuredContent as { files: number }).files).toBeGreaterThan(5);
  } finally {
    await client.close();
  }
});
