// The first stage with and without dynamic pruning (MaxScore), side by side in one process:
// posting entries read and milliseconds per query over the 200 public questions at the
// second stage's depth (k = 50), on the vLLM corpus and on hard-linked copies of it. Both
// return identical hits (checked here for every question, and property-tested).
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


function measure(index, terms, pruning) {
  for (const t of terms) index.searchTerms(t, 50, { pruning }); // warm-up, and the pruning bounds
  const stats = { postingsVisited: 0 };
  const started = performance.now();
  for (let pass = 0; pass < passes; pass++) for (const t of terms) index.searchTerms(t, 50, { pruning, stats });
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
    const identical = terms.every((t) => JSON.stringify(index.searchTerms(t, 50, { pruning: true })) === JSON.stringify(index.searchTerms(t, 50)));
    const exhaustive = measure(index, terms, false);
    const pruned = measure(index, terms, true);
    rows.push([`${scale}×`, String(chunks.length), exhaustive.postings.toFixed(0), pruned.postings.toFixed(0), `${(exhaustive.postings / pruned.postings).toFixed(1)}×`, exhaustive.ms.toFixed(2), pruned.ms.toFixed(2), (1000 / exhaustive.ms).toFixed(0), (1000 / pruned.ms).toFixed(0), identical ? 'yes' : 'NO']);
    rmSync(corpus, { recursive: true, force: true });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(`rag first-stage pruning benchmark @ ${gitRevision()} — vLLM 0.10.1 copies, 200 public questions, k = 50, ${passes} passes`);
console.log(formatTable(['corpus', 'chunks', 'postings/query', 'pruned', 'fewer', 'ms/query', 'pruned ms', 'queries/s', 'pruned q/s', 'identical'], rows));
if (rows.some((row) => row.at(-1) !== 'yes')) process.exitCode = 1;
