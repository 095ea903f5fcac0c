// Corpus watcher benchmark: `rag index --watch` over a hard-linked copy of the vLLM corpus,
// looking on the file system's change reports (the default) and by the clock only
// (`--watch_poll`), side by side in one run (the two modes take turns over --rounds rounds).
// Per mode: the CPU the watching process uses while nothing changes (--idle seconds), and
// how long after appending a line to one Python file its update is done (the watcher's
// "index updated" line; --edits edits per round, spaced 1–3 s apart at random).
//
//   pnpm bench:watch [--interval 2] [--idle 20] [--edits 5] [--rounds 2]
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SETTLED_MS } from '../packages/chunking/dist/index.js';
import { CLI, findSharedDir, formatTable, linkTree, parseBenchArgs, runCli } from './bench-lib.mjs';

const flags = parseBenchArgs(process.argv.slice(2));
const interval = Number(flags.interval ?? 2);
const idleSeconds = Number(flags.idle ?? 20);
const edits = Number(flags.edits ?? 5);
const rounds = Number(flags.rounds ?? 2);
for (const [name, value] of [['interval', interval], ['idle', idleSeconds], ['edits', edits], ['rounds', rounds]]) {
  if (!Number.isInteger(value) || value < 1) {
    console.error(`error: --${name} must be a whole number ≥ 1, got ${flags[name]}.`);
    process.exit(2);
  }
}

const shared = findSharedDir();
const work = mkdtempSync(join(tmpdir(), 'rag-bench-watch-'));
const corpus = join(work, 'corpus');
const indexDir = join(work, 'index');
/** The file each edit appends a comment to. */
const edited = join(corpus, 'vllm-0.10.1', 'vllm', 'sampling_params.py');
const sleep = (ms) => new Promise((resume) => setTimeout(resume, ms));

/** CPU seconds (user + system) process `pid` has used so far (Linux /proc). */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** One round of one mode: starts the watcher, measures it idle, then edits. */
async function measure(poll) {
  const args = [CLI, 'index', '--corpus_dir', corpus, '--index_dir', indexDir, '--watch', String(interval), ...(poll ? ['--watch_poll'] : [])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  const waiting = [];
  const nextOutput = () => new Promise((resume) => waiting.push(resume));
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text) => {
    log += text;
    for (const resume of waiting.splice(0)) resume();
  });
  const updates = () => (log.match(/index updated/g) ?? []).length;
  try {
    while (!/watching the corpus/.test(log)) {
      if (child.exitCode !== null) throw new Error(`rag index --watch exited:\n${log}`);
      await nextOutput();
    }
    // The first look (right away with change reports) is not part of the idle figure.
    await sleep(3000);
    const before = cpuSeconds(child.pid);
    await sleep(idleSeconds * 1000);
    const idleCpu = cpuSeconds(child.pid) - before;
    const latencies = [];
    for (let i = 0; i < edits; i++) {
      await sleep(1000 + Math.random() * 2000);
      const seen = updates();
      const started = performance.now();
      appendFileSync(edited, `# edit ${Date.now()}\n`);
      while (updates() === seen) {
        if (child.exitCode !== null) throw new Error(`rag index --watch exited:\n${log}`);
        await nextOutput();
      }
      latencies.push(performance.now() - started);
    }
    return { idleCpu, latencies };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resume) => (child.exitCode === null ? child.once('exit', resume) : resume()));
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

try {
  linkTree(join(shared, 'data', 'raw'), corpus);
  // Files at rest, as in a checkout: their stat signatures are recorded, so looks read none.
  await sleep(SETTLED_MS + 200);
  runCli(['index', '--corpus_dir', corpus, '--index_dir', indexDir, '--quiet']);
  const results = { events: { idleCpu: [], latencies: [] }, poll: { idleCpu: [], latencies: [] } };
  for (let round = 0; round < rounds; round++) {
    for (const mode of round % 2 === 0 ? ['events', 'poll'] : ['poll', 'events']) {
      const { idleCpu, latencies } = await measure(mode === 'poll');
      results[mode].idleCpu.push(idleCpu);
      results[mode].latencies.push(...latencies);
    }
  }
  console.log(`rag index --watch ${interval} over vLLM 0.10.1 (hard-linked copy): ${rounds} rounds per mode, taken in turns; idle CPU over ${idleSeconds} s per round, ${edits} edits per round`);
  console.log(
    formatTable(
      ['mode', 'idle CPU s (per round)', 'idle share of a core', 'edit → updated median ms', 'min ms', 'max ms'],
      Object.entries(results).map(([mode, r]) => {
        const idle = r.idleCpu.reduce((a, b) => a + b, 0) / r.idleCpu.length;
        return [mode === 'events' ? 'change reports (default)' : `every ${interval} s (--watch_poll)`, r.idleCpu.map((x) => x.toFixed(2)).join(' / '), `${((idle / idleSeconds) * 100).toFixed(1)} %`, Math.round(median(r.latencies)), Math.round(Math.min(...r.latencies)), Math.round(Math.max(...r.latencies))];
      }),
    ),
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
