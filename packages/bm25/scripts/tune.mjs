// Joint tuning of the second stage's weights, validated on codebases the search never saw.
//
// The ablation (`ablate.mjs`) moves one weight at a time from the defaults; this moves them
// together, by coordinate ascent, and guards against fitting the question sets it climbs on:
// the development codebases are split in two halves by name (every other one, alphabetically,
// with vLLM's development sets on the fitting side), the search climbs on the fitting half
// only, and a step is kept only when the public sets stay at their CI floors. At the end it
// prints every set's figures for the defaults and the tuned weights side by side, the held-out
// half pooled apart: a gain that does not show there is a fit to the questions, not a better
// default.
//
// Each corpus is chunked and indexed once; a weight is changed on the built retrievers (the
// second stage reads its options at every search), so one evaluation of every question set
// takes seconds, not minutes.
//
//   node packages/bm25/scripts/tune.mjs [--rounds 2] [--objective mrr|r1r5] [--swap]
//   node packages/bm25/scripts/tune.mjs --weights '{"auxiliaryFactor":0.6}'
//
// --swap climbs on the other half and holds out the first; --weights compares the weights
// given with the defaults on every set, without climbing. Uses the built packages.
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chunkCorpus } from '@rag/chunking';
import { chunkOfHit, parseDataset } from '../../core/dist/index.js';
import { evaluate } from '../../eval/dist/index.js';
import { createBm25Retriever, DEFAULT_RERANK_OPTIONS } from '../dist/index.js';
import { parseBenchArgs } from '../../../scripts/bench-lib.mjs';
import { questionCorpora, questionSets } from '../../../scripts/question-sets.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SHARED = resolve(ROOT, '../shared');
/** The public sets' R@5 floors of `bench:quality` (CI): a step that goes below one is refused. */
const PUBLIC_FLOORS = { dataset_code_public: 0.88, dataset_docs_public: 0.95 };

/**
 * The weights climbed, each with the values a step tries around the current one (multiplied,
 * then clamped to its range). Factors (≤ 1) and additive weights alike.
 */
const PARAMETERS = [
  { path: ['proximity'], min: 0, max: 1 },
  { path: ['coverage'], min: 0, max: 1 },
  { path: ['modality'], min: 0.01, max: 1 },
  { path: ['definition'], min: 0, max: 1 },
  { path: ['explanation'], min: 0, max: 1 },
  { path: ['sectionSupport'], min: 0, max: 0.5 },
  { path: ['answerType'], min: 0, max: 1 },
  { path: ['answerEvidence', 'default'], min: 0, max: 1 },
  { path: ['answerEvidence', 'error'], min: 0, max: 1 },
  { path: ['auxiliaryFactor'], min: 0.3, max: 1 },
  { path: ['descriptionFactor'], min: 0.3, max: 1 },
  { path: ['stubFactor'], min: 0.1, max: 1 },
  { path: ['historyFactor'], min: 0.3, max: 1 },
  { path: ['kindShare'], min: 0.3, max: 1 },
];
const STEPS = [0.5, 0.75, 1.5, 2];

const flags = parseBenchArgs(process.argv.slice(2));
const rounds = Number(flags.rounds ?? 2);
const objectiveName = String(flags.objective ?? 'mrr');

const corpora = questionCorpora(ROOT, SHARED);
const sets = questionSets(ROOT, SHARED);
// vLLM's development sets share the public sets' corpus: they fit; the other codebases alternate.
const others = Object.keys(corpora).filter((name) => name !== 'vllm').sort();
const heldOut = new Set(others.filter((_, i) => (i % 2 === 1) !== Boolean(flags.swap)));

const suites = [];
for (const [name, { base, dir }] of Object.entries(corpora)) {
  const { chunks } = await chunkCorpus(join(base, dir), {});
  const retriever = createBm25Retriever(chunks, {});
  const datasets = [];
  for (const set of sets.filter((s) => s.corpus === name)) {
    datasets.push({ name: set.name, dataset: parseDataset(await readFile(set.path, 'utf8'), set.path), heldOut: heldOut.has(name) });
  }
  suites.push({ name, prefix: `${dir}/`, chunks, retriever, datasets });
  console.error(`${name}: ${chunks.length} chunks, ${datasets.map((d) => d.name).join(', ')}${heldOut.has(name) ? ' (held out)' : ''}`);
}

function setWeight(rerank, path, value) {
  if (path.length === 1) rerank[path[0]] = value;
  else rerank[path[0]] = { ...rerank[path[0]], [path[1]]: value };
}
const getWeight = (rerank, path) => (path.length === 1 ? rerank[path[0]] : rerank[path[0]][path[1]]);

