import { MAX_GLOB_LENGTH, MAX_SCOPE_GLOBS, RagError } from '@rag/core';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/mini';
import { classifyError } from '../errors.js';
import { withoutPaths } from '../paths.js';
import { DEFAULT_SEARCH_K, MAX_K, MAX_QUERY_LENGTH } from '@rag/service';
import type { RagService } from '@rag/service';
import { SERVER_VERSION } from '../version.js';

export const MCP_SERVER_NAME = 'rag';

const INSTRUCTIONS =
  'Search an indexed codebase and its docs. search_code returns ranked spans with exact citations ' +
  '(file_path plus Unicode code-point offsets, end exclusive, and 1-based lines); read_span returns the current ' +
  'text of such a span; index_stats tells what is indexed. A `stale` flag means the file changed on disk since ' +
  'indexing, so its offsets may point at different text now.';

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

const citation = {
  file_path: z.string(),
  first_character_index: z.int(),
  last_character_index: z.int(),
};

function ok(structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(structured, null, 1) }], structuredContent: structured };
}

function failure(error: unknown, exposePaths: boolean): CallToolResult {
  const { body } = classifyError(error, exposePaths);
  return { content: [{ type: 'text', text: `${body.code}: ${body.message}${body.hint ? `\nhint: ${body.hint}` : ''}` }], isError: true };
}

async function guarded(work: () => Promise<Record<string, unknown>>, exposePaths: boolean): Promise<CallToolResult> {
  try {
    return ok(await work());
  } catch (error) {
    return failure(error, exposePaths);
  }
}

/**
 * An MCP server exposing the three tools over any transport. Stateless: each HTTP request
 * gets its own, and stdio gets one for the life of the process.
 */
export interface McpServerOptions {
  /** Absolute paths in errors and `index_stats` (see the server's `exposePaths`). Default `false`. */
  exposePaths?: boolean;
}

