// The PostgreSQL store against the file store, side by side in one run, on the vLLM corpus:
// a throwaway PostgreSQL server on loopback (Debian's, started by @rag/postgres/testing),
// the corpus indexed into a folder and into the database, then
//   - every public question searched in both (k 10): how many top-10s are identical;
//   - search latency per question in-process (search, then the hits' texts fetched), p50/p99;
//   - a one-shot `rag search` as a whole process, median of --runs;
//   - one file changed and the database index updated incrementally while readers open it
//     and search in a loop: reader errors, and results that are neither the old corpus's nor
//     the new one's (a mix); the update's wall time against a full index.
//
//   pnpm bench:postgres [--runs 3]
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, DATASETS, findSharedDir, formatTable, gitRevision, parseBenchArgs, REPO_ROOT } from './bench-lib.mjs';

const flags = parseBenchArgs(process.argv.slice(2));
const shared = findSharedDir();
const runs = Number(flags.runs ?? 3);
const testing = join(REPO_ROOT, 'packages', 'postgres', 'dist', 'testing.js');
const servicePath = join(REPO_ROOT, 'packages', 'service', 'dist', 'index.js');
for (const path of [testing, servicePath]) {
  if (!existsSync(path)) {
    console.error(`error: ${path} is missing.\n  hint: run \`pnpm build\` first.`);
    process.exit(2);
  }
}
const { findPostgresBin, startTestCluster } = await import(testing);
const { createPostgresStore } = await import(join(REPO_ROOT, 'packages', 'postgres', 'dist', 'index.js'));
const service = await import(servicePath);
if (!findPostgresBin()) {
  console.error('error: PostgreSQL is not installed.\n  hint: apt-get install postgresql (the bench starts its own server on loopback).');
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'rag-bench-pg-'));
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const quantile = (values, q) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];
const ms = (s) => `${(s * 1000).toFixed(2)} ms`;

function cli(args, cwd) {
  const started = performance.now();
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (result.status !== 0) throw new Error(`rag ${args.join(' ')} failed (${result.status}): ${result.stderr}`);
  return { wall: (performance.now() - started) / 1000, stdout: result.stdout };
}

