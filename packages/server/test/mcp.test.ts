import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/index.js';
import { buildIndex, makeTempDir, MINI_CORPUS, PORT_QUESTION, MCP_STDIO_FIXTURE, REPO_ROOT, SERVER_BUILD, startTestServer } from './helpers.js';

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let indexDir: string;
let server: RunningServer;

beforeAll(async () => {
  temp = await makeTempDir('rag-server-mcp-');
  indexDir = join(temp.dir, 'index');
  await buildIndex(MINI_CORPUS, indexDir);
  server = await startTestServer({ indexDir });
});

afterAll(async () => {
  await server?.close();
  await temp?.remove();
});

interface Transports {
  name: string;
  open: () => Transport;
}

const transports: Transports[] = [
  { name: 'Streamable HTTP (/mcp)', open: () => new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)) },
  {
    name: 'stdio (serveMcpOverStdio)',
    open: () => {
      if (!existsSync(SERVER_BUILD)) throw new Error(`${SERVER_BUILD} is missing: run \`pnpm build\` first.`);
      // Run from the repository root, so output paths match the HTTP server's (pathBase = repo root).
      return new StdioClientTransport({ command: process.execPath, args: [MCP_STDIO_FIXTURE, indexDir], cwd: REPO_ROOT, stderr: 'pipe' });
    },
  },
];

function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content = result.content as { type: string; text: string }[];
  return content.map((c) => c.text).join('');
}

