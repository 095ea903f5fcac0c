// Ablation runner for the retrieval techniques of @rag/chunking and @rag/bm25: chunks a
// corpus, builds the retriever once per configuration (each technique switched off in
// turn), searches the answered datasets at k = 10, scores them with @rag/eval and prints a
// Markdown table. Uses the built packages (`pnpm turbo run build --filter @rag/cli...`).
//
//   node packages/bm25/scripts/ablate.mjs                       # vLLM (public + dev sets), click+requests (dev)
//   node packages/bm25/scripts/ablate.mjs --only defaults --misses 5
//   node packages/bm25/scripts/ablate.mjs --corpus datasets/mini/corpus \
//        --prefix datasets/mini/corpus/ --datasets datasets/mini/questions.json
//
// Options: --corpus DIR (default ../shared/data/raw), --prefix P (what the datasets'
// file_path put before a path inside the corpus; default data/raw/), --datasets a.json,b.json
// (default the two public answered sets), --only NAME[,NAME] (configurations to run),
// --misses K (list the default configuration's questions not found within K),
// --together a,b[;c,d] (development corpora indexed together, see `togetherSuites`).
import { cp, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chunkCorpus } from '@rag/chunking';
import { chunkOfHit, parseDataset } from '../../core/dist/index.js';
import { evaluate } from '../../eval/dist/index.js';
import { createBm25Retriever } from '../dist/index.js';
import { questionCorpora, questionSets } from '../../../scripts/question-sets.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SHARED = resolve(ROOT, '../shared');

/** Each technique switched off on its own, then everything off (the lexical issue's retriever). */
const CONFIGURATIONS = [
  { name: 'defaults (all on)' },
  { name: 'nested chunks off', chunking: { nestedChunkSize: 0 } },
  { name: 'table header context off', settings: { context: { tableHeaders: false } } },
  { name: 'query aliases off', settings: { query: { aliases: {} } } },
  { name: 'abbreviations off', settings: { query: { abbreviationWeight: 0 } } },
  { name: 'abbreviations at 1', settings: { query: { abbreviationWeight: 1 } } },
  { name: 'second stage off', settings: { rerank: { depth: 0 } } },
  { name: 'phrase (proximity) off', settings: { rerank: { proximity: 0 } } },
  { name: 'coverage off', settings: { rerank: { coverage: 0 } } },
  { name: 'definition off', settings: { rerank: { definition: 0 } } },
  { name: 'docs/code prior off', settings: { rerank: { modality: 0 } } },
  { name: 'docs/code prior at 0.2', settings: { rerank: { modality: 0.2 } } },
  { name: 'test/example penalty off', settings: { rerank: { auxiliaryFactor: 1 } } },
  { name: 'history factor off', settings: { rerank: { historyFactor: 1 } } },
  { name: 'history factor 0.6', settings: { rerank: { historyFactor: 0.6 } } },
  { name: 'description factor off', settings: { rerank: { descriptionFactor: 1 } } },
  { name: 'stub factor off', settings: { rerank: { stubFactor: 1 } } },
  { name: 'description factor at 0.7', settings: { rerank: { descriptionFactor: 0.7 } } },
  { name: 'description factor at 0.9', settings: { rerank: { descriptionFactor: 0.9 } } },
  { name: 'explanation off', settings: { rerank: { explanation: 0 } } },
  { name: 'place kinds off', settings: { rerank: { placeKinds: [] } } },
  { name: 'section support off', settings: { rerank: { sectionSupport: 0 } } },
  { name: 'answer evidence off', settings: { rerank: { answerEvidence: { default: 0, error: 0 } } } },
  { name: 'answer evidence with values at 0.1', settings: { rerank: { answerEvidence: { value: 0.1 } } } },
  { name: 'answer type off', settings: { rerank: { answerType: 0 } } },
  { name: 'answer type at 0.1', settings: { rerank: { answerType: 0.1 } } },
  { name: 'answer type at 0.3', settings: { rerank: { answerType: 0.3 } } },
  { name: 'dedupe off', settings: { rerank: { dedupe: false } } },
  { name: 'derivational folding on', settings: { tokenizer: { derivations: true } } },

  { name: 'nested chunks at 400', chunking: { nestedChunkSize: 400 } },
  { name: 'section support at 0.1', settings: { rerank: { sectionSupport: 0.1 } } },
  { name: 'section support at 0.2', settings: { rerank: { sectionSupport: 0.2 } } },
  { name: 'explanation at 0.5', settings: { rerank: { explanation: 0.5 } } },
  { name: 'anchors off', settings: { context: { anchors: false } } },
  { name: 'class summaries off', settings: { context: { classSummaries: false } } },
  { name: 'anchor weight 1', settings: { fields: { anchor: { weight: 1 } } } },
  { name: 'anchor weight 0.3', settings: { fields: { anchor: { weight: 0.3 } } } },
  { name: 'kind share 0.6', settings: { rerank: { kindShare: 0.6 } } },
  { name: 'kind share off', settings: { rerank: { kindShare: 1 } } },
  { name: 'kind share 0.5', settings: { rerank: { kindShare: 0.5 } } },
  { name: 'file share 0.4', settings: { rerank: { fileShare: 0.4 } } },
  { name: 'file share 0.3', settings: { rerank: { fileShare: 0.3 } } },
  { name: 'project scope off', settings: { rerank: { projectFactor: 1 } } },
  { name: 'joined code hits off', settings: { rerank: { joinSpan: 0 } } },
  { name: 'join span 1200', settings: { rerank: { joinSpan: 1200 } } },
  {
    name: 'all off (lexical baseline)',
    chunking: { nestedChunkSize: 0 },
    settings: { context: { tableHeaders: false, anchors: false, classSummaries: false }, query: { aliases: {} }, rerank: { depth: 0 } },
  },
];

