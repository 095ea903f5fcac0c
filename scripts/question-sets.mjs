// The question sets the benchmarks measure and the corpus each is about, in one place: the
// quality benchmark, the answer benchmark and bm25's ablation all read them from here, so a
// new development set is added once. Paths of a set's sources start with its corpus's
// folder name (`data/raw/…`, `werkzeug/…`): a corpus is indexed from its parent folder.
import { join } from 'node:path';

/** Where the development corpora are prepared (`python3 datasets/dev/prepare_corpora.py`). */
export const devCorporaDir = (repoRoot) => join(repoRoot, '.bench', 'dev-corpora');

/**
 * Corpus name → `{ base, dir }`: the folder `dir` inside `base` is indexed, and the sets'
 * file paths start with `dir/`.
 */
export function questionCorpora(repoRoot, shared) {
  const dev = devCorporaDir(repoRoot);
  return {
    vllm: { base: shared, dir: 'data/raw' },
    // click + requests, indexed together (the scoped set asks about one of the two by name).
    other: { base: dev, dir: 'other' },
    werkzeug: { base: dev, dir: 'werkzeug' },
    attrs: { base: dev, dir: 'attrs' },
    babel: { base: dev, dir: 'babel' },
    jinja2: { base: dev, dir: 'jinja2' },
    doit: { base: dev, dir: 'doit' },
    tornado: { base: dev, dir: 'tornado' },
    bs4: { base: dev, dir: 'bs4' },
    cmd2: { base: dev, dir: 'cmd2' },
    pexpect: { base: dev, dir: 'pexpect' },
    itsdangerous: { base: dev, dir: 'itsdangerous' },
    cherrypy: { base: dev, dir: 'cherrypy' },
    cachelib: { base: dev, dir: 'cachelib' },
    blinker: { base: dev, dir: 'blinker' },
    factoryboy: { base: dev, dir: 'factoryboy' },
    bidict: { base: dev, dir: 'bidict' },
    structlog: { base: dev, dir: 'structlog' },
  };
}

/** The public vLLM sets (tuned on: regression floors only), then the development sets (decide on these). */
const SETS = [
  ['dataset_code_public', 'public', 'vllm'],
  ['dataset_docs_public', 'public', 'vllm'],
  ['dev_vllm_code', 'dev', 'vllm'],
  ['dev_vllm_docs', 'dev', 'vllm'],
  ['dev_vllm_config', 'dev', 'vllm'],
  ['dev_other_code', 'dev', 'other'],
  ['dev_other_docs', 'dev', 'other'],
  ['dev_other_scoped', 'dev', 'other'],
  ['dev_werkzeug_code', 'dev', 'werkzeug'],
  ['dev_werkzeug_docs', 'dev', 'werkzeug'],
  ['dev_attrs_code', 'dev', 'attrs'],
  ['dev_attrs_docs', 'dev', 'attrs'],
  ['dev_babel_code', 'dev', 'babel'],
  ['dev_babel_docs', 'dev', 'babel'],
  ['dev_jinja2_code', 'dev', 'jinja2'],
  ['dev_jinja2_docs', 'dev', 'jinja2'],
  ['dev_doit_code', 'dev', 'doit'],
  ['dev_doit_docs', 'dev', 'doit'],
  ['dev_tornado_code', 'dev', 'tornado'],
  ['dev_tornado_docs', 'dev', 'tornado'],
  ['dev_bs4_code', 'dev', 'bs4'],
  ['dev_bs4_docs', 'dev', 'bs4'],
  ['dev_cmd2_code', 'dev', 'cmd2'],
  ['dev_cmd2_docs', 'dev', 'cmd2'],
  ['dev_pexpect_code', 'dev', 'pexpect'],
  ['dev_pexpect_docs', 'dev', 'pexpect'],
  ['dev_itsdangerous_code', 'dev', 'itsdangerous'],
  ['dev_itsdangerous_docs', 'dev', 'itsdangerous'],
  ['dev_cherrypy_code', 'dev', 'cherrypy'],
  ['dev_cherrypy_docs', 'dev', 'cherrypy'],
  ['dev_cachelib_code', 'dev', 'cachelib'],
  ['dev_blinker_code', 'dev', 'blinker'],
  ['dev_blinker_docs', 'dev', 'blinker'],
  ['dev_factoryboy_code', 'dev', 'factoryboy'],
  ['dev_factoryboy_docs', 'dev', 'factoryboy'],
  ['dev_bidict_code', 'dev', 'bidict'],
  ['dev_bidict_docs', 'dev', 'bidict'],
  ['dev_structlog_code', 'dev', 'structlog'],
  ['dev_structlog_docs', 'dev', 'structlog'],
];

/** Every set as `{ name, group: 'public' | 'dev', corpus, path }`, in the order the tables print them. */
export function questionSets(repoRoot, shared) {
  return SETS.map(([name, group, corpus]) => ({
    name,
    group,
    corpus,
    path: group === 'public' ? join(shared, 'data', 'datasets', 'AnsweredQuestions', `${name}.json`) : join(repoRoot, 'datasets', 'dev', `${name}.json`),
  }));
}