/** Every set's report under `weights` (applied to every built retriever's second stage). */
function evaluateAll(weights) {
  const reports = [];
  for (const suite of suites) {
    Object.assign(suite.retriever.index.options.rerank, weights);
    const toSource = (chunk) => ({ file_path: suite.prefix + chunk.file_path, first_character_index: chunk.first_character_index, last_character_index: chunk.last_character_index });
    for (const { name, dataset, heldOut: held } of suite.datasets) {
      const results = dataset.rag_questions.map((q) => ({ question_id: q.question_id, retrieved_sources: suite.retriever.searchSync(q.question, { k: 10 }).map((hit) => toSource(chunkOfHit(hit, suite.chunks))) }));
      reports.push({ name, heldOut: held, n: dataset.rag_questions.length, report: evaluate(dataset, { search_results: results, k: 10 }) });
    }
  }
  return reports;
}

/** Pooled R@1/3/5/10 and MRR over the development sets of one side. */
function pool(reports, side) {
  const chosen = reports.filter((r) => r.name.startsWith('dev_') && r.heldOut === side);
  const n = chosen.reduce((sum, r) => sum + r.n, 0);
  const at = (k) => chosen.reduce((sum, r) => sum + r.report.recall[k] * r.n, 0) / n;
  return { n, r1: at(1), r3: at(3), r5: at(5), r10: at(10), mrr: chosen.reduce((sum, r) => sum + r.report.mrr * r.n, 0) / n };
}
const objective = (p) => (objectiveName === 'mrr' ? p.mrr : p.r1 + p.r5);
const meetsFloors = (reports) => reports.every((r) => !(r.name in PUBLIC_FLOORS) || r.report.recall[5] >= PUBLIC_FLOORS[r.name] - 1e-9);
const show = (p) => `${p.r1.toFixed(3)} / ${p.r3.toFixed(3)} / ${p.r5.toFixed(3)} / ${p.r10.toFixed(3)} (MRR ${p.mrr.toFixed(3)}, n ${p.n})`;

const defaults = structuredClone({ ...DEFAULT_RERANK_OPTIONS });
let weights = structuredClone(defaults);
const baseReports = evaluateAll(weights);
let best = objective(pool(baseReports, false));
const fitting = pool(baseReports, false).n;
console.error(`defaults: fitting ${show(pool(baseReports, false))}; held out ${show(pool(baseReports, true))}`);
// --weights '{"auxiliaryFactor":0.6}': compare those weights with the defaults, no climbing.
if (flags.weights) weights = { ...weights, ...JSON.parse(String(flags.weights)) };
for (let round = 0; round < (flags.weights ? 0 : rounds); round++) {
  let moved = false;
  for (const { path, min, max } of PARAMETERS) {
    const current = getWeight(weights, path);
    const tried = new Set();
    for (const step of STEPS) {
      const value = Math.round(Math.min(max, Math.max(min, (current === 0 ? 0.1 : current) * step)) * 1000) / 1000;
      if (value === current || tried.has(value)) continue;
      tried.add(value);
      const candidate = structuredClone(weights);
      setWeight(candidate, path, value);
      const reports = evaluateAll(candidate);
      const score = objective(pool(reports, false));
      // A step must gain at least half a question's worth on the fitting side (one question
      // moving from rank 2 to 1 is 0.5 / n of MRR): smaller moves are ties broken by noise.
      if (score > best + 0.5 / fitting && meetsFloors(reports)) {
        console.error(`round ${round + 1}: ${path.join('.')} ${getWeight(weights, path)} → ${value}: fitting ${show(pool(reports, false))}; held out ${show(pool(reports, true))}`);
        best = score;
        weights = candidate;
        moved = true;
      }
    }
  }
  if (!moved) break;
}

const tunedReports = evaluateAll(weights);
const changed = PARAMETERS.filter(({ path }) => getWeight(weights, path) !== getWeight(defaults, path)).map(({ path }) => `${path.join('.')} ${getWeight(defaults, path)} → ${getWeight(weights, path)}`);
console.log(`weights changed: ${changed.length > 0 ? changed.join(', ') : 'none'}`);
console.log('| set | side | defaults R@1/3/5/10 (MRR) | tuned R@1/3/5/10 (MRR) |');
console.log('|---|---|---|---|');
for (const [i, { name, heldOut: held, report }] of baseReports.entries()) {
  const tuned = tunedReports[i].report;
  const cell = (r) => `${[1, 3, 5, 10].map((k) => r.recall[k].toFixed(2)).join(' / ')} (${r.mrr.toFixed(3)})`;
  console.log(`| ${name} | ${name.startsWith('dev_') ? (held ? 'held out' : 'fitting') : 'public'} | ${cell(report)} | ${cell(tuned)} |`);
}
for (const side of [false, true]) console.log(`| pooled ${side ? 'held out' : 'fitting'} | | ${show(pool(baseReports, side))} | ${show(pool(tunedReports, side))} |`);
