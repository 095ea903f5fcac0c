import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, MINI_CORPUS, MINI_QUESTIONS, REPO_ROOT } from './helpers.js';

/**
 * Every command against hostile input. Whatever the input, the CLI must end within a bound
 * (no hang), never print a stack trace or "unexpected failure", and either fail with
 * `error: …` plus a `hint:` and exit 1 or 2, or succeed with output that is right.
 */
const BOUND_MS = 90_000;

let work: string;
let indexDir: string;
let results: string;

function run(args: string[]) {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd: REPO_ROOT, encoding: 'utf8', timeout: BOUND_MS, maxBuffer: 1 << 26 });
  return { status: result.status, signal: result.signal, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

function file(name: string, content: string | Buffer): string {
  const path = join(work, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  return path;
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'rag-bad-input-'));
  indexDir = join(work, 'index');
  expect(run(['index', '--corpus_dir', MINI_CORPUS, '--index_dir', indexDir, '--quiet']).status).toBe(0);
  const searched = join(work, 'searched');
  expect(run(['search_dataset', '--dataset_path', MINI_QUESTIONS, '--save_directory', searched, '--index_dir', indexDir, '--quiet']).status).toBe(0);
  results = join(searched, 'questions.json');
}, BOUND_MS * 3);

afterAll(() => rmSync(work, { recursive: true, force: true }));

type Outcome = { fails: RegExp; status?: 1 | 2 } | { succeeds: (stdout: string, stderr: string) => void };

interface Case {
  name: string;
  args: () => string[];
  outcome: Outcome;
}

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

