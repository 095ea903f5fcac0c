// Server load check: starts the rag server (apps/server/dist/server.js) on loopback in a
// child process, then from this process keeps a fixed number of POST /search requests in
// flight for a fixed time and prints requests/s, p50/p99 latency and errors. Then the same
// again while answers are being generated (POST /answer, streamed) at the same time, to show
// that searches do not wait behind generation. Any failed search makes the exit code 1.
//
//   pnpm bench:server [--index_dir DIR] [--duration 10] [--concurrency 16] [--k 10]
//                     [--answer_concurrency 2] [--generator extractive] [--questions FILE] [--json]
//
// Without --index_dir the script indexes datasets/mini/corpus into a temporary folder with
// @rag/chunking and @rag/bm25 first. Queries are the questions of --questions (a dataset
// file, default datasets/mini/questions.json), used round-robin.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { REPO_ROOT, formatTable, parseBenchArgs } from './bench-lib.mjs';

const flags = parseBenchArgs(process.argv.slice(2));
const durationS = Number(flags.duration ?? 10);
const concurrency = Number(flags.concurrency ?? 16);
const answerConcurrency = Number(flags.answer_concurrency ?? 2);
const k = Number(flags.k ?? 10);
const generator = flags.generator ?? 'extractive';
const SERVER_ENTRY = join(REPO_ROOT, 'apps', 'server', 'dist', 'server.js');

function fail(message, hint) {
  console.error(`error: ${message}${hint ? `\n  hint: ${hint}` : ''}`);
  process.exit(2);
}

for (const [name, value] of [['duration', durationS], ['concurrency', concurrency], ['answer_concurrency', answerConcurrency], ['k', k]]) {
  if (!Number.isFinite(value) || value < (name === 'answer_concurrency' ? 0 : 1)) fail(`--${name} must be a positive number, got ${flags[name]}.`);
}
if (!existsSync(SERVER_ENTRY)) fail(`${SERVER_ENTRY} is missing.`, 'Run `pnpm build` first.');

async function importPackage(name) {
  const path = join(REPO_ROOT, 'packages', name, 'dist', 'index.js');
  if (!existsSync(path)) fail(`${path} is missing.`, 'Run `pnpm build` first.');
  return import(path);
}

/** Indexes the mini corpus the way `rag index` does, into `dir`. */
async function buildMiniIndex(dir) {
  const { chunkCorpus } = await importPackage('chunking');
  const { bm25RetrieverFactory } = await importPackage('bm25');
  const { writeIndex } = await importPackage('core');
  const corpusDir = join(REPO_ROOT, 'datasets', 'mini', 'corpus');
  const { files, chunks } = await chunkCorpus(corpusDir);
  const retriever = await bm25RetrieverFactory.build(chunks);
  const now = new Date().toISOString();
  await writeIndex(dir, {
    manifest: { toolVersion: 'bench', createdAt: now, corpusDir, corpusDirAsGiven: 'datasets/mini/corpus', chunking: {}, files },
    chunks,
    retrievers: [{ entry: { name: 'bm25', settings: {}, builtAt: now }, save: (target) => retriever.save(target) }],
  });
}

function loadQuestions() {
  const path = resolve(flags.questions ?? join(REPO_ROOT, 'datasets', 'mini', 'questions.json'));
  if (!existsSync(path)) fail(`${path} does not exist.`, 'Pass a dataset file with --questions.');
  const questions = JSON.parse(readFileSync(path, 'utf8')).rag_questions?.map((q) => q.question).filter(Boolean) ?? [];
  if (questions.length === 0) fail(`${path} holds no questions.`, 'Pass a dataset file ({"rag_questions": [{"question": …}]}) with --questions.');
  return questions;
}