export function createMcpServer(service: RagService, options: McpServerOptions = {}): McpServer {
  const exposePaths = options.exposePaths === true;
  const server = new McpServer({ name: MCP_SERVER_NAME, version: SERVER_VERSION }, { instructions: INSTRUCTIONS });

  server.registerTool(
    'search_code',
    {
      title: 'Search code and docs',
      description:
        'Find the spans of the indexed corpus that best answer a question or match keywords. Each hit has an exact ' +
        'citation (file_path, code-point offsets, lines), its symbol, its indexed text, and a stale flag.',
      // Strict: an argument the tool does not know is refused, not silently ignored.
      inputSchema: z.strictObject({
        query: z.string().check(z.minLength(1), z.maxLength(MAX_QUERY_LENGTH), z.describe('The question or keywords.')),
        k: z.optional(z.int().check(z.minimum(1), z.maximum(MAX_K), z.describe(`Number of hits, default ${DEFAULT_SEARCH_K}.`))),
        globs: z.optional(
          z.array(z.string().check(z.minLength(1), z.maxLength(MAX_GLOB_LENGTH))).check(
            z.maxLength(MAX_SCOPE_GLOBS),
            z.describe('Only hits in the files these globs match: .gitignore syntax relative to the indexed folder ("docs/", "*.py"); "!glob" leaves out. Default: every file.'),
          ),
        ),
      }),
      outputSchema: {
        question: z.string(),
        retriever: z.string(),
        hits: z.array(
          z.object({
            rank: z.int(),
            ...citation,
            start_line: z.int(),
            end_line: z.int(),
            citation: z.string().check(z.describe('path:first-last line, for humans.')),
            symbol: z.string(),
            kind: z.string(),
            score: z.number(),
            stale: z.boolean(),
            also_symbols: z.optional(z.array(z.string()).check(z.describe('The other definitions the span holds when it joins neighbouring chunks.'))),
            text: z.string().check(z.describe('The span as indexed.')),
          }),
        ),
        no_matches: z.optional(z.string().check(z.describe('When nothing matched: why (the words no indexed chunk holds, no searchable word at all, or no file in the globs).'))),
        globs: z.optional(z.array(z.string()).check(z.describe('The globs the search was limited to.'))),
      },
      annotations: readOnly,
    },
    ({ query, k, globs }) =>
      guarded(async () => {
        const { view: result, texts } = await service.searchWithText({ query, k, globs });
        return {
          question: result.question,
          retriever: result.retriever,
          hits: result.hits.map((hit, i) => ({
            rank: hit.rank,
            file_path: hit.file_path,
            first_character_index: hit.first_character_index,
            last_character_index: hit.last_character_index,
            start_line: hit.lines.start,
            end_line: hit.lines.end,
            citation: `${hit.file_path}:${hit.lines.start}-${hit.lines.end}`,
            symbol: hit.symbol,
            kind: hit.kind,
            score: hit.score,
            stale: hit.stale,
            ...(hit.also_symbols === undefined ? {} : { also_symbols: hit.also_symbols }),
            text: texts[i]!,
          })),
          ...(result.no_matches === undefined ? {} : { no_matches: result.no_matches }),
          ...(result.globs === undefined ? {} : { globs: result.globs }),
        };
      }, exposePaths),
  );

  server.registerTool(
    'read_span',
    {
      title: 'Read a span',
      description:
        'The exact current text of a span of an indexed file, by code-point offsets (end exclusive). Leave start and ' +
        'end out for the whole file. Only files of the indexed corpus can be read.',
      inputSchema: z.strictObject({
        file_path: z.string().check(z.minLength(1), z.maxLength(4096), z.describe('As search_code returned it, or a path inside the corpus.')),
        start: z.optional(z.int().check(z.minimum(0), z.describe('First code point (inclusive), default 0.'))),
        end: z.optional(z.int().check(z.minimum(0), z.describe('One past the last code point, default the end of the file.'))),
        first_character_index: z.optional(z.int().check(z.minimum(0), z.describe('Same as start: a search_code hit can be passed as it is.'))),
        last_character_index: z.optional(z.int().check(z.minimum(0), z.describe('Same as end.'))),
      }),
      outputSchema: {
        ...citation,
        start_line: z.int(),
        end_line: z.int(),
        file_length: z.int(),
        text: z.string(),
        stale: z.boolean(),
      },
      annotations: readOnly,
    },
    ({ file_path, start, end, first_character_index, last_character_index }) =>
      guarded(async () => {
        if ((start !== undefined && first_character_index !== undefined && start !== first_character_index) || (end !== undefined && last_character_index !== undefined && end !== last_character_index)) {
          throw new RagError('INVALID_ARGUMENT', 'start/end and first_character_index/last_character_index disagree.', { hint: 'Pass one pair: a hit’s own fields, or start and end.' });
        }
        return { ...(await service.readSpan({ file_path, start: start ?? first_character_index, end: end ?? last_character_index })) };
      }, exposePaths),
  );

  server.registerTool(
    'index_stats',
    {
      title: 'Index statistics',
      description: 'Files and chunks indexed, index age, retriever and generator, and whether any indexed file changed on disk since indexing.',
      inputSchema: z.strictObject({}),
      outputSchema: {
        index_dir: z.optional(z.string().check(z.describe('Only when the operator exposes paths.'))),
        corpus_dir: z.optional(z.string().check(z.describe('Only when the operator exposes paths.'))),
        files: z.int(),
        chunks: z.int(),
        index_created_at: z.string(),
        index_age_seconds: z.number(),
        tool_version: z.string(),
        retriever: z.string(),
        retrievers: z.array(z.string()),
        generator: z.string(),
        generators: z.array(z.string()),
        stale: z.boolean().check(z.describe('True when any indexed file changed or disappeared since indexing.')),
        changed_count: z.int(),
        missing_count: z.int(),
        changed_files: z.array(z.string()),
        missing_files: z.array(z.string()),
        answers: z.looseObject({}),
        search_workers: z.looseObject({}).check(z.describe('Worker threads running searches, restarts, searches in flight.')),
        watch: z.nullable(z.looseObject({})).check(z.describe('The corpus watcher (--watch): interval, updates served, the last update and the last failure; null when not watching.')),
        uptime_seconds: z.number(),
      },
      annotations: readOnly,
    },
    () => guarded(async () => (exposePaths ? { ...(await service.stats()) } : { ...withoutPaths(await service.stats()) }), exposePaths),
  );

  return server;
}
