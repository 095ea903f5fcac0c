#!/usr/bin/env node
import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);
import {
  DEFAULT_IGNORED_DIRS,
  DEFAULT_MAX_CHUNK_SIZE,
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_MAX_LINE_LENGTH,
  DEFAULT_RETRIEVER,
  answer,
  answerDatasetToFile,
  buildIndex,
  checkpointPathFor,
  createDefaultRetrieverRegistry,
  createIndexedSpanReader,
  embeddingSettingsFor,
  findStaleFiles,
  openAnswerGenerator,
  openSearchSession,
  openStore,
  redactLocation,
  searchSources,
  toMinimalSource,
  toSourceForAnswer
} from "./chunk-RLGZSCZZ.js";
import {
  MODEL_DTYPES,
  markTerms,
  matchLines
} from "./chunk-3YUETLGB.js";
import {
  isPostgresUrl
} from "./chunk-T5TSCBZ7.js";
import {
  RagError,
  assertReplaceableIndexDir,
  ensureDirectory,
  exitCodeOf,
  formatRagError,
  isRagError,
  parseDataset,
  parseSearchResults,
  writeFileAtomic
} from "./chunk-4AD4YNFC.js";

// src/suggest.ts
function distance(a, b) {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length];
}
function nearestName(typed, valid) {
  let best;
  let bestDistance = Infinity;
  for (const name of valid) {
    const d = distance(typed, name);
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return best !== void 0 && bestDistance <= Math.max(2, Math.floor(typed.length / 3)) ? best : void 0;
}

// src/args.ts
function normalizeFlagName(raw) {
  return raw.toLowerCase().replaceAll("-", "_");
}
function convert(spec, raw) {
  if (spec.type === "string") {
    if (raw.trim() === "") {
      throw new RagError("INVALID_ARGUMENT", `--${spec.name} is empty.`, { hint: `Pass a value: --${spec.name} ${spec.metavar ?? "VALUE"}.` });
    }
    return raw;
  }
  const value = Number(raw);
  const range = `${spec.min ?? "\u2026"} to ${spec.max ?? "\u2026"}`;
  const hint = `Pass a whole number from ${range}: --${spec.name} ${spec.metavar ?? "N"}.`;
  if (!/^[+-]?\d+$/.test(raw.trim()) || !Number.isSafeInteger(value)) {
    throw new RagError("INVALID_ARGUMENT", `--${spec.name} must be a whole number, got "${raw}".`, { hint });
  }
  if (spec.min !== void 0 && value < spec.min) {
    throw new RagError("INVALID_ARGUMENT", `--${spec.name} must be at least ${spec.min}, got ${value}.`, { hint });
  }
  if (spec.max !== void 0 && value > spec.max) {
    throw new RagError("INVALID_ARGUMENT", `--${spec.name} must be at most ${spec.max}, got ${value}.`, { hint });
  }
  return value;
}
function parseFlags(argv, specs, command) {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const flags = {};
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (!token.startsWith("--") || token === "--") {
      throw new RagError("INVALID_ARGUMENT", `Unexpected argument "${token}" for \`rag ${command}\`.`, {
        hint: `Flags take the form --name value. Run \`rag ${command} --help\` for the list.`
      });
    }
    const equals = token.indexOf("=");
    const rawName = normalizeFlagName(token.slice(2, equals === -1 ? void 0 : equals));
    let spec = byName.get(rawName);
    let negated = false;
    if (!spec && rawName.startsWith("no_") && byName.get(rawName.slice(3))?.type === "boolean") {
      spec = byName.get(rawName.slice(3));
      negated = true;
    }
    if (!spec) {
      const near = nearestName(rawName, specs.map((s) => s.name));
      throw new RagError("INVALID_ARGUMENT", `Unknown flag --${rawName} for \`rag ${command}\`${near ? ` (did you mean --${near}?)` : ""}.`, {
        hint: `Valid flags: ${specs.map((s) => `--${s.name}`).join(", ")}.`
      });
    }
    if (spec.type === "boolean") {
      if (equals !== -1) {
        const value = token.slice(equals + 1).toLowerCase();
        if (!["true", "false", "1", "0", "yes", "no"].includes(value)) {
          throw new RagError("INVALID_ARGUMENT", `--${spec.name} is a switch; got "${value}".`, {
            hint: `Use --${spec.name} or --no-${spec.name}.`
          });
        }
        flags[spec.name] = ["true", "1", "yes"].includes(value) !== negated;
      } else {
        flags[spec.name] = !negated;
      }
      continue;
    }
    let raw;
    if (equals !== -1) {
      raw = token.slice(equals + 1);
    } else {
      raw = argv[i + 1];
      if (raw === void 0 || raw.startsWith("--") && raw.length > 2) {
        throw new RagError("INVALID_ARGUMENT", `--${spec.name} needs a value.`, {
          hint: `Example: --${spec.name} ${spec.metavar ?? "VALUE"}`
        });
      }
      i++;
    }
    flags[spec.name] = convert(spec, raw);
  }
  for (const spec of specs) {
    if (spec.required && flags[spec.name] === void 0) {
      throw new RagError("INVALID_ARGUMENT", `Missing required flag --${spec.name} for \`rag ${command}\`.`, {
        hint: `Run \`rag ${command} --help\` for an example.`
      });
    }
  }
  return flags;
}
function formatHelp(command, summary, specs, examples) {
  const lines = [`rag ${command} \u2014 ${summary}`, "", "Flags (snake_case or kebab-case):"];
  const labels = specs.map((s) => `  --${s.name}${s.type === "boolean" ? "" : ` ${s.metavar ?? "VALUE"}`}`);
  const width = Math.max(...labels.map((l) => l.length)) + 2;
  specs.forEach((spec, i) => {
    const extra = [spec.required ? "required" : "", spec.defaultLabel ? `default: ${spec.defaultLabel}` : ""].filter(Boolean).join("; ");
    lines.push(`${labels[i].padEnd(width)}${spec.description}${extra ? ` (${extra})` : ""}`);
  });
  if (examples.length > 0) lines.push("", "Examples:", ...examples.map((e) => `  ${e}`));
  return lines.join("\n");
}

