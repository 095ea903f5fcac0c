import { chunkCorpus, DEFAULT_MAX_CHUNK_SIZE } from '@rag/chunking';
import { assertReplaceableIndexDir, RagError, writeIndex } from '@rag/core';
import { INDEX_DIR_FLAG, JSON_FLAG, QUIET_FLAG, VERBOSE_FLAG, writeErr, writeOut, type Command } from '../command.js';
import { indexDirFrom, resolveUserPath } from '../paths.js';
import { createProgress } from '../progress.js';
import { DEFAULT_RETRIEVER } from '@rag/service';
import { createRetrieverRegistry, EMBEDDING_MODEL_FLAG } from '../retrievers.js';
import { VERSION } from '../version.js';

/** The benchmark rejects spans over 2,000 characters; larger chunks are allowed but warned about. */
const BENCHMARK_SPAN_LIMIT = 2000;

export const indexCommand: Command = {
  name: 'index',
  summary: 'Chunk a corpus directory and build a search index over it.',
  flags: [
    { name: 'corpus_dir', type: 'string', metavar: 'DIR', required: true, description: 'Directory to index (.py, .md, .rst, .txt)' },
    { name: 'max_chunk_size', type: 'integer', metavar: 'N', min: 100, max: 100_000, description: 'Largest chunk in characters', defaultLabel: String(DEFAULT_MAX_CHUNK_SIZE) },
    INDEX_DIR_FLAG,
    { name: 'retriever', type: 'string', metavar: 'NAME', description: 'Retriever to build: bm25, embedding or hybrid', defaultLabel: DEFAULT_RETRIEVER },
    EMBEDDING_MODEL_FLAG,
    JSON_FLAG,
    QUIET_FLAG,
    VERBOSE_FLAG,
  ],
  examples: ['rag index --corpus_dir datasets/mini/corpus', 'cd ../shared && rag index --corpus_dir data/raw --index_dir /tmp/vllm-index'],
  async run(flags) {
    const quiet = flags.quiet === true;
    const registry = createRetrieverRegistry(flags.embedding_model as string | undefined);
    const retrieverName = (flags.retriever as string | undefined) ?? DEFAULT_RETRIEVER;
    const factory = registry.get(retrieverName);
    const corpusDirAsGiven = flags.corpus_dir as string;
    const corpusDir = resolveUserPath(corpusDirAsGiven);
    const indexDir = indexDirFrom(flags);
    const maxChunkSize = (flags.max_chunk_size as number | undefined) ?? DEFAULT_MAX_CHUNK_SIZE;
    if (maxChunkSize > BENCHMARK_SPAN_LIMIT) {
      writeErr(`warning: --max_chunk_size ${maxChunkSize} exceeds ${BENCHMARK_SPAN_LIMIT}; benchmark scoring rejects longer spans.`, quiet);
    }
    // Fails before any work when --index_dir holds something other than a rag index.
    await assertReplaceableIndexDir(indexDir);
    if (indexDir === corpusDir) {
      throw new RagError('INVALID_ARGUMENT', '--index_dir must not be the corpus directory itself.', { hint: 'Use a separate directory such as .rag/index.' });
    }

    const progress = createProgress(process.stderr, !quiet);
    const started = performance.now();
    let warnings = 0;
    const { files, chunks } = await chunkCorpus(corpusDir, {
      maxChunkSize,
      onProgress: (e) => progress.update(e),
      onWarning: (message) => {
        warnings++;
        progress.done();
        writeErr(`warning: ${message}`, quiet);
      },
    });
    progress.done();
    const chunkedAt = performance.now();
    const retriever = await factory.build(chunks, { onProgress: (e) => progress.update(e) });
    progress.done();
    const fittedAt = performance.now();
    progress.update({ phase: 'save', done: 0, total: 1 });
    const manifest = await writeIndex(indexDir, {
      manifest: {
        toolVersion: VERSION,
        createdAt: new Date().toISOString(),
        corpusDir,
        corpusDirAsGiven,
        chunking: { maxChunkSize },
        files,
      },
      chunks,
      retrievers: [{ entry: { name: factory.name, settings: {}, builtAt: new Date().toISOString() }, save: (dir) => retriever.save(dir) }],
    });
    progress.update({ phase: 'save', done: 1, total: 1 });
    progress.done();
    const finished = performance.now();
    const summary = {
      index_dir: indexDir,
      corpus_dir: corpusDirAsGiven,
      retriever: factory.name,
      files: manifest.counts.files,
      chunks: manifest.counts.chunks,
      warnings,
      seconds: {
        chunk: round((chunkedAt - started) / 1000),
        fit: round((fittedAt - chunkedAt) / 1000),
        save: round((finished - fittedAt) / 1000),
        total: round((finished - started) / 1000),
      },
    };
    if (flags.json) writeOut(JSON.stringify(summary, null, 2));
    else
      writeOut(
        `Indexed ${summary.files} files into ${summary.chunks} chunks with ${summary.retriever} in ${summary.seconds.total}s → ${indexDir}` +
          (warnings > 0 && !quiet ? ` (${warnings} warning${warnings === 1 ? '' : 's'} above)` : ''),
      );
  },
};

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
