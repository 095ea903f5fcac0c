// node /tmp/explain.mjs CORPUS_DIR PREFIX "question" file start
import { chunkCorpus } from '@rag/chunking';
import { createBm25Retriever } from '/work/main/packages/bm25/dist/index.js';
const [corpus, q, file, at] = process.argv.slice(2);
const { chunks } = await chunkCorpus(corpus);
const r = await createBm25Retriever(chunks);
const hits = await r.search(q, { k: 50 });
const target = chunks.filter((c) => c.file_path.endsWith(file) && c.first_character_index <= Number(at) && c.last_character_index > Number(at));
console.log('target chunks', target.map((c) => [c.id, c.symbol, c.first_character_index, c.last_character_index, c.text.length]));
hits.slice(0, 12).forEach((h, i) => { const c = chunks[h.id] ?? {}; console.log(i + 1, h.score.toFixed(3), JSON.stringify(h).slice(0, 200)); });
for (const t of target) {
  const rank = hits.findIndex((h) => h.file_path === t.file_path && h.first_character_index <= t.first_character_index && h.last_character_index >= t.last_character_index);
  console.log('target rank', rank + 1);
  if (r.explain) console.log(JSON.stringify(r.explain(q, t.id)));
}
