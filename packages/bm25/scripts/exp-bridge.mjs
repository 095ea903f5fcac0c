import { readFile } from 'node:fs/promises';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chunkCorpus } from '@rag/chunking';
import { parseDataset } from '../../core/dist/index.js';
import { evaluate } from '../../eval/dist/index.js';
import { createBm25Retriever } from '../dist/index.js';
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SHARED = resolve(ROOT, '../shared');
const pub = (n) => join(SHARED, 'data/datasets/AnsweredQuestions', `${n}.json`);
const dev = (n) => join(ROOT, 'datasets/dev', `${n}.json`);
const suites = [
  { corpus: join(SHARED, 'data/raw'), prefix: 'data/raw/', sets: [pub('dataset_code_public'), pub('dataset_docs_public'), dev('dev_vllm_code'), dev('dev_vllm_docs')] },
  { corpus: join(ROOT, '.bench/dev-corpora/other'), prefix: 'other/', sets: [dev('dev_other_code'), dev('dev_other_docs')] },
];
const PROSE = /\.(md|rst|txt)$/;
const INLINE = /``([^`\n]+)``|`([^`\n]+)`/g;
function identifiersIn(text) {
  const out = new Set();
  for (const m of text.matchAll(INLINE)) {
    let s = (m[1] ?? m[2]).trim().replace(/^~/, '').replace(/\(.*$/, '');
    if (/^[A-Za-z_][\w.]*$/.test(s) && /[_.]|[a-z][A-Z]|^[A-Z_]{3,}$/.test(s)) out.add(s);
  }
  return [...out];
}
const W = Number(process.env.W ?? 3), TOPP = Number(process.env.TOPP ?? 3);
const variants = ['base', 'expanded', 'codeslots'];
for (const suite of suites) {
  const { chunks } = await chunkCorpus(suite.corpus, {});
  const r = createBm25Retriever(chunks, {});
  const src = (c) => ({ file_path: suite.prefix + c.file_path, first_character_index: c.first_character_index, last_character_index: c.last_character_index });
  for (const path of suite.sets) {
    const ds = parseDataset(await readFile(path, 'utf8'), path);
    const res = Object.fromEntries(variants.map((v) => [v, []]));
    for (const q of ds.rag_questions) {
      const base = r.searchSync(q.question, { k: 10 });
      const prose = base.filter((h) => PROSE.test(chunks[h.chunkId].file_path)).slice(0, TOPP);
      const ids = [...new Set(prose.flatMap((h) => identifiersIn(chunks[h.chunkId].text)))];
      let expanded = base;
      if (ids.length) expanded = r.searchSync(q.question + ' ' + ids.join(' '), { k: 10 });
      // code slots: base positions of code hits filled by expanded's code hits first
      const eCode = expanded.filter((h) => !PROSE.test(chunks[h.chunkId].file_path));
      const bCode = base.filter((h) => !PROSE.test(chunks[h.chunkId].file_path));
      const codeQueue = [...eCode.slice(0, 1), ...bCode, ...eCode.slice(1)];
      const seen = new Set(); const cs = [];
      for (const h of base) {
        if (PROSE.test(chunks[h.chunkId].file_path)) { cs.push(h); continue; }
        while (codeQueue.length && seen.has(codeQueue[0].chunkId)) codeQueue.shift();
        const n = codeQueue.shift(); if (n) { seen.add(n.chunkId); cs.push(n); }
      }
      for (const [v, list] of [['base', base], ['expanded', expanded], ['codeslots', cs]]) res[v].push({ question_id: q.question_id, retrieved_sources: list.map((h) => src(chunks[h.chunkId])) });
    }
    const name = path.split('/').pop();
    console.log(name, variants.map((v) => { const rep = evaluate(ds, { search_results: res[v], k: 10 }); return `${v} ${[1, 3, 5, 10].map((k) => rep.recall[k].toFixed(2)).join('/')}`; }).join('  |  '));
  }
}
