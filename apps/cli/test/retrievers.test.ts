import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINI_CORPUS, MINI_QUESTIONS, rag } from './helpers.js';

let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'rag-cli-retrievers-'));
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('--retriever swaps implementations without changing the commands', () => {
  for (const retriever of ['embedding', 'hybrid']) {
    it(`${retriever}: index, search and search_dataset + evaluate`, () => {
      const indexDir = join(work, `index-${retriever}`);
      const built = rag(['index', '--corpus_dir', MINI_CORPUS, '--index_dir', indexDir, '--retriever', retriever, '--json', '--quiet']);
      expect(built.status, built.stderr).toBe(0);
      expect(JSON.parse(built.stdout).retriever).toBe(retriever);

      // --retriever defaults to the one the index was built with.
      const searched = rag(['search', '--query', 'default port of the development server', '--k', '3', '--index_dir', indexDir, '--json']);
      expect(searched.status, searched.stderr).toBe(0);
      expect(JSON.parse(searched.stdout).retrieved_sources.length).toBe(3);

      const save = join(work, `results-${retriever}`);
      expect(rag(['search_dataset', '--dataset_path', MINI_QUESTIONS, '--save_directory', save, '--index_dir', indexDir, '--quiet']).status).toBe(0);
      const evaluation = rag(['evaluate', '--student_search_results_path', join(save, 'questions.json'), '--dataset_path', MINI_QUESTIONS, '--json']);
      expect(evaluation.status, evaluation.stderr).toBe(0);
      const recall = JSON.parse(evaluation.stdout).recall;
      // The corpus embedder learns from 37 chunks only; hybrid leans on bm25 and must stay strong.
      expect(recall['10']).toBeGreaterThanOrEqual(retriever === 'hybrid' ? 0.8 : 0.4);
    });
  }

  it('an index lacking the requested retriever says how to build it', () => {
    const indexDir = join(work, 'index-bm25');
    expect(rag(['index', '--corpus_dir', MINI_CORPUS, '--index_dir', indexDir, '--quiet']).status).toBe(0);
    const result = rag(['search', '--query', 'port', '--index_dir', indexDir, '--retriever', 'hybrid']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/not built with the "hybrid" retriever \(it has: bm25\)/);
    expect(result.stderr).toMatch(/--retriever hybrid/);
  });

  it('unknown retriever names list bm25, embedding and hybrid', () => {
    const result = rag(['index', '--corpus_dir', MINI_CORPUS, '--index_dir', join(work, 'x'), '--retriever', 'splade']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/Valid retrievers: bm25, embedding, hybrid/);
  });

  it('a missing embedding model folder fails fast with MODEL_NOT_FOUND-style advice', () => {
    const result = rag(['index', '--corpus_dir', MINI_CORPUS, '--index_dir', join(work, 'y'), '--retriever', 'embedding', '--embedding_model', join(work, 'no-such-model'), '--quiet']);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^error: .*no-such-model/);
    expect(result.stderr).toMatch(/hint:/);
  });
});
