import { DEFAULT_IGNORED_DIRS, DEFAULT_MAX_CHUNK_SIZE, DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_LINE_LENGTH } from '@rag/chunking';
import { assertReplaceableIndexDir, RagError } from '@rag/core';
import { buildIndex, DEFAULT_RETRIEVER, isPostgresUrl } from '@rag/service/build';
import { INDEX_DIR_FLAG, STORE_FLAG, JSON_FLAG, QUIET_FLAG, showText, VERBOSE_FLAG, writeErr, writeOut, type Command } from '../command.js';
import { ignoreDefaultIndexFolder, indexDirFrom, resolveUserPath, showLocation } from '../paths.js';
import { garbageCollector } from '../gc.js';
import { createProgress } from '../progress.js';
import { createRetrieverRegistry, EMBEDDING_MODEL_FLAG, retrieverSettingsFor } from '../retrievers.js';
import { pollsOnly, WATCH_FLAG, WATCH_POLL_FLAG, watchUntilStopped } from '../watch.js';
import { VERSION } from '../version.js';

/** The benchmark rejects spans over 2,000 characters; larger chunks are allowed but warned about. */
const BENCHMARK_SPAN_LIMIT = 2000;

export const indexCommand: Command = {
  name: 'index',
  flags: [
    { name: 'corpus_dir', type: 'string', metavar: 'DIR', required: true, positional: 'one', description: 'Directory to index (.py, .pyi, .md, .rst, .txt; .yml, .yaml, .toml, .cfg, .ini as text)' },
    { name: 'max_chunk_size', type: 'integer', metavar: 'N', min: 100, max: 100_000, description: 'Largest chunk in characters', defaultLabel: String(DEFAULT_MAX_CHUNK_SIZE) },
    INDEX_DIR_FLAG,
    STORE_FLAG,
    { name: 'retriever', type: 'string', metavar: 'NAME', description: 'Retriever to build: bm25, embedding or hybrid', defaultLabel: DEFAULT_RETRIEVER },
    EMBEDDING_MODEL_FLAG,
    { name: 'max_file_size', type: 'integer', metavar: 'BYTES', min: 0, max: 1_000_000_000_000, description: 'Skip larger files (0: no limit)', defaultLabel: String(DEFAULT_MAX_FILE_BYTES) },
    { name: 'max_line_length', type: 'integer', metavar: 'N', min: 0, max: 1_000_000_000, description: 'Skip files with a longer line, which look minified or generated (0: no limit)', defaultLabel: String(DEFAULT_MAX_LINE_LENGTH) },
    { name: 'skip_dirs', type: 'string', metavar: 'NAMES', description: 'Comma-separated folder names never walked (replaces the default list; "" walks every folder)', defaultLabel: DEFAULT_IGNORED_DIRS.join(',') },
    { name: 'no_ignore', type: 'boolean', description: 'Also index files that .gitignore and .ignore files exclude' },
    { name: 'threads', type: 'integer', metavar: 'N', min: 1, max: 64, description: 'Threads that chunk at once (more: faster on three or more idle cores, more memory)', defaultLabel: '1 on one or two cores, else the cores, at most 4' },
    { name: 'full', type: 'boolean', description: 'Rebuild from scratch instead of re-chunking only added and changed files' },
    { ...WATCH_FLAG, description: 'After indexing, keep the index up to date until Ctrl-C: re-index what is added, changed or removed as soon as the file system reports it; look at the whole corpus every SECONDS when it cannot, else once a minute' },
    WATCH_POLL_FLAG,
    JSON_FLAG,
    QUIET_FLAG,
    VERBOSE_FLAG,
  ],
  examples: ['rag index --corpus_dir datasets/mini/corpus', 'rag index .', 'rag index . --watch 2', 'cd ../shared && rag index --corpus_dir data/raw --index_dir /tmp/vllm-index', 'rag index --corpus_dir . --store postgresql://rag:secret@db.internal/rag'],
  async run(flags) {
    const quiet = flags.quiet === true;
    pollsOnly(flags);
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
    const inDatabase = isPostgresUrl(indexDir);
    if (!inDatabase) await assertReplaceableIndexDir(indexDir);
    if (!inDatabase) ignoreDefaultIndexFolder(indexDir);
    if (indexDir === corpusDir) {
      throw new RagError('INVALID_ARGUMENT', '--index_dir must not be the corpus directory itself.', { hint: 'Use a separate directory such as .rag/index.' });
    }

    const progress = createProgress(process.stderr, !quiet);
    let warnings = 0;
    const collectGarbage = garbageCollector();
    const report = await buildIndex({
      ...(collectGarbage ? { collectGarbage } : {}),
      corpusDir,
      corpusDirAsGiven,
      indexDir,
      retriever: factory.name,
      retrievers: registry,
      maxChunkSize,
      ...(flags.max_file_size === undefined ? {} : { maxFileBytes: flags.max_file_size as number }),
      ...(flags.max_line_length === undefined ? {} : { maxLineLength: flags.max_line_length as number }),
      ...(flags.skip_dirs === undefined ? {} : { ignoredDirs: (flags.skip_dirs as string).split(',').map((name) => name.trim()).filter((name) => name !== '') }),
      ignoreFiles: flags.no_ignore !== true,
      ...(flags.threads === undefined ? {} : { threads: flags.threads as number }),
      toolVersion: VERSION,
      full: flags.full === true,
      onProgress: (e) => progress.update(e),
      onWarning: (message) => {
        warnings++;
        progress.done();
        writeErr(`warning: ${showText(message)}`, quiet);
      },
    });
    progress.done();
    if (report.reason) writeErr(`note: rebuilt from scratch: ${report.reason}.`, quiet);
    for (const note of report.notes) writeErr(`note: ${showText(note)}`, quiet);
    const summary = {
      index_dir: showLocation(indexDir),
      corpus_dir: corpusDirAsGiven,
      retriever: factory.name,
      mode: report.mode,
      files: report.files.total,
      chunks: report.chunks,
      changes: { added: report.files.added, changed: report.files.changed, removed: report.files.removed, unchanged: report.files.unchanged, not_read: report.files.unread },
      reused_chunks: report.reusedChunks,
      notes: report.notes,
      warnings,
      seconds: report.seconds,
    };
    if (flags.json) writeOut(JSON.stringify(summary, null, 2));
    else {
      const { added, changed, removed, unchanged, not_read: unread } = summary.changes;
      const what =
        report.mode === 'full'
          ? 'full build'
          : report.mode === 'unchanged'
            ? `up to date: ${unchanged} files unchanged (${unread} of them not read), nothing written`
            : `updated: ${added} added, ${changed} changed, ${removed} removed, ${unchanged} unchanged (${unread} of them not read)`;
      const { chunk, fit, save, total } = report.seconds;
      writeOut(
        `Indexed ${summary.files} files into ${summary.chunks} chunks with ${summary.retriever} in ${total}s (${what}; chunk ${chunk}s, fit ${fit}s, save ${save}s) → ${showLocation(indexDir)}` +
          (warnings > 0 && !quiet ? ` (${warnings} warning${warnings === 1 ? '' : 's'} above)` : ''),
      );
    }
    if (flags.watch !== undefined) await watchUntilStopped(indexDir, flags, retrieverSettingsFor(flags.embedding_model as string | undefined), quiet);
  },
};