for (const transport of transports) {
  describe(`MCP over ${transport.name}`, () => {
    let client: Client;
    beforeAll(async () => {
      client = new Client({ name: 'rag-test-client', version: '1.0.0' });
      await client.connect(transport.open());
    });
    afterAll(async () => {
      await client?.close();
    });

    it('lists the three tools with their input schemas', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['index_stats', 'read_span', 'search_code']);
      const search = tools.find((t) => t.name === 'search_code')!;
      expect(search.inputSchema.required).toEqual(['query']);
      expect(Object.keys(search.inputSchema.properties ?? {}).sort()).toEqual(['globs', 'k', 'query']);
      const read = tools.find((t) => t.name === 'read_span')!;
      expect(Object.keys(read.inputSchema.properties ?? {}).sort()).toEqual(['end', 'file_path', 'first_character_index', 'last_character_index', 'start']);
      expect(read.annotations?.readOnlyHint).toBe(true);
    });

    it('search_code returns exact citations, texts and staleness flags', async () => {
      const result = await client.callTool({ name: 'search_code', arguments: { query: PORT_QUESTION, k: 3 } });
      expect(result.isError).toBeFalsy();
      const structured = result.structuredContent as { hits: Record<string, any>[] };
      expect(structured.hits).toHaveLength(3);
      const top = structured.hits[0]!;
      expect(top.file_path).toBe('datasets/mini/corpus/tinyserve/defaults.py');
      expect(top.citation).toBe(`${top.file_path}:${top.start_line}-${top.end_line}`);
      expect(top.text).toContain('DEFAULT_PORT = 8421');
      expect(top.stale).toBe(false);
      // The span joins the settings block with the `from_env` helper after it, and says so.
      expect(top.also_symbols).toEqual(['from_env']);
      // The text content mirrors the structured result for clients that read only text.
      expect(JSON.parse(textOf(result))).toEqual(structured);
      expect(structured).not.toHaveProperty('no_matches');
    });

    it('search_code searches within globs and echoes them', async () => {
      const result = await client.callTool({ name: 'search_code', arguments: { query: PORT_QUESTION, k: 3, globs: ['docs/'] } });
      expect(result.isError).toBeFalsy();
      const structured = result.structuredContent as { hits: { file_path: string }[]; globs: string[] };
      expect(structured.globs).toEqual(['docs/']);
      expect(structured.hits.length).toBeGreaterThan(0);
      for (const hit of structured.hits) expect(hit.file_path).toMatch(/^datasets\/mini\/corpus\/docs\//);
      const bad = await client.callTool({ name: 'search_code', arguments: { query: PORT_QUESTION, globs: ['!'] } });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toMatch(/^INVALID_ARGUMENT: /);
    });

    it('search_code says why nothing matched, so an agent can rephrase', async () => {
      const result = await client.callTool({ name: 'search_code', arguments: { query: 'kafka zookeeper', k: 3 } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ hits: [], no_matches: expect.stringMatching(/^No indexed chunk holds "kafka" or "zookeeper"/) });
    });

    it('read_span returns the current text of a cited span', async () => {
      const result = await client.callTool({
        name: 'read_span',
        arguments: { file_path: 'datasets/mini/corpus/tinyserve/defaults.py', start: 293, end: 377 },
      });
      expect(result.isError).toBeFalsy();
      const span = result.structuredContent as Record<string, any>;
      expect(span.text).toMatch(/^# TCP port.*\nDEFAULT_PORT = 8421/s);
      expect(span).toMatchObject({ first_character_index: 293, last_character_index: 377, stale: false });
    });

    it('read_span takes a search_code hit’s own offset fields, so an agent can pass a hit as it is', async () => {
      const search = await client.callTool({ name: 'search_code', arguments: { query: PORT_QUESTION, k: 1 } });
      const hit = (search.structuredContent as { hits: Record<string, any>[] }).hits[0]!;
      const result = await client.callTool({
        name: 'read_span',
        arguments: { file_path: hit.file_path, first_character_index: hit.first_character_index, last_character_index: hit.last_character_index },
      });
      const span = result.structuredContent as Record<string, any>;
      expect(span.text).toBe(hit.text);
      const clash = await client.callTool({ name: 'read_span', arguments: { file_path: hit.file_path, start: 0, first_character_index: 5 } });
      expect(clash.isError).toBe(true);
    });

    it('refuses arguments a tool does not know, and index_stats declares its output', async () => {
      const unknown = await client.callTool({ name: 'read_span', arguments: { file_path: 'datasets/mini/corpus/tinyserve/defaults.py', begin: 3 } });
      expect(unknown.isError).toBe(true);
      expect(textOf(unknown)).toMatch(/begin/);
      const { tools } = await client.listTools();
      expect(tools.find((t) => t.name === 'index_stats')!.outputSchema?.properties).toHaveProperty('stale');
      const stats = await client.callTool({ name: 'index_stats', arguments: {} });
      expect(stats.isError).toBeFalsy();
      expect(stats.structuredContent).toMatchObject({ chunks: expect.any(Number), stale: false });
      // The machine's folders stay private unless the operator runs with --show_paths.
      expect(stats.structuredContent).not.toHaveProperty('index_dir');
      expect(stats.structuredContent).not.toHaveProperty('corpus_dir');
    });

    it('read_span refuses paths outside the corpus as a tool error', async () => {
      const result = await client.callTool({ name: 'read_span', arguments: { file_path: '../../../etc/passwd' } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/INVALID_ARGUMENT: file_path must not contain `\.\.`/);
    });

    it('index_stats reports the index and its freshness', async () => {
      const result = await client.callTool({ name: 'index_stats', arguments: {} });
      const stats = result.structuredContent as Record<string, any>;
      expect(stats).toMatchObject({ files: 11, retriever: 'bm25', stale: false });
      expect(stats.chunks).toBeGreaterThan(11);
    });

    it('rejects invalid arguments naming the field', async () => {
      const result = await client.callTool({ name: 'search_code', arguments: { query: 'router', k: 0 } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/Input validation error.*>=1 at k/);
    });
  });
}

describe('the /mcp endpoint', () => {
  it('is stateless: GET is refused with 405', async () => {
    const response = await fetch(`${server.url}/mcp`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});

describe('MCP over stdio answers lines it cannot read, as JSON-RPC requires', () => {
  it('replies -32700 to text that is not JSON and -32600 to JSON that is no message, then keeps serving', async () => {
    const child = spawn(process.execPath, [MCP_STDIO_FIXTURE, indexDir], { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    try {
      const replies: Record<string, unknown>[] = [];
      let buffer = '';
      child.stdout.on('data', (data: Buffer) => {
        buffer += data.toString();
        let end;
        while ((end = buffer.indexOf('\n')) >= 0) {
          replies.push(JSON.parse(buffer.slice(0, end)) as Record<string, unknown>);
          buffer = buffer.slice(end + 1);
        }
      });
      child.stdin.write('garbage\n{"jsonrpc":"2.0","id":1}\n');
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`);
      for (let i = 0; i < 600 && replies.length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(replies[0]).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
      expect(replies[1]).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
      expect(replies[2]).toMatchObject({ jsonrpc: '2.0', id: 7, result: { serverInfo: expect.any(Object) } });
    } finally {
      child.kill();
    }
  });
});