// src/command.ts
var INDEX_DIR_FLAG = {
  name: "index_dir",
  type: "string",
  metavar: "DIR",
  description: "Where the index lives",
  defaultLabel: "$RAG_INDEX_DIR or ./.rag/index"
};
var STORE_FLAG = {
  name: "store",
  type: "string",
  metavar: "URL",
  description: "Keep the index in PostgreSQL instead of a folder (postgresql://user:password@host:port/db[?schema=name])",
  defaultLabel: "the folder of --index_dir"
};
var QUIET_FLAG = { name: "quiet", type: "boolean", description: "No progress bars or warnings on stderr" };
var VERBOSE_FLAG = { name: "verbose", type: "boolean", description: "On error, print the underlying cause" };
var JSON_FLAG = { name: "json", type: "boolean", description: "Write machine-readable JSON to stdout" };
function writeOut(text) {
  process.stdout.write(text.endsWith("\n") ? text : `${text}
`);
}
function writeErr(text, quiet = false) {
  if (!quiet) process.stderr.write(text.endsWith("\n") ? text : `${text}
`);
}
function readQuery(flags) {
  const query = String(flags.query ?? "").trim();
  if (query.length === 0) {
    throw new RagError("INVALID_ARGUMENT", "--query is empty.", { hint: 'Pass a question, e.g. --query "How is the cache sized?"' });
  }
  return query;
}
function assertNotInput(outPath, inPath, flag) {
  if (outPath === inPath) {
    throw new RagError("INVALID_ARGUMENT", `--${flag} would write the output over the input file ${inPath}.`, {
      hint: `Pick another --${flag}; the output keeps the input's file name.`
    });
  }
}

// src/paths.ts
import { isAbsolute, resolve } from "path";
var showLocation = redactLocation;
function invocationDir() {
  const initCwd = process.env.INIT_CWD;
  if (initCwd && process.env.npm_lifecycle_event === "rag" && isAbsolute(initCwd)) return initCwd;
  return process.cwd();
}
function resolveUserPath(path) {
  return resolve(invocationDir(), path);
}
function defaultIndexDir() {
  const fromEnv = process.env.RAG_INDEX_DIR;
  return fromEnv ? resolveUserPath(fromEnv) : resolve(invocationDir(), ".rag", "index");
}
function indexDirFrom(flags) {
  if (typeof flags.store === "string" && flags.store.length > 0) {
    if (!isPostgresUrl(flags.store)) {
      throw new RagError("INVALID_ARGUMENT", `--store must be a PostgreSQL connection string (got ${JSON.stringify(flags.store.replace(/:[^:@/]*@/, ":***@"))}).`, {
        hint: "Pass postgresql://user:password@host:port/database, or use --index_dir for an index in a folder."
      });
    }
    if (typeof flags.index_dir === "string" && flags.index_dir.length > 0) {
      throw new RagError("INVALID_ARGUMENT", "--store and --index_dir name two places for one index.", { hint: "Pass one of them." });
    }
    return flags.store;
  }
  return typeof flags.index_dir === "string" && flags.index_dir.length > 0 ? resolveUserPath(flags.index_dir) : defaultIndexDir();
}

// src/generators.ts
var GENERATOR_FLAGS = [
  { name: "generator", type: "string", metavar: "NAME", description: "extractive, qwen3, a hub model id (owner/name) or a model folder", defaultLabel: "qwen3 if its model is on disk, else extractive" },
  { name: "model_dir", type: "string", metavar: "DIR", description: "Local model folder (no download)" },
  { name: "max_new_tokens", type: "integer", metavar: "N", min: 1, max: 8192, description: "Longest answer in tokens (LLM generators)", defaultLabel: "200" },
  { name: "context_tokens", type: "integer", metavar: "N", min: 256, max: 131072, description: "Prompt token budget for the sources (LLM generators)", defaultLabel: "2048" },
  { name: "dtype", type: "string", metavar: "TYPE", description: "Model weights: q4, q8, fp16, fp32 or auto (LLM generators)", defaultLabel: "auto" },
  { name: "no_cache", type: "boolean", description: "Do not read or write the answer cache" }
];
function openGenerator(flags, indexDir, context) {
  const settings = {};
  if (flags.model_dir) settings.modelDir = resolveUserPath(flags.model_dir);
  if (flags.max_new_tokens) settings.maxNewTokens = flags.max_new_tokens;
  if (flags.context_tokens) settings.contextTokens = flags.context_tokens;
  if (flags.dtype) {
    const valid = ["auto", ...MODEL_DTYPES];
    if (!valid.includes(flags.dtype)) {
      throw new RagError("INVALID_ARGUMENT", `--dtype ${String(flags.dtype)} is not a weight format.`, { hint: `Use one of: ${valid.join(", ")}.` });
    }
    settings.dtype = flags.dtype;
  }
  return openAnswerGenerator({
    name: flags.generator,
    settings,
    indexDir,
    noCache: flags.no_cache === true,
    context,
    onCacheError: (error) => writeErr(`warning: the answer could not be stored in the cache (${error.message}); it will be computed again next time.`, flags.quiet === true)
  });
}

// src/retrievers.ts
function createRetrieverRegistry(embeddingModel) {
  return createDefaultRetrieverRegistry({ embedding: embeddingSettingsFor(embeddingModel, invocationDir()) });
}
function retrieverSettingsFor(embeddingModel) {
  return { embedding: embeddingSettingsFor(embeddingModel, invocationDir()) };
}
var EMBEDDING_MODEL_FLAG = {
  name: "embedding_model",
  type: "string",
  metavar: "NAME|DIR",
  description: "Embedding model for the embedding/hybrid retrievers: a hub id or a local model folder",
  defaultLabel: "the zero-download corpus embedder"
};

// src/session.ts
async function openSessionFromFlags(flags) {
  const indexDir = indexDirFrom(flags);
  const session = await openSearchSession(indexDir, {
    retriever: flags.retriever,
    retrievers: createRetrieverRegistry(flags.embedding_model),
    pathBase: invocationDir()
  });
  return { indexDir, session };
}

// src/stale.ts
function describeStale(stale) {
  if (stale.length === 0) return void 0;
  const list = stale.slice(0, 3).join(", ") + (stale.length > 3 ? ` and ${stale.length - 3} more` : "");
  return `warning: ${stale.length} cited file${stale.length === 1 ? "" : "s"} changed since indexing (${list}); offsets may be off. Re-run \`rag index\` to refresh.`;
}

