// The first stage three ways, side by side in one process: every posting summed, block-max
// (the default: blocks of chunks whose bound is below the k-th best score are skipped) and
// MaxScore; posting entries read and milliseconds per query over the 200 public questions at
// the second stage's depth (k = 50), on the vLLM corpus and on hard-linked copies of it. All
// three return identical hits (checked here for every question, and property-tested).
//
//   pnpm bench:pruning [--scales 1,2,4,8] [--passes 5]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chunkCorpus } from '../packages/chunking/dist/index.js';
import { createBm25Retriever } from '../packages/bm25/dist/index.js';
import { DATASETS, findSharedDir, formatTable, gitRevision, linkTree, parseBenchArgs } from './bench-lib.mjs';

const flags = parseBenchArgs(process.argv.slice(2));
const scales = String(flags.scales ?? '1,2,4').split(',').map(Number);
const passes = Number(flags.passes ?? 5);
const shared = findSharedDir();
const work = mkdtempSync(join(tmpdir(), 'rag-bench-pruning-'));
const questions = DATASETS.flatMap((name) => JSON.parse(readFileSync(join(shared, 'data', 'datasets', 'AnsweredQuestions', `${name}.json`), 'utf8')).rag_questions.map((q) => q.question));


const MODES = {
  every: { blocks: false },
  blocks: {},
  maxscore: { pruning: true },
};

function measure(index, terms, mode) {
  for (const t of terms) index.searchTerms(t, 50, mode); // warm-up, and each term's impacts and bounds
  const stats = { postingsVisited: 0 };
  const started = performance.now();
  for (let pass = 0; pass < passes; pass++) for (const t of terms) index.searchTerms(t, 50, { ...mode, stats });
  const runs = passes * terms.length;
  return { postings: stats.postingsVisited / runs, ms: (performance.now() - started) / runs };
}

const rows = [];
try {
  for (const scale of scales) {
    const corpus = join(work, `corpus-${scale}x`);
    for (let i = 0; i < scale; i++) linkTree(join(shared, 'data', 'raw'), join(corpus, `copy-${i}`));
    const { chunks } = await chunkCorpus(corpus);
    const { index } = createBm25Retriever(chunks);
    const terms = questions.map((q) => index.resolveQuery(q));
    const identical = terms.every((t) => {
      const every = JSON.stringify(index.searchTerms(t, 50, MODES.every));
      return every === JSON.stringify(index.searchTerms(t, 50, MODES.blocks)) && every === JSON.stringify(index.searchTerms(t, 50, MODES.maxscore));
    });
    // Alternated twice, so a slower stretch of the machine does not fall on one mode only.
    const runs = { every: [], blocks: [], maxscore: [] };
    for (let round = 0; round < 2; round++) for (const [name, mode] of Object.entries(MODES)) runs[name].push(measure(index, terms, mode));
    const best = (name) => ({ postings: runs[name][0].postings, ms: Math.min(...runs[name].map((r) => r.ms)) });
    const [every, blocks, maxscore] = [best('every'), best('blocks'), best('maxscore')];
    rows.push([
      `${scale}×`,
      String(chunks.length),
      every.postings.toFixed(0),
      blocks.postings.toFixed(0),
      maxscore.postings.toFixed(0),
      every.ms.toFixed(3),
      blocks.ms.toFixed(3),
      maxscore.ms.toFixed(3),
      (1000 / blocks.ms).toFixed(0),
      identical ? 'yes' : 'NO',
    ]);
    rmSync(corpus, { recursive: true, force: true });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(`rag first-stage pruning benchmark @ ${gitRevision()} — vLLM 0.10.1 copies, 200 public questions, k = 50, best of 2 × ${passes} passes`);
console.log(
  formatTable(
    ['corpus', 'chunks', 'postings/query: every', 'block-max', 'MaxScore', 'ms/query: every', 'block-max', 'MaxScore', 'block-max q/s', 'identical'],
    rows,
  ),
);
if (rows.some((row) => row.at(-1) !== 'yes')) process.exitCode = 1;
