// Answer benchmark: answers the public vLLM datasets and the development sets (datasets/dev:
// unseen vLLM files, click + requests, werkzeug, attrs) from their search results and scores the answers
// against the references — the share that state the reference's key facts (its numbers,
// identifiers, flags, paths and quoted strings; "states the fact" = at least half of them in
// the answer) and the ceiling (the same test on the retrieved spans), the share that cite a
// gold source (same file, IoU > 0.05), token F1 and ROUGE-1 recall, the median answer length,
// and questions/s. The extractive generator always
// runs; an LLM runs too when a model folder is given (--model_dir) or named (--generator).
//
//   pnpm bench:answers [--k 5] [--results_dir DIR] [--model_dir DIR [--dtype q4]]
//                      [--generator qwen3|<model>] [--llm_limit 20] [--max_new_tokens 200]
//                      [--save_directory DIR] [--json] [--show_misses N [--miss_kind K]]
//                      [--by_kind] [--unit_ranks [near]] [--explain_units ID]
//                      [--extractive JSON] [--bm25 JSON]
//
// --unit_ranks prints where, among the scored sentences and lines of the shown sources
// (`scoreAnswerUnits`), the first one holding a reference fact ranks, over the development
// answers that leave the facts out though the sources hold them; `near` also prints those
// ranked 2nd–10th beside the three best. --explain_units ID prints one question's best
// scored units with their flags (C carries the asked kind, D defines a name asked, * holds
// a fact).
//
// --by_kind prints, for the public and the development sets pooled, each answer kind's
// (`detectAnswerKind`) questions with key facts, answers stating them and the ceiling.
//
// --show_misses N prints, per set, up to N answers that leave out facts the shown sources
// hold (with --miss_kind K, only those of answer kind K), with the quotable units of those sources that hold them.
//
// Answer-absent questions (without --results_dir): each set's questions are also asked of
// another codebase, one whose subject is different (ABSENT_FROM), where nothing answers
// them; the table's last rows give the share of those answers that say the sources lack
// the answer (NOT_FOUND_ANSWER) instead of quoting something near it, beside the share of
// the set's own questions answered that way.
//
// The generator is told each question's words that the corpus it was asked of never holds
// or holds in one chunk (`Retriever.unindexedWords`, `rareWords`), as every answer path of
// `rag` tells it (not with --results_dir).
//
// Without --results_dir the script makes the search results itself: it chunks each corpus
// (../shared/data/raw; .bench/dev-corpora/other, werkzeug, attrs, babel, jinja2, doit, tornado, bs4, cmd2, pexpect, itsdangerous, cherrypy, cachelib, blinker, factoryboy, bidict and structlog, prepared by
// datasets/dev/prepare_corpora.py)
// with @rag/chunking and searches with @rag/bm25 (k = 10). With --results_dir it reads
// DIR/dataset_{code,docs}_public.json (what `rag search_dataset` writes) for the public sets
// only and reads the spans from ../shared.
import { readFileSync, existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { DATASETS, REPO_ROOT, formatTable, gitRevision, parseBenchArgs } from './bench-lib.mjs';
import { devCorporaDir, questionCorpora, questionSets } from './question-sets.mjs';

const flags = parseBenchArgs(process.argv.slice(2));
const k = Number(flags.k ?? 5);
const llmLimit = Number(flags.llm_limit ?? 20);
// --bm25 '{"rerank":{"joinSpan":0}}' retrieves with other bm25 settings (see Bm25Settings).
const bm25Settings = flags.bm25 ? JSON.parse(String(flags.bm25)) : {};
const shared = resolve(process.env.RAG_SHARED_DIR ?? join(REPO_ROOT, '..', 'shared'));

function fail(message, hint) {
  console.error(`error: ${message}${hint ? `\n  hint: ${hint}` : ''}`);
  process.exit(2);
}

if (!existsSync(join(shared, 'data', 'raw'))) fail(`benchmark data not found in ${shared}/data/raw.`, 'Set RAG_SHARED_DIR to the folder that contains data/.');

async function importPackage(name, entry = 'index') {
  const path = join(REPO_ROOT, 'packages', name, 'dist', `${entry}.js`);
  if (!existsSync(path)) fail(`${path} is missing.`, 'Run `pnpm build` first.');
  return import(path);
}

const generation = await importPackage('generation');
const { mapCitations, NOT_FOUND_ANSWER, scoreAnswerUnits, splitIntoUnits } = await importPackage('generation', 'internals');
const { countFacts, iou, keyFacts, statesFacts } = await importPackage('eval');
const { chunkOfHit, OffsetMap } = await importPackage('core');

/** Lower-cased words and numbers; citation markers and punctuation are not words. */
function words(text) {
  return (text.replace(/\[\d+(?:\s*[,-]\s*\d+)*\]/g, ' ').toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []);
}

/** Token F1 and ROUGE-1 recall of `answer` against `reference` (bags of words). */
function overlap(answer, reference) {
  const a = words(answer);
  const r = words(reference);
  if (a.length === 0 || r.length === 0) return { f1: 0, recall: 0 };
  const counts = new Map();
  for (const w of r) counts.set(w, (counts.get(w) ?? 0) + 1);
  let common = 0;
  for (const w of a) {
    const c = counts.get(w) ?? 0;
    if (c > 0) {
      common++;
      counts.set(w, c - 1);
    }
  }
  const precision = common / a.length;
  const recall = common / r.length;
  return { f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall), recall };
}