function parseArgs(argv) {
  const flags = {};
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i].replace(/^--/, '');
    flags[key] = argv[i + 1] !== undefined && !argv[i + 1].startsWith('--') ? argv[++i] : true;
  }
  return flags;
}

const flags = parseArgs(process.argv.slice(2));
const only = flags.only ? String(flags.only).split(',') : undefined;
const configurations = [...CONFIGURATIONS, ...(process.env.ABLATE_EXTRA ? JSON.parse(await readFile(process.env.ABLATE_EXTRA, "utf8")) : [])].filter((c) => !only || only.some((name) => c.name.startsWith(name)));
const publicSet = (name) => join(SHARED, 'data/datasets/AnsweredQuestions', `${name}.json`);

/**
 * Corpora with their question sets (scripts/question-sets.mjs). By default: vLLM with the
 * public sets (tuned on) and the development sets about unseen vLLM files, then click +
 * requests with theirs, then werkzeug and attrs with their own (`python3
 * datasets/dev/prepare_corpora.py` first). `--corpus` runs one corpus instead.
 */
/**
 * `--together a,b[,…]`: the development corpora named, indexed as one corpus (a temporary
 * folder of hard links, each corpus a top-level folder of its own: several repositories side
 * by side, failure class 8), searched with all their sets. Set `--together` to a list of
 * groups separated by `;` to run each group as its own corpus.
 */
async function togetherSuites(spec) {
  const corpora = questionCorpora(ROOT, SHARED);
  const sets = questionSets(ROOT, SHARED);
  const out = [];
  const folders = [];
  process.on('exit', () => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));
  for (const group of spec.split(';')) {
    const names = group.split(',').map((name) => name.trim()).filter(Boolean);
    const folder = await mkdtemp(join(tmpdir(), 'rag-together-'));
    folders.push(folder);
    for (const name of names) {
      const corpus = corpora[name];
      if (!corpus || name === 'vllm' || name === 'other') throw new Error(`--together takes development corpora with a folder of their own name, not ${name}`);
      await cp(join(corpus.base, corpus.dir), join(folder, corpus.dir), { recursive: true });
    }
    out.push({ corpus: folder, prefix: '', datasetPaths: sets.filter((set) => names.includes(set.corpus)).map((set) => set.path) });
  }
  return out;
}

const suites = flags.together
  ? await togetherSuites(String(flags.together))
  : flags.corpus
  ? [
      {
        corpus: resolve(ROOT, String(flags.corpus)),
        prefix: flags.prefix ?? 'data/raw/',
        datasetPaths: flags.datasets ? String(flags.datasets).split(',').map((path) => resolve(ROOT, path)) : [publicSet('dataset_code_public'), publicSet('dataset_docs_public')],
      },
    ]
  : Object.entries(questionCorpora(ROOT, SHARED)).map(([name, { base, dir }]) => ({
      corpus: join(base, dir),
      prefix: `${dir}/`,
      datasetPaths: questionSets(ROOT, SHARED).filter((set) => set.corpus === name).map((set) => set.path),
    }));

