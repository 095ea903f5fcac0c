// Quality benchmark: index the vLLM corpus with the real CLI, search both public answered
// datasets (k = 10), score them with `rag evaluate`, print recall@1/3/5/10, MRR@10 and the
// mean top-5 span length. `--check` exits non-zero when recall@5 is below the floors.
//
//   pnpm bench:quality [--retriever bm25,embedding,hybrid] [--check] [--keep DIR]
// Index seconds are the whole `rag index` run (chunk + fit + save); queries/s are
// search_dataset's own timing over the 100 questions of each set.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATASETS, findSharedDir, formatTable, gitRevision, parseBenchArgs, runCli } from './bench-lib.mjs';

/** recall@5 floors that CI enforces (the retrieval-quality issue's floors; the lexical issue's were 0.70 / 0.90). */
const FLOORS = { dataset_code_public: 0.8, dataset_docs_public: 0.94 };

const flags = parseBenchArgs(process.argv.slice(2));
const shared = findSharedDir();
const retrievers = String(flags.retriever ?? 'bm25').split(',');
const work = flags.keep ? String(flags.keep) : mkdtempSync(join(tmpdir(), 'rag-bench-quality-'));

const rows = [];
const recallAt5 = {};
let failed = false;
try {
  for (const retriever of retrievers) {
    const indexDir = join(work, `index-${retriever}`);
    const t0 = performance.now();
    // Run from shared/ with corpus dir data/raw so output paths match the datasets' file_path.
    runCli(['index', '--corpus_dir', 'data/raw', '--index_dir', indexDir, '--retriever', retriever, '--quiet', '--json'], { cwd: shared });
    const indexSeconds = (performance.now() - t0) / 1000;
    for (const dataset of DATASETS) {
      const datasetPath = join(shared, 'data', 'datasets', 'AnsweredQuestions', `${dataset}.json`);
      const saveDir = join(work, `results-${retriever}`);
      const searched = runCli(['search_dataset', '--dataset_path', datasetPath, '--k', '10', '--save_directory', saveDir, '--index_dir', indexDir, '--retriever', retriever, '--quiet'], { cwd: shared });
      // search_dataset reports its own search time (index load excluded).
      const [, count, seconds] = /Searched (\d+) questions .* in ([\d.]+)s/.exec(searched) ?? [];
      const qps = count && Number(seconds) > 0 ? Math.round(Number(count) / Number(seconds)) : NaN;
      const report = JSON.parse(
        runCli(['evaluate', '--student_search_results_path', join(saveDir, `${dataset}.json`), '--dataset_path', datasetPath, '--k', '10', '--json', '--quiet'], { cwd: shared }),
      );
      const r = report.recall;
      // The zero-download embedder alone is a weaker retriever by design; the floors apply to
      // the lexical and hybrid retrievers, and hybrid must not lose to bm25 (checked below).
      const floor = retriever === 'embedding' ? 0 : FLOORS[dataset];
      const ok = r['5'] >= floor;
      if (!ok) failed = true;
      recallAt5[`${retriever}/${dataset}`] = r['5'];
      rows.push([retriever, dataset, r['1'].toFixed(3), r['3'].toFixed(3), r['5'].toFixed(3), r['10'].toFixed(3), report.mrr.toFixed(3), Math.round(report.meanSpanLength), indexSeconds.toFixed(1), qps, `${floor.toFixed(2)} ${ok ? 'ok' : 'BELOW'}`]);
    }
  }
} finally {
  if (!flags.keep) rmSync(work, { recursive: true, force: true });
}

console.log(`rag quality benchmark @ ${gitRevision()} — vLLM 0.10.1, k = 10, spans ≤ 2000 chars`);
console.log(formatTable(['retriever', 'dataset', 'R@1', 'R@3', 'R@5', 'R@10', 'MRR@10', 'span@5', 'index s', 'queries/s', 'R@5 floor'], rows));
for (const dataset of DATASETS) {
  const hybrid = recallAt5[`hybrid/${dataset}`];
  const bm25 = recallAt5[`bm25/${dataset}`];
  if (hybrid !== undefined && bm25 !== undefined && hybrid < bm25) {
    console.error(`hybrid recall@5 ${hybrid.toFixed(3)} is below bm25's ${bm25.toFixed(3)} on ${dataset}.`);
    failed = true;
  }
}
if (flags.check && failed) {
  console.error('error: recall@5 fell below its floor, or hybrid fell below bm25 (see above).');
  process.exit(1);
}
