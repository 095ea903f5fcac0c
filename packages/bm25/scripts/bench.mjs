// Quality and speed of @rag/bm25 on the shared benchmark, over chunks from a JSON file
// (until @rag/chunking is wired in). Build the package first (`npx tsup`).
//
//   python3 ../../../shared/peers/python-bm25/corpus_chunks.py --mode struct --size 2000 --out /tmp/chunks.json
//   node scripts/bench.mjs /tmp/chunks.json                   # defaults: recall, build, q/s, save/load
//   node scripts/bench.mjs /tmp/chunks.json '{"k1":0.9}'      # any settings
//   node scripts/bench.mjs /tmp/chunks.json --ablations       # each option switched against the defaults
//
// Chunks: [{file_path, first_character_index|start, last_character_index|end, text, symbol?, kind?}],
// file_path relative to shared/ (as the peer exports them) or to the corpus root.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createBm25Retriever, loadBm25Retriever } from '../dist/index.js';

const SHARED = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared');
const CORPUS_PREFIX = 'data/raw/vllm-0.10.1/';
const KS = [1, 3, 5, 10];

const ABLATIONS = {
  defaults: {},
  'splitIdentifiers off': { tokenizer: { splitIdentifiers: false } },
  'splitDigits on': { tokenizer: { splitDigits: true } },
  'dottedNames off': { tokenizer: { dottedNames: false } },
  'stopwords off': { tokenizer: { stopwords: false } },
  'stem off': { tokenizer: { stem: false } },
  'dropQuestionWords off': { query: { dropQuestionWords: false } },
  'subwordWeight 0.5': { query: { subwordWeight: 0.5 } },
  'path weight 0': { fields: { path: { weight: 0 } } },
  'symbol weight 0': { fields: { symbol: { weight: 0 } } },
  'body only': { fields: { path: { weight: 0 }, symbol: { weight: 0 } } },
  'k1 0.9': { k1: 0.9 },
  'k1 2.0': { k1: 2 },
  'b 0.5': { b: 0.5 },
  'b 1.0': { b: 1 },
};

async function readJson(path) {
  return JSON.parse(await readFile(path, 'utf8'));
}

function toChunks(raw) {
  return raw.map((c, id) => {
    const text = c.text;
    return {
      id,
      file_path: c.file_path.startsWith(CORPUS_PREFIX) ? c.file_path.slice(CORPUS_PREFIX.length) : c.file_path,
      first_character_index: c.first_character_index ?? c.start,
      last_character_index: c.last_character_index ?? c.end,
      start_line: 1,
      end_line: 1,
      kind: c.kind ?? 'block',
      symbol: c.symbol ?? '',
      language: 'text',
      text,
    };
  });
}

function overlaps(chunk, gold) {
  if (CORPUS_PREFIX + chunk.file_path !== gold.file_path && chunk.file_path !== gold.file_path) return false;
  const inter = Math.max(0, Math.min(chunk.last_character_index, gold.last_character_index) - Math.max(chunk.first_character_index, gold.first_character_index));
  const union = chunk.last_character_index - chunk.first_character_index + gold.last_character_index - gold.first_character_index - inter;
  return union > 0 && inter / union > 0.05;
}

function recall(retriever, chunks, questions) {
  const totals = Object.fromEntries(KS.map((k) => [k, 0]));
  for (const q of questions) {
    const hits = retriever.searchSync(q.question, { k: 10 });
    for (const k of KS) {
      const top = hits.slice(0, k).map((h) => chunks[h.chunkId]);
      const found = q.sources.filter((g) => top.some((c) => overlaps(c, g))).length;
      totals[k] += found / q.sources.length;
    }
  }
  return KS.map((k) => (totals[k] / questions.length).toFixed(2)).join(' ');
}

const [chunksPath, ...rest] = process.argv.slice(2);
if (!chunksPath) {
  console.error('usage: node scripts/bench.mjs <chunks.json> [settings-json | --ablations]');
  process.exit(2);
}
const chunks = toChunks(await readJson(chunksPath));
const sets = {
  code: (await readJson(join(SHARED, 'data/datasets/AnsweredQuestions/dataset_code_public.json'))).rag_questions,
  docs: (await readJson(join(SHARED, 'data/datasets/AnsweredQuestions/dataset_docs_public.json'))).rag_questions,
};
const configs = rest[0] === '--ablations' ? ABLATIONS : { settings: JSON.parse(rest[0] ?? '{}') };
const characters = chunks.reduce((sum, c) => sum + c.text.length, 0);
console.log(`${chunks.length} chunks, ${(characters / 1e6).toFixed(1)} M characters; recall@${KS.join('/')}`);

for (const [label, settings] of Object.entries(configs)) {
  let start = performance.now();
  const retriever = createBm25Retriever(chunks, settings);
  const buildMs = performance.now() - start;
  const line = `${label.padEnd(22)} code ${recall(retriever, chunks, sets.code)} | docs ${recall(retriever, chunks, sets.docs)}`;
  if (rest[0] === '--ablations') {
    console.log(line);
    continue;
  }
  const queries = [...sets.code, ...sets.docs].map((q) => q.question);
  for (const q of queries) retriever.searchSync(q, { k: 10 });
  start = performance.now();
  const rounds = 10;
  for (let r = 0; r < rounds; r++) for (const q of queries) retriever.searchSync(q, { k: 10 });
  const qps = (rounds * queries.length) / ((performance.now() - start) / 1000);
  const dir = await mkdtemp(join(tmpdir(), 'rag-bm25-bench-'));
  start = performance.now();
  await retriever.save(dir);
  const saveMs = performance.now() - start;
  const { size } = await stat(join(dir, 'bm25.bin'));
  let loadMs = Infinity;
  for (let i = 0; i < 5; i++) {
    start = performance.now();
    await loadBm25Retriever(dir, chunks);
    loadMs = Math.min(loadMs, performance.now() - start);
  }
  await rm(dir, { recursive: true, force: true });
  const stats = retriever.index.stats();
  console.log(line);
  console.log(
    `build ${buildMs.toFixed(0)} ms, ${stats.termCount} terms, ${stats.postings.join('/')} postings (body/path/symbol); ` +
      `${qps.toFixed(0)} queries/s (k=10); save ${saveMs.toFixed(0)} ms, ${(size / 1e6).toFixed(1)} MB, load ${loadMs.toFixed(0)} ms`,
  );
}