// src/commands/search-command.ts
var DEFAULT_K = 10;
var MAX_K = 1e3;
var K_FLAG = { name: "k", type: "integer", metavar: "N", min: 1, max: MAX_K, description: "Number of sources to return", defaultLabel: String(DEFAULT_K) };
var RETRIEVER_FLAG = { name: "retriever", type: "string", metavar: "NAME", description: "Retriever to use", defaultLabel: "the one the index was built with" };
function jsonHit(s, text) {
  const hit = {
    file_path: s.file_path,
    first_character_index: s.first_character_index,
    last_character_index: s.last_character_index,
    start_line: s.start_line,
    end_line: s.end_line,
    symbol: s.symbol,
    kind: s.kind,
    rank: s.rank,
    score: s.score
  };
  if (text !== void 0) hit.text = text;
  return hit;
}
function useColour() {
  return process.stdout.isTTY === true && !process.env.NO_COLOR;
}
var searchCommand = {
  name: "search",
  summary: "Find the spans of the indexed corpus that best match a question.",
  flags: [
    { name: "query", type: "string", metavar: "TEXT", required: true, description: "The question or keywords" },
    K_FLAG,
    INDEX_DIR_FLAG,
    STORE_FLAG,
    RETRIEVER_FLAG,
    EMBEDDING_MODEL_FLAG,
    JSON_FLAG,
    { name: "text", type: "boolean", description: "With --json, also give each hit's text" },
    QUIET_FLAG,
    VERBOSE_FLAG
  ],
  examples: ['rag search --query "How do I set the maximum batch size?" --k 5', 'rag search --query "parse_config" --json', 'rag search --query "parse_config" --json --text'],
  async run(flags) {
    const query = readQuery(flags);
    const k = flags.k ?? DEFAULT_K;
    const { session } = await openSessionFromFlags(flags);
    const sources = await searchSources(session, query, k);
    const stale = new Set(await findStaleFiles(session, sources.map((s) => s.fileInCorpus)));
    const warning = describeStale([...stale]);
    if (warning) writeErr(warning, flags.quiet === true);
    if (flags.json) {
      const withText = flags.text === true;
      writeOut(JSON.stringify({ question: query, retrieved_sources: sources.map((s) => jsonHit(s, withText ? session.chunks[s.chunkId].text : void 0)) }, null, 2));
      return;
    }
    if (sources.length === 0) {
      writeOut(`No matches for "${query}" (retriever ${session.retriever.name}).`);
      return;
    }
    const mark = useColour() ? (word) => `\x1B[1;33m${word}\x1B[0m` : void 0;
    const blocks = sources.map((s) => {
      const where = `${s.file_path}:${s.start_line}-${s.end_line}`;
      const what = s.symbol ? `  ${s.kind} ${s.symbol}` : `  ${s.kind}`;
      const changed = stale.has(s.file_path) ? "  (changed since indexing)" : "";
      const header = `${String(s.rank).padStart(2)}. ${where}${what}  [chars ${s.first_character_index}-${s.last_character_index}]  score ${s.score.toFixed(3)}${changed}`;
      const shown = matchLines(session.chunks[s.chunkId].text, query).map(({ line, text, matches }) => {
        const number = String(s.start_line + line).padStart(6);
        const shownText = mark ? markTerms(text, query, mark) : text;
        return `${number}${matches ? ":" : "-"}${shownText ? ` ${shownText}` : ""}`;
      });
      return [header, ...shown].join("\n");
    });
    writeOut(blocks.join("\n"));
  }
};

// src/commands/answer-command.ts
var DEFAULT_ANSWER_K = 5;
function abortOnInterrupt() {
  const controller = new AbortController();
  process.once("SIGINT", () => controller.abort(new RagError("CANCELLED", "Interrupted.")));
  return controller;
}
var answerCommand = {
  name: "answer",
  summary: "Answer a question from the retrieved sources, with inline [n] citations.",
  flags: [
    { name: "query", type: "string", metavar: "TEXT", required: true, description: "The question" },
    { name: "k", type: "integer", metavar: "N", min: 1, max: 100, description: "Number of sources to retrieve", defaultLabel: String(DEFAULT_ANSWER_K) },
    ...GENERATOR_FLAGS,
    INDEX_DIR_FLAG,
    STORE_FLAG,
    RETRIEVER_FLAG,
    EMBEDDING_MODEL_FLAG,
    JSON_FLAG,
    QUIET_FLAG,
    VERBOSE_FLAG
  ],
  examples: [
    'rag answer --query "What TCP port does the development server listen on by default?"',
    'rag answer --query "How is the KV cache sized?" --generator qwen3 --json',
    'rag answer --query "\u2026" --model_dir ./models/Qwen3-0.6B-ONNX'
  ],
  async run(flags) {
    const query = readQuery(flags);
    const k = flags.k ?? DEFAULT_ANSWER_K;
    const { indexDir, session } = await openSessionFromFlags(flags);
    const hits = await session.retriever.search(query, { k });
    const sources = hits.map((hit) => {
      const chunk = session.chunks[hit.chunkId];
      return toSourceForAnswer(chunk, session.outputPath(chunk.file_path));
    });
    const warning = describeStale(await findStaleFiles(session, hits.map((hit) => session.chunks[hit.chunkId].file_path)));
    if (warning) writeErr(warning, flags.quiet === true);
    const { generator } = await openGenerator(flags, indexDir, { k, retriever: session.retriever.name });
    const controller = abortOnInterrupt();
    const streaming = !flags.json;
    let result;
    try {
      result = await answer(generator, { question: query, sources }, {
        signal: controller.signal,
        onToken: streaming ? (text) => process.stdout.write(text) : void 0
      });
    } finally {
      await generator.dispose();
    }
    for (const n of result.droppedCitations) writeErr(`warning: the answer cited [${n}], which matches no source; dropped.`, flags.quiet === true);
    if (flags.json) {
      writeOut(
        JSON.stringify(
          {
            question: query,
            retrieved_sources: sources.map(toMinimalSource),
            answer: result.answer,
            cited_sources: result.citedSources,
            generator: result.modelId ? `${result.generator} (${result.modelId})` : result.generator
          },
          null,
          2
        )
      );
      return;
    }
    const cited = result.citedSources.map((s) => `[${s.n}] ${s.file_path}:${s.start_line}-${s.end_line}${s.symbol ? ` ${s.symbol}` : ""}`);
    writeOut(`

${cited.length > 0 ? `Sources:
${cited.join("\n")}` : "No sources cited."}`);
    writeErr(`(answered by ${result.generator}${result.modelId ? ` ${result.modelId}` : ""}${result.cached ? ", from cache" : ""})`, flags.quiet === true);
  }
};

// src/commands/answer-dataset-command.ts
import { basename as basename2, join as join2 } from "path";

