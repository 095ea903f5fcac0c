// Speed benchmark on the whole vLLM corpus, side by side in one run:
//   rag's BM25 vs MiniSearch vs wink-bm25-text-search on the same chunks (and the
//   predecessors' Python BM25 replica in ../shared/peers when python3 is present).
// Each system runs in its own child process so peak memory (max RSS) is its own.
// Printed per system: fit time (index build on ready chunks), save time, load time,
// queries/s over the 200 public questions (repeated), peak RSS, and recall@5 for both datasets.
//
//   pnpm bench [--systems rag,minisearch,wink,python] [--repeat 5]
import { spawnSync } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DATASETS, findSharedDir, formatTable, gitRevision, parseBenchArgs, REPO_ROOT } from './bench-lib.mjs';

const flags = parseBenchArgs(process.argv.slice(2));
const shared = findSharedDir();
const corpusDir = join(shared, 'data', 'raw');
const repeat = Number(flags.repeat ?? 5);

async function importPackage(name) {
  return import(join(REPO_ROOT, 'packages', name, 'dist', 'index.js'));
}

function loadQuestions() {
  return DATASETS.map((name) => {
    const path = join(shared, 'data', 'datasets', 'AnsweredQuestions', `${name}.json`);
    return { name, dataset: JSON.parse(readFileSync(path, 'utf8')) };
  });
}

/** recall@5 per dataset of a `search(question) → chunks` function, scored by @rag/eval. */
async function scoreRecall(search, questionSets) {
  const { evaluate } = await importPackage('eval');
  const recall = {};
  for (const { name, dataset } of questionSets) {
    const search_results = dataset.rag_questions.map((q) => ({
      question_id: q.question_id,
      retrieved_sources: search(q.question).map((c) => ({ file_path: `data/raw/${c.file_path}`, first_character_index: c.first_character_index, last_character_index: c.last_character_index })),
    }));
    recall[name] = evaluate(dataset, { search_results, k: 10 }, { k: 10 }).recall[5];
  }
  return recall;
}

/** Queries/s over whole passes of the question list: `repeat` passes, fewer for slow systems (≥ 1 pass, stop after ~3 s). */
async function timeQueries(search, questions) {
  await search(questions[0]); // warm-up (JIT)
  const t0 = performance.now();
  let passes = 0;
  while (passes < repeat && (passes === 0 || performance.now() - t0 < 3000)) {
    for (const q of questions) await search(q);
    passes++;
  }
  return (passes * questions.length) / ((performance.now() - t0) / 1000);
}

async function chunkOnce() {
  const { chunkCorpus } = await importPackage('chunking');
  const t0 = performance.now();
  const { chunks, files } = await chunkCorpus(corpusDir, { onWarning: () => {} });
  return { chunks, files, chunkSeconds: (performance.now() - t0) / 1000 };
}

const SYSTEMS = {
  async rag(work) {
    const core = await importPackage('core');
    const { bm25RetrieverFactory } = await importPackage('bm25');
    const { chunks, files, chunkSeconds } = await chunkOnce();
    let t0 = performance.now();
    const retriever = await bm25RetrieverFactory.build(chunks, {});
    const fitSeconds = (performance.now() - t0) / 1000;
    t0 = performance.now();
    const dir = join(work, 'rag-index');
    await core.writeIndex(dir, {
      manifest: { toolVersion: 'bench', createdAt: new Date().toISOString(), corpusDir, corpusDirAsGiven: 'data/raw', chunking: {}, files },
      chunks,
      retrievers: [{ entry: { name: 'bm25', settings: {}, builtAt: '' }, save: (d) => retriever.save(d) }],
    });
    const saveSeconds = (performance.now() - t0) / 1000;
    t0 = performance.now();
    const loaded = await core.readIndex(dir);
    const reloaded = await bm25RetrieverFactory.load(core.retrieverDir(loaded.dir, 'bm25'), loaded.chunks);
    const loadSeconds = (performance.now() - t0) / 1000;
    // The Retriever interface is async; measure the awaited path callers really use.
    const questions = loadQuestions();
    const all = questions.flatMap((s) => s.dataset.rag_questions.map((q) => q.question));
    const results = new Map();
    for (const q of all) results.set(q, (await reloaded.search(q, { k: 10 })).map((h) => core.chunkOfHit(h, loaded.chunks)));
    const qps = await timeQueries((q) => reloaded.search(q, { k: 10 }), all);
    return { chunks: chunks.length, chunkSeconds, fitSeconds, saveSeconds, loadSeconds, qps, recall: await scoreRecall((q) => results.get(q), questions) };
  },

  async minisearch(work) {
    const { default: MiniSearch } = await import('minisearch');
    const { chunks, chunkSeconds } = await chunkOnce();
    const options = { fields: ['text', 'path', 'symbol'], storeFields: [], idField: 'id' };
    let t0 = performance.now();
    const ms = new MiniSearch(options);
    ms.addAll(chunks.map((c) => ({ id: c.id, text: c.text, path: c.file_path, symbol: c.symbol })));
    const fitSeconds = (performance.now() - t0) / 1000;
    t0 = performance.now();
    const file = join(work, 'minisearch.json');
    writeFileSync(file, JSON.stringify(ms));
    const saveSeconds = (performance.now() - t0) / 1000;
    t0 = performance.now();
    const reloaded = MiniSearch.loadJSON(readFileSync(file, 'utf8'), options);
    const loadSeconds = (performance.now() - t0) / 1000;
    const search = (q) => reloaded.search(q, { boost: { symbol: 3, path: 2 } }).slice(0, 10).map((r) => chunks[r.id]);
    const questions = loadQuestions();
    const qps = await timeQueries(search, questions.flatMap((s) => s.dataset.rag_questions.map((q) => q.question)));
    return { chunks: chunks.length, chunkSeconds, fitSeconds, saveSeconds, loadSeconds, qps, recall: await scoreRecall(search, questions) };
  },

  async wink(work) {
    const { default: bm25 } = await import('wink-bm25-text-search');
    const { chunks, chunkSeconds } = await chunkOnce();
    // wink needs its own tokenizer; a plain lowercase word split is what a user writes first.
    const prep = [(text) => text.toLowerCase().match(/[a-z0-9]+/g) ?? []];
    const make = () => {
      const engine = bm25();
      engine.defineConfig({ fldWeights: { text: 1, path: 2, symbol: 3 } });
      engine.definePrepTasks(prep);
      return engine;
    };
    let t0 = performance.now();
    const engine = make();
    for (const c of chunks) engine.addDoc({ text: c.text, path: c.file_path, symbol: c.symbol }, c.id);
    engine.consolidate();
    const fitSeconds = (performance.now() - t0) / 1000;
    t0 = performance.now();
    const file = join(work, 'wink.json');
    writeFileSync(file, engine.exportJSON());
    const saveSeconds = (performance.now() - t0) / 1000;
    t0 = performance.now();
    const reloaded = make();
    reloaded.importJSON(readFileSync(file, 'utf8'));
    const loadSeconds = (performance.now() - t0) / 1000;
    const search = (q) => reloaded.search(q, 10).map(([id]) => chunks[Number(id)]);
    const questions = loadQuestions();
    const qps = await timeQueries(search, questions.flatMap((s) => s.dataset.rag_questions.map((q) => q.question)));
    return { chunks: chunks.length, chunkSeconds, fitSeconds, saveSeconds, loadSeconds, qps, recall: await scoreRecall(search, questions) };
  },
};

