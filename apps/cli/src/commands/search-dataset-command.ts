import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { ensureDirectory, parseDataset, RagError, writeFileAtomic } from '@rag/core';
import { assertNotInput, GLOB_FLAG, INDEX_DIR_FLAG, STORE_FLAG, JSON_FLAG, QUIET_FLAG, readGlobs, VERBOSE_FLAG, writeErr, writeOut, type Command } from '../command.js';
import { findStaleFiles, searchSources, toMinimalSource } from '@rag/service/search';
import { resolveUserPath } from '../paths.js';
import { createProgress } from '../progress.js';
import { openSessionFromFlags } from '../session.js';
import { describeStale } from '../stale.js';
import { DEFAULT_K, K_FLAG, RETRIEVER_FLAG } from './search-command.js';
import { EMBEDDING_MODEL_FLAG } from '../retrievers.js';

export async function readTextFile(path: string, flag: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'does not exist' : code === 'EISDIR' ? 'is a directory' : (error as Error).message;
    throw new RagError('INVALID_ARGUMENT', `--${flag} ${path} ${why}.`, { hint: `Pass the path of a JSON file with --${flag}.`, cause: error });
  }
}

export const searchDatasetCommand: Command = {
  name: 'search_dataset',
  flags: [
    { name: 'dataset_path', type: 'string', metavar: 'FILE', required: true, description: 'Dataset JSON ({"rag_questions": [...]})' },
    K_FLAG,
    { name: 'save_directory', type: 'string', metavar: 'DIR', required: true, description: 'Directory for the results (same file name as the dataset)' },
    INDEX_DIR_FLAG,
    STORE_FLAG,
    RETRIEVER_FLAG,
    EMBEDDING_MODEL_FLAG,
    GLOB_FLAG,
    JSON_FLAG,
    QUIET_FLAG,
    VERBOSE_FLAG,
  ],
  examples: ['rag search_dataset --dataset_path datasets/mini/questions.json --save_directory out/', 'rag search_dataset --dataset_path docs-questions.json --save_directory out/ --glob "docs/"'],
  async run(flags) {
    const quiet = flags.quiet === true;
    const datasetPath = resolveUserPath(flags.dataset_path as string);
    const dataset = parseDataset(await readTextFile(datasetPath, 'dataset_path'), datasetPath);
    const saveDirectory = resolveUserPath(flags.save_directory as string);
    const outPath = join(saveDirectory, basename(datasetPath));
    assertNotInput(outPath, datasetPath, 'save_directory');
    // Before any search: an output folder that cannot be made fails now, not after the work.
    await ensureDirectory(saveDirectory);
    const k = (flags.k as number | undefined) ?? DEFAULT_K;
    const globs = readGlobs(flags);
    const { session } = await openSessionFromFlags(flags);
    // A bad glob fails here, before the first question.
    if (globs && globs.length > 0) session.scopeOf(globs);
    const progress = createProgress(process.stderr, !quiet);
    const total = dataset.rag_questions.length;
    const results = [];
    const cited = new Set<string>();
    const started = performance.now();
    for (const [i, question] of dataset.rag_questions.entries()) {
      const sources = question.question.trim() === '' ? [] : await searchSources(session, question.question, k, globs);
      if (question.question.trim() === '') writeErr(`warning: question ${question.question_id} is empty; it gets no sources.`, quiet);
      results.push({ question_id: question.question_id, question: question.question, retrieved_sources: sources.map(toMinimalSource) });
      for (const source of sources) cited.add(source.fileInCorpus);
      progress.update({ phase: 'search', done: i + 1, total });
    }
    progress.done();
    const seconds = (performance.now() - started) / 1000;
    const warning = describeStale(await findStaleFiles(session, cited));
    if (warning) writeErr(warning, quiet);
    await writeFileAtomic(outPath, `${JSON.stringify({ search_results: results, k }, null, 2)}\n`);
    if (flags.json) {
      const questionsPerSecond = seconds > 0 ? total / seconds : null;
      writeOut(JSON.stringify({ dataset_path: datasetPath, output_path: outPath, questions: total, k, retriever: session.retriever.name, seconds, questions_per_second: questionsPerSecond }, null, 2));
      return;
    }
    writeOut(`Searched ${total} questions with ${session.retriever.name} (k=${k}) in ${seconds.toFixed(2)}s → ${outPath}`);
  },
};