const cluster = await startTestCluster();
try {
  // A private copy of the corpus (38 MB): the update step edits a file of it.
  const corpus = join(work, 'data', 'raw');
  cpSync(join(shared, 'data', 'raw'), corpus, { recursive: true });
  const fileIndex = join(work, 'index');
  const url = `${cluster.url}?schema=vllm`;
  const quiet = ['--quiet', '--threads', '1'];
  const indexFile = cli(['index', '--corpus_dir', 'data/raw', '--index_dir', fileIndex, ...quiet], work);
  const indexDatabase = cli(['index', '--corpus_dir', 'data/raw', '--store', url, ...quiet], work);

  const questions = DATASETS.flatMap((name) => JSON.parse(readFileSync(join(shared, 'data', 'datasets', 'AnsweredQuestions', `${name}.json`), 'utf8')).rag_questions.map((q) => q.question));
  const fromFile = await service.openSearchSession(fileIndex, { pathBase: work });
  const fromDatabase = await service.openSearchSession(url, { pathBase: work });
  const key = (sources) => sources.map((s) => `${s.file_path}:${s.first_character_index}-${s.last_character_index}:${s.score}`).join('|');
  let identical = 0;
  const latency = { file: [], database: [] };
  // One warm-up pass each (JIT, connection), then timed passes.
  for (const q of questions.slice(0, 20)) {
    await service.searchSources(fromFile, q, 10);
    await service.searchSources(fromDatabase, q, 10);
  }
  for (const q of questions) {
    let started = performance.now();
    const a = await service.searchSources(fromFile, q, 10);
    latency.file.push((performance.now() - started) / 1000);
    started = performance.now();
    const b = await service.searchSources(fromDatabase, q, 10);
    latency.database.push((performance.now() - started) / 1000);
    // Texts are what answers are written from: fetched from the database, they must be the file's.
    const same = key(a) === key(b) && a.every((s, i) => s.chunk.text === b[i].chunk.text);
    if (same) identical++;
  }

  const oneShot = (location) =>
    median(Array.from({ length: runs }, () => cli(['search', '--query', 'What is the default value of max_num_seqs?', '--k', '5', ...location], work).wall));
  const oneShotFile = oneShot(['--index_dir', fileIndex]);
  const oneShotDatabase = oneShot(['--store', url]);

  // Incremental update of one file while readers open the published generation and search.
  const question = 'What does the sampling parameters class validate about the temperature?';
  const changed = join(corpus, 'vllm-0.10.1', 'vllm', 'sampling_params.py');
  const searchFresh = async () => {
    const session = await service.openSearchSession(url, { pathBase: work });
    return key(await service.searchSources(session, question, 10));
  };
  const before = await searchFresh();
  writeFileSync(changed, `${readFileSync(changed, 'utf8')}\n\ndef _bench_marker_temperature_check(temperature):\n    """Checks the sampling temperature of a request (added by the benchmark)."""\n    return temperature >= 0\n`);
  let done = false;
  const seen = [];
  let readerErrors = 0;
  // Three readers at once, each opening the published generation afresh (as a one-shot `rag search` does).
  const readers = Promise.all(
    [0, 1, 2].map(async () => {
      while (!done) {
        try {
          seen.push(await searchFresh());
        } catch {
          readerErrors++;
        }
      }
    }),
  );
  // Asynchronously, so the readers above run while it does.
  const update = await new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, 'index', '--corpus_dir', 'data/raw', '--store', url, '--json', ...quiet], { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => (code === 0 ? resolve({ wall: (performance.now() - started) / 1000, stdout }) : reject(new Error(`rag index failed (${code}): ${stderr}`))));
  });
  done = true;
  await readers;
  const after = await searchFresh();
  const mixed = seen.filter((r) => r !== before && r !== after).length;
  const updateReport = JSON.parse(update.stdout);

  // Size on disk of the schema's tables (two generations kept after the update), indexes and TOAST included.
  const sizeStore = createPostgresStore(url);
  const size = await sizeStore.pool.query("SELECT sum(pg_total_relation_size(c.oid))::bigint AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'vllm' AND c.relkind = 'r'");
  await sizeStore.close();
  const folderBytes = Number(spawnSync('du', ['-sb', fileIndex], { encoding: 'utf8' }).stdout.split('\t')[0]);
  const rows = [
    ['index 1× vLLM (wall, one thread)', `${indexFile.wall.toFixed(2)} s`, `${indexDatabase.wall.toFixed(2)} s`],
    ['identical top-10 (texts included), public questions', `${questions.length} / ${questions.length}`, `${identical} / ${questions.length}`],
    ['search p50, in-process (hits + texts)', ms(quantile(latency.file, 0.5)), ms(quantile(latency.database, 0.5))],
    ['search p99, in-process (hits + texts)', ms(quantile(latency.file, 0.99)), ms(quantile(latency.database, 0.99))],
    [`one-shot \`rag search\`, whole process (median of ${runs})`, `${oneShotFile.toFixed(2)} s`, `${oneShotDatabase.toFixed(2)} s`],
    ['re-index after editing one file (wall)', '', `${update.wall.toFixed(2)} s (${updateReport.mode}, ${updateReport.changes.changed} changed)`],
    ['searches during that update: errors / mixed results', '', `${readerErrors} / ${mixed} of ${seen.length}`],
    ['index size (folder: its generations; database: tables with indexes)', `${(folderBytes / 1e6).toFixed(1)} MB`, `${(Number(size.rows[0].bytes) / 1e6).toFixed(1)} MB`],
  ];
  console.log(`\nPostgreSQL store vs file store — vLLM 0.10.1 (${fromFile.chunks.length} chunks), PostgreSQL on loopback, commit ${gitRevision()}\n`);
  console.log(formatTable(['what', 'file store', 'PostgreSQL store'], rows));
  if (flags.json) console.log(JSON.stringify({ identical, questions: questions.length, latency, oneShotFile, oneShotDatabase, readerErrors, mixed, readers: seen.length }));
  if (identical !== questions.length || readerErrors > 0 || mixed > 0) {
    console.error('\nerror: the PostgreSQL store must rank exactly as the file store and never fail or mix corpora during an update.');
    process.exitCode = 1;
  }
} finally {
  await cluster.stop();
  rmSync(work, { recursive: true, force: true });
}