// src/progress.ts
var PHASE_LABELS = {
  walk: "reading files",
  chunk: "chunking",
  fit: "indexing",
  save: "saving",
  search: "searching",
  answer: "answering",
  embed: "embedding"
};
function formatRate(done, seconds) {
  if (seconds <= 0) return "";
  const rate = done / seconds;
  return rate >= 100 ? `${Math.round(rate)}/s` : `${rate.toFixed(1)}/s`;
}
function createProgress(stream = process.stderr, enabled = true) {
  const isTty = Boolean(stream.isTTY);
  let phase;
  let started = 0;
  let lastDraw = 0;
  let last;
  let lastExtra = "";
  const line = (event) => {
    const seconds = (performance.now() - started) / 1e3;
    const label = PHASE_LABELS[event.phase] ?? event.phase;
    const fraction = event.total > 0 ? Math.min(1, event.done / event.total) : 0;
    const width = 24;
    const filled = Math.round(fraction * width);
    const bar = `${"\u2588".repeat(filled)}${"\u2591".repeat(width - filled)}`;
    const rate = formatRate(event.done, seconds);
    return `${label.padEnd(14)} ${bar} ${String(Math.round(fraction * 100)).padStart(3)}% ${event.done}/${event.total} ${seconds.toFixed(1)}s ${rate}${lastExtra ? ` ${lastExtra}` : ""}`;
  };
  const finishPhase = () => {
    if (!last || !enabled) return;
    if (isTty) stream.write(`\r\x1B[2K${line(last)}
`);
    else stream.write(`${line(last)}
`);
    last = void 0;
  };
  return {
    update(event, extra = "") {
      if (!enabled) return;
      if (event.phase !== phase) {
        finishPhase();
        phase = event.phase;
        started = performance.now();
        lastDraw = 0;
      }
      last = event;
      lastExtra = extra;
      if (!isTty) return;
      const now = performance.now();
      if (now - lastDraw < 66 && event.done < event.total) return;
      lastDraw = now;
      stream.write(`\r\x1B[2K${line(event)}`);
    },
    done() {
      finishPhase();
      phase = void 0;
    }
  };
}

// src/commands/search-dataset-command.ts
import { readFile } from "fs/promises";
import { basename, join } from "path";
async function readTextFile(path, flag) {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    const code = error.code;
    const why = code === "ENOENT" ? "does not exist" : code === "EISDIR" ? "is a directory" : error.message;
    throw new RagError("INVALID_ARGUMENT", `--${flag} ${path} ${why}.`, { hint: `Pass the path of a JSON file with --${flag}.`, cause: error });
  }
}
var searchDatasetCommand = {
  name: "search_dataset",
  summary: "Search every question of a dataset file and save the results in the benchmark format.",
  flags: [
    { name: "dataset_path", type: "string", metavar: "FILE", required: true, description: 'Dataset JSON ({"rag_questions": [...]})' },
    K_FLAG,
    { name: "save_directory", type: "string", metavar: "DIR", required: true, description: "Directory for the results (same file name as the dataset)" },
    INDEX_DIR_FLAG,
    STORE_FLAG,
    RETRIEVER_FLAG,
    EMBEDDING_MODEL_FLAG,
    JSON_FLAG,
    QUIET_FLAG,
    VERBOSE_FLAG
  ],
  examples: ["rag search_dataset --dataset_path datasets/mini/questions.json --save_directory out/"],
  async run(flags) {
    const quiet = flags.quiet === true;
    const datasetPath = resolveUserPath(flags.dataset_path);
    const dataset = parseDataset(await readTextFile(datasetPath, "dataset_path"), datasetPath);
    const saveDirectory = resolveUserPath(flags.save_directory);
    const outPath = join(saveDirectory, basename(datasetPath));
    assertNotInput(outPath, datasetPath, "save_directory");
    await ensureDirectory(saveDirectory);
    const k = flags.k ?? DEFAULT_K;
    const { session } = await openSessionFromFlags(flags);
    const progress = createProgress(process.stderr, !quiet);
    const total = dataset.rag_questions.length;
    const results = [];
    const cited = /* @__PURE__ */ new Set();
    const started = performance.now();
    for (const [i, question] of dataset.rag_questions.entries()) {
      const sources = question.question.trim() === "" ? [] : await searchSources(session, question.question, k);
      if (question.question.trim() === "") writeErr(`warning: question ${question.question_id} is empty; it gets no sources.`, quiet);
      results.push({ question_id: question.question_id, question: question.question, retrieved_sources: sources.map(toMinimalSource) });
      for (const source of sources) cited.add(source.fileInCorpus);
      progress.update({ phase: "search", done: i + 1, total });
    }
    progress.done();
    const seconds = (performance.now() - started) / 1e3;
    const warning = describeStale(await findStaleFiles(session, cited));
    if (warning) writeErr(warning, quiet);
    await writeFileAtomic(outPath, `${JSON.stringify({ search_results: results, k }, null, 2)}
`);
    if (flags.json) {
      const questionsPerSecond = seconds > 0 ? total / seconds : null;
      writeOut(JSON.stringify({ dataset_path: datasetPath, output_path: outPath, questions: total, k, retriever: session.retriever.name, seconds, questions_per_second: questionsPerSecond }, null, 2));
      return;
    }
    writeOut(`Searched ${total} questions with ${session.retriever.name} (k=${k}) in ${seconds.toFixed(2)}s \u2192 ${outPath}`);
  }
};

// src/commands/answer-dataset-command.ts
var answerDatasetCommand = {
  name: "answer_dataset",
  summary: "Answer every question of a search-results file from its retrieved sources; resumable.",
  flags: [
    { name: "student_search_results_path", type: "string", metavar: "FILE", required: true, description: "Search results JSON (from `rag search_dataset`)" },
    { name: "save_directory", type: "string", metavar: "DIR", required: true, description: "Directory for the answers (same file name as the results)" },
    { name: "k", type: "integer", metavar: "N", min: 1, max: 1e3, description: "Answer from at most the first k sources", defaultLabel: "the results file's k" },
    ...GENERATOR_FLAGS,
    INDEX_DIR_FLAG,
    STORE_FLAG,
    JSON_FLAG,
    QUIET_FLAG,
    VERBOSE_FLAG
  ],
  examples: ["rag answer_dataset --student_search_results_path out/questions.json --save_directory answers/"],
  async run(flags) {
    const quiet = flags.quiet === true;
    const resultsPath = resolveUserPath(flags.student_search_results_path);
    const results = parseSearchResults(await readTextFile(resultsPath, "student_search_results_path"), resultsPath);
    const outPath = join2(resolveUserPath(flags.save_directory), basename2(resultsPath));
    assertNotInput(outPath, resultsPath, "save_directory");
    const indexDir = indexDirFrom(flags);
    const k = flags.k ?? results.k;
    const { generator } = await openGenerator(flags, indexDir, { k: k ?? 0, retriever: "results-file" });
    const progress = createProgress(process.stderr, !quiet);
    const controller = abortOnInterrupt();
    let tokensPerSecond = 0;
    try {
      const result = await answerDatasetToFile(results, outPath, {
        generator,
        readSpan: await createIndexedSpanReader(indexDir, invocationDir()),
        ...k === void 0 ? {} : { k },
        signal: controller.signal,
        onProgress: (p) => {
          tokensPerSecond = p.tokensPerSecond;
          progress.update({ phase: "answer", done: p.done, total: p.total }, `${p.tokensPerSecond.toFixed(0)} tokens/s`);
        }
      });
      progress.done();
      if (result.resumed > 0) writeErr(`resumed ${result.resumed} answers from ${checkpointPathFor(outPath)}`, quiet);
      if (flags.json) {
        const seconds = result.elapsedMs / 1e3;
        writeOut(
          JSON.stringify(
            { results_path: resultsPath, output_path: outPath, answered: result.answered, resumed: result.resumed, generator: generator.name, seconds, tokens_per_second: tokensPerSecond },
            null,
            2
          )
        );
        return;
      }
      writeOut(
        `Answered ${result.answered} questions with ${generator.name} in ${(result.elapsedMs / 1e3).toFixed(2)}s (${tokensPerSecond.toFixed(0)} tokens/s) \u2192 ${outPath}`
      );
    } finally {
      progress.done();
      await generator.dispose();
    }
  }
};