for (const suite of suites) {
  suite.datasets = await Promise.all(
    suite.datasetPaths.map(async (path) => ({ name: path.split('/').pop().replace(/\.json$/, ''), dataset: parseDataset(await readFile(path, 'utf8'), path) })),
  );
}
const datasets = suites.flatMap((suite) => suite.datasets.map((d) => ({ ...d, prefix: suite.prefix })));

const chunkings = new Map();
async function chunksFor(corpus, options = {}) {
  const key = corpus + JSON.stringify(options);
  if (!chunkings.has(key)) {
    const started = performance.now();
    const { chunks } = await chunkCorpus(corpus, options);
    chunkings.set(key, { chunks, seconds: (performance.now() - started) / 1000 });
  }
  return chunkings.get(key);
}

const rows = [];
const timings = [];
let defaultReports;
for (const configuration of configurations) {
  const cells = [configuration.name];
  const reports = [];
  // Every development question counted once: one set's question is 2–7 points of its own
  // recall, noise a pooled figure over all of them damps.
  const pooled = { questions: 0, recall: { 1: 0, 3: 0, 5: 0, 10: 0 }, mrr: 0 };
  for (const suite of suites) {
    const { chunks, seconds: chunkSeconds } = await chunksFor(suite.corpus, configuration.chunking);
    const toSource = (chunk) => ({ file_path: suite.prefix + chunk.file_path, first_character_index: chunk.first_character_index, last_character_index: chunk.last_character_index });
    const fitStarted = performance.now();
    const retriever = createBm25Retriever(chunks, configuration.settings ?? {});
    const fitSeconds = (performance.now() - fitStarted) / 1000;
    let searched = 0;
    let searchSeconds = 0;
    for (const { name, dataset } of suite.datasets) {
      const questions = dataset.rag_questions;
      // One warm-up pass so the timed pass measures steady-state queries/s.
      for (const q of questions) retriever.searchSync(q.question, { k: 10 });
      const started = performance.now();
      const results = questions.map((q) => ({ question_id: q.question_id, retrieved_sources: retriever.searchSync(q.question, { k: 10 }).map((hit) => toSource(chunkOfHit(hit, chunks))) }));
      searchSeconds += (performance.now() - started) / 1000;
      searched += questions.length;
      const report = evaluate(dataset, { search_results: results, k: 10 });
      reports.push({ report, results });
      cells.push([1, 3, 5, 10].map((k) => report.recall[k].toFixed(2)).join(' / '), report.mrr.toFixed(3));
      if (questions.length > 0 && name.startsWith('dev_')) {
        const n = questions.length;
        pooled.questions += n;
        for (const k of [1, 3, 5, 10]) pooled.recall[k] += report.recall[k] * n;
        pooled.mrr += report.mrr * n;
      }
    }
    timings.push([configuration.name, suite.prefix, String(chunks.length), chunkSeconds.toFixed(2), fitSeconds.toFixed(2), String(Math.round(searched / searchSeconds))]);
  }
  if (!defaultReports) defaultReports = reports;
  if (pooled.questions > 0) {
    cells.push([1, 3, 5, 10].map((k) => (pooled.recall[k] / pooled.questions).toFixed(3)).join(' / '), (pooled.mrr / pooled.questions).toFixed(3));
  }
  rows.push(cells);
}

const poolsDev = datasets.some(({ name }) => name.startsWith('dev_'));
const header = ['configuration', ...datasets.flatMap(({ name }) => [`${name} R@1/3/5/10`, 'MRR']), ...(poolsDev ? ['dev pooled R@1/3/5/10', 'MRR'] : [])];
const line = (cells) => `| ${cells.join(' | ')} |`;
console.log(line(header));
console.log(line(header.map(() => '---')));
for (const row of rows) console.log(line(row));
console.log();
console.log(line(['configuration', 'corpus', 'chunks', 'chunk s', 'fit s', 'queries/s']));
console.log(line(['---', '---', '---', '---', '---', '---']));
for (const row of timings) console.log(line(row));

if (flags.misses && defaultReports) {
  const within = Number(flags.misses);
  for (const [i, { report }] of defaultReports.entries()) {
    console.log(`\n${datasets[i].name}: not found within ${within} (${configurations[0].name})`);
    for (const q of report.perQuestion) {
      if (q.firstHitRank !== null && q.firstHitRank <= within) continue;
      const gold = q.gold[0];
      const where = gold ? `${gold.file_path.slice(datasets[i].prefix.length)} ${gold.first_character_index}-${gold.last_character_index}` : '(no gold)';
      console.log(`- ${q.question_id.slice(0, 8)} rank ${q.firstHitRank ?? '>10'}: ${q.question} [${where}]`);
    }
  }
}