const cases: Case[] = [
  // index
  { name: 'index: corpus_dir is a file', args: () => ['index', '--corpus_dir', join(REPO_ROOT, 'README.md'), '--index_dir', join(work, 'i1')], outcome: { fails: /not a directory/, status: 2 } },
  { name: 'index: corpus_dir does not exist', args: () => ['index', '--corpus_dir', join(work, 'nope'), '--index_dir', join(work, 'i2')], outcome: { fails: /does not exist/ } },
  { name: 'index: empty corpus_dir string', args: () => ['index', '--corpus_dir', '', '--index_dir', join(work, 'i3')], outcome: { fails: /corpus_dir/, status: 2 } },
  {
    name: 'index: only binaries, odd extensions and a PNG',
    args: () => {
      file('odd/a.bin', Buffer.from([0, 1, 2, 3]));
      file('odd/b.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      return ['index', '--corpus_dir', join(work, 'odd'), '--index_dir', join(work, 'i4')];
    },
    outcome: { fails: /No indexable files/ },
  },
  {
    name: 'index: 300 nested block quotes and lists, and odd file names, still index',
    args: () => {
      file('weird/quote.md', `${'>'.repeat(300)} deep\n`);
      file('weird/list.md', Array.from({ length: 300 }, (_, i) => `${'  '.repeat(i)}- item ${i}`).join('\n'));
      file('weird/-rf --help.md', '# Dashes\n\nA file named like a flag.\n');
      file('weird/spaces and ünïcödé 🚀.py', 'x = 1\n');
      file('weird/.github/ISSUE_TEMPLATE.md', '# Bug report\n');
      return ['index', '--corpus_dir', join(work, 'weird'), '--index_dir', join(work, 'i5'), '--json'];
    },
    outcome: {
      succeeds: (stdout, stderr) => {
        expect(JSON.parse(stdout).files).toBe(5);
        expect(stderr).toMatch(/levels deep; it is chunked by lines/);
      },
    },
  },
  { name: 'index: index_dir under /proc', args: () => ['index', '--corpus_dir', MINI_CORPUS, '--index_dir', '/proc/rag-index'], outcome: { fails: /index|directory|\/proc/i } },
  { name: 'index: max_chunk_size is not a number', args: () => ['index', '--corpus_dir', MINI_CORPUS, '--max_chunk_size', 'lots'], outcome: { fails: /max_chunk_size/, status: 2 } },
  // search
  { name: 'search: empty query', args: () => ['search', '--query', '', '--index_dir', indexDir], outcome: { fails: /query/, status: 2 } },
  {
    name: 'search: a 100,000-character query',
    args: () => ['search', '--query', 'port '.repeat(20_000), '--index_dir', indexDir, '--json', '--k', '2'],
    outcome: { succeeds: (stdout) => expect(JSON.parse(stdout).retrieved_sources.length).toBeLessThanOrEqual(2) },
  },
  { name: 'search: k = 0', args: () => ['search', '--query', 'port', '--k', '0', '--index_dir', indexDir], outcome: { fails: /--k/, status: 2 } },
  { name: 'search: k = 10^12', args: () => ['search', '--query', 'port', '--k', '1000000000000', '--index_dir', indexDir], outcome: { fails: /--k/, status: 2 } },
  { name: 'search: index_dir is a file', args: () => ['search', '--query', 'port', '--index_dir', join(REPO_ROOT, 'README.md')], outcome: { fails: /is a file, not an index folder/, status: 1 } },
  {
    name: 'search: index with a manifest that is not JSON',
    args: () => {
      const broken = join(work, 'broken-index');
      run(['index', '--corpus_dir', MINI_CORPUS, '--index_dir', broken, '--quiet']);
      const { generation } = JSON.parse(readFileSync(join(broken, 'CURRENT'), 'utf8')) as { generation: string };
      writeFileSync(join(broken, 'generations', generation, 'manifest.json'), '{"version": ');
      return ['search', '--query', 'port', '--index_dir', broken];
    },
    outcome: { fails: /is damaged: manifest\.json/, status: 1 },
  },
  // search_dataset
  { name: 'search_dataset: dataset is not JSON', args: () => ['search_dataset', '--dataset_path', file('bad/not.json', '{"rag_questions": [ '), '--save_directory', join(work, 'o1'), '--index_dir', indexDir], outcome: { fails: /JSON/ } },
  { name: 'search_dataset: 100,000 nested arrays', args: () => ['search_dataset', '--dataset_path', file('bad/nested.json', nested(100_000)), '--save_directory', join(work, 'o2'), '--index_dir', indexDir], outcome: { fails: /does not match the expected format/ } },
  {
    name: 'search_dataset: duplicate question ids',
    args: () => ['search_dataset', '--dataset_path', file('bad/dupes.json', JSON.stringify({ rag_questions: [{ question_id: 'a', question: 'port?' }, { question_id: 'a', question: 'host?' }] })), '--save_directory', join(work, 'o3'), '--index_dir', indexDir],
    outcome: { fails: /repeats question_id a/ },
  },
  { name: 'search_dataset: dataset is a directory', args: () => ['search_dataset', '--dataset_path', work, '--save_directory', join(work, 'o4'), '--index_dir', indexDir], outcome: { fails: /dataset_path|directory/i } },
  {
    name: 'search_dataset: save_directory is a file (refused before searching)',
    args: () => ['search_dataset', '--dataset_path', MINI_QUESTIONS, '--save_directory', join(REPO_ROOT, 'README.md'), '--index_dir', indexDir],
    outcome: { fails: /^(?![\s\S]*searching)[\s\S]*is a file, not a folder/ },
  },
  { name: 'search_dataset: save_directory under /proc', args: () => ['search_dataset', '--dataset_path', MINI_QUESTIONS, '--save_directory', '/proc/rag-out', '--index_dir', indexDir], outcome: { fails: /proc|directory|write/i } },
  // evaluate
  { name: 'evaluate: results are not JSON', args: () => ['evaluate', '--student_search_results_path', file('bad/results.json', 'nope'), '--dataset_path', MINI_QUESTIONS], outcome: { fails: /JSON/ } },
  {
    name: 'evaluate: a span over 2,000 characters',
    args: () => [
      'evaluate',
      '--student_search_results_path',
      file('bad/long.json', JSON.stringify({ k: 10, search_results: [{ question_id: 'code-01', retrieved_sources: [{ file_path: 'x.py', first_character_index: 0, last_character_index: 5000 }] }] })),
      '--dataset_path',
      MINI_QUESTIONS,
    ],
    outcome: { fails: /2,?000|longer|span/i },
  },
  // answer and answer_dataset
  { name: 'answer: unknown generator', args: () => ['answer', '--query', 'port', '--generator', 'bogus', '--index_dir', indexDir], outcome: { fails: /Unknown generator "bogus"/, status: 2 } },
  {
    name: 'answer_dataset: results citing files outside the corpus are not read',
    args: () => {
      const hostile = { k: 2, search_results: [{ question_id: 'q', question: 'What is in the password file?', retrieved_sources: [{ file_path: '/etc/passwd', first_character_index: 0, last_character_index: 200 }, { file_path: '../../../../etc/passwd', first_character_index: 0, last_character_index: 200 }] }] };
      return ['answer_dataset', '--student_search_results_path', file('bad/hostile.json', JSON.stringify(hostile)), '--save_directory', join(work, 'o5'), '--index_dir', indexDir, '--no_cache'];
    },
    outcome: { fails: /corpus|outside|not indexed|etc\/passwd/i },
  },
  { name: 'answer_dataset: save_directory is the results file itself', args: () => ['answer_dataset', '--student_search_results_path', results, '--save_directory', join(results, '..'), '--index_dir', indexDir], outcome: { fails: /save_directory|overwrite|input/i, status: 2 } },
  // verify
  { name: 'verify: no index there', args: () => ['verify', '--index_dir', join(work, 'nothing')], outcome: { fails: /No index found/ } },
];

describe('every command against hostile input', () => {
  for (const c of cases) {
    it(
      c.name,
      () => {
        const result = run(c.args());
        expect(result.signal, `killed after ${BOUND_MS} ms: a hang`).toBeNull();
        expect(result.stderr).not.toMatch(/unexpected failure/i);
        expect(result.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
        if ('fails' in c.outcome) {
          expect(result.status, result.stderr).not.toBe(0);
          if (c.outcome.status) expect(result.status).toBe(c.outcome.status);
          else expect([1, 2]).toContain(result.status);
          expect(result.stderr).toMatch(/^error: /m);
          expect(result.stderr).toMatch(/\n {2}hint: \S/);
          expect(result.stderr).toMatch(c.outcome.fails);
          expect(result.stdout).toBe('');
        } else {
          expect(result.status, result.stderr).toBe(0);
          c.outcome.succeeds(result.stdout, result.stderr);
        }
      },
      BOUND_MS + 10_000,
    );
  }
});

describe('file names and texts that would forge lines or drive the terminal', () => {
  it('are shown with their control characters escaped by search and answer, and kept exact in --json', () => {
    const corpus = join(work, 'evil-corpus');
    const evilDir = join(work, 'evil-index');
    file('evil-corpus/evil\nFAKE.md', '# Zebra notes\n\nThe zebra_marker setting \u001b[2J\u001b[31mturns red\u0007 and\rOVERWRITES the line.\r\nA CRLF line ends here.\r\n');
    file('evil-corpus/ok.py', 'ZEBRA_MARKER = 1\n');
    expect(run(['index', '--corpus_dir', corpus, '--index_dir', evilDir, '--quiet']).status).toBe(0);
    const control = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
    for (const args of [['search', '--query', 'zebra_marker setting'], ['answer', '--query', 'What does the zebra_marker setting do?', '--no_cache']]) {
      const result = run([...args, '--index_dir', evilDir]);
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).not.toMatch(control);
      // A carriage return only where it ends a line (the CRLF file's own line ends).
      expect(result.stdout).not.toMatch(/\r(?!\n)/);
      expect(result.stdout).not.toMatch(/^FAKE\.md/m);
      expect(result.stdout).toContain('evil\\nFAKE.md');
    }
    expect(run(['search', '--query', 'zebra_marker setting', '--index_dir', evilDir]).stdout).toMatch(/\\e\[2J\\e\[31mturns red\\x07 and\\rOVERWRITES/);
    const json = JSON.parse(run(['search', '--query', 'zebra_marker setting', '--index_dir', evilDir, '--json', '--text']).stdout) as { retrieved_sources: { file_path: string; text: string }[] };
    const hit = json.retrieved_sources.find((s) => s.file_path.endsWith('evil\nFAKE.md'));
    expect(hit?.text).toContain('\u001b[2J');
  }, BOUND_MS);
});
