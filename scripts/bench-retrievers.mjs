// Dense and hybrid retrieval benchmark on the whole vLLM corpus, side by side in one run:
// chunks ../shared/data/raw once, builds bm25, embedding (the zero-download corpus embedder
// unless --model / --model_dir name a transformers.js model) and hybrid (both, fused), then
// prints recall@1/3/5/10 and MRR@10 on both public answered datasets (k = 10) with index
// time and queries/s of each. `--check` exits non-zero when hybrid is below bm25 at recall@5
// on either dataset.
//
//   node scripts/bench-retrievers.mjs [--retrievers bm25,embedding,hybrid] [--check]
//        [--model NAME | --model_dir DIR] [--sweep] [--ann]
//
// --sweep  also scores other fusion settings on the already built components (no rebuild).
// --ann    measures HNSW against exact search on the embedding vectors: recall@10 and
//          latency per efSearch, and the corpus size where HNSW starts to pay off.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DATASETS, formatTable, gitRevision, parseBenchArgs, REPO_ROOT } from './bench-lib.mjs';

const flags = parseBenchArgs(process.argv.slice(2));
const shared = resolve(process.env.RAG_SHARED_DIR ?? join(REPO_ROOT, '..', 'shared'));
if (!existsSync(join(shared, 'data', 'raw'))) {
  console.error(`error: benchmark data not found in ${shared}/data/raw.\n  hint: set RAG_SHARED_DIR to the folder that contains data/.`);
  process.exit(2);
}
const importPackage = async (name, entry = 'index') => {
  const path = join(REPO_ROOT, 'packages', name, 'dist', `${entry}.js`);
  if (!existsSync(path)) {
    console.error(`error: ${path} is missing.\n  hint: run \`pnpm build\` first.`);
    process.exit(2);
  }
  return import(path);
};

const { chunkCorpus } = await importPackage('chunking');
const { bm25RetrieverFactory } = await importPackage('bm25');
const { createEmbeddingRetrieverFactory, DEFAULT_HNSW_OPTIONS } = await importPackage('embedding');
const { HnswVectorIndex, searchExact } = await importPackage('embedding', 'internals');
const { createHybridRetrieverFactory, HybridRetriever, DEFAULT_HYBRID_OPTIONS, LEXICAL_DENSE_SETTINGS } = await importPackage('hybrid');
const { evaluate } = await importPackage('eval');
const { chunkOfHit, parseDataset } = await importPackage('core');

const wanted = String(flags.retrievers ?? 'bm25,embedding,hybrid').split(',');
const modelSettings = flags.model_dir ? { modelDir: String(flags.model_dir) } : flags.model ? { model: String(flags.model) } : {};
const embeddingFactory = createEmbeddingRetrieverFactory(modelSettings);

const datasets = DATASETS.map((name) => {
  const path = join(shared, 'data', 'datasets', 'AnsweredQuestions', `${name}.json`);
  return { name, dataset: parseDataset(readFileSync(path, 'utf8'), path) };
});
const questions = datasets.flatMap(({ dataset }) => dataset.rag_questions.map((q) => q.question));

let t0 = performance.now();
const { chunks } = await chunkCorpus(join(shared, 'data', 'raw'));
const chunkSeconds = (performance.now() - t0) / 1000;

const toSource = (chunk) => ({
  file_path: `data/raw/${chunk.file_path}`,
  first_character_index: chunk.first_character_index,
  last_character_index: chunk.last_character_index,
});

/** Recall@1/3/5/10 and MRR@10 per dataset, and queries/s over all questions (after one warm-up pass). */
async function measure(retriever) {
  for (const q of questions.slice(0, 20)) await retriever.search(q, { k: 10 });
  const scores = {};
  let searchMs = 0;
  for (const { name, dataset } of datasets) {
    const search_results = [];
    for (const q of dataset.rag_questions) {
      const start = performance.now();
      const hits = await retriever.search(q.question, { k: 10 });
      searchMs += performance.now() - start;
      search_results.push({ question_id: q.question_id, retrieved_sources: hits.map((h) => toSource(chunkOfHit(h, chunks))) });
    }
    const report = evaluate(dataset, { search_results, k: 10 }, { k: 10 });
    scores[name] = { ...report.recall, mrr: report.mrr };
  }
  return { scores, qps: questions.length / (searchMs / 1000) };
}

