import { MAX_GLOB_LENGTH, MAX_SCOPE_GLOBS } from '@rag/core';
import { MAX_K, MAX_QUERY_LENGTH } from '@rag/service';

/**
 * JSON Schemas of every request and response: Fastify validates requests with them,
 * serializes responses with them, and @fastify/swagger turns them into /openapi.json.
 */

const query = { type: 'string', minLength: 1, maxLength: MAX_QUERY_LENGTH, description: 'The question or keywords.' } as const;
const k = { type: 'integer', minimum: 1, maximum: MAX_K } as const;
const name = { type: 'string', minLength: 1, maxLength: 200 } as const;
const globs = {
  type: 'array',
  maxItems: MAX_SCOPE_GLOBS,
  items: { type: 'string', minLength: 1, maxLength: MAX_GLOB_LENGTH },
  description:
    'Only spans of the files these globs match: .gitignore syntax relative to the indexed folder (e.g. "docs/", "*.py", "src/pkg/"); a glob that starts with "!" leaves out what it matches. Absent or empty: every file.',
} as const;
const offset = { type: 'integer', minimum: 0, description: 'Unicode code-point offset into the file.' } as const;

/** A reference to a shared schema (registered with `addSchema`, listed in OpenAPI `components`). */
const ref = (id: string) => ({ $ref: `${id}#` }) as const;

const lines = {
  $id: 'LineRange',
  type: 'object',
  required: ['start', 'end'],
  properties: { start: { type: 'integer', description: '1-based first line' }, end: { type: 'integer', description: '1-based last line (inclusive)' } },
} as const;

const sourceProperties = {
  file_path: { type: 'string' },
  first_character_index: { type: 'integer', description: 'Code-point offset of the first character (inclusive).' },
  last_character_index: { type: 'integer', description: 'Code-point offset one past the last character (exclusive).' },
} as const;

const source = {
  $id: 'Source',
  description: "A span of a file, in the benchmark's format.",
  type: 'object',
  required: ['file_path', 'first_character_index', 'last_character_index'],
  properties: sourceProperties,
} as const;

const hit = {
  $id: 'Hit',
  description: 'A search hit: the span, where it is, what it is and its score.',
  type: 'object',
  required: ['rank', 'file_path', 'first_character_index', 'last_character_index', 'lines', 'symbol', 'kind', 'score', 'stale'],
  properties: {
    rank: { type: 'integer' },
    ...sourceProperties,
    lines: ref('LineRange'),
    symbol: { type: 'string', description: "Qualified symbol or heading path; '' if none." },
    kind: { type: 'string' },
    score: { type: 'number' },
    stale: { type: 'boolean', description: 'The file changed on disk since indexing; the span may have moved.' },
    also_symbols: {
      type: 'array',
      items: { type: 'string' },
      description: 'The other definitions the span holds when it joins neighbouring chunks of its file; absent for none.',
    },
  },
} as const;

const errorBody = {
  $id: 'Error',
  description: 'Every error response: a stable code, what went wrong and how to fix it.',
  type: 'object',
  required: ['statusCode', 'code', 'message'],
  properties: {
    statusCode: { type: 'integer' },
    code: { type: 'string', description: 'Stable error code, e.g. INVALID_ARGUMENT, NOT_FOUND, QUEUE_FULL.' },
    message: { type: 'string' },
    hint: { type: 'string', description: 'How to fix the problem.' },
    field: { type: 'string', description: 'The request field that failed validation.' },
  },
} as const;

export const errorResponse = ref('Error');

const searchResult = {
  $id: 'SearchResult',
  type: 'object',
  required: ['question', 'retriever', 'retrieved_sources', 'hits'],
  properties: {
    question: { type: 'string' },
    retriever: { type: 'string' },
    retrieved_sources: { type: 'array', items: ref('Source') },
    hits: { type: 'array', items: ref('Hit') },
    no_matches: { type: 'string', description: 'Only when nothing matched: why (the words no indexed chunk holds, that the query has no word the index searches, or that no file in the globs matches).' },
    globs: { type: 'array', items: { type: 'string' }, description: 'The globs the search was limited to; absent for every file.' },
  },
} as const;

