// Chunks every Python file under the given folders twice — statements scanned
// (`pythonReader: 'scan'`) and parsed by tree-sitter (`'parse'`) — and reports the files
// whose chunks differ, with the first difference, and the time each reader took.
//
//   node scripts/compare-python-readers.mjs DIR [DIR …] [--show 5]   (from packages/chunking)
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createChunker } from '../dist/index.js';

const args = process.argv.slice(2);
const showAt = args.indexOf('--show');
const show = showAt >= 0 ? Number(args.splice(showAt, 2)[1]) : 5;
if (args.length === 0) {
  console.error('usage: node scripts/compare-python-readers.mjs DIR [DIR …] [--show N]');
  process.exit(2);
}
const files = [];
const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path);
    else if (/\.pyi?$/.test(entry.name)) files.push(path);
  }
};
for (const dir of args) walk(dir);
const scan = createChunker('python', { pythonReader: 'scan' });
const parse = createChunker('python', { pythonReader: 'parse' });
const time = { scan: 0, parse: 0 };
const differing = [];
let chunks = 0;
for (const path of files) {
  const text = readFileSync(path, 'utf8');
  let t = performance.now();
  const scanned = scan.chunk(text, path);
  time.scan += performance.now() - t;
  t = performance.now();
  const parsed = parse.chunk(text, path);
  time.parse += performance.now() - t;
  chunks += parsed.length;
  const key = (c) => `${c.first_character_index}-${c.last_character_index} ${c.kind} ${c.symbol} ${c.start_line}-${c.end_line}`;
  const a = scanned.map(key);
  const b = parsed.map(key);
  const at = a.findIndex((k, i) => k !== b[i]);
  if (at >= 0 || a.length !== b.length) differing.push({ path, at: at >= 0 ? at : Math.min(a.length, b.length), scanned: a, parsed: b });
}
console.log(`${files.length} Python files, ${chunks} chunks (parsed); chunks differ in ${differing.length} files; scan ${(time.scan / 1000).toFixed(2)} s, parse ${(time.parse / 1000).toFixed(2)} s (whole chunking, one thread)`);
for (const d of differing.slice(0, show)) {
  console.log(`- ${relative(process.cwd(), d.path)}: chunk ${d.at}: scanned ${d.scanned[d.at] ?? '(none)'} | parsed ${d.parsed[d.at] ?? '(none)'}`);
}
process.exitCode = differing.length > 0 ? 1 : 0;