function runPythonPeer() {
  const peer = join(shared, 'peers', 'python-bm25');
  // Run the peer through runpy so the same interpreter can report its own peak RSS after it.
  const wrapper = [
    'import resource, runpy, sys',
    "sys.argv = ['bm25_py.py', '--mode', 'struct', '--size', '2000', '--path-tokens']",
    "runpy.run_path('bm25_py.py', run_name='__main__')",
    "print('MAXRSS_KB', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)",
  ].join('\n');
  const result = spawnSync('python3', ['-c', wrapper], { cwd: peer, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (result.error || result.status !== 0) return { error: (result.stderr || String(result.error ?? 'python3 failed')).trim().split('\n').pop() };
  const lines = result.stdout.trim().split('\n');
  const rss = lines.find((l) => l.startsWith('MAXRSS_KB'));
  const json = lines.filter((l) => l.startsWith('{')).pop();
  return { raw: JSON.parse(json), maxRssMB: rss ? Number(rss.split(' ')[1]) / 1024 : undefined };
}

if (flags.child) {
  const work = mkdtempSync(join(tmpdir(), `rag-bench-${flags.child}-`));
  try {
    const out = await SYSTEMS[flags.child](work);
    out.maxRssMB = process.resourceUsage().maxRSS / 1024;
    process.stdout.write(JSON.stringify(out));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
} else {
  const systems = String(flags.systems ?? 'rag,minisearch,wink,python').split(',');
  const rows = [];
  const self = fileURLToPath(import.meta.url);
  for (const system of systems) {
    if (system === 'python') {
      const peer = runPythonPeer();
      if (peer.error) {
        console.error(`python peer skipped: ${peer.error}`);
        continue;
      }
      const { timing, metrics } = peer.raw;
      // The peer reports chunking and fitting separately; it cannot save or load an index.
      rows.push(['python-bm25 (peer)', timing.n_chunks, timing.load_chunk_s.toFixed(2), timing.index_s.toFixed(2), '-', '-', Math.round(timing.qps), peer.maxRssMB ? Math.round(peer.maxRssMB) : '-', `${(metrics.code['R@5'] / 100).toFixed(3)} / ${(metrics.docs['R@5'] / 100).toFixed(3)}`]);
      continue;
    }
    const child = spawnSync(process.execPath, ['--expose-gc', self, '--child', system, '--repeat', String(repeat)], { encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'inherit'] });
    if (child.status !== 0) throw new Error(`${system} benchmark failed`);
    const r = JSON.parse(child.stdout);
    rows.push([system, r.chunks, r.chunkSeconds.toFixed(2), r.fitSeconds.toFixed(2), r.saveSeconds.toFixed(2), r.loadSeconds.toFixed(3), Math.round(r.qps), Math.round(r.maxRssMB), `${r.recall.dataset_code_public.toFixed(3)} / ${r.recall.dataset_docs_public.toFixed(3)}`]);
  }
  console.log(`rag speed benchmark @ ${gitRevision()} — vLLM 0.10.1 (${readdirSync(corpusDir).join(', ')}), queries: up to ${repeat} passes of the 200 questions, one process per system`);
  console.log(formatTable(['system', 'chunks', 'chunk s', 'fit s', 'save s', 'load s', 'queries/s', 'peak RSS MB', 'R@5 code / docs'], rows));
}
