// The one-pass floor of indexing: walk the corpus, read every file `rag index` would read
// (.py/.md/.rst/.txt), and split it into words, in one Node process. No index can be built
// faster than this; `pnpm bench` reports rag index's CPU as a multiple of it.
//   node scripts/floor-one-pass.mjs <corpus_dir>
import { readdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';

const EXTENSIONS = new Set(['.py', '.md', '.rst', '.txt']);
let words = 0;
let files = 0;

async function walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await walk(path);
    else if (entry.isFile() && EXTENSIONS.has(extname(entry.name).toLowerCase())) {
      const text = await readFile(path, 'utf8');
      words += (text.match(/\w+/g) ?? []).length;
      files++;
    }
  }
}

await walk(process.argv[2]);
console.log(JSON.stringify({ files, words }));
