import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINI_CORPUS, MINI_QUESTIONS, rag } from './helpers.js';

let work: string;
let indexDir: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'rag-cli-answer-'));
  indexDir = join(work, 'index');
  const result = rag(['index', '--corpus_dir', MINI_CORPUS, '--index_dir', indexDir, '--quiet']);
  expect(result.status, result.stderr).toBe(0);
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('rag answer', () => {
  it('answers with the extractive generator and cites the defining line', () => {
    const result = rag(['answer', '--query', 'What TCP port does the development server listen on by default?', '--index_dir', indexDir, '--json']);
    expect(result.status, result.stderr).toBe(0);
    const out = JSON.parse(result.stdout);
    expect(out.generator).toBe('extractive');
    expect(out.retrieved_sources.length).toBe(5);
    // The mini corpus defines DEFAULT_PORT = 8421 in tinyserve/defaults.py.
    expect(out.answer).toContain('8421');
    expect(out.cited_sources[0].file_path).toBe(`${MINI_CORPUS}/tinyserve/defaults.py`);
    expect(out.answer).toMatch(/\[1\]/);
  });

  it('answers from the files --glob matches only', () => {
    const result = rag(['answer', '--query', 'What TCP port does the development server listen on by default?', '--index_dir', indexDir, '--json', '--glob', 'docs/,README.md']);
    expect(result.status, result.stderr).toBe(0);
    const out = JSON.parse(result.stdout);
    expect(out.globs).toEqual(['docs/', 'README.md']);
    expect(out.retrieved_sources.length).toBeGreaterThan(0);
    for (const source of [...out.retrieved_sources, ...out.cited_sources]) expect(source.file_path).toMatch(new RegExp(`^${MINI_CORPUS}/(docs/|README\\.md$)`));
  });

  it('streams the answer and lists the cited sources for humans', () => {
    const result = rag(['answer', '--query', 'How large may a request body be?', '--index_dir', indexDir, '--no-cache']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Sources:\n\[1\] datasets\/mini\/corpus\//);
    expect(result.stderr).toContain('answered by extractive');
  });

  it('takes the question as the words after the command', () => {
    const flagged = rag(['answer', '--query', 'How large may a request body be?', '--index_dir', indexDir, '--json', '--no-cache']);
    const worded = rag(['answer', 'How large may a request body be?', '--index_dir', indexDir, '--json', '--no-cache']);
    expect(worded.status, worded.stderr).toBe(0);
    expect(JSON.parse(worded.stdout).answer).toBe(JSON.parse(flagged.stdout).answer);
  });

  it('a missing model folder is a clear error, not a hang', () => {
    const result = rag(['answer', '--query', 'x', '--index_dir', indexDir, '--model_dir', join(work, 'no-model')]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^error: /);
    expect(result.stderr).toMatch(/no-model/);
    expect(result.stderr).toMatch(/hint:/);
  });
});

describe('rag answer_dataset', () => {
  it('adds an answer to every search result, in the with-answers format', () => {
    const searched = join(work, 'searched');
    expect(rag(['search_dataset', '--dataset_path', MINI_QUESTIONS, '--k', '5', '--save_directory', searched, '--index_dir', indexDir, '--quiet']).status).toBe(0);
    const answers = join(work, 'answers');
    const result = rag(['answer_dataset', '--student_search_results_path', join(searched, 'questions.json'), '--save_directory', answers, '--index_dir', indexDir]);
    expect(result.status, result.stderr).toBe(0);
    const out = JSON.parse(readFileSync(join(answers, 'questions.json'), 'utf8'));
    const input = JSON.parse(readFileSync(join(searched, 'questions.json'), 'utf8'));
    expect(out.k).toBe(5);
    expect(out.search_results.length).toBe(input.search_results.length);
    for (const [i, r] of out.search_results.entries()) {
      expect(r.question_id).toBe(input.search_results[i].question_id);
      expect(r.retrieved_sources).toEqual(input.search_results[i].retrieved_sources);
      expect(typeof r.answer).toBe('string');
      expect(r.answer.length).toBeGreaterThan(0);
    }
  });

  it("says 'not found' for a question about what the corpus never mentions, naming the words, in both commands", () => {
    // The mini corpus shares "default", "development" and "server" with it, never "Kafka" or "topic".
    const query = 'What is the default Kafka topic of the development server?';
    const one = rag(['answer', '--query', query, '--index_dir', indexDir, '--json', '--no-cache']);
    expect(one.status, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout).answer).toContain('The indexed sources never mention “Kafka” or “topic”.');
    const dataset = join(work, 'absent.json');
    writeFileSync(dataset, JSON.stringify({ rag_questions: [{ question_id: 'absent-1', question: query }] }));
    const searched = join(work, 'searched-absent');
    expect(rag(['search_dataset', '--dataset_path', dataset, '--k', '5', '--save_directory', searched, '--index_dir', indexDir, '--quiet']).status).toBe(0);
    const answers = join(work, 'answers-absent');
    const result = rag(['answer_dataset', '--student_search_results_path', join(searched, 'absent.json'), '--save_directory', answers, '--index_dir', indexDir, '--quiet']);
    expect(result.status, result.stderr).toBe(0);
    // The same words named (a results file's spans carry no symbol, so the sources list differs).
    expect(JSON.parse(readFileSync(join(answers, 'absent.json'), 'utf8')).search_results[0].answer).toContain('The indexed sources never mention “Kafka” or “topic”.');
  });

  it("says 'not found' when the question's telling words are in one chunk of the corpus each, none of them a source", () => {
    // "nginx" and "healthz" are each in one chunk (the deployment page); the three sources are
    // the defaults, the server's run method and the changelog, which share "default",
    // "development" and "server" with the question: the default port is not its answer.
    const one = rag(['answer', '--query', 'What is the default nginx healthz path of the development server?', '--k', '3', '--index_dir', indexDir, '--json', '--no-cache']);
    expect(one.status, one.stderr).toBe(0);
    const answer = JSON.parse(one.stdout).answer as string;
    expect(answer).toMatch(/^The retrieved sources do not appear to contain the answer to this question\. None of them mentions “nginx” or “healthz”\./);
  });

  it('summarises the run as JSON with --json', () => {
    const searched = join(work, 'searched-json');
    expect(rag(['search_dataset', '--dataset_path', MINI_QUESTIONS, '--k', '3', '--save_directory', searched, '--index_dir', indexDir, '--quiet']).status).toBe(0);
    const answers = join(work, 'answers-json');
    const result = rag(['answer_dataset', '--student_search_results_path', join(searched, 'questions.json'), '--save_directory', answers, '--index_dir', indexDir, '--json', '--quiet']);
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ answered: 18, resumed: 0, generator: 'extractive', output_path: join(answers, 'questions.json') });
  });

  it('reads only files of the index: a results file citing /etc/passwd is refused and nothing of it is printed', () => {
    const results = join(work, 'hostile.json');
    writeFileSync(results, JSON.stringify({ k: 1, search_results: [{ question_id: 'q1', question: 'who are the users?', retrieved_sources: [{ file_path: '/etc/passwd', first_character_index: 0, last_character_index: 200 }] }] }));
    const result = rag(['answer_dataset', '--student_search_results_path', results, '--save_directory', join(work, 'hostile-out'), '--index_dir', indexDir, '--no_cache']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/file_path must be relative/);
    expect(result.stdout + result.stderr).not.toMatch(/root:/);
  });
});