// ../../packages/eval/dist/index.js
function spanLength(source) {
  return Math.max(0, source.last_character_index - source.first_character_index);
}
function overlapLength(a, b) {
  if (a.file_path !== b.file_path) return 0;
  const start = Math.max(a.first_character_index, b.first_character_index);
  const end = Math.min(a.last_character_index, b.last_character_index);
  return Math.max(0, end - start);
}
function iou(a, b) {
  const overlap = overlapLength(a, b);
  if (overlap === 0) return 0;
  return overlap / (spanLength(a) + spanLength(b) - overlap);
}
var DEFAULT_KS = [1, 3, 5, 10];
var DEFAULT_MAX_CONTEXT_LENGTH = 2e3;
var IOU_THRESHOLD = 0.05;
var DEFAULT_MRR_K = 10;
var DEFAULT_SPAN_LENGTH_K = 5;
function requirePositiveInteger(value, name) {
  if (!Number.isInteger(value) || value < 1) {
    throw new RagError("INVALID_ARGUMENT", `${name} must be a positive integer, got ${String(value)}.`, {
      hint: `Pass a whole number of 1 or more as ${name}.`
    });
  }
  return value;
}
function resolveOptions(options, results) {
  const requested = options.ks ?? DEFAULT_KS;
  if (requested.length === 0) {
    throw new RagError("INVALID_ARGUMENT", "ks must name at least one rank.", { hint: "Pass e.g. ks: [1, 3, 5, 10]." });
  }
  const ks = [...new Set(requested.map((k) => requirePositiveInteger(k, "ks")))].sort((a, b) => a - b);
  return {
    ks,
    k: requirePositiveInteger(options.k ?? results.k ?? ks[ks.length - 1], "k"),
    maxContextLength: requirePositiveInteger(options.maxContextLength ?? DEFAULT_MAX_CONTEXT_LENGTH, "maxContextLength"),
    mrrK: requirePositiveInteger(options.mrrK ?? DEFAULT_MRR_K, "mrrK"),
    spanLengthK: requirePositiveInteger(options.spanLengthK ?? DEFAULT_SPAN_LENGTH_K, "spanLengthK")
  };
}
function validateDataset(dataset) {
  if (dataset.rag_questions.length === 0) {
    throw new RagError("DATASET_INVALID", "The dataset has no questions, so there is nothing to score.", {
      hint: 'Pass a dataset whose "rag_questions" array is not empty.'
    });
  }
  const seen = /* @__PURE__ */ new Set();
  for (const question of dataset.rag_questions) {
    if (seen.has(question.question_id)) {
      throw new RagError("DATASET_INVALID", `The dataset lists question ${question.question_id} more than once.`, {
        hint: "Give every question a unique question_id."
      });
    }
    seen.add(question.question_id);
    if (question.sources === void 0) {
      throw new RagError(
        "DATASET_INVALID",
        `Question ${question.question_id} has no "sources": scoring needs an answered dataset, one whose questions list their gold sources.`,
        { hint: "Evaluate against an AnsweredQuestions dataset, not an UnansweredQuestions one." }
      );
    }
  }
}
function validateResults(results, options) {
  const byId = /* @__PURE__ */ new Map();
  for (const result of results.search_results) {
    const id = result.question_id;
    if (byId.has(id)) {
      throw new RagError("RESULTS_INVALID", `The results list question ${id} more than once.`, {
        hint: "Write exactly one search_results entry per question."
      });
    }
    byId.set(id, result);
    const count = result.retrieved_sources.length;
    if (count > options.k) {
      throw new RagError("RESULTS_INVALID", `Question ${id} lists ${count} sources, more than k = ${options.k}.`, {
        hint: `Return at most ${options.k} sources per question (or evaluate with a larger k).`
      });
    }
    for (const source of result.retrieved_sources) {
      const length = spanLength(source);
      if (length > options.maxContextLength) {
        throw new RagError(
          "RESULTS_INVALID",
          `Question ${id} cites ${source.file_path} with a span of ${length} characters, longer than the limit of ${options.maxContextLength}.`,
          { hint: `Cut retrieved spans to at most ${options.maxContextLength} characters.` }
        );
      }
    }
  }
  return byId;
}
var LISTED_IDS = 10;
function countOf(n, singular, plural) {
  return `${n} ${n === 1 ? singular : plural}`;
}
function describeIds(ids) {
  const shown = ids.slice(0, LISTED_IDS).join(", ");
  return ids.length > LISTED_IDS ? `${shown} (and ${ids.length - LISTED_IDS} more)` : shown;
}
function scoreQuestion(question, gold, retrieved, options) {
  const sources = retrieved ?? [];
  const foundAt = gold.map(() => Infinity);
  let best = null;
  for (const [index, source] of sources.entries()) {
    const rank = index + 1;
    let score = 0;
    for (const [g, goldSource] of gold.entries()) {
      const overlap = iou(source, goldSource);
      if (overlap > IOU_THRESHOLD && foundAt[g] === Infinity) foundAt[g] = rank;
      score = Math.max(score, overlap);
    }
    if (best === null || score > best.iou) best = { source, iou: score, rank };
  }
  const recall = {};
  for (const k of options.ks) {
    recall[k] = gold.length === 0 ? 0 : foundAt.filter((rank) => rank <= k).length / gold.length;
  }
  const first = Math.min(...foundAt);
  return {
    question_id: question.question_id,
    question: question.question,
    recall,
    firstHitRank: Number.isFinite(first) ? first : null,
    gold,
    best,
    retrieved: sources.length,
    missing: retrieved === void 0
  };
}
function evaluate(dataset, results, options = {}) {
  validateDataset(dataset);
  const resolved = resolveOptions(options, results);
  const byId = validateResults(results, resolved);
  const warnings = [];
  const datasetIds = new Set(dataset.rag_questions.map((q) => q.question_id));
  const unknownQuestionIds = [...byId.keys()].filter((id) => !datasetIds.has(id));
  if (unknownQuestionIds.length > 0) {
    warnings.push(
      `Ignored ${countOf(unknownQuestionIds.length, "result entry", "result entries")} for questions not in the dataset: ${describeIds(unknownQuestionIds)}.`
    );
  }
  const perQuestion = dataset.rag_questions.map(
    (question) => scoreQuestion(question, question.sources ?? [], byId.get(question.question_id)?.retrieved_sources, resolved)
  );
  const missingQuestionIds = perQuestion.filter((q) => q.missing).map((q) => q.question_id);
  if (missingQuestionIds.length > 0) {
    warnings.push(
      `${countOf(missingQuestionIds.length, "question has no result entry and scores", "questions have no result entry and score")} 0: ${describeIds(missingQuestionIds)}.`
    );
  }
  const withoutGold = perQuestion.filter((q) => q.gold.length === 0).map((q) => q.question_id);
  if (withoutGold.length > 0) {
    warnings.push(`${countOf(withoutGold.length, "question lists no gold sources and scores", "questions list no gold sources and score")} 0: ${describeIds(withoutGold)}.`);
  }
  const count = perQuestion.length;
  const recall = {};
  for (const k of resolved.ks) {
    recall[k] = perQuestion.reduce((sum, q) => sum + (q.recall[k] ?? 0), 0) / count;
  }
  const mrr = perQuestion.reduce((sum, q) => sum + (q.firstHitRank !== null && q.firstHitRank <= resolved.mrrK ? 1 / q.firstHitRank : 0), 0) / count;
  let spanTotal = 0;
  let spanCount = 0;
  for (const question of dataset.rag_questions) {
    for (const source of byId.get(question.question_id)?.retrieved_sources.slice(0, resolved.spanLengthK) ?? []) {
      spanTotal += spanLength(source);
      spanCount++;
    }
  }
  return {
    questions: count,
    recall,
    mrr,
    meanSpanLength: spanCount === 0 ? 0 : spanTotal / spanCount,
    perQuestion,
    unknownQuestionIds,
    missingQuestionIds,
    warnings,
    options: resolved
  };
}
var QUESTION_WIDTH = 60;
function table(rows, left = /* @__PURE__ */ new Set()) {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  const last = widths.length - 1;
  return rows.map(
    (row) => row.map((cell, column) => left.has(column) ? column === last ? cell : cell.padEnd(widths[column]) : cell.padStart(widths[column])).join("  ")
  );
}
function truncate(text, width) {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length <= width ? oneLine : `${oneLine.slice(0, width - 1)}\u2026`;
}
function formatReport(report, options = {}) {
  const { ks, mrrK, spanLengthK } = report.options;
  const header = ["questions", ...ks.map((k) => `R@${k}`), `MRR@${mrrK}`, `span@${spanLengthK}`];
  const values = [
    String(report.questions),
    ...ks.map((k) => (report.recall[k] ?? 0).toFixed(3)),
    report.mrr.toFixed(3),
    report.meanSpanLength.toFixed(1)
  ];
  const lines = table([header, values]);
  if (options.perQuestion) {
    lines.push("");
    const rows = [["hit", "best IoU", "question_id", "question"]];
    for (const q of report.perQuestion) {
      rows.push([
        q.firstHitRank === null ? "-" : String(q.firstHitRank),
        q.best === null ? "-" : q.best.iou.toFixed(3),
        q.question_id,
        truncate(q.question, QUESTION_WIDTH)
      ]);
    }
    lines.push(...table(rows, /* @__PURE__ */ new Set([2, 3])));
  }
  for (const warning of report.warnings) lines.push(`warning: ${warning}`);
  return lines.join("\n");
}