export const searchSchema = {
  operationId: 'search',
  summary: 'Retrieve the spans that best match a question',
  tags: ['search'],
  body: {
    type: 'object',
    required: ['query'],
    additionalProperties: false,
    properties: { query, k: { ...k, description: 'Number of hits (default 10).' }, retriever: { ...name, description: "One of the index's retrievers." }, globs },
  },
  response: { 200: ref('SearchResult'), '4xx': errorResponse, '5xx': errorResponse },
} as const;

const citedSource = {
  $id: 'CitedSource',
  description: 'A source the answer cites as [n], with the exact spans it quoted (extractive answers).',
  type: 'object',
  required: ['n', 'file_path', 'first_character_index', 'last_character_index', 'lines', 'symbol'],
  properties: {
    n: { type: 'integer', description: 'The [n] used in the answer: the n-th hit.' },
    ...sourceProperties,
    lines: ref('LineRange'),
    symbol: { type: 'string' },
    quotes: { type: 'array', items: { type: 'object', properties: { first_character_index: { type: 'integer' }, last_character_index: { type: 'integer' } } } },
  },
} as const;

const answerProperties = {
  question: { type: 'string' },
  answer: { type: 'string' },
  cited_sources: { type: 'array', items: ref('CitedSource') },
  dropped_citations: { type: 'array', items: { type: 'integer' } },
  generator: { type: 'string' },
  model_id: { type: 'string' },
  finish_reason: { type: 'string', enum: ['stop', 'length'] },
  sources_used: { type: 'integer' },
  prompt_tokens: { type: 'integer' },
  generated_tokens: { type: 'integer' },
  elapsed_ms: { type: 'integer' },
} as const;

export const answerSchema = {
  operationId: 'answer',
  summary: 'Answer a question from the retrieved spans, with citations',
  description:
    'Returns JSON, or with `Accept: text/event-stream` or `"stream": true` a stream of server-sent events: ' +
    '`sources` (the hits, as /search returns them), `queued` (only when waiting for the model), `token` ({text}, ' +
    'in order), then exactly one `done` (the answer, as the JSON response) or `error` ({code, message, hint}). ' +
    'Closing the stream cancels the generation. 503 QUEUE_FULL when too many answers are pending.',
  tags: ['answer'],
  body: {
    type: 'object',
    required: ['query'],
    additionalProperties: false,
    properties: {
      query,
      k: { ...k, description: 'Sources handed to the generator (default 5).' },
      generator: { ...name, description: 'Generator name, e.g. extractive or qwen3 (default: the server’s).' },
      retriever: name,
      globs: { ...globs, description: 'Answer from the files these globs match only (see /search).' },
      stream: { type: 'boolean', description: 'Stream server-sent events instead of one JSON response.' },
    },
  },
  response: {
    200: {
      description: 'The answer (JSON), or a text/event-stream when streaming.',
      type: 'object',
      required: ['question', 'answer', 'cited_sources', 'generator', 'retrieved_sources', 'hits'],
      properties: {
        ...answerProperties,
        retriever: { type: 'string' },
        retrieved_sources: { type: 'array', items: ref('Source') },
        hits: { type: 'array', items: ref('Hit') },
        globs: { type: 'array', items: { type: 'string' }, description: 'The globs the answer was limited to; absent for every file.' },
      },
    },
    '4xx': errorResponse,
    '5xx': errorResponse,
  },
} as const;