const rows = [];
let saveLine = '';
const results = {};
const built = {};
function addRows(label, measured, indexSeconds) {
  results[label] = measured.scores;
  for (const { name } of datasets) {
    const s = measured.scores[name];
    rows.push([label, name.replace('dataset_', '').replace('_public', ''), ...[1, 3, 5, 10].map((k) => s[k].toFixed(2)), s.mrr.toFixed(3), indexSeconds, Math.round(measured.qps)]);
  }
}

for (const name of ['bm25', 'embedding']) {
  if (!wanted.includes(name) && !wanted.includes('hybrid')) continue;
  const factory = name === 'bm25' ? bm25RetrieverFactory : embeddingFactory;
  t0 = performance.now();
  built[name] = { retriever: await factory.build(chunks), seconds: (performance.now() - t0) / 1000 };
  if (wanted.includes(name)) addRows(name, await measure(built[name].retriever), built[name].seconds.toFixed(1));
}
if (wanted.includes('hybrid')) {
  // What createHybridRetrieverFactory([bm25, embedding], LEXICAL_DENSE_SETTINGS) builds, reusing the
  // components built above, so its index time is theirs summed.
  const hybrid = new HybridRetriever([built.bm25.retriever, built.embedding.retriever], LEXICAL_DENSE_SETTINGS);
  addRows('hybrid', await measure(hybrid), (built.bm25.seconds + built.embedding.seconds).toFixed(1));
  // Round trip through the factory: save each component in its directory, load, compare.
  const dir = mkdtempSync(join(tmpdir(), 'rag-bench-hybrid-'));
  try {
    t0 = performance.now();
    await hybrid.save(dir);
    const saveSeconds = (performance.now() - t0) / 1000;
    const factory = createHybridRetrieverFactory([bm25RetrieverFactory, embeddingFactory], LEXICAL_DENSE_SETTINGS);
    t0 = performance.now();
    const loaded = await factory.load(dir, chunks);
    const loadSeconds = (performance.now() - t0) / 1000;
    for (const q of questions.slice(0, 25)) {
      const [a, b] = [await hybrid.search(q, { k: 10 }), await loaded.search(q, { k: 10 })];
      if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`loaded hybrid differs on "${q}"`);
    }
    const bytes = (sub) => readdirSync(join(dir, sub)).reduce((sum, f) => sum + statSync(join(dir, sub, f)).size, 0);
    saveLine = `hybrid save ${saveSeconds.toFixed(2)} s, load ${loadSeconds.toFixed(2)} s (same results); on disk: bm25 ${(bytes('bm25') / 1e6).toFixed(1)} MB, embedding ${(bytes('embedding') / 1e6).toFixed(1)} MB`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (flags.sweep) {
    const variants = [
      { fusion: 'rrf', rrfK: 60, weights: {} },
      { fusion: 'rrf', rrfK: 60, weights: { embedding: 0.2 } },
      ...[0.1, 0.2, 0.3].map((w) => ({ fusion: 'rrf', rrfK: 5, weights: { embedding: w } })),
      ...[0.1, 0.15, 0.2, 0.3, 0.5].flatMap((w) => ['minmax', 'zscore'].map((fusion) => ({ fusion, weights: { embedding: w } }))),
    ];
    for (const variant of variants) {
      const label = `${variant.fusion}${variant.rrfK ? ` k${variant.rrfK}` : ''} w${variant.weights?.embedding ?? 1}`;
      addRows(`hybrid ${label}`, await measure(hybrid.withOptions({ ...DEFAULT_HYBRID_OPTIONS, ...variant })), '');
    }
  }
}