// src/commands/evaluate-command.ts
var evaluateCommand = {
  name: "evaluate",
  summary: "Score search results against an answered dataset: recall@1/3/5/10 and MRR@10.",
  flags: [
    { name: "student_search_results_path", type: "string", metavar: "FILE", required: true, description: 'Search results JSON ({"search_results": [...]})' },
    { name: "dataset_path", type: "string", metavar: "FILE", required: true, description: "Answered dataset JSON (with sources)" },
    { name: "k", type: "integer", metavar: "N", min: 1, max: MAX_K, description: "Most sources a question may list", defaultLabel: String(DEFAULT_K) },
    { name: "max_context_length", type: "integer", metavar: "N", min: 1, description: "Longest allowed source span in characters", defaultLabel: String(DEFAULT_MAX_CONTEXT_LENGTH) },
    { name: "per_question", type: "boolean", description: "Also list every question with the rank of its first hit" },
    JSON_FLAG,
    QUIET_FLAG,
    VERBOSE_FLAG
  ],
  examples: ["rag evaluate --student_search_results_path out/questions.json --dataset_path datasets/mini/questions.json"],
  async run(flags) {
    const resultsPath = resolveUserPath(flags.student_search_results_path);
    const datasetPath = resolveUserPath(flags.dataset_path);
    const results = parseSearchResults(await readTextFile(resultsPath, "student_search_results_path"), resultsPath);
    const dataset = parseDataset(await readTextFile(datasetPath, "dataset_path"), datasetPath);
    const report = evaluate(dataset, results, {
      k: flags.k ?? DEFAULT_K,
      maxContextLength: flags.max_context_length ?? DEFAULT_MAX_CONTEXT_LENGTH
    });
    for (const warning of report.warnings) writeErr(`warning: ${warning}`, flags.quiet === true);
    if (flags.json) {
      const { perQuestion, ...summary } = report;
      writeOut(JSON.stringify(flags.per_question ? report : summary, null, 2));
      return;
    }
    writeOut(formatReport({ ...report, warnings: [] }, { perQuestion: flags.per_question === true }));
  }
};

// src/version.ts
var VERSION = "0.1.0";

