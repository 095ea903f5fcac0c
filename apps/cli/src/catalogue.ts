import type { Command } from './command.js';

/** A command as `rag --help` lists it; its flags and code are imported only when it is asked for. */
export interface CommandEntry {
  name: string;
  /** The line `rag --help` shows and `rag <command> --help` starts with. */
  summary: string;
  load(): Promise<Command>;
}

/**
 * Every command, in the order `rag --help` lists them. Each is a dynamic import so that the
 * bundler gives it its own chunk: a one-shot `rag search` compiles the search path only, not
 * the indexer, the answer generators or the server.
 */
export const COMMANDS: readonly CommandEntry[] = [
  { name: 'index', summary: 'Chunk a corpus directory and build a search index over it.', load: async () => (await import('./commands/index-command.js')).indexCommand },
  { name: 'search', summary: 'Find the spans of the indexed corpus that best match a question.', load: async () => (await import('./commands/search-command.js')).searchCommand },
  { name: 'search_dataset', summary: 'Search every question of a dataset file and save the results in the benchmark format.', load: async () => (await import('./commands/search-dataset-command.js')).searchDatasetCommand },
  { name: 'evaluate', summary: 'Score search results against an answered dataset: recall@1/3/5/10 and MRR@10.', load: async () => (await import('./commands/evaluate-command.js')).evaluateCommand },
  { name: 'answer', summary: 'Answer a question from the retrieved sources, with inline [n] citations.', load: async () => (await import('./commands/answer-command.js')).answerCommand },
  { name: 'answer_dataset', summary: 'Answer every question of a search-results file from its retrieved sources; resumable.', load: async () => (await import('./commands/answer-dataset-command.js')).answerDatasetCommand },
  { name: 'serve', summary: 'Serve the index over HTTP: search and streamed-answer API, a web page, and MCP at /mcp.', load: async () => (await import('./commands/serve-command.js')).serveCommand },
  { name: 'mcp', summary: 'Serve the index to an MCP client over stdio (tools search_code, read_span, index_stats).', load: async () => (await import('./commands/mcp-command.js')).mcpCommand },
  { name: 'verify', summary: 'Check every file of the index against the checksums recorded when it was written.', load: async () => (await import('./commands/verify-command.js')).verifyCommand },
];
