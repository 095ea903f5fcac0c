import { RagError } from '@rag/core';
import { answer, toSourceForAnswer, type AnswerResult } from '@rag/generation';
import { findStaleFiles, searchSources, toMinimalSource } from '@rag/service/search';
import { GLOB_FLAG, INDEX_DIR_FLAG, STORE_FLAG, JSON_FLAG, QUIET_FLAG, readGlobs, readQuery, showText, VERBOSE_FLAG, writeErr, writeOut, type Command } from '../command.js';
import { GENERATOR_FLAGS, openGenerator } from '../generators.js';
import { openSessionFromFlags } from '../session.js';
import { describeStale } from '../stale.js';
import { RETRIEVER_FLAG } from './search-command.js';
import { EMBEDDING_MODEL_FLAG } from '../retrievers.js';

export const DEFAULT_ANSWER_K = 5;

/** Aborts on Ctrl-C so a long generation stops cleanly instead of being killed mid-write. */
export function abortOnInterrupt(): AbortController {
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort(new RagError('CANCELLED', 'Interrupted.')));
  return controller;
}

export const answerCommand: Command = {
  name: 'answer',
  flags: [
    { name: 'query', type: 'string', metavar: 'TEXT', required: true, positional: 'words', description: 'The question' },
    { name: 'k', type: 'integer', metavar: 'N', min: 1, max: 100, description: 'Number of sources to retrieve', defaultLabel: String(DEFAULT_ANSWER_K) },
    ...GENERATOR_FLAGS,
    INDEX_DIR_FLAG,
    STORE_FLAG,
    RETRIEVER_FLAG,
    EMBEDDING_MODEL_FLAG,
    GLOB_FLAG,
    JSON_FLAG,
    QUIET_FLAG,
    VERBOSE_FLAG,
  ],
  examples: [
    'rag answer "What TCP port does the development server listen on by default?"',
    'rag answer --query "What TCP port does the development server listen on by default?"',
    'rag answer --query "How do I enable compression?" --glob "docs/"',
    'rag answer --query "How is the KV cache sized?" --generator qwen3 --json',
    'rag answer --query "…" --model_dir ./models/Qwen3-0.6B-ONNX',
  ],
  async run(flags) {
    const query = readQuery(flags);
    const k = (flags.k as number | undefined) ?? DEFAULT_ANSWER_K;
    const globs = readGlobs(flags);
    const { indexDir, session } = await openSessionFromFlags(flags, { oneQuestion: true });
    const ranked = await searchSources(session, query, k, globs);
    // After the search, which has fetched the words' part of a paged dictionary already.
    const unindexedWords = await session.retriever.unindexedWords?.(query);
    const rareWords = await session.retriever.rareWords?.(query);
    const sources = ranked.map((hit) => toSourceForAnswer(hit.chunk, hit.file_path));
    const warning = describeStale(await findStaleFiles(session, ranked.map((hit) => hit.fileInCorpus)));
    if (warning) writeErr(warning, flags.quiet === true);
    const { generator } = await openGenerator(flags, indexDir, { k, retriever: session.retriever.name });
    const controller = abortOnInterrupt();
    const streaming = !flags.json;
    let result: AnswerResult;
    try {
      result = await answer(generator, { question: query, sources, ...(unindexedWords ? { unindexedWords } : {}), ...(rareWords ? { rareWords } : {}) }, {
        signal: controller.signal,
        onToken: streaming ? (text) => process.stdout.write(showText(text, true)) : undefined,
      });
    } finally {
      await generator.dispose();
    }
    for (const n of result.droppedCitations) writeErr(`warning: the answer cited [${n}], which matches no source; dropped.`, flags.quiet === true);
    if (flags.json) {
      writeOut(
        JSON.stringify(
          {
            question: query,
            retrieved_sources: sources.map(toMinimalSource),
            answer: result.answer,
            cited_sources: result.citedSources,
            generator: result.modelId ? `${result.generator} (${result.modelId})` : result.generator,
            ...(globs && globs.length > 0 ? { globs } : {}),
          },
          null,
          2,
        ),
      );
      return;
    }
    const cited = result.citedSources.map((s) => `[${s.n}] ${showText(s.file_path)}:${s.start_line}-${s.end_line}${s.symbol ? ` ${showText(s.symbol)}` : ''}`);
    writeOut(`\n\n${cited.length > 0 ? `Sources:\n${cited.join('\n')}` : 'No sources cited.'}`);
    writeErr(`(answered by ${result.generator}${result.modelId ? ` ${result.modelId}` : ''}${result.cached ? ', from cache' : ''})`, flags.quiet === true);
  },
};
