// Chunks a corpus with the built package and prints timing and size statistics.
// Usage: node scripts/chunk-stats.mjs [corpusDir] [maxChunkSize]
import { performance } from 'node:perf_hooks';
import { chunkCorpus, walkCorpus, createChunker } from '../dist/index.js';

const dir = process.argv[2] ?? '/work/shared/data/raw';
const options = process.argv[3] ? { maxChunkSize: Number(process.argv[3]) } : {};
let warnings = 0;
const t0 = performance.now();
const corpus = await walkCorpus(dir, { onWarning: () => warnings++ });
const t1 = performance.now();
const perLanguage = new Map();
for (const file of corpus) {
  const chunker = createChunker(file.language, options);
  const start = performance.now();
  const chunks = chunker.chunk(file.text, file.file_path);
  const entry = perLanguage.get(file.language) ?? { files: 0, ms: 0, lengths: [], kinds: {} };
  entry.files++;
  entry.ms += performance.now() - start;
  for (const c of chunks) {
    entry.lengths.push(c.last_character_index - c.first_character_index);
    entry.kinds[c.kind] = (entry.kinds[c.kind] ?? 0) + 1;
  }
  perLanguage.set(file.language, entry);
}
const t2 = performance.now();
const whole = await chunkCorpus(dir, options);
const t3 = performance.now();
console.log(`walk+read ${corpus.length} files: ${(t1 - t0).toFixed(0)} ms (${warnings} warnings)`);
console.log(`chunkCorpus end to end: ${(t3 - t2).toFixed(0)} ms, ${whole.chunks.length} chunks`);
for (const [language, e] of perLanguage) {
  const sorted = [...e.lengths].sort((a, b) => a - b);
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  console.log(
    `${language.padEnd(9)} files ${String(e.files).padStart(5)} chunks ${String(sorted.length).padStart(6)} ` +
      `chunk ms ${e.ms.toFixed(0).padStart(5)} mean ${mean.toFixed(0)} median ${sorted[sorted.length >> 1]} max ${sorted.at(-1)} ` +
      JSON.stringify(e.kinds),
  );
}
