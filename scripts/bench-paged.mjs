// A PostgreSQL reader that loads the bm25 index whole against one that searches it from pages
// (`?paged_from=0`), side by side in one run, on the vLLM corpus and on hard-linked copies of
// it: a throwaway PostgreSQL server on loopback, each corpus indexed into its own schema, then
// one fresh process per reader (they take turns) that opens the index, searches the 200
// public questions twice (k 10, hits and their texts: a cold pass, then a warm one) and
// reports its memory after a GC. Both readers must return identical top-10s.
//
//   pnpm bench:paged [--scales 1,4] [--rounds 2]
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATASETS, findSharedDir, formatTable, gitRevision, linkTree, parseBenchArgs, REPO_ROOT, runCli } from './bench-lib.mjs';

const flags = parseBenchArgs(process.argv.slice(2));
const servicePath = join(REPO_ROOT, 'packages', 'service', 'dist', 'index.js');

const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];

if (flags.reader) {
  // One reader process: open, two passes over the questions, memory after a GC.
  const service = await import(servicePath);
  const questions = JSON.parse(readFileSync(flags.questions, 'utf8'));
  const started = performance.now();
  const session = await service.openSearchSession(flags.reader, { pathBase: flags.work });
  await service.searchSources(session, 'warm up the retriever', 10);
  const openSeconds = (performance.now() - started) / 1000;
  const passes = [];
  const digest = createHash('sha256');
  for (let pass = 0; pass < 2; pass++) {
    const times = [];
    for (const question of questions) {
      const t = performance.now();
      const sources = await service.searchSources(session, question, 10);
      times.push(performance.now() - t);
      if (pass === 0) for (const s of sources) digest.update(`${s.file_path}:${s.first_character_index}-${s.last_character_index}:${s.score}:${s.chunk.text}\n`);
    }
    passes.push({ p50: quantile(times, 0.5), p99: quantile(times, 0.99), mean: times.reduce((a, b) => a + b, 0) / times.length });
  }
  globalThis.gc?.();
  const memory = process.memoryUsage();
  // What the bm25 retriever's two caches hold: per-term impacts (both modes) and fetched lists (pages only).
  const index = session.retriever.index;
  const impactsMB = index.stats().cachedImpactBytes / 2 ** 20;
  const listsMB = (index.postings.stats?.().cachedBytes ?? 0) / 2 ** 20;
  console.log(JSON.stringify({ openSeconds, passes, rssMB: memory.rss / 2 ** 20, heapMB: memory.heapUsed / 2 ** 20, arrayBuffersMB: memory.arrayBuffers / 2 ** 20, impactsMB, listsMB, digest: digest.digest('hex') }));
  process.exit(0);
}

const shared = findSharedDir();
const scales = String(flags.scales ?? '1,4').split(',').map(Number);
const rounds = Number(flags.rounds ?? 2);
const testing = join(REPO_ROOT, 'packages', 'postgres', 'dist', 'testing.js');
for (const path of [testing, servicePath]) {
  if (!existsSync(path)) {
    console.error(`error: ${path} is missing.\n  hint: run \`pnpm build\` first.`);
    process.exit(2);
  }
}
const { findPostgresBin, startTestCluster } = await import(testing);
if (!findPostgresBin()) {
  console.error('error: PostgreSQL is not installed.\n  hint: apt-get install postgresql (the bench starts its own server on loopback).');
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'rag-bench-paged-'));
const questionsFile = join(work, 'questions.json');
const questions = DATASETS.flatMap((name) => JSON.parse(readFileSync(join(shared, 'data', 'datasets', 'AnsweredQuestions', `${name}.json`), 'utf8')).rag_questions.map((q) => q.question));
await import('node:fs').then(({ writeFileSync }) => writeFileSync(questionsFile, JSON.stringify(questions)));

function reader(location) {
  const result = spawnSync(process.execPath, ['--expose-gc', process.argv[1], '--reader', location, '--questions', questionsFile, '--work', work], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (result.status !== 0) throw new Error(`reader of ${location} failed (${result.status}): ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1));
}

const cluster = await startTestCluster();
const table = [];
try {
  for (const scale of scales) {
    const corpus = join(work, `corpus-${scale}x`);
    for (let i = 0; i < scale; i++) linkTree(join(shared, 'data', 'raw'), join(corpus, `copy-${i}`));
    const url = `${cluster.url}?schema=vllm_${scale}x`;
    runCli(['index', '--corpus_dir', corpus, '--store', url, '--quiet'], { cwd: work });
    const modes = { whole: `${url}&paged_from=${Number.MAX_SAFE_INTEGER}`, paged: `${url}&paged_from=0` };
    // Readers take turns; each keeps its best (lowest) figures over the rounds.
    const best = {};
    for (let round = 0; round < rounds; round++) {
      for (const [mode, location] of Object.entries(modes)) {
        const r = reader(location);
        const kept = best[mode];
        best[mode] = kept
          ? {
              ...r,
              openSeconds: Math.min(kept.openSeconds, r.openSeconds),
              rssMB: Math.min(kept.rssMB, r.rssMB),
              heapMB: Math.min(kept.heapMB, r.heapMB),
              arrayBuffersMB: Math.min(kept.arrayBuffersMB, r.arrayBuffersMB),
              passes: r.passes.map((p, i) => ({ p50: Math.min(p.p50, kept.passes[i].p50), p99: Math.min(p.p99, kept.passes[i].p99), mean: Math.min(p.mean, kept.passes[i].mean) })),
              digests: [...kept.digests, r.digest],
            }
          : { ...r, digests: [r.digest] };
      }
    }
    const digests = new Set([...best.whole.digests, ...best.paged.digests]);
    for (const mode of ['whole', 'paged']) {
      const r = best[mode];
      table.push([
        `${scale}×`,
        mode === 'whole' ? 'loaded whole' : 'from pages (`?paged_from=0`)',
        `${r.openSeconds.toFixed(2)} s`,
        `${r.passes[0].p50.toFixed(2)} / ${r.passes[0].p99.toFixed(2)} ms`,
        `${r.passes[1].p50.toFixed(2)} / ${r.passes[1].p99.toFixed(2)} ms`,
        `${r.rssMB.toFixed(0)} MB`,
        `${r.arrayBuffersMB.toFixed(1)} MB`,
        `${r.impactsMB.toFixed(1)} / ${r.listsMB.toFixed(1)} MB`,
        digests.size === 1 ? 'yes' : 'NO',
      ]);
    }
    if (digests.size !== 1) process.exitCode = 1;
  }
} finally {
  await cluster.stop();
  rmSync(work, { recursive: true, force: true });
}
console.log(`\nA PostgreSQL reader: bm25 loaded whole vs searched from pages — vLLM 0.10.1 × ${scales.join(', ')} (hard-linked copies), ${questions.length} public questions, k 10, best of ${rounds} rounds, commit ${gitRevision()}\n`);
console.log(formatTable(['corpus', 'bm25 index', 'open + first search', 'cold pass p50 / p99', 'warm pass p50 / p99', 'RSS after', 'array buffers', 'impacts / lists cached', 'same top-10s'], table));
if (process.exitCode === 1) console.error('\nerror: the paged reader must return exactly what the whole one does.');