/** Starts the server on a free loopback port; resolves with its URL and the child. */
function startServer(indexDir) {
  const args = [SERVER_ENTRY, '--index_dir', indexDir, '--port', '0', '--host', '127.0.0.1', '--generator', generator, '--max_queued_answers', String(Math.max(8, answerConcurrency * 2))];
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolvePromise, reject) => {
    let log = '';
    const timer = setTimeout(() => reject(new Error(`the server did not start within 120 s:\n${log}`)), 120_000);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text) => {
      log += text;
      const match = /listening on (http:\/\/\S+)/.exec(log);
      if (match) {
        clearTimeout(timer);
        resolvePromise({ child, url: match[1], banner: log.trim() });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with code ${code}:\n${log}`));
    });
  });
}

/** One request over the keep-alive agent; resolves with the status and the body's size. */
function send(agent, url, path, body, accept = 'application/json') {
  return new Promise((resolvePromise) => {
    const payload = JSON.stringify(body);
    const req = request(`${url}${path}`, {
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), accept },
    }, (res) => {
      let bytes = 0;
      res.on('data', (chunk) => (bytes += chunk.length));
      res.on('end', () => resolvePromise({ status: res.statusCode, bytes }));
      res.on('error', (error) => resolvePromise({ status: 0, error }));
    });
    req.on('error', (error) => resolvePromise({ status: 0, error }));
    req.end(payload);
  });
}

function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function summarize(latencies, errors, seconds, extra = {}) {
  const sorted = latencies.slice().sort((a, b) => a - b);
  return {
    requests: latencies.length,
    per_second: Math.round((latencies.length / seconds) * 10) / 10,
    p50_ms: Math.round(percentile(sorted, 50) * 100) / 100,
    p99_ms: Math.round(percentile(sorted, 99) * 100) / 100,
    errors,
    ...extra,
  };
}

/** Keeps `workers` requests in flight until `deadline`, each worker taking the next question. */
async function load(workers, deadline, next) {
  const latencies = [];
  let errors = 0;
  const statuses = {};
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < deadline) {
        const started = performance.now();
        const result = await next();
        latencies.push(performance.now() - started);
        statuses[result.status] = (statuses[result.status] ?? 0) + 1;
        if (result.status !== 200) errors++;
      }
    }),
  );
  return { latencies, errors, statuses };
}

async function searchPhase(url, agent, questions, withAnswers) {
  let turn = 0;
  const nextSearch = () => send(agent, url, '/search', { query: questions[turn++ % questions.length], k });
  const started = performance.now();
  const deadline = started + durationS * 1000;
  const answerAgent = new Agent({ keepAlive: true, maxSockets: Math.max(1, answerConcurrency) });
  let answerTurn = 0;
  const nextAnswer = () => send(answerAgent, url, '/answer', { query: questions[answerTurn++ % questions.length], k: 5, stream: true }, 'text/event-stream');
  const [search, answers] = await Promise.all([
    load(concurrency, deadline, nextSearch),
    withAnswers && answerConcurrency > 0 ? load(answerConcurrency, deadline, nextAnswer) : Promise.resolve(undefined),
  ]);
  const seconds = (performance.now() - started) / 1000;
  answerAgent.destroy();
  return {
    search: summarize(search.latencies, search.errors, seconds),
    answers: answers && summarize(answers.latencies, answers.errors, seconds, { rejected_503: answers.statuses[503] ?? 0 }),
  };
}

const temp = flags.index_dir ? undefined : await mkdtemp(join(tmpdir(), 'rag-bench-server-'));
const indexDir = flags.index_dir ? resolve(flags.index_dir) : join(temp, 'index');
let server;
try {
  if (temp) await buildMiniIndex(indexDir);
  const questions = loadQuestions();
  server = await startServer(indexDir);
  if (!flags.json) console.error(server.banner);
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  // Warm-up: let the JIT and the file caches settle before measuring.
  for (let i = 0; i < 200; i++) await send(agent, server.url, '/search', { query: questions[i % questions.length], k });
  const alone = await searchPhase(server.url, agent, questions, false);
  const busy = await searchPhase(server.url, agent, questions, true);
  agent.destroy();
  const report = { duration_s: durationS, concurrency, answer_concurrency: answerConcurrency, k, generator, index_dir: indexDir, search_alone: alone.search, search_while_answering: busy.search, answers: busy.answers };
  if (flags.json) console.log(JSON.stringify(report, null, 2));
  else {
    const row = (name, r) => [name, r.requests, r.per_second, r.p50_ms, r.p99_ms, r.errors];
    const rows = [row('search', alone.search), row('search while answering', busy.search)];
    if (busy.answers) rows.push([...row(`answers (${generator}, ${answerConcurrency} at once)`, busy.answers)]);
    console.log(`\nPOST /search, ${concurrency} in flight for ${durationS} s each, k = ${k}, loopback\n`);
    console.log(formatTable(['load', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'errors'], rows));
    if (busy.answers?.rejected_503) console.log(`\n${busy.answers.rejected_503} answer request(s) got 503 (queue full).`);
  }
  const failed = alone.search.errors + busy.search.errors;
  if (failed > 0) {
    console.error(`error: ${failed} search request(s) failed; expected none.`);
    process.exitCode = 1;
  }
} finally {
  server?.child.kill('SIGTERM');
  if (temp) await rm(temp, { recursive: true, force: true });
}