// src/commands/index-command.ts
var BENCHMARK_SPAN_LIMIT = 2e3;
var indexCommand = {
  name: "index",
  summary: "Chunk a corpus directory and build a search index over it.",
  flags: [
    { name: "corpus_dir", type: "string", metavar: "DIR", required: true, description: "Directory to index (.py, .md, .rst, .txt)" },
    { name: "max_chunk_size", type: "integer", metavar: "N", min: 100, max: 1e5, description: "Largest chunk in characters", defaultLabel: String(DEFAULT_MAX_CHUNK_SIZE) },
    INDEX_DIR_FLAG,
    STORE_FLAG,
    { name: "retriever", type: "string", metavar: "NAME", description: "Retriever to build: bm25, embedding or hybrid", defaultLabel: DEFAULT_RETRIEVER },
    EMBEDDING_MODEL_FLAG,
    { name: "max_file_size", type: "integer", metavar: "BYTES", min: 0, max: 1e12, description: "Skip larger files (0: no limit)", defaultLabel: String(DEFAULT_MAX_FILE_BYTES) },
    { name: "max_line_length", type: "integer", metavar: "N", min: 0, max: 1e9, description: "Skip files with a longer line, which look minified or generated (0: no limit)", defaultLabel: String(DEFAULT_MAX_LINE_LENGTH) },
    { name: "skip_dirs", type: "string", metavar: "NAMES", description: 'Comma-separated folder names never walked (replaces the default list; "" walks every folder)', defaultLabel: DEFAULT_IGNORED_DIRS.join(",") },
    { name: "no_ignore", type: "boolean", description: "Also index files that .gitignore and .ignore files exclude" },
    { name: "threads", type: "integer", metavar: "N", min: 1, max: 64, description: "Threads that chunk at once (more: faster on an idle machine, more memory)", defaultLabel: "the cores, at most 4" },
    { name: "full", type: "boolean", description: "Rebuild from scratch instead of re-chunking only added and changed files" },
    JSON_FLAG,
    QUIET_FLAG,
    VERBOSE_FLAG
  ],
  examples: ["rag index --corpus_dir datasets/mini/corpus", "cd ../shared && rag index --corpus_dir data/raw --index_dir /tmp/vllm-index", "rag index --corpus_dir . --store postgresql://rag:secret@db.internal/rag"],
  async run(flags) {
    const quiet = flags.quiet === true;
    const registry = createRetrieverRegistry(flags.embedding_model);
    const retrieverName = flags.retriever ?? DEFAULT_RETRIEVER;
    const factory = registry.get(retrieverName);
    const corpusDirAsGiven = flags.corpus_dir;
    const corpusDir = resolveUserPath(corpusDirAsGiven);
    const indexDir = indexDirFrom(flags);
    const maxChunkSize = flags.max_chunk_size ?? DEFAULT_MAX_CHUNK_SIZE;
    if (maxChunkSize > BENCHMARK_SPAN_LIMIT) {
      writeErr(`warning: --max_chunk_size ${maxChunkSize} exceeds ${BENCHMARK_SPAN_LIMIT}; benchmark scoring rejects longer spans.`, quiet);
    }
    const inDatabase = isPostgresUrl(indexDir);
    if (!inDatabase) await assertReplaceableIndexDir(indexDir);
    if (indexDir === corpusDir) {
      throw new RagError("INVALID_ARGUMENT", "--index_dir must not be the corpus directory itself.", { hint: "Use a separate directory such as .rag/index." });
    }
    const progress = createProgress(process.stderr, !quiet);
    let warnings = 0;
    const report = await buildIndex({
      corpusDir,
      corpusDirAsGiven,
      indexDir,
      retriever: factory.name,
      retrievers: registry,
      maxChunkSize,
      ...flags.max_file_size === void 0 ? {} : { maxFileBytes: flags.max_file_size },
      ...flags.max_line_length === void 0 ? {} : { maxLineLength: flags.max_line_length },
      ...flags.skip_dirs === void 0 ? {} : { ignoredDirs: flags.skip_dirs.split(",").map((name) => name.trim()).filter((name) => name !== "") },
      ignoreFiles: flags.no_ignore !== true,
      ...flags.threads === void 0 ? {} : { threads: flags.threads },
      toolVersion: VERSION,
      full: flags.full === true,
      onProgress: (e) => progress.update(e),
      onWarning: (message) => {
        warnings++;
        progress.done();
        writeErr(`warning: ${message}`, quiet);
      }
    });
    progress.done();
    if (report.reason) writeErr(`note: rebuilt from scratch: ${report.reason}.`, quiet);
    const summary = {
      index_dir: showLocation(indexDir),
      corpus_dir: corpusDirAsGiven,
      retriever: factory.name,
      mode: report.mode,
      files: report.files.total,
      chunks: report.chunks,
      changes: { added: report.files.added, changed: report.files.changed, removed: report.files.removed, unchanged: report.files.unchanged },
      reused_chunks: report.reusedChunks,
      warnings,
      seconds: report.seconds
    };
    if (flags.json) writeOut(JSON.stringify(summary, null, 2));
    else {
      const { added, changed, removed, unchanged } = summary.changes;
      const what = report.mode === "incremental" ? `updated: ${added} added, ${changed} changed, ${removed} removed, ${unchanged} unchanged` : "full build";
      const { chunk, fit, save, total } = report.seconds;
      writeOut(
        `Indexed ${summary.files} files into ${summary.chunks} chunks with ${summary.retriever} in ${total}s (${what}; chunk ${chunk}s, fit ${fit}s, save ${save}s) \u2192 ${showLocation(indexDir)}` + (warnings > 0 && !quiet ? ` (${warnings} warning${warnings === 1 ? "" : "s"} above)` : "")
      );
    }
  }
};

// src/commands/mcp-command.ts
var mcpCommand = {
  name: "mcp",
  summary: "Serve the index to an MCP client over stdio (tools search_code, read_span, index_stats).",
  flags: [
    INDEX_DIR_FLAG,
    STORE_FLAG,
    RETRIEVER_FLAG,
    EMBEDDING_MODEL_FLAG,
    { name: "show_paths", type: "boolean", description: "Show this machine's absolute paths in tool errors and index_stats (hidden by default)" },
    VERBOSE_FLAG
  ],
  examples: ["rag mcp --index_dir /path/to/.rag/index"],
  async run(flags) {
    const { serveMcpOverStdio } = await import("./dist-D65HYLJ6.js");
    const options = {
      indexDir: indexDirFrom(flags),
      retrievers: createRetrieverRegistry(flags.embedding_model),
      pathBase: invocationDir(),
      exposePaths: flags.show_paths === true
    };
    if (flags.retriever !== void 0) options.retriever = flags.retriever;
    const server = await serveMcpOverStdio(options);
    await server.closed;
  }
};

