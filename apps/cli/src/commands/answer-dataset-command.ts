import { basename, join } from 'node:path';
import { parseSearchResults } from '@rag/core';
import { answerDatasetToFile, checkpointPathFor } from '@rag/generation';
import { createIndexedSpanReader, createUnindexedWordsReader } from '@rag/service';
import { assertNotInput, INDEX_DIR_FLAG, STORE_FLAG, JSON_FLAG, QUIET_FLAG, VERBOSE_FLAG, writeErr, writeOut, type Command } from '../command.js';
import { GENERATOR_FLAGS, openGenerator } from '../generators.js';
import { indexDirFrom, invocationDir, resolveUserPath } from '../paths.js';
import { createProgress } from '../progress.js';
import { abortOnInterrupt } from './answer-command.js';
import { readTextFile } from './search-dataset-command.js';

export const answerDatasetCommand: Command = {
  name: 'answer_dataset',
  flags: [
    { name: 'student_search_results_path', type: 'string', metavar: 'FILE', required: true, description: 'Search results JSON (from `rag search_dataset`)' },
    { name: 'save_directory', type: 'string', metavar: 'DIR', required: true, description: 'Directory for the answers (same file name as the results)' },
    { name: 'k', type: 'integer', metavar: 'N', min: 1, max: 1000, description: 'Answer from at most the first k sources', defaultLabel: "the results file's k" },
    ...GENERATOR_FLAGS,
    INDEX_DIR_FLAG,
    STORE_FLAG,
    JSON_FLAG,
    QUIET_FLAG,
    VERBOSE_FLAG,
  ],
  examples: ['rag answer_dataset --student_search_results_path out/questions.json --save_directory answers/'],
  async run(flags) {
    const quiet = flags.quiet === true;
    const resultsPath = resolveUserPath(flags.student_search_results_path as string);
    const results = parseSearchResults(await readTextFile(resultsPath, 'student_search_results_path'), resultsPath);
    const outPath = join(resolveUserPath(flags.save_directory as string), basename(resultsPath));
    assertNotInput(outPath, resultsPath, 'save_directory');
    const indexDir = indexDirFrom(flags);
    const k = (flags.k as number | undefined) ?? results.k;
    // The questions' words the corpus never holds or barely holds, which the generator is told with each question.
    const unindexed = await createUnindexedWordsReader(indexDir);
    const { generator } = await openGenerator(flags, indexDir, { k: k ?? 0, retriever: 'results-file' });
    const progress = createProgress(process.stderr, !quiet);
    const controller = abortOnInterrupt();
    let tokensPerSecond = 0;
    try {
      const result = await answerDatasetToFile(results, outPath, {
        generator,
        readSpan: await createIndexedSpanReader(indexDir, invocationDir()),
        ...(unindexed ? { unindexedWords: (question: string) => unindexed.unindexedWords(question), rareWords: (question: string) => unindexed.rareWords(question) } : {}),
        ...(k === undefined ? {} : { k }),
        signal: controller.signal,
        onProgress: (p) => {
          tokensPerSecond = p.tokensPerSecond;
          progress.update({ phase: 'answer', done: p.done, total: p.total }, `${p.tokensPerSecond.toFixed(0)} tokens/s`);
        },
      });
      progress.done();
      if (result.resumed > 0) writeErr(`resumed ${result.resumed} answers from ${checkpointPathFor(outPath)}`, quiet);
      if (flags.json) {
        const seconds = result.elapsedMs / 1000;
        writeOut(
          JSON.stringify(
            { results_path: resultsPath, output_path: outPath, answered: result.answered, resumed: result.resumed, generator: generator.name, seconds, tokens_per_second: tokensPerSecond },
            null,
            2,
          ),
        );
        return;
      }
      writeOut(
        `Answered ${result.answered} questions with ${generator.name} in ${(result.elapsedMs / 1000).toFixed(2)}s (${tokensPerSecond.toFixed(0)} tokens/s) → ${outPath}`,
      );
    } finally {
      progress.done();
      await generator.dispose();
      await unindexed?.close();
    }
  },
};
