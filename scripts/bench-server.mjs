// Server load check: starts the rag server (apps/server/dist/server.js) on loopback in a
// child process per worker count (`--workers 0,1,2`: search worker threads; 0 = searches on
// the server thread), then from this process keeps a fixed number of POST /search requests
// in flight and prints requests/s, p50/p99 latency, errors, the server's CPU time against
// the wall time of the load and its peak RSS, side by side. The servers take turns over
// `--rounds` rounds (default 3) of duration / rounds seconds each, and each worker count
// keeps its round with the most requests/s: a slower stretch of a shared machine then
// cannot fall on one worker count only. For the first worker count it also loads the server
// while answers are being generated (POST /answer, streamed), to show that searches do not
// wait behind generation. Any failed search makes the exit code 1. The load generator runs
// on the same machine; by default its searches go through `LeanConnection` (raw keep-alive
// sockets, `--client node` for node:http's agent), which leaves the server more of the
// cores, and its own CPU time is printed beside the server's.
//
//   pnpm bench:server [--vllm | --index_dir DIR] [--workers 0,1,2] [--duration 10] [--rounds 3]
//                     [--client lean|node] [--servers A.js,B.js]
//                     [--concurrency 16] [--k 10] [--answer_concurrency 2]
//                     [--generator extractive] [--questions FILE] [--json]
//
// --vllm indexes the vLLM corpus (../shared/data/raw) with the CLI and asks the public code
// questions: searches there cost what they cost on a real corpus. Without --vllm or
// --index_dir the script indexes datasets/mini/corpus (searches of microseconds: the HTTP
// layer alone). Queries are the questions of --questions (a dataset file), round-robin.
// --servers runs each given server entry (default apps/server/dist/server.js) at every
// worker count, all taking turns in the same rounds: two builds compared side by side on
// one machine in one run (copy a build's dist folder aside, e.g. apps/server/dist-base, and
// pass both entries).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { REPO_ROOT, findSharedDir, formatTable, parseBenchArgs, runCli } from './bench-lib.mjs';

const flags = parseBenchArgs(process.argv.slice(2));
const durationS = Number(flags.duration ?? 10);
const rounds = Number(flags.rounds ?? 3);
const client = flags.client ?? 'lean';
if (client !== 'lean' && client !== 'node') {
  console.error(`error: --client is lean or node, got ${flags.client}.`);
  process.exit(2);
}
const concurrency = Number(flags.concurrency ?? 16);
const answerConcurrency = Number(flags.answer_concurrency ?? 2);
const k = Number(flags.k ?? 10);
const generator = flags.generator ?? 'extractive';
const workerCounts = String(flags.workers ?? '0,1,2').split(',').map(Number);
if (workerCounts.some((n) => !Number.isInteger(n) || n < 0 || n > 64)) {
  console.error(`error: --workers takes a comma-separated list of whole numbers 0…64, got ${flags.workers}.`);
  process.exit(2);
}
const SERVER_ENTRIES = flags.servers ? String(flags.servers).split(',').map((entry) => resolve(entry)) : [join(REPO_ROOT, 'apps', 'server', 'dist', 'server.js')];

function fail(message, hint) {
  console.error(`error: ${message}${hint ? `\n  hint: ${hint}` : ''}`);
  process.exit(2);
}

for (const [name, value] of [['duration', durationS], ['rounds', rounds], ['concurrency', concurrency], ['answer_concurrency', answerConcurrency], ['k', k]]) {
  if (!Number.isFinite(value) || value < (name === 'answer_concurrency' ? 0 : 1)) fail(`--${name} must be a positive number, got ${flags[name]}.`);
}
for (const entry of SERVER_ENTRIES) if (!existsSync(entry)) fail(`${entry} is missing.`, 'Run `pnpm build` first.');
/** Every server to measure: each entry at each worker count. */
const configs = SERVER_ENTRIES.flatMap((entry) => workerCounts.map((workers) => ({ entry, workers })));
/** How a row names its server entry: the folder around it, when there are several. */
const entryLabel = (entry) => (SERVER_ENTRIES.length > 1 ? `${entry.split('/').slice(-2, -1)[0]} ` : '');

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

