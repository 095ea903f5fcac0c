import { appendFileSync, cpSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { CLI, MINI_CORPUS, MINI_QUESTIONS, rag, REPO_ROOT } from './helpers.js';

let work: string;
let indexDir: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'rag-cli-test-'));
  indexDir = join(work, 'index');
  const result = rag(['index', '--corpus_dir', MINI_CORPUS, '--index_dir', indexDir]);
  expect(result.status, result.stderr).toBe(0);
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('rag index', () => {
  it('reports files and chunks and warns about skipped files on stderr', () => {
    const result = rag(['index', '--corpus-dir', MINI_CORPUS, '--index-dir', join(work, 'index-json'), '--json']);
    expect(result.status, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary.retriever).toBe('bm25');
    expect(summary.files).toBeGreaterThan(5);
    expect(summary.chunks).toBeGreaterThanOrEqual(summary.files);
    // The mini corpus holds a Latin-1 .txt file: warned about, not fatal. (Its PNG is not an
    // indexed extension, so it is not even read.)
    expect(summary.warnings).toBe(1);
    expect(result.stderr).toMatch(/warning: .*legacy_notes\.txt.*UTF-8/);
  });

  it('says an index whose corpus did not change is up to date, and writes nothing', () => {
    const dir = join(work, 'index-steady');
    expect(rag(['index', '--corpus_dir', MINI_CORPUS, '--index_dir', dir, '--quiet']).status).toBe(0);
    const generations = readdirSync(join(dir, 'generations'));
    const result = rag(['index', '--corpus_dir', MINI_CORPUS, '--index_dir', dir]);
    expect(result.status, result.stderr).toBe(0);
    // The repository's files last changed long before this run, so their signatures were recorded.
    expect(result.stdout).toMatch(/up to date: \d+ files unchanged \(\d+ of them not read\), nothing written/);
    expect(readdirSync(join(dir, 'generations'))).toEqual(generations);
  });

  it('refuses to write over a directory that is not an index, before doing any work', () => {
    const foreign = join(work, 'my-project');
    mkdirSync(foreign, { recursive: true });
    writeFileSync(join(foreign, 'keep.txt'), 'precious');
    const result = rag(['index', '--corpus_dir', MINI_CORPUS, '--index_dir', foreign]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/Refusing to write an index into .*my-project/);
    expect(result.stderr).not.toMatch(/chunking/);
    expect(readFileSync(join(foreign, 'keep.txt'), 'utf8')).toBe('precious');
  });

  it('`--watch 1` keeps the index up to date after indexing, until SIGTERM', async () => {
    // A copy: the test edits it.
    const corpus = join(work, 'watched');
    const dir = join(work, 'index-watched');
    cpSync(join(REPO_ROOT, MINI_CORPUS), corpus, { recursive: true });
    const child = spawn(process.execPath, [CLI, 'index', corpus, '--index_dir', dir, '--watch', '1'], { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr!.on('data', (data: Buffer) => (stderr += data.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      // Bounded by the test's timeout, as every wait below.
      while (!stderr.includes('watching the corpus for changes')) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(stdout).toMatch(/^Indexed \d+ files into \d+ chunks/);
      appendFileSync(join(corpus, 'README.md'), '\n\nNarwhal calibration is done at startup.\n');
      const search = () => rag(['search', 'narwhal calibration', '--index_dir', dir, '--k', '1', '--json'], { cwd: work });
      while ((JSON.parse(search().stdout) as { retrieved_sources: unknown[] }).retrieved_sources.length === 0) await new Promise((resolve) => setTimeout(resolve, 200));
      expect((JSON.parse(search().stdout) as { retrieved_sources: { file_path: string }[] }).retrieved_sources[0]!.file_path).toBe('watched/README.md');
      // The update is published before the watching process hears of it and says so.
      while (!stderr.includes('watch: index updated')) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(stderr).toMatch(/watch: index updated: 0 added, 1 changed, 0 removed/);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('`--watch_poll` needs `--watch`, and refuses before indexing anything', () => {
    const dir = join(work, 'index-poll-only');
    const result = rag(['index', '--corpus_dir', MINI_CORPUS, '--index_dir', dir, '--watch_poll']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--watch_poll only changes how --watch looks/);
    expect(existsSync(dir)).toBe(false);
  });

  it('keeps the previous index when a rebuild fails', () => {
    const before = readFileSync(join(indexDir, 'CURRENT'), 'utf8');
    const result = rag(['index', '--corpus_dir', join(work, 'no-such-dir'), '--index_dir', indexDir]);
    expect(result.status).not.toBe(0);
    expect(readFileSync(join(indexDir, 'CURRENT'), 'utf8')).toBe(before);
    expect(readdirSync(work).filter((n) => n.includes('.tmp-'))).toEqual([]);
  });
});

describe('rag search', () => {
  it('delivers all of a large output through a pipe read slowly, then exits 0', () => {
    // The CLI ends its process as soon as a command returns and its output is written: every
    // byte must still reach a reader that starts late and reads in small parts.
    // 200 files that all answer, so the output (~220 KB) is several times a pipe's buffer.
    const corpus = join(work, 'many-widgets');
    mkdirSync(corpus, { recursive: true });
    for (let i = 0; i < 200; i++) {
      const body = Array.from({ length: 12 }, (_, line) => `    widget_${i}_${line} = make_widget(${i}, ${line})  # widget number ${line}`).join('\n');
      writeFileSync(join(corpus, `widgets_${i}.py`), `def build_widgets_${i}():\n    """Builds the widgets of set ${i}."""\n${body}\n    return widget_${i}_0\n`);
    }
    const manyDir = join(work, 'index-widgets');
    expect(rag(['index', '--corpus_dir', corpus, '--index_dir', manyDir, '--quiet']).status).toBe(0);
    const search = ['search', '--query', 'widget', '--index_dir', manyDir, '--k', '200', '--json', '--text'];
    const args = search.map((arg) => `'${arg}'`).join(' ');
    const script = `'${process.execPath}' '${CLI}' ${args}; echo "status $?" >&2`;
    const slow = spawnSync('sh', ['-c', `(${script}) | (sleep 0.3; dd bs=512 2>/dev/null)`], { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 1 << 26 });
    expect(slow.stderr).toContain('status 0');
    const direct = rag(search);
    expect(slow.stdout.length).toBeGreaterThan(3 * 65536);
    expect(slow.stdout).toBe(direct.stdout);
    expect(JSON.parse(slow.stdout).retrieved_sources.length).toBe(200);
  }, 60_000);

  it('takes the question as the words after the command, as --query', () => {
    const flagged = rag(['search', '--query', 'request body size limit', '--k', '3', '--index_dir', indexDir, '--json']);
    const quoted = rag(['search', 'request body size limit', '--k', '3', '--index_dir', indexDir, '--json']);
    const unquoted = rag(['search', '--k', '3', 'request', 'body', '--index_dir', indexDir, 'size', 'limit', '--json']);
    expect(quoted.status, quoted.stderr).toBe(0);
    expect(quoted.stdout).toBe(flagged.stdout);
    expect(unquoted.stdout).toBe(flagged.stdout);
    // After `--`, a word that looks like a flag is part of the question, and not a request for help.
    const dashed = rag(['search', '--index_dir', indexDir, '--json', '--', '--help', 'limit']);
    expect(dashed.status, dashed.stderr).toBe(0);
    expect(JSON.parse(dashed.stdout).question).toBe('--help limit');
    const both = rag(['search', '--query', 'limit', 'size', '--index_dir', indexDir]);
    expect(both.status).toBe(2);
    expect(both.stderr).toContain('Both --query and the words "size"');
  });

  it('returns JSON with benchmark-format sources whose paths start with the corpus dir as given', () => {
    const result = rag(['search', '--query', 'request body size limit', '--k', '3', '--index_dir', indexDir, '--json']);
    expect(result.status, result.stderr).toBe(0);
    const out = JSON.parse(result.stdout);
    expect(out.question).toBe('request body size limit');
    expect(out.retrieved_sources.length).toBeGreaterThan(0);
    expect(out.retrieved_sources.length).toBeLessThanOrEqual(3);
    for (const [i, source] of out.retrieved_sources.entries()) {
      // The benchmark's three fields first, then where and what the hit is (and the other
      // definitions a joined span holds, when it does); no text unless --text.
      const also = 'also_symbols' in source ? ['also_symbols'] : [];
      expect(Object.keys(source)).toEqual(['file_path', 'first_character_index', 'last_character_index', 'start_line', 'end_line', 'symbol', 'kind', ...also, 'rank', 'score']);
      expect(source.rank).toBe(i + 1);
      expect(source.start_line).toBeGreaterThan(0);
      expect(source.end_line).toBeGreaterThanOrEqual(source.start_line);
      expect(source.file_path.startsWith(`${MINI_CORPUS}/`)).toBe(true);
      expect(existsSync(join(REPO_ROOT, source.file_path))).toBe(true);
      expect(source.last_character_index - source.first_character_index).toBeLessThanOrEqual(2000);
    }
  });

  it('gives each hit its text with --json --text, exactly the cited span', () => {
    const result = rag(['search', '--query', 'request body size limit', '--k', '2', '--index_dir', indexDir, '--json', '--text']);
    expect(result.status, result.stderr).toBe(0);
    for (const source of JSON.parse(result.stdout).retrieved_sources) {
      const file = Array.from(readFileSync(join(REPO_ROOT, source.file_path), 'utf8'));
      expect(source.text).toBe(file.slice(source.first_character_index, source.last_character_index).join(''));
    }
  });

  it('prints path, line range, symbol and score for humans, with the matching lines numbered as in the file', () => {
    const result = rag(['search', '--query', 'request body size limit', '--k', '2', '--index_dir', indexDir]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^ 1\. datasets\/mini\/corpus\/\S+:\d+-\d+ .*score \d+\.\d{3}/m);
    // ripgrep's layout: `NUMBER:` for a line that matches, `NUMBER-` for context; never colour when piped.
    const first = /^ 1\. (\S+):(\d+)-\d+/m.exec(result.stdout)!;
    const match = /^\s+(\d+): (.*)$/m.exec(result.stdout)!;
    const lines = readFileSync(join(REPO_ROOT, first[1]!), 'utf8').split('\n');
    expect(lines[Number(match[1]) - 1]!.trimStart()).toBe(match[2]!.trimStart());
    expect(result.stdout).not.toContain('\u001b[');
  });

  it('names the other definitions a hit joined from neighbouring chunks holds, in text and in JSON', () => {
    // defaults.py's settings block and the `from_env` helper right after it are one hit.
    const question = 'What TCP port does the tinyserve development server listen on by default?';
    const text = rag(['search', '--query', question, '--k', '1', '--index_dir', indexDir]);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^ 1\. datasets\/mini\/corpus\/tinyserve\/defaults\.py:\d+-\d+ {2}module \(\+ from_env\) {2}\[chars/m);
    const json = JSON.parse(rag(['search', '--query', question, '--k', '1', '--index_dir', indexDir, '--json']).stdout);
    expect(json.retrieved_sources[0].also_symbols).toEqual(['from_env']);
  });

  it('echoes a long query that matches nothing on one short line, not whole', () => {
    // A pasted log: thousands of characters over many lines, none of them an indexed word.
    const pasted = Array.from({ length: 300 }, (_, i) => `zzqx${i}qq`).join('\n');
    const result = rag(['search', '--query', pasted, '--index_dir', indexDir]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    expect(result.stdout).toMatch(/^No matches for "zzqx0qq zzqx1qq .{0,70}…" \(retriever bm25\)\.$/m);
    // Why, on stderr: the words no indexed chunk holds, a few of them.
    expect(result.stderr).toContain('No indexed chunk holds "zzqx0qq", "zzqx1qq", "zzqx2qq" and 297 more');
  });

  it('searches within --glob: only the matched files, the globs in JSON, and why nothing matched when they are why', () => {
    const json = rag(['search', '--query', 'default port', '--k', '5', '--index_dir', indexDir, '--json', '--glob', 'docs/, *.md']);
    expect(json.status, json.stderr).toBe(0);
    const out = JSON.parse(json.stdout);
    expect(out.globs).toEqual(['docs/', '*.md']);
    expect(out.retrieved_sources.length).toBeGreaterThan(0);
    for (const source of out.retrieved_sources) expect(source.file_path).toMatch(/^datasets\/mini\/corpus\/(docs\/|.*\.md$)/);
    const leftOut = JSON.parse(rag(['search', '--query', 'default port', '--k', '5', '--index_dir', indexDir, '--json', '--glob', '!tinyserve/']).stdout);
    expect(leftOut.retrieved_sources.every((source: { file_path: string }) => !source.file_path.includes('/tinyserve/'))).toBe(true);
    const none = rag(['search', '--query', 'default port', '--index_dir', indexDir, '--glob', 'nowhere/']);
    expect(none.status, none.stderr).toBe(0);
    expect(none.stdout.trim()).toBe('No matches for "default port" (retriever bm25, files matching "nowhere/").');
    expect(none.stderr).toContain('No indexed file matches "nowhere/"');
    const bad = rag(['search', '--query', 'default port', '--index_dir', indexDir, '--glob', '!']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/error: "!" is not a glob\.\n\s+hint: .*\.gitignore/);
  });

  it('says why a query of common words alone matches nothing, unless --quiet', () => {
    const result = rag(['search', '--query', 'what is the', '--index_dir', indexDir]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe('No matches for "what is the" (retriever bm25).');
    expect(result.stderr).toMatch(/None of the query's words is one the index searches/);
    expect(rag(['search', '--query', 'what is the', '--index_dir', indexDir, '--quiet']).stderr).toBe('');
  });

  it('summarises search_dataset as JSON with --json', () => {
    const out = join(work, 'sd-json');
    const result = rag(['search_dataset', '--dataset_path', join(REPO_ROOT, 'datasets/mini/questions.json'), '--save_directory', out, '--index_dir', indexDir, '--json', '--quiet']);
    expect(result.status, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({ questions: 18, k: 10, retriever: 'bm25', output_path: join(out, 'questions.json') });
    expect(existsSync(summary.output_path)).toBe(true);
  });

  it('limits every search of search_dataset to the files --glob matches, and refuses a bad glob before any search', () => {
    const out = join(work, 'sd-glob');
    const result = rag(['search_dataset', '--dataset_path', join(REPO_ROOT, 'datasets/mini/questions.json'), '--save_directory', out, '--index_dir', indexDir, '--quiet', '--glob', '*.py']);
    expect(result.status, result.stderr).toBe(0);
    const saved = JSON.parse(readFileSync(join(out, 'questions.json'), 'utf8')) as { search_results: { retrieved_sources: { file_path: string }[] }[] };
    const paths = saved.search_results.flatMap((entry) => entry.retrieved_sources.map((source) => source.file_path));
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) expect(path).toMatch(/\.py$/);
    const bad = rag(['search_dataset', '--dataset_path', join(REPO_ROOT, 'datasets/mini/questions.json'), '--save_directory', join(work, 'sd-bad'), '--index_dir', indexDir, '--glob', '!']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/"!" is not a glob/);
    expect(existsSync(join(work, 'sd-bad', 'questions.json'))).toBe(false);
  });

  it('indexes the folder named by one plain word into .rag/index, which a .gitignore keeps out of git and of the corpus', () => {
    const repo = join(work, 'plain-repo');
    cpSync(join(REPO_ROOT, MINI_CORPUS), repo, { recursive: true });
    const env = { RAG_INDEX_DIR: '' };
    const first = rag(['index', '.', '--quiet'], { cwd: repo, env });
    expect(first.status, first.stderr).toBe(0);
    expect(readFileSync(join(repo, '.rag', '.gitignore'), 'utf8')).toMatch(/^\*$/m);
    const found = rag(['search', 'request body size limit', '--k', '1', '--json'], { cwd: repo, env });
    expect(found.status, found.stderr).toBe(0);
    expect(JSON.parse(found.stdout).retrieved_sources[0].file_path).not.toMatch(/^\.rag\//);
    // A .gitignore the user wrote is theirs: never replaced.
    writeFileSync(join(repo, '.rag', '.gitignore'), 'index/\n');
    expect(rag(['index', '.', '--quiet'], { cwd: repo, env }).status).toBe(0);
    expect(readFileSync(join(repo, '.rag', '.gitignore'), 'utf8')).toBe('index/\n');
    // An index put elsewhere gets no .gitignore beside it.
    const elsewhere = join(work, 'elsewhere', 'idx');
    expect(rag(['index', '.', '--index_dir', elsewhere, '--quiet'], { cwd: repo, env }).status).toBe(0);
    expect(existsSync(join(work, 'elsewhere', '.gitignore'))).toBe(false);
    const two = rag(['index', 'docs', 'src'], { cwd: repo, env });
    expect(two.status).toBe(2);
    expect(two.stderr).toContain('`rag index` takes one DIR, got 2');
  });

  it('writes paths relative to the directory it was started from', () => {
    const sub = join(REPO_ROOT, 'datasets');
    const result = rag(['search', '--query', 'request body size limit', '--k', '1', '--index_dir', indexDir, '--json'], { cwd: sub });
    expect(result.status, result.stderr).toBe(0);
    const [source] = JSON.parse(result.stdout).retrieved_sources;
    expect(existsSync(join(sub, source.file_path))).toBe(true);
    expect(source.file_path.startsWith('mini/corpus/')).toBe(true);
  });

  it('uses the invocation directory recorded by pnpm (INIT_CWD) under `pnpm rag`', () => {
    const sub = join(REPO_ROOT, 'datasets', 'mini');
    const result = rag(['search', '--query', 'request body size limit', '--k', '1', '--index_dir', relative(sub, indexDir), '--json'], {
      env: { INIT_CWD: sub, npm_lifecycle_event: 'rag' },
    });
    expect(result.status, result.stderr).toBe(0);
    const [source] = JSON.parse(result.stdout).retrieved_sources;
    expect(source.file_path.startsWith('corpus/')).toBe(true);
  });
});

describe('staleness', () => {
  it('flags hits in files changed since indexing, on stderr and in the human listing', () => {
    const corpus = join(work, 'corpus-copy');
    cpSync(join(REPO_ROOT, MINI_CORPUS), corpus, { recursive: true });
    const staleIndex = join(work, 'index-stale');
    expect(rag(['index', '--corpus_dir', corpus, '--index_dir', staleIndex, '--quiet']).status).toBe(0);
    const fresh = rag(['search', '--query', 'default port', '--k', '3', '--index_dir', staleIndex]);
    expect(fresh.stderr).not.toMatch(/changed since indexing/);
    writeFileSync(join(corpus, 'tinyserve', 'defaults.py'), `# edited\n${readFileSync(join(corpus, 'tinyserve', 'defaults.py'), 'utf8')}`);
    const stale = rag(['search', '--query', 'default port', '--k', '3', '--index_dir', staleIndex]);
    expect(stale.status).toBe(0);
    expect(stale.stderr).toMatch(/warning: 1 cited file changed since indexing \(.*defaults\.py\).*Re-run `rag index`/);
    expect(stale.stdout).toMatch(/defaults\.py:.*\(changed since indexing\)/);
  });
});

describe('rag search_dataset + evaluate', () => {
  it('answers the mini question set well enough and scores it', () => {
    const save = join(work, 'results');
    const search = rag(['search_dataset', '--dataset_path', MINI_QUESTIONS, '--k', '5', '--save_directory', save, '--index_dir', indexDir]);
    expect(search.status, search.stderr).toBe(0);
    const saved = JSON.parse(readFileSync(join(save, 'questions.json'), 'utf8'));
    expect(saved.k).toBe(5);
    const questions = JSON.parse(readFileSync(join(REPO_ROOT, MINI_QUESTIONS), 'utf8')).rag_questions;
    expect(saved.search_results.map((r: { question_id: string }) => r.question_id)).toEqual(questions.map((q: { question_id: string }) => q.question_id));
    for (const r of saved.search_results) expect(r.retrieved_sources.length).toBeLessThanOrEqual(5);

    const evaluation = rag(['evaluate', '--student_search_results_path', join(save, 'questions.json'), '--dataset_path', MINI_QUESTIONS, '--k', '5', '--json']);
    expect(evaluation.status, evaluation.stderr).toBe(0);
    const report = JSON.parse(evaluation.stdout);
    expect(report.recall['5']).toBeGreaterThanOrEqual(0.8);
    expect(report.mrr).toBeGreaterThan(0.5);

    const human = rag(['evaluate', '--student_search_results_path', join(save, 'questions.json'), '--dataset_path', MINI_QUESTIONS, '--k', '5']);
    expect(human.status).toBe(0);
    expect(human.stdout).toMatch(/R@5/);
  });

  it('refuses results listing more sources than k', () => {
    const save = join(work, 'results-k10');
    expect(rag(['search_dataset', '--dataset_path', MINI_QUESTIONS, '--k', '10', '--save_directory', save, '--index_dir', indexDir]).status).toBe(0);
    const result = rag(['evaluate', '--student_search_results_path', join(save, 'questions.json'), '--dataset_path', MINI_QUESTIONS, '--k', '1']);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/error: .*more than|error: .*k/i);
  });
});

describe('bad input exits non-zero with a clear message and no stack trace', () => {
  const cases: [string, string[], RegExp][] = [
    ['missing corpus dir', ['index', '--corpus_dir', 'does/not/exist'], /does\/not\/exist/],
    ['missing required flag', ['index'], /--corpus_dir/],
    ['unknown flag', ['search', '--query', 'x', '--bogus', '1'], /Unknown flag --bogus/],
    ['zero k', ['search', '--query', 'x', '--k', '0'], /--k must be at least 1/],
    ['negative k', ['search', '--query', 'x', '--k', '-3'], /--k must be at least 1/],
    ['non-numeric k', ['search', '--query', 'x', '--k', 'ten'], /--k must be a whole number/],
    ['empty query', ['search', '--query', '   '], /--query is empty/],
    ['unknown retriever', ['search', '--query', 'x', '--retriever', 'nope'], /Unknown retriever "nope".*\n.*bm25/],
    ['unknown command', ['serach'], /unknown command "serach".*\n.*search/],
    ['missing index', ['search', '--query', 'x', '--index_dir', '/nonexistent/rag-index'], /No index found in \/nonexistent\/rag-index/],
  ];
  for (const [name, args, message] of cases) {
    it(name, () => {
      const result = rag(args);
      expect(result.status).not.toBe(0);
      expect(result.stderr).toMatch(/^error: /);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toMatch(/\n\s+at .*\(/);
    });
  }

  it('an empty corpus directory', () => {
    const empty = join(work, 'empty');
    mkdirSync(empty, { recursive: true });
    const result = rag(['index', '--corpus_dir', empty, '--index_dir', join(work, 'index-empty')]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/error: .*no .*files|error: .*empty/i);
  });

  it('a malformed dataset file names the file', () => {
    const bad = join(work, 'bad.json');
    writeFileSync(bad, '{"rag_questions": [{"question": 3}');
    const result = rag(['search_dataset', '--dataset_path', bad, '--save_directory', join(work, 'out'), '--index_dir', indexDir]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(bad);
    expect(result.stderr).toMatch(/not valid JSON/);
  });

  it('refuses to write results over the dataset itself', () => {
    const copy = join(work, 'questions.json');
    writeFileSync(copy, readFileSync(join(REPO_ROOT, MINI_QUESTIONS)));
    const result = rag(['search_dataset', '--dataset_path', copy, '--save_directory', work, '--index_dir', indexDir]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/would write the output over the input file/);
    expect(readFileSync(copy, 'utf8')).toBe(readFileSync(join(REPO_ROOT, MINI_QUESTIONS), 'utf8'));
  });

  it('a dataset with a wrong field type names the field', () => {
    const bad = join(work, 'bad-field.json');
    writeFileSync(bad, JSON.stringify({ rag_questions: [{ question_id: 'a', question: 42 }] }));
    const result = rag(['search_dataset', '--dataset_path', bad, '--save_directory', join(work, 'out'), '--index_dir', indexDir]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/rag_questions\.0\.question/);
  });

  it('an index written by another format version is refused, not misread', () => {
    const copy = join(work, 'index-old');
    mkdirSync(copy, { recursive: true });
    const pointer = JSON.parse(readFileSync(join(indexDir, 'CURRENT'), 'utf8'));
    writeFileSync(join(copy, 'CURRENT'), JSON.stringify({ ...pointer, formatVersion: 999 }));
    const result = rag(['search', '--query', 'x', '--index_dir', copy]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/format version 999/);
    expect(result.stderr).toMatch(/Rebuild/);
  });
});

describe('help', () => {
  it('lists commands, and each command lists its flags', () => {
    const main = rag(['--help']);
    expect(main.status).toBe(0);
    for (const name of ['index', 'search', 'search_dataset', 'evaluate']) expect(main.stdout).toContain(name);
    // The first steps, as a new user types them.
    expect(main.stdout).toContain('rag index .');
    expect(main.stdout).toContain('rag search "');
    const sub = rag(['search_dataset', '--help']);
    expect(sub.status).toBe(0);
    expect(sub.stdout).toContain('--dataset_path');
    expect(sub.stdout).toContain('--save_directory');
  });

  it('`rag help <command>` shows that command’s help; a mistyped command suggests the nearest', () => {
    const help = rag(['help', 'verify']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--index_dir');
    const typo = rag(['serach', '--query', 'x']);
    expect(typo.status).toBe(2);
    expect(typo.stderr).toMatch(/unknown command "serach" \(did you mean search\?\)/);
  });
});

describe('rag verify', () => {
  it('passes an intact index, and names the damaged file of a broken one with exit 1', () => {
    const ok = rag(['verify', '--index_dir', indexDir, '--json']);
    expect(ok.status, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ ok: true, files: expect.any(Number) });
    const copy = join(work, 'index-damaged');
    cpSync(indexDir, copy, { recursive: true });
    const pointer = JSON.parse(readFileSync(join(copy, 'CURRENT'), 'utf8'));
    const texts = join(copy, 'generations', pointer.generation, 'texts.bin');
    // Every copy of the port (the changelog's entry and the constant's chunk), so whichever texts a command reads are damaged.
    writeFileSync(texts, readFileSync(texts, 'utf8').replaceAll('8421', '9999'));
    for (const args of [['verify'], ['search', '--query', 'default port'], ['answer', '--query', 'default port', '--no_cache']]) {
      const result = rag([...args, '--index_dir', copy]);
      expect(result.status, args.join(' ')).toBe(1);
      expect(result.stderr).toMatch(/damaged: texts\.bin does not match its checksum/);
      expect(result.stdout).not.toMatch(/9999/);
    }
  });
});

describe('bad paths and values on the command line', () => {
  it('refuses an empty --corpus_dir instead of indexing the current folder', () => {
    const result = rag(['index', '--corpus_dir', '', '--index_dir', join(work, 'empty-corpus-index')]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--corpus_dir is empty/);
  });

  it('refuses an output folder that is a file, or on /proc, with a hint, without hanging', () => {
    for (const target of ['/etc/passwd', '/proc/rag-out']) {
      const result = rag(['search_dataset', '--dataset_path', MINI_QUESTIONS, '--save_directory', target, '--index_dir', indexDir, '--quiet']);
      expect(result.status, target).toBe(2);
      expect(result.stderr).toMatch(/is a file, not a folder|virtual file system/);
      expect(result.stderr).toMatch(/hint: /);
      expect(result.stderr).not.toMatch(/unexpected failure/);
    }
  });

  it('refuses a dataset that repeats a question_id, naming it', () => {
    const dataset = join(work, 'dupes.json');
    writeFileSync(dataset, JSON.stringify({ rag_questions: [{ question_id: 'q1', question: 'a?' }, { question_id: 'q1', question: 'b?' }] }));
    const result = rag(['search_dataset', '--dataset_path', dataset, '--save_directory', join(work, 'dupes-out'), '--index_dir', indexDir]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/repeats question_id q1/);
  });

  it('refuses a --dtype that is no weight format even for the extractive generator', () => {
    const result = rag(['answer', '--query', 'default port', '--index_dir', indexDir, '--generator', 'extractive', '--dtype', 'bogus']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--dtype bogus is not a weight format/);
  });
});
