// Measures how well chunk spans can score under the benchmark's IoU rule, for tuning the
// chunking defaults: the best IoU any chunk reaches with each gold span (a ceiling), and
// recall@k of a plain BM25 over the chunks (a rough, retriever-independent comparison).
// Usage: node scripts/eval-spans.mjs ['{"targetChunkSize":800}']
import { readFileSync } from 'node:fs';
import { chunkCorpus } from '../dist/index.js';

const shared = '/work/shared';
const options = JSON.parse(process.argv[2] ?? '{}');
const { chunks } = await chunkCorpus(`${shared}/data/raw`, options);
const path = (chunk) => `data/raw/${chunk.file_path}`;

function tokens(text) {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t.length > 1);
}

const postings = new Map();
const lengths = new Float64Array(chunks.length);
chunks.forEach((chunk, id) => {
  const counts = new Map();
  for (const t of tokens(`${chunk.symbol} ${chunk.file_path} ${chunk.text}`)) counts.set(t, (counts.get(t) ?? 0) + 1);
  let length = 0;
  for (const [t, n] of counts) {
    length += n;
    let list = postings.get(t);
    if (!list) postings.set(t, (list = []));
    list.push(id, n);
  }
  lengths[id] = length;
});
const average = lengths.reduce((a, b) => a + b, 0) / chunks.length;

function search(query, k) {
  const scores = new Float64Array(chunks.length);
  for (const t of new Set(tokens(query))) {
    const list = postings.get(t);
    if (!list) continue;
    const df = list.length / 2;
    const idf = Math.log(1 + (chunks.length - df + 0.5) / (df + 0.5));
    for (let i = 0; i < list.length; i += 2) {
      const tf = list[i + 1];
      scores[list[i]] += (idf * tf * 2.2) / (tf + 1.2 * (0.25 + 0.75 * (lengths[list[i]] / average)));
    }
  }
  return [...scores.keys()].filter((i) => scores[i] > 0).sort((a, b) => scores[b] - scores[a]).slice(0, k);
}

function iou(chunk, gold) {
  const overlap = Math.min(chunk.last_character_index, gold.last_character_index) - Math.max(chunk.first_character_index, gold.first_character_index);
  if (overlap <= 0) return 0;
  const a = chunk.last_character_index - chunk.first_character_index;
  const b = gold.last_character_index - gold.first_character_index;
  return overlap / (a + b - overlap);
}

const byFile = new Map();
for (const chunk of chunks) {
  const list = byFile.get(path(chunk)) ?? [];
  list.push(chunk);
  byFile.set(path(chunk), list);
}

for (const name of ['code', 'docs']) {
  const dataset = JSON.parse(readFileSync(`${shared}/data/datasets/AnsweredQuestions/dataset_${name}_public.json`, 'utf8'));
  const ks = [1, 3, 5, 10];
  const recall = Object.fromEntries(ks.map((k) => [k, 0]));
  let coverable = 0;
  let bestSum = 0;
  let golds = 0;
  for (const question of dataset.rag_questions) {
    const sources = question.sources ?? [];
    const hits = search(question.question, 10).map((id) => chunks[id]);
    for (const k of ks) {
      let found = 0;
      for (const gold of sources) if (hits.slice(0, k).some((c) => path(c) === gold.file_path && iou(c, gold) > 0.05)) found++;
      recall[k] += sources.length ? found / sources.length : 0;
    }
    for (const gold of sources) {
      golds++;
      const best = Math.max(0, ...(byFile.get(gold.file_path) ?? []).map((c) => iou(c, gold)));
      bestSum += best;
      if (best > 0.05) coverable++;
    }
  }
  const n = dataset.rag_questions.length;
  console.log(
    `${name}: chunks ${chunks.length}, coverable ${coverable}/${golds}, mean best IoU ${(bestSum / golds).toFixed(3)}, bm25 recall ` +
      ks.map((k) => `@${k} ${(recall[k] / n).toFixed(2)}`).join(' '),
  );
}