function loadQuestions(shared) {
  const fallback = shared ? join(shared, 'data', 'datasets', 'AnsweredQuestions', 'dataset_code_public.json') : join(REPO_ROOT, 'datasets', 'mini', 'questions.json');
  const path = resolve(flags.questions ?? fallback);
  if (!existsSync(path)) fail(`${path} does not exist.`, 'Pass a dataset file with --questions.');
  const questions = JSON.parse(readFileSync(path, 'utf8')).rag_questions?.map((q) => q.question).filter(Boolean) ?? [];
  if (questions.length === 0) fail(`${path} holds no questions.`, 'Pass a dataset file ({"rag_questions": [{"question": …}]}) with --questions.');
  return questions;
}

/** Starts the server on a free loopback port; resolves with its URL and the child. */
function startServer(indexDir, workers, entry) {
  const args = [entry, '--index_dir', indexDir, '--port', '0', '--host', '127.0.0.1', '--generator', generator, '--workers', String(workers), '--max_queued_answers', String(Math.max(8, answerConcurrency * 2))];
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

/**
 * One keep-alive HTTP/1.1 connection that POSTs JSON and reads each response by its
 * Content-Length, without node:http's client machinery: the load generator shares the cores
 * with the server under test, and this spends less of them per request. Resolves like
 * `send`; a closed or failed connection is reopened by the next request.
 */
class LeanConnection {
  #url;
  #socket;
  #buffered = Buffer.alloc(0);
  #waiting;

  constructor(url) {
    this.#url = new URL(url);
  }

  post(path, body) {
    const payload = Buffer.from(JSON.stringify(body));
    const head = `POST ${path} HTTP/1.1\r\nHost: ${this.#url.host}\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: ${payload.length}\r\nConnection: keep-alive\r\n\r\n`;
    if (!this.#socket) this.#open();
    return new Promise((resolvePromise) => {
      this.#waiting = resolvePromise;
      this.#socket.write(Buffer.concat([Buffer.from(head), payload]));
    });
  }

  close() {
    this.#socket?.destroy();
    this.#socket = undefined;
  }

  #open() {
    const socket = connect(Number(this.#url.port), this.#url.hostname);
    socket.setNoDelay(true);
    socket.on('data', (chunk) => this.#read(chunk));
    const lost = (error) => {
      if (this.#socket === socket) this.#socket = undefined;
      this.#buffered = Buffer.alloc(0);
      this.#finish({ status: 0, error: error ?? new Error('connection closed') });
    };
    socket.on('error', lost);
    socket.on('close', () => lost());
    this.#socket = socket;
  }

  #read(chunk) {
    this.#buffered = this.#buffered.length === 0 ? chunk : Buffer.concat([this.#buffered, chunk]);
    const end = this.#buffered.indexOf('\r\n\r\n');
    if (end < 0) return;
    const head = this.#buffered.toString('latin1', 0, end);
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    if (!length) {
      this.close();
      this.#finish({ status: 0, error: new Error(`a response without Content-Length: ${head.split('\r\n')[0]}`) });
      return;
    }
    const total = end + 4 + Number(length[1]);
    if (this.#buffered.length < total) return;
    this.#buffered = this.#buffered.subarray(total);
    this.#finish({ status: Number(head.slice(9, 12)), bytes: Number(length[1]) });
  }

  #finish(result) {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.(result);
  }
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
    Array.from({ length: workers }, async (_, slot) => {
      while (performance.now() < deadline) {
        const started = performance.now();
        const result = await next(slot);
        latencies.push(performance.now() - started);
        statuses[result.status] = (statuses[result.status] ?? 0) + 1;
        if (result.status !== 200) errors++;
      }
    }),
  );
  return { latencies, errors, statuses };
}

async function searchPhase(url, agent, questions, withAnswers, seconds) {
  let turn = 0;
  const lean = client === 'lean' ? Array.from({ length: concurrency }, () => new LeanConnection(url)) : undefined;
  const nextSearch = lean
    ? (slot) => lean[slot].post('/search', { query: questions[turn++ % questions.length], k })
    : () => send(agent, url, '/search', { query: questions[turn++ % questions.length], k });
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const answerAgent = new Agent({ keepAlive: true, maxSockets: Math.max(1, answerConcurrency) });
  let answerTurn = 0;
  const nextAnswer = () => send(answerAgent, url, '/answer', { query: questions[answerTurn++ % questions.length], k: 5, stream: true }, 'text/event-stream');
  const [search, answers] = await Promise.all([
    load(concurrency, deadline, nextSearch),
    withAnswers && answerConcurrency > 0 ? load(answerConcurrency, deadline, nextAnswer) : Promise.resolve(undefined),
  ]);
  const elapsed = (performance.now() - started) / 1000;
  const generatorCpu = process.cpuUsage(cpuBefore);
  answerAgent.destroy();
  for (const connection of lean ?? []) connection.close();
  return {
    search: summarize(search.latencies, search.errors, elapsed, { load_generator_cpu_s: Math.round((generatorCpu.user + generatorCpu.system) / 1e4) / 100 }),
    answers: answers && summarize(answers.latencies, answers.errors, elapsed, { rejected_503: answers.statuses[503] ?? 0 }),
  };
}

/**
 * CPU seconds (user + system) the process has used so far, from /proc (Linux); with `thread`,
 * those of that one thread (the main thread's id is the process id).
 */
function cpuSeconds(pid, thread) {
  try {
    const fields = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100 Hz)
  } catch {
    return NaN;
  }
}

/** Peak resident set size of the process so far, in MB (VmHWM, Linux). */
function peakRssMb(pid) {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : NaN;
  } catch {
    return NaN;
  }
}

const shared = flags.vllm ? findSharedDir() : undefined;
const temp = flags.index_dir ? undefined : await mkdtemp(join(tmpdir(), 'rag-bench-server-'));
const indexDir = flags.index_dir ? resolve(flags.index_dir) : join(temp, 'index');
const runs = [];
const servers = [];
try {
  if (shared) runCli(['index', '--corpus_dir', 'data/raw', '--index_dir', indexDir, '--quiet'], { cwd: shared });
  else if (temp) await buildMiniIndex(indexDir);
  const questions = loadQuestions(shared);
  for (const { entry, workers } of configs) {
    const server = await startServer(indexDir, workers, entry);
    servers.push(server);
    if (!flags.json) console.error(server.banner);
    const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
    // Warm-up: let the JIT (of every worker) and the file caches settle before measuring.
    for (let j = 0; j < 200 * Math.max(1, workers); j++) await send(agent, server.url, '/search', { query: questions[j % questions.length], k });
    agent.destroy();
  }
  const best = configs.map(() => undefined);
  for (let round = 0; round < rounds; round++) {
    for (const [i, server] of servers.entries()) {
      const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
      const cpuBefore = cpuSeconds(server.child.pid);
      const mainBefore = cpuSeconds(server.child.pid, server.child.pid);
      const wallBefore = performance.now();
      const alone = await searchPhase(server.url, agent, questions, false, durationS / rounds);
      const wall = (performance.now() - wallBefore) / 1000;
      const cpu = cpuSeconds(server.child.pid) - cpuBefore;
      // The server thread's own CPU per request (HTTP, validation, dispatch, serialisation):
      // what caps the req/s of any number of workers, and steadier than req/s on a busy machine.
      const mainUs = ((cpuSeconds(server.child.pid, server.child.pid) - mainBefore) / alone.search.requests) * 1e6;
      agent.destroy();
      const errors = (best[i]?.errors ?? 0) + alone.search.errors;
      if (!best[i] || alone.search.per_second > best[i].alone.per_second) best[i] = { alone: alone.search, cpu, wall, mainUs };
      best[i].errors = errors;
    }
  }
  for (const [i, server] of servers.entries()) {
    const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
    const busy = i === 0 ? await searchPhase(server.url, agent, questions, true, durationS / rounds) : undefined;
    agent.destroy();
    const { alone, cpu, wall, errors, mainUs } = best[i];
    runs.push({ workers: configs[i].workers, label: `${entryLabel(configs[i].entry)}${configs[i].workers}`, entry: configs[i].entry, alone: { ...alone, errors }, busy, cpu_s: Math.round(cpu * 100) / 100, wall_s: Math.round(wall * 100) / 100, main_thread_cpu_us_per_request: Math.round(mainUs), peak_rss_mb: peakRssMb(server.child.pid) });
  }
  // Each entry's rows compare with that entry's one-worker row.
  const baseOf = (r) => runs.find((b) => b.entry === r.entry && b.workers === 1) ?? runs.find((b) => b.entry === r.entry);
  const base = baseOf(runs[0]);
  const report = {
    duration_s: durationS,
    rounds,
    concurrency,
    answer_concurrency: answerConcurrency,
    k,
    generator,
    index_dir: indexDir,
    runs: runs.map((r) => ({ workers: r.workers, ...(SERVER_ENTRIES.length > 1 ? { server: r.entry } : {}), search: r.alone, server_cpu_s: r.cpu_s, wall_s: r.wall_s, cpu_per_wall: Math.round((r.cpu_s / r.wall_s) * 100) / 100, main_thread_cpu_us_per_request: r.main_thread_cpu_us_per_request, peak_rss_mb: r.peak_rss_mb, vs_one_worker: Math.round((r.alone.per_second / baseOf(r).alone.per_second) * 100) / 100, label: r.label })),
    search_while_answering: runs[0].busy?.search,
    answers: runs[0].busy?.answers,
  };
  if (flags.json) console.log(JSON.stringify(report, null, 2));
  else {
    console.log(`\nPOST /search, ${concurrency} in flight, best of ${rounds} rounds of ${Math.round((durationS / rounds) * 10) / 10} s per worker count taken in turns (errors: all rounds), k = ${k}, loopback, load generator on the same machine (${shared ? 'vLLM corpus, public code questions' : indexDir})\n`);
    console.log(
      formatTable(
        ['search workers', 'requests', 'req/s', `× ${base.workers} worker(s)`, 'p50 ms', 'p99 ms', 'errors', 'server CPU s / wall s', 'server thread CPU µs / request', 'load generator CPU s', 'server peak RSS MB'],
        report.runs.map((r) => [r.label, r.search.requests, r.search.per_second, r.vs_one_worker, r.search.p50_ms, r.search.p99_ms, r.search.errors, `${r.server_cpu_s} / ${r.wall_s} = ${r.cpu_per_wall}`, r.main_thread_cpu_us_per_request, r.search.load_generator_cpu_s, r.peak_rss_mb]),
      ),
    );
    if (runs[0].busy) {
      const row = (name, r) => [name, r.requests, r.per_second, r.p50_ms, r.p99_ms, r.errors];
      const rows = [row('search', runs[0].alone), row('search while answering', runs[0].busy.search)];
      if (runs[0].busy.answers) rows.push(row(`answers (${generator}, ${answerConcurrency} at once)`, runs[0].busy.answers));
      console.log(`\nWith answers generated at the same time (${runs[0].workers} search workers):\n`);
      console.log(formatTable(['load', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'errors'], rows));
      if (runs[0].busy.answers?.rejected_503) console.log(`\n${runs[0].busy.answers.rejected_503} answer request(s) got 503 (queue full).`);
    }
  }
  const failed = runs.reduce((n, r) => n + r.alone.errors + (r.busy?.search.errors ?? 0), 0);
  if (failed > 0) {
    console.error(`error: ${failed} search request(s) failed; expected none.`);
    process.exitCode = 1;
  }
} finally {
  for (const server of servers) {
    server.child.kill('SIGTERM');
    await new Promise((done) => (server.child.exitCode === null ? server.child.once('exit', done) : done()));
  }
  if (temp) await rm(temp, { recursive: true, force: true });
}