export const sourcesSchema = {
  operationId: 'readSpan',
  summary: 'The exact text of a span of an indexed file',
  description: 'Only files of the indexed corpus are served; `..`, absolute paths and links leading out of the corpus are refused.',
  tags: ['sources'],
  querystring: {
    type: 'object',
    required: ['file_path'],
    additionalProperties: false,
    properties: {
      file_path: { type: 'string', minLength: 1, maxLength: 4096, description: 'As /search returns it, or a path inside the corpus.' },
      start: { ...offset, description: 'First code point (inclusive); default 0.' },
      end: { ...offset, description: 'One past the last code point; default the end of the file.' },
    },
  },
  response: {
    200: {
      type: 'object',
      required: ['file_path', 'first_character_index', 'last_character_index', 'start_line', 'end_line', 'file_length', 'text', 'stale'],
      properties: {
        ...sourceProperties,
        start_line: { type: 'integer' },
        end_line: { type: 'integer' },
        file_length: { type: 'integer', description: 'Length of the file in code points.' },
        text: { type: 'string' },
        stale: { type: 'boolean' },
      },
    },
    '4xx': errorResponse,
    '5xx': errorResponse,
  },
} as const;

export const healthSchema = {
  operationId: 'health',
  summary: 'Liveness',
  tags: ['status'],
  response: {
    200: {
      type: 'object',
      required: ['status', 'version', 'uptime_seconds'],
      properties: { status: { type: 'string', enum: ['ok'] }, version: { type: 'string' }, uptime_seconds: { type: 'integer' } },
    },
  },
} as const;

const stringList = { type: 'array', items: { type: 'string' } } as const;

export const statsSchema = {
  operationId: 'indexStats',
  summary: 'What is indexed, how old it is, and whether the corpus changed since',
  tags: ['status'],
  response: {
    200: {
      type: 'object',
      required: ['files', 'chunks', 'index_age_seconds', 'retriever', 'generator', 'stale'],
      properties: {
        index_dir: { type: 'string' },
        corpus_dir: { type: 'string' },
        files: { type: 'integer' },
        chunks: { type: 'integer' },
        index_created_at: { type: 'string' },
        index_age_seconds: { type: 'integer' },
        tool_version: { type: 'string' },
        retriever: { type: 'string' },
        retrievers: stringList,
        generator: { type: 'string' },
        generators: stringList,
        stale: { type: 'boolean', description: 'True when any indexed file changed or disappeared since indexing.' },
        changed_count: { type: 'integer' },
        missing_count: { type: 'integer' },
        changed_files: stringList,
        missing_files: stringList,
        answers: {
          type: 'object',
          properties: { active: { type: 'integer' }, queued: { type: 'integer' }, maxConcurrent: { type: 'integer' }, maxQueued: { type: 'integer' } },
        },
        search_workers: {
          type: 'object',
          description: 'Worker threads running searches (zeros when searches run on the server thread); restarts counts workers replaced after stopping.',
          properties: { workers: { type: 'integer' }, starting: { type: 'integer' }, restarts: { type: 'integer' }, in_flight: { type: 'integer' } },
        },
        watch: {
          type: ['object', 'null'],
          description:
            'The corpus watcher (`--watch`): milliseconds between looks by the clock, whether looks start on the file system\'s change reports (false: by the clock only), updates served, when the last one was, and why the last look or update failed if it did; null when the index is not watched.',
          properties: {
            interval_ms: { type: 'integer' },
            change_reports: { type: 'boolean' },
            updates: { type: 'integer' },
            last_update_at: { type: ['string', 'null'] },
            last_failure: { type: ['string', 'null'] },
          },
        },
        uptime_seconds: { type: 'integer' },
      },
    },
  },
} as const;

export const mcpSchema = {
  operationId: 'mcp',
  summary: 'Model Context Protocol endpoint (Streamable HTTP, stateless)',
  description: 'JSON-RPC 2.0 over POST. Tools: search_code {query, k, globs}, read_span {file_path, start, end}, index_stats {}.',
  tags: ['mcp'],
} as const;

/** Schemas shared by several routes: registered once with `addSchema` (by `$id`), named in OpenAPI `components.schemas`. */
export const SHARED_SCHEMAS = [lines, source, hit, errorBody, searchResult, citedSource] as const;