// src/commands/serve-command.ts
function untilStopped() {
  return new Promise((resolve2) => {
    process.once("SIGINT", () => resolve2());
    process.once("SIGTERM", () => resolve2());
  });
}
function describeWorkers(workers) {
  return workers === 0 ? "searches on the server thread" : `${workers} search worker${workers === 1 ? "" : "s"}`;
}
var serveCommand = {
  name: "serve",
  summary: "Serve the index over HTTP: search and streamed-answer API, a web page, and MCP at /mcp.",
  flags: [
    INDEX_DIR_FLAG,
    STORE_FLAG,
    { name: "port", type: "integer", metavar: "N", min: 0, max: 65535, description: "TCP port (0 picks a free one)", defaultLabel: "8000" },
    { name: "host", type: "string", metavar: "HOST", description: "Interface to bind; anything but loopback exposes the corpus to the network", defaultLabel: "127.0.0.1" },
    RETRIEVER_FLAG,
    EMBEDDING_MODEL_FLAG,
    { name: "generator", type: "string", metavar: "NAME", description: "Generator for /answer (extractive, qwen3)", defaultLabel: "qwen3 if its model is on disk, else extractive" },
    { name: "model_dir", type: "string", metavar: "DIR", description: "Local model folder for the qwen3 generator" },
    { name: "max_concurrent_answers", type: "integer", metavar: "N", min: 1, max: 64, description: "Answers generated at once", defaultLabel: "1" },
    { name: "max_queued_answers", type: "integer", metavar: "N", min: 0, max: 1e4, description: "Answer requests that may wait; more get 503", defaultLabel: "8" },
    { name: "workers", type: "integer", metavar: "N", min: 0, max: 64, description: "Worker threads running searches over one shared copy of the index; 0 searches on the server thread", defaultLabel: "one per core" },
    { name: "log", type: "boolean", description: "Log every request to stderr" },
    { name: "show_paths", type: "boolean", description: "Show this machine's absolute paths in error messages and /stats (hidden from clients by default)" },
    QUIET_FLAG,
    VERBOSE_FLAG
  ],
  examples: ["rag serve --index_dir .rag/index", "rag serve --port 0 --generator extractive", "rag serve --host 0.0.0.0 --port 8080", "rag serve --workers 4", "rag serve --store postgresql://rag:secret@replica.internal/rag"],
  async run(flags) {
    const quiet = flags.quiet === true;
    const { isLoopbackHost, startServer } = await import("./dist-D65HYLJ6.js");
    const options = {
      indexDir: indexDirFrom(flags),
      retrieverSettings: retrieverSettingsFor(flags.embedding_model),
      pathBase: invocationDir(),
      logRequests: flags.log === true,
      exposePaths: flags.show_paths === true
    };
    if (flags.port !== void 0) options.port = flags.port;
    if (flags.host !== void 0) options.host = flags.host;
    if (flags.retriever !== void 0) options.retriever = flags.retriever;
    if (flags.generator !== void 0) options.generator = flags.generator;
    if (flags.model_dir !== void 0) options.generatorSettings = { modelDir: resolveUserPath(flags.model_dir) };
    if (flags.max_concurrent_answers !== void 0) options.maxConcurrentAnswers = flags.max_concurrent_answers;
    if (flags.max_queued_answers !== void 0) options.maxQueuedAnswers = flags.max_queued_answers;
    if (flags.workers !== void 0) options.workers = flags.workers;
    const server = await startServer(options);
    const stats = await server.service.stats();
    if (!isLoopbackHost(server.options.host)) {
      writeErr(`warning: listening on ${server.options.host}: anyone who can reach this machine can read the indexed corpus.`);
    }
    writeErr(`rag server listening on ${server.url} (${stats.files} files, ${stats.chunks} chunks, retriever ${stats.retriever}, generator ${stats.generator}, ${describeWorkers(stats.search_workers.workers)}); Ctrl-C stops it.`, quiet);
    if (stats.stale) writeErr(`warning: ${stats.changed_count + stats.missing_count} indexed file(s) changed since indexing; re-run \`rag index\` to refresh.`, quiet);
    await untilStopped();
    await server.close();
  }
};

// src/commands/verify-command.ts
var verifyCommand = {
  name: "verify",
  summary: "Check every file of the index against the checksums recorded when it was written.",
  flags: [INDEX_DIR_FLAG, STORE_FLAG, JSON_FLAG, QUIET_FLAG, VERBOSE_FLAG],
  examples: ["rag verify", "rag verify --index_dir /path/to/.rag/index --json", "rag verify --store postgresql://rag@localhost/rag"],
  async run(flags) {
    const indexDir = indexDirFrom(flags);
    const store = openStore(indexDir);
    const report = await store.verify().finally(() => store.close());
    if (flags.json) {
      writeOut(JSON.stringify({ index_dir: showLocation(indexDir), ok: true, ...report }, null, 2));
      return;
    }
    writeOut(`ok: ${report.files} files, ${(report.bytes / 1e6).toFixed(1)} MB of generation ${report.generation} in ${showLocation(indexDir)} match their checksums`);
  }
};

// src/cli.ts
var COMMANDS = [indexCommand, searchCommand, searchDatasetCommand, evaluateCommand, answerCommand, answerDatasetCommand, serveCommand, mcpCommand, verifyCommand];
function findCommand(name) {
  const normalized = name.replaceAll("-", "_");
  return COMMANDS.find((c) => c.name === normalized);
}
function mainHelp() {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
  return [
    `rag ${VERSION} \u2014 answer questions about a codebase with exactly-cited sources`,
    "",
    "Usage: rag <command> [--flags]",
    "",
    "Commands:",
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    "",
    "Run `rag <command> --help` for its flags. Data goes to stdout, logs and progress to stderr."
  ].join("\n");
}
async function main(argv) {
  const [name, ...rest] = argv;
  if (name === "help" && rest[0] !== void 0) return main([rest[0], "--help"]);
  if (name === void 0 || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(`${mainHelp()}
`);
    return name === void 0 ? 2 : 0;
  }
  if (name === "--version" || name === "-v") {
    process.stdout.write(`${VERSION}
`);
    return 0;
  }
  const command = findCommand(name);
  if (!command) {
    const near = nearestName(name.replaceAll("-", "_"), COMMANDS.map((c) => c.name));
    process.stderr.write(`error: unknown command "${name}"${near ? ` (did you mean ${near}?)` : ""}.
  hint: Valid commands: ${COMMANDS.map((c) => c.name).join(", ")}.
`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write(`${formatHelp(command.name, command.summary, command.flags, command.examples)}
`);
    return 0;
  }
  const verbose = rest.includes("--verbose") || process.env.RAG_DEBUG === "1";
  try {
    const flags = parseFlags(rest, command.flags, command.name);
    await command.run(flags);
    return 0;
  } catch (error) {
    if (isRagError(error)) {
      process.stderr.write(`error: ${formatRagError(error)}
`);
      if (verbose && error.cause) process.stderr.write(`  cause: ${String(error.cause.stack ?? error.cause)}
`);
      return exitCodeOf(error);
    }
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`error: unexpected failure in \`rag ${command.name}\`: ${message}
`);
    if (verbose && error instanceof Error) process.stderr.write(`${error.stack}
`);
    else process.stderr.write("  hint: rerun with --verbose for details, and please report it.\n");
    return 1;
  }
}
process.stdout.on("error", (error) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`error: ${String(error)}
`);
    process.exitCode = 1;
  }
);
//# sourceMappingURL=cli.js.map