const hitsGold = (sources, gold) => sources.some((s) => gold.some((g) => iou(s, g) > 0.05));

function median(values) {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const devCorpora = devCorporaDir(REPO_ROOT);
/** Question sets: the public vLLM sets and the development sets, with the corpus each is about. */
const SETS = questionSets(REPO_ROOT, shared).filter((set) => !flags.results_dir || set.group === 'public');
const CORPORA = Object.fromEntries(Object.entries(questionCorpora(REPO_ROOT, shared)).map(([name, { base, dir }]) => [name, { dir: join(base, dir), prefix: `${dir}/` }]));
const questionsOf = (set) => JSON.parse(readFileSync(set.path, 'utf8')).rag_questions;
/**
 * For answer-absent questions: the corpus each corpus's questions are also asked of, one
 * about something else (a task runner for an inference engine's questions, a web framework
 * for an i18n library's), so that no source there answers them.
 */
const ABSENT_FROM = Object.freeze({ vllm: 'doit', other: 'babel', werkzeug: 'attrs', attrs: 'tornado', babel: 'werkzeug', jinja2: 'doit', doit: 'jinja2', tornado: 'babel', bs4: 'doit', cmd2: 'babel', pexpect: 'attrs', itsdangerous: 'tornado', cherrypy: 'pexpect', cachelib: 'blinker', blinker: 'cachelib', factoryboy: 'pexpect', bidict: 'cherrypy', structlog: 'bs4' });
// A corpus added to scripts/question-sets.mjs needs a corpus its questions are also asked of.
const unpaired = [...new Set(SETS.map((set) => set.corpus))].filter((corpus) => !ABSENT_FROM[corpus]);
if (unpaired.length > 0) fail(`no answer-absent corpus for ${unpaired.join(', ')}.`, 'Add one to ABSENT_FROM in scripts/bench-answers.mjs: a development corpus about something else.');
/** Search results of each set's questions asked of its ABSENT_FROM corpus, by set name. */
const absentResults = {};
/** The unindexed and rare words (`Retriever.unindexedWords`, `rareWords`) of each question in the corpus it was asked of. */
const unindexed = new Map();
const rare = new Map();
/** `AnswerDatasetOptions.unindexedWords` for questions asked of `corpus` (none when the results came from files). */
const unindexedIn = (corpus) =>
  unindexed.size > 0
    ? { unindexedWords: async (question) => unindexed.get(`${corpus}|${question}`) ?? [], rareWords: async (question) => rare.get(`${corpus}|${question}`) ?? [] }
    : {};

/** The search results of every set, and a reader of their spans. */
async function searchResultsFromCorpus() {
  const { chunkCorpus } = await importPackage('chunking');
  const { bm25RetrieverFactory } = await importPackage('bm25');
  if (SETS.some((set) => set.corpus !== 'vllm')) {
    const { spawnSync } = await import('node:child_process');
    const prepared = spawnSync('python3', [join(REPO_ROOT, 'datasets', 'dev', 'prepare_corpora.py'), '--out', devCorpora], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (prepared.status !== 0) fail('could not prepare the development corpora.', 'Install python3-click python-click-doc python3-requests python-requests-doc python3-werkzeug python-werkzeug-doc python3-attr python-attr-doc python3-babel python-babel-doc python3-jinja2 python-jinja2-doc python3-doit python-doit-doc python3-tornado python-tornado-doc python3-bs4 python-bs4-doc python3-cmd2 python-cmd2-doc python3-pexpect python-pexpect-doc python3-itsdangerous python-itsdangerous-doc python3-cherrypy3 python-cherrypy3-doc python3-cachelib python-cachelib-doc python3-blinker python-blinker-doc python3-factory-boy python-factory-boy-doc python3-bidict python-bidict-doc python3-structlog python-structlog-doc.');
  }
  const bySpan = new Map();
  const results = {};
  const notes = [];
  for (const [corpus, { dir, prefix }] of Object.entries(CORPORA)) {
    const sets = SETS.filter((set) => set.corpus === corpus);
    // Sets whose questions this corpus cannot answer (see ABSENT_FROM).
    const strangers = SETS.filter((set) => ABSENT_FROM[set.corpus] === corpus);
    if (sets.length === 0 && strangers.length === 0) continue;
    const t0 = performance.now();
    const { chunks } = await chunkCorpus(dir, { onWarning: () => undefined });
    const retriever = await bm25RetrieverFactory.build(chunks, { settings: bm25Settings });
    notes.push(`${corpus}: bm25 over ${chunks.length} chunks (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    const outputPath = (chunk) => `${prefix}${chunk.file_path}`;
    for (const chunk of chunks) bySpan.set(`${outputPath(chunk)}:${chunk.first_character_index}:${chunk.last_character_index}`, chunk);
    /** The search results of `set`'s questions in this corpus, `depth` hits each. */
    const searchSet = async (set, depth) => {
      const searchResults = [];
      for (const q of questionsOf(set)) {
        const hits = await retriever.search(q.question, { k: depth });
        searchResults.push({
          question_id: q.question_id,
          question: q.question,
          retrieved_sources: hits.map((hit) => {
            const c = chunkOfHit(hit, chunks);
            bySpan.set(`${outputPath(c)}:${c.first_character_index}:${c.last_character_index}`, c);
            return { file_path: outputPath(c), first_character_index: c.first_character_index, last_character_index: c.last_character_index };
          }),
        });
      }
      return searchResults;
    };
    for (const set of sets) results[set.name] = { search_results: await searchSet(set, 10), k: 10 };
    for (const set of strangers) absentResults[set.name] = { search_results: await searchSet(set, k), k, corpus };
    // What the answer paths of `rag` tell the generator: the question's words this corpus never holds.
    for (const set of [...sets, ...strangers]) {
      const asked = sets.includes(set) ? results[set.name] : absentResults[set.name];
      for (const entry of asked.search_results) {
        unindexed.set(`${corpus}|${entry.question}`, await retriever.unindexedWords(entry.question));
        rare.set(`${corpus}|${entry.question}`, await retriever.rareWords(entry.question));
      }
    }
  }
  const readSpan = (source) => {
    const chunk = bySpan.get(`${source.file_path}:${source.first_character_index}:${source.last_character_index}`);
    if (!chunk) throw new Error(`no chunk for ${source.file_path}`);
    return generation.toSourceForAnswer(chunk, source.file_path);
  };
  return { results, readSpan, note: notes.join('; ') };
}

function searchResultsFromFiles(dir) {
  const results = {};
  for (const dataset of DATASETS) {
    const path = join(resolve(dir), `${dataset}.json`);
    if (!existsSync(path)) fail(`${path} is missing.`, 'Point --results_dir at the folder `rag search_dataset --save_directory` wrote.');
    results[dataset] = JSON.parse(readFileSync(path, 'utf8'));
  }
  const files = new Map();
  const readSpan = (source) => {
    let file = files.get(source.file_path);
    if (!file) {
      const text = readFileSync(join(shared, source.file_path), 'utf8');
      file = { text, map: new OffsetMap(text) };
      files.set(source.file_path, file);
    }
    return file.text.slice(file.map.toUtf16(source.first_character_index), file.map.toUtf16(source.last_character_index));
  };
  return { results, readSpan, note: `results from ${resolve(dir)}` };
}

async function runGenerator(generator, set, results, readSpan, limit) {
  const dataset = set.name;
  const questions = questionsOf(set);
  const byId = new Map(questions.map((q) => [q.question_id, q]));
  const subset = { ...results, search_results: results.search_results.slice(0, limit) };
  const run = await generation.answerDataset(subset, { generator, readSpan, k, ...unindexedIn(set.corpus) });
  let cited = 0;
  let retrievedHit = 0;
  let f1 = 0;
  let recall = 0;
  let dropped = 0;
  let withFacts = 0;
  let stated = 0;
  let ceiling = 0;
  const lengths = [];
  const rows = [];
  for (const entry of run.output.search_results) {
    const q = byId.get(entry.question_id);
    const shown = entry.retrieved_sources.slice(0, k).map((s) => ({ ...s, start_line: 0, end_line: 0, symbol: '', text: '' }));
    const mapping = mapCitations(entry.answer, shown);
    dropped += mapping.droppedCitations.length;
    const gold = q?.sources ?? [];
    if (hitsGold(mapping.citedSources, gold)) cited++;
    if (hitsGold(shown, gold)) retrievedHit++;
    const o = overlap(entry.answer, q?.answer ?? '');
    lengths.push(entry.answer.length);
    const facts = keyFacts(q?.answer ?? '');
    if (facts.length > 0) {
      withFacts++;
      if (statesFacts(entry.answer, facts)) stated++;
      if (statesFacts(shown.map((source) => spanText(source)).join('\n'), facts)) ceiling++;
    }
    f1 += o.f1;
    recall += o.recall;
    rows.push({ question_id: entry.question_id, question: q?.question, kind: generation.detectAnswerKind(q?.question ?? ''), cited_gold: hitsGold(mapping.citedSources, gold), f1: o.f1, facts, stated: statesFacts(entry.answer, facts), inSources: statesFacts(shown.map((source) => spanText(source)).join('\n'), facts), answer: entry.answer, shown });
  }
  const n = run.output.search_results.length;
  const label = generator.modelId && generator.modelId !== generator.name ? `${generator.name} (${basename(generator.modelId)})` : generator.name;
  return {
    generator: label,
    dataset,
    questions: n,
    citedGold: cited / n,
    retrievedGold: retrievedHit / n,
    f1: f1 / n,
    rouge1Recall: recall / n,
    withFacts,
    statesFact: withFacts > 0 ? stated / withFacts : 0,
    factCeiling: withFacts > 0 ? ceiling / withFacts : 0,
    medianLength: median(lengths),
    droppedCitations: dropped,
    questionsPerSecond: n / (run.elapsedMs / 1000),
    tokensPerSecond: run.generatedTokens / (run.elapsedMs / 1000),
    output: run.output,
    rows,
  };
}

const { results, readSpan, note } = flags.results_dir ? searchResultsFromFiles(String(flags.results_dir)) : await searchResultsFromCorpus();
/** The text of a retrieved source (plain text whichever way `readSpan` returns it). */
function spanText(source) {
  const span = readSpan(source);
  return typeof span === 'string' ? span : span.text;
}
const registry = generation.createGeneratorRegistry();
// --extractive '{"maxAnswerChars":450}' tries other extractive settings (see ExtractiveOptions).
const extractiveSettings = flags.extractive ? JSON.parse(String(flags.extractive)) : {};
const generators = [{ create: () => registry.create('extractive', extractiveSettings), limit: Infinity }];
const llmName = flags.generator ? String(flags.generator) : flags.model_dir ? 'qwen3' : undefined;
if (llmName) {
  const settings = {};
  if (flags.model_dir) settings.modelDir = String(flags.model_dir);
  if (flags.dtype) settings.dtype = String(flags.dtype);
  if (flags.max_new_tokens) settings.maxNewTokens = Number(flags.max_new_tokens);
  generators.push({ create: () => registry.create(llmName, settings), limit: llmLimit });
}

const reports = [];
for (const entry of generators) {
  let generator;
  try {
    generator = await entry.create();
  } catch (error) {
    console.error(`skipping the LLM: ${error.format ? error.format() : error.message}`);
    continue;
  }
  // One untimed pass over the first set: questions/s is the steady rate of a warm process
  // (the first set would otherwise pay the JIT's warm-up alone).
  if (entry.limit === Infinity) await generation.answerDataset(results[SETS[0].name], { generator, readSpan, k, ...unindexedIn(SETS[0].corpus) });
  for (const set of SETS) reports.push(await runGenerator(generator, set, results[set.name], readSpan, entry.limit));
  await generator.dispose();
}

/** Share of a run's answers that say the sources lack the answer. */
const notFoundShare = (output) => output.search_results.filter((entry) => entry.answer.startsWith(NOT_FOUND_ANSWER)).length / output.search_results.length;
const absentRows = [];
if (Object.keys(absentResults).length > 0) {
  const generator = await registry.create('extractive', extractiveSettings);
  for (const set of SETS) {
    const absent = absentResults[set.name];
    const own = reports.find((r) => r.dataset === set.name && r.generator === generator.name);
    if (!absent || !own) continue;
    const run = await generation.answerDataset(absent, { generator, readSpan, k, ...unindexedIn(absent.corpus) });
    // A "not found" on the set's own corpus is wrong where the sources shown hold the fact.
    const withheld = own.rows.filter((row) => row.inSources && row.facts.length > 0 && row.answer.startsWith(NOT_FOUND_ANSWER)).length;
    absentRows.push({ dataset: set.name, askedOf: absent.corpus, questions: absent.search_results.length, notFound: notFoundShare(run.output), notFoundOwn: notFoundShare(own.output), withheldOwn: withheld / own.questions });
  }
  await generator.dispose();
}

if (flags.save_directory) {
  const dir = resolve(String(flags.save_directory));
  await mkdir(dir, { recursive: true });
  for (const r of reports) await writeFile(join(dir, `${r.dataset}.${r.generator.replace(/[^\w.-]+/g, '_')}.json`), `${JSON.stringify(r.output, null, 2)}\n`);
}

if (flags.show_misses) {
  // Answers that leave out the reference's facts although the sources shown hold them.
  for (const r of reports) {
    const misses = r.rows.filter((row) => row.facts.length > 0 && !row.stated && row.inSources && (!flags.miss_kind || row.kind === flags.miss_kind)).slice(0, Number(flags.show_misses));
    for (const row of misses) {
      console.log(`--- ${r.dataset} ${row.question_id}: ${row.question}\n  facts: ${row.facts.join(' | ')}\n  answer: ${row.answer.replace(/\n/g, '\n          ')}`);
      // Where the left-out facts were: the quotable units of the shown sources that hold any.
      row.shown.forEach((source, i) => {
        for (const unit of splitIntoUnits(spanText(source), source.file_path)) {
          const held = row.facts.filter((fact) => countFacts(unit.display, [fact]) > 0);
          if (held.length > 0) console.log(`    [${i + 1}] ${unit.kind} {${held.join(', ')}} ${unit.display.slice(0, 160)}`);
        }
      });
    }
  }
}

if (flags.by_kind) {
  // Where the answers fall short of their ceiling, by the kind of answer asked for.
  const tally = new Map();
  for (const r of reports) {
    const pool = r.dataset.startsWith('dev_') ? 'development' : 'public';
    for (const row of r.rows) {
      if (row.facts.length === 0) continue;
      const key = `${pool}\t${row.kind}`;
      const t = tally.get(key) ?? { pool, kind: row.kind, n: 0, stated: 0, ceiling: 0 };
      t.n++;
      if (row.stated) t.stated++;
      if (row.inSources) t.ceiling++;
      tally.set(key, t);
    }
  }
  const byKind = [...tally.values()].sort((a, b) => a.pool.localeCompare(b.pool) || b.n - a.n);
  console.log(formatTable(['sets', 'answer kind', 'with facts', 'states fact', 'fact ceiling', 'share of ceiling'], byKind.map((t) => [t.pool, t.kind, t.n, t.stated, t.ceiling, t.ceiling > 0 ? (t.stated / t.ceiling).toFixed(2) : '-'])));
}

if (flags.explain_units) {
  // The scored units of one question's shown sources, best first (--explain_units ID).
  for (const r of reports) for (const row of r.rows) {
    if (row.question_id !== String(flags.explain_units)) continue;
    const sources = row.shown.map((source) => { const span = readSpan(source); return typeof span === 'string' ? { ...source, text: span } : { ...source, ...span }; });
    const { units } = scoreAnswerUnits(row.question, sources);
    console.log(`--- ${r.dataset} ${row.question_id} ${row.kind}: ${row.question}\n  facts: ${row.facts.join(' | ')}`);
    for (const u of [...units].sort((a, b) => b.score - a.score).slice(0, 25)) {
      console.log(`  ${u.score.toFixed(2).padStart(6)} cov ${u.coverage.toFixed(2)} [${u.sourceIndex + 1}] ${u.carries ? 'C' : ' '}${u.defines ? 'D' : ' '} ${countFacts(u.unit.display, row.facts) > 0 ? '*' : ' '} ${u.unit.display.slice(0, 150).replace(/\n/g, ' ')}`);
    }
  }
}

if (flags.unit_ranks) {
  // Where the first unit holding a reference fact ranks among the scored units of the shown
  // sources, for the answers that leave the facts out though the sources hold them.
  const buckets = { 1: 0, 2: 0, 3: 0, '4-5': 0, '6-10': 0, '11-20': 0, '>20': 0, none: 0 };
  for (const r of reports) {
    if (!r.dataset.startsWith(flags.unit_sets ? String(flags.unit_sets) : 'dev_')) continue;
    for (const row of r.rows) {
      if (row.facts.length === 0 || row.stated || !row.inSources) continue;
      const sources = row.shown.map((source) => { const span = readSpan(source); return typeof span === 'string' ? { ...source, text: span } : { ...source, ...span }; });
      const { units } = scoreAnswerUnits(row.question, sources);
      const ranked = [...units].sort((a, b) => b.score - a.score);
      const at = ranked.findIndex((u) => countFacts(u.unit.display, row.facts) > 0);
      const rank = at + 1;
      const key = at < 0 ? 'none' : rank <= 3 ? String(rank) : rank <= 5 ? '4-5' : rank <= 10 ? '6-10' : rank <= 20 ? '11-20' : '>20';
      buckets[key]++;
      if (flags.unit_ranks === 'near' && rank >= 2 && rank <= 10) {
        const line = (u) => `${u.score.toFixed(2).padStart(6)} cov ${u.coverage.toFixed(2)} [${u.sourceIndex + 1}] ${u.unit.kind[0]} ${u.carries ? 'C' : ' '}${u.defines ? 'D' : ' '} ${countFacts(u.unit.display, row.facts) > 0 ? '*' : ' '} ${u.unit.display.slice(0, 140).replace(/\n/g, ' ')}`;
        console.log(`--- ${row.question_id} ${row.kind} (fact at ${rank}): ${row.question}\n  facts: ${row.facts.join(' | ')}\n${ranked.slice(0, 3).map(line).join('\n')}\n${rank > 3 ? line(ranked[at]) : ''}`);
      }
      if (flags.unit_ranks === 'show' && rank === 1) console.log(`--- ${row.question_id} ${row.kind}: ${row.question}\n  facts: ${row.facts.join(' | ')}\n  top unit: ${ranked[0].unit.display.slice(0, 200)}\n  answer: ${row.answer.slice(0, 400).replace(/\n/g, '\n          ')}`);
    }
  }
  console.log('rank of the first fact-holding unit, development misses:', JSON.stringify(buckets));
}

if (flags.json) {
  console.log(JSON.stringify({ answers: reports.map(({ output, rows, ...rest }) => rest), answerAbsent: absentRows }, null, 2));
} else {
  console.log(`rag answer benchmark @ ${gitRevision()} — answers from the top ${k} sources; ${note}`);
  console.log(
    formatTable(
      ['generator', 'dataset', 'questions', 'states fact', 'fact ceiling', 'cites gold', 'gold in top k', 'token F1', 'ROUGE-1 R', 'median chars', 'dropped [n]', 'questions/s', 'tokens/s'],
      reports.map((r) => [
        r.generator,
        r.dataset,
        r.questions,
        `${r.statesFact.toFixed(3)} (${r.withFacts})`,
        r.factCeiling.toFixed(3),
        r.citedGold.toFixed(3),
        r.retrievedGold.toFixed(3),
        r.f1.toFixed(3),
        r.rouge1Recall.toFixed(3),
        r.medianLength,
        r.droppedCitations,
        r.questionsPerSecond.toFixed(1),
        r.tokensPerSecond.toFixed(0),
      ]),
    ),
  );
  console.log('states fact: share of answers holding at least half of the reference answer\'s key facts (numbers, identifiers, flags, paths, quoted strings), over the questions whose reference has any (n); fact ceiling: the same test on the k sources shown.');
  console.log('cites gold: share of answers citing a source with the gold file and IoU > 0.05; gold in top k: the same for any of the k sources shown (the ceiling).');
  if (absentRows.length > 0) {
    const total = (field) => absentRows.reduce((sum, row) => sum + row[field] * row.questions, 0) / absentRows.reduce((sum, row) => sum + row.questions, 0);
    console.log('\nanswer-absent questions: each set asked of another codebase (extractive)');
    console.log(
      formatTable(
        ['dataset', 'asked of', 'questions', 'not found there', 'not found on its own corpus', '… though the sources hold the fact'],
        [
          ...absentRows.map((row) => [row.dataset, row.askedOf, row.questions, row.notFound.toFixed(3), row.notFoundOwn.toFixed(3), row.withheldOwn.toFixed(3)]),
          ['all', '', absentRows.reduce((sum, row) => sum + row.questions, 0), total('notFound').toFixed(3), total('notFoundOwn').toFixed(3), total('withheldOwn').toFixed(3)],
        ],
      ),
    );
    console.log('not found: share of answers that say the retrieved sources do not contain the answer; on another codebase higher is better, on its own lower; "though the sources hold the fact": own-corpus "not found" answers whose k sources hold at least half of the reference\'s key facts (an answer withheld), a share of all the set\'s questions.');
  }
}