console.log(`rag retriever benchmark @ ${gitRevision()} — vLLM 0.10.1, ${chunks.length} chunks (chunked in ${chunkSeconds.toFixed(1)} s), k = 10`);
if (built.embedding) {
  const stats = built.embedding.retriever.buildStats ?? {};
  const steps = stats.seconds ? Object.entries(stats.seconds).map(([k, v]) => `${k} ${v.toFixed(2)} s`).join(', ') : '';
  console.log(`embedding: ${built.embedding.retriever.embedder.id}${stats.vocabulary ? ` — ${stats.vocabulary} terms, ${stats.tokens} tokens; ${steps}` : ''}`);
}
console.log(formatTable(['retriever', 'dataset', 'R@1', 'R@3', 'R@5', 'R@10', 'MRR@10', 'index s', 'q/s'], rows));

if (saveLine) console.log(saveLine);
let failed = false;
if (results.hybrid && results.bm25) {
  for (const { name } of datasets) {
    const ok = results.hybrid[name][5] >= results.bm25[name][5];
    if (!ok) failed = true;
    console.log(`hybrid vs bm25 recall@5 on ${name}: ${results.hybrid[name][5].toFixed(2)} vs ${results.bm25[name][5].toFixed(2)} ${ok ? 'ok' : 'WORSE'}`);
  }
}

if (flags.ann && built.embedding) {
  const { vectors, manifest } = built.embedding.retriever;
  const dimension = manifest.embedder.dimension;
  const queryVectors = [];
  for (const q of questions) queryVectors.push(await built.embedding.retriever.embedQuery(q));
  const time = (fn) => {
    const start = performance.now();
    fn();
    return performance.now() - start;
  };
  /** Perturbed copies of the real vectors, to extrapolate past the corpus size. */
  const grow = (count) => {
    const out = new Float32Array(count * dimension);
    let state = 12345;
    const noise = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 4294967296 - 0.5) * 0.1;
    const rows = vectors.length / dimension;
    for (let r = 0; r < count; r++) {
      const source = (r % rows) * dimension;
      let norm = 0;
      for (let i = 0; i < dimension; i++) norm += (out[r * dimension + i] = vectors[source + i] + (r < rows ? 0 : noise())) ** 2;
      norm = Math.sqrt(norm) || 1;
      for (let i = 0; i < dimension; i++) out[r * dimension + i] /= norm;
    }
    return out;
  };
  const annRows = [];
  for (const count of [1000, 5000, 10000, vectors.length / dimension, 100000, 200000]) {
    const data = count === vectors.length / dimension ? vectors : grow(count);
    let graph;
    const buildMs = time(() => (graph = HnswVectorIndex.build(data, dimension, DEFAULT_HNSW_OPTIONS)));
    const exact = queryVectors.map((q) => searchExact(data, dimension, q, 10));
    const exactMs = time(() => queryVectors.forEach((q) => searchExact(data, dimension, q, 10))) / queryVectors.length;
    for (const ef of [16, 64, 128, 256]) {
      graph.efSearch = ef;
      let found = 0;
      const hnswMs = time(() => queryVectors.forEach((q, i) => {
        const truth = new Set(exact[i].map((h) => h.chunkId));
        for (const h of graph.search(q, 10)) if (truth.has(h.chunkId)) found++;
      })) / queryVectors.length;
      annRows.push([count, ef, (found / (queryVectors.length * 10)).toFixed(3), exactMs.toFixed(3), hnswMs.toFixed(3), (buildMs / 1000).toFixed(1)]);
    }
  }
  console.log(`\nHNSW (M ${DEFAULT_HNSW_OPTIONS.m}, efConstruction ${DEFAULT_HNSW_OPTIONS.efConstruction}) vs exact search, ${dimension}-d, ${queryVectors.length} question vectors; sizes past the corpus are perturbed copies:`);
  console.log(formatTable(['vectors', 'efSearch', 'recall@10', 'exact ms/q', 'hnsw ms/q', 'hnsw build s'], annRows));
}

if (flags.check && failed) {
  console.error('error: hybrid is below bm25 at recall@5 (see above).');
  process.exit(1);
}
