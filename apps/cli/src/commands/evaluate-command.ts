import { parseDataset, parseSearchResults } from '@rag/core';
import { DEFAULT_MAX_CONTEXT_LENGTH, evaluate, formatReport } from '@rag/eval';
import { JSON_FLAG, QUIET_FLAG, VERBOSE_FLAG, writeErr, writeOut, type Command } from '../command.js';
import { resolveUserPath } from '../paths.js';
import { readTextFile } from './search-dataset-command.js';
import { DEFAULT_K, MAX_K } from './search-command.js';

export const evaluateCommand: Command = {
  name: 'evaluate',
  flags: [
    { name: 'student_search_results_path', type: 'string', metavar: 'FILE', required: true, description: 'Search results JSON ({"search_results": [...]})' },
    { name: 'dataset_path', type: 'string', metavar: 'FILE', required: true, description: 'Answered dataset JSON (with sources)' },
    { name: 'k', type: 'integer', metavar: 'N', min: 1, max: MAX_K, description: 'Most sources a question may list', defaultLabel: String(DEFAULT_K) },
    { name: 'max_context_length', type: 'integer', metavar: 'N', min: 1, description: 'Longest allowed source span in characters', defaultLabel: String(DEFAULT_MAX_CONTEXT_LENGTH) },
    { name: 'per_question', type: 'boolean', description: 'Also list every question with the rank of its first hit' },
    JSON_FLAG,
    QUIET_FLAG,
    VERBOSE_FLAG,
  ],
  examples: ['rag evaluate --student_search_results_path out/questions.json --dataset_path datasets/mini/questions.json'],
  async run(flags) {
    const resultsPath = resolveUserPath(flags.student_search_results_path as string);
    const datasetPath = resolveUserPath(flags.dataset_path as string);
    const results = parseSearchResults(await readTextFile(resultsPath, 'student_search_results_path'), resultsPath);
    const dataset = parseDataset(await readTextFile(datasetPath, 'dataset_path'), datasetPath);
    const report = evaluate(dataset, results, {
      k: (flags.k as number | undefined) ?? DEFAULT_K,
      maxContextLength: (flags.max_context_length as number | undefined) ?? DEFAULT_MAX_CONTEXT_LENGTH,
    });
    for (const warning of report.warnings) writeErr(`warning: ${warning}`, flags.quiet === true);
    if (flags.json) {
      const { perQuestion, ...summary } = report;
      writeOut(JSON.stringify(flags.per_question ? report : summary, null, 2));
      return;
    }
    // Warnings already went to stderr; stdout keeps only the table.
    writeOut(formatReport({ ...report, warnings: [] }, { perQuestion: flags.per_question === true }));
  },
};
