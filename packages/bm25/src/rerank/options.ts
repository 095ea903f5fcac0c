/**
 * The second stage: the first `depth` BM25F hits are re-scored with evidence a bag of
 * words cannot see. Every signal is on a scale relative to the query's best BM25F score,
 * so the weights below mean the same thing for every query and corpus.
 */
import type { AnswerKind } from '@rag/text';

/** Every kind of question `detectAnswerKind` of @rag/text tells apart. */
export const ANSWER_KINDS: readonly AnswerKind[] = Object.freeze(['default', 'error', 'where', 'how', 'list', 'yesno', 'value', 'consequence', 'mechanism', 'explain']);

/** The kinds of question whose answer a code chunk can be seen to carry (see `codeCarriesKind` of @rag/text). */
export type EvidenceKind = 'default' | 'error' | 'list' | 'yesno' | 'value';
export const EVIDENCE_KINDS: readonly EvidenceKind[] = Object.freeze(['default', 'error', 'list', 'yesno', 'value']);

export interface RerankOptions {
  /**
   * How many first-stage hits are re-scored (at least `k` are). 0 turns the second stage
   * off, and hits then carry their plain BM25F scores. Integer ≥ 0. Default `50`.
   */
  depth: number;
  /**
   * Weight of the phrase signal: the share of adjacent query word pairs that also occur
   * in order, close together, in the chunk (its symbol or heading path included). In
   * [0, 10]. Default `0.2`.
   */
  proximity: number;
  /**
   * Weight of the coverage signal: the share of the query's term weight (query weight ·
   * idf) that occurs anywhere in the chunk (text, path or symbol). BM25 lets one rare term
   * seen often outscore a chunk that has every term; this leans back toward the chunk that
   * answers the whole question. In [0, 10]. Default `0.2`.
   */
  coverage: number;
  /**
   * How far apart (in words, stopwords not counted) the second word of a pair may follow
   * the first and still count as the phrase. Integer in [1, 50]. Default `3`.
   */
  proximityWindow: number;
  /**
   * Weight of the docs-versus-code prior. The corpus itself says how much more often each
   * query term occurs in prose (Markdown, RST, text) than in code; their mean log ratio,
   * squashed to (−1, 1), lifts prose chunks for prose-like questions and code chunks for
   * code-like ones. 0 turns it off. In [0, 10]. Default `0.1` (questions that describe code
   * behaviour in plain words read as prose, so a strong prior sends them to the docs).
   */
  modality: number;
  /**
   * Score factor for tests, examples and benchmarks (by the usual naming conventions, see
   * `isAuxiliaryPath`) unless the query itself speaks of tests, examples or benchmarks: the
   * implementation is what a question usually means. 1 turns it off. In (0, 1]. Default `0.6`.
   */
  auxiliaryFactor: number;
  /**
   * Score factor for release notes, changelogs and news pages (by their names or folders',
   * see `isHistoryPath`) unless the query speaks of releases, changelogs or history: an
   * entry names the feature it changed, while a question about a feature means how it
   * behaves now. 1 turns it off. In (0, 1]. Default `0.8`, as for tests.
   */
  historyFactor: number;
  /**
   * Score factor for a Python chunk that describes rather than does: mostly docstrings and
   * comments with a few lines of code (a class header, a module preamble, an abstract
   * method; see `readsAsDescription` in `@rag/text`). A question about behaviour is answered
   * by the code that behaves; a place question ("where is X defined?") is exempt, since
   * there the header is the answer. 1 turns it off. In (0, 1]. Default `0.8`.
   */
  descriptionFactor: number;
  /**
   * Score factor for a docs chunk that is nothing but titles and markup — an autodoc page's
   * `.. automodule::` under its title (see `isMarkupStub` in `@rag/text`): the words a reader
   * would come for are filled in from the code when the site is built, so the chunk in the
   * sources says nothing, and being a few words long it would otherwise win on length. 1
   * turns it off. In (0, 1]. Default `0.5`.
   */
  stubFactor: number;
  /**
   * Weight of the definition signal: the share of the query's snake_case and kebab-case
   * identifiers that a code chunk defines (`def name`, `name = …`, `name: type = …`,
   * `"name": …`) rather than merely mentions. Class names are left to the symbol field,
   * which already holds every class and function name. In [0, 10]. Default `0.3`.
   */
  definition: number;
  /**
   * Weight of the explanation signal, the prose counterpart of `definition`: the share of
   * the query's snake_case and kebab-case identifiers that a docs chunk spells inside an
   * inline code span (`` `mm_kwargs` ``). Documentation that names an identifier as code
   * is where it is explained; a question asked in identifiers may want that page rather
   * than the dozen functions that take the parameter. In [0, 10]. Default `0.3` (the
   * definition weight: explaining a name in prose counts as much as defining it in code).
   */
  explanation: number;
  /**
   * Kinds of question (`detectAnswerKind` of @rag/text) that ask for the place a named
   * identifier lives ("where is `url_for` implemented?", "which module defines
   * `get_text_stream`?"): only its definition answers them, so a docs chunk that spells the
   * name earns no explanation credit there, and the docs pages that use the name stop
   * outranking the code that defines it; a code chunk whose own name (the symbol's last
   * part) the question spells, as spelled, counts as defining it. A question that asks for documentation ("where is
   * `x` documented?", see `DOCUMENTATION_QUERY_WORDS`) keeps the credit. Empty turns it
   * off. Default `['where']`.
   */
  placeKinds: readonly AnswerKind[];
  /**
   * Weight of section support: the best first-stage score (relative to the query's best)
   * among the other re-scored chunks of the same unit that do not overlap the chunk: the
   * other pieces of one long function or class body (same symbol), or of one docs section
   * (same parent heading). Several separate matches in one place say it is the place the
   * question is about. 0 turns it off. In [0, 10]. Default `0.05` (0.1 lifted the public
   * sets one or two questions more and the development sets a few less).
   */
  sectionSupport: number;
  /**
   * Weight, per kind of question (`detectAnswerKind` of @rag/text), of the answer-evidence
   * signal: 1 when a code chunk carries that kind of fact — a `raise` or `except` for
   * "which error…", an assignment or a lookup with a fallback for "what is the default…",
   * a literal for "how many / how long…" (see `codeCarriesKind`) — else 0. Among chunks that match the question's
   * words alike, the one that can hold the answer comes first. Prose is left to the
   * docs-versus-code prior. Each weight in [0, 10]; a kind left out keeps its default.
   * Default `{ default: 0.1, error: 0.2, list: 0, yesno: 0, value: 0 }`: literals, list
   * literals and guards are in most code chunks, so they tell little (a literal for value
   * questions cost docs questions on the public set and gained nothing on the development
   * sets).
   */
  answerEvidence: Readonly<Record<EvidenceKind, number>>;
  /**
   * Weight of the answer-type signal: 1 when the question's focus names a type of value
   * (`answerTypesOf` of @rag/text: a content type, an environment variable, a flag, a status
   * code, an encoding, a duration, a version) and the chunk, code or prose, spells a value of
   * that type (`application/json`, `VLLM_PORT`, `--reload`, `308`, `utf-8`, `10 minutes`,
   * `4.4`), else 0. Read from the text when the index is built. In [0, 10]. Default `0.2`
   * (0.1–0.3 tried on the development sets: 0.2 lifted the most questions and lowered none;
   * see docs/retrieval.md).
   */
  answerType: number;
  /**
   * Return no two hits of one file whose spans overlap: a nested chunk and the section it
   * lies in, or overlapping text windows, would spend two of the k slots on one place.
   * The better scored of the two is kept. Default `true`.
   */
  dedupe: boolean;
  /**
   * Most of the k results one file may take, as a share of k (rounded up, at least one):
   * a file whose every function matches the question's words would otherwise fill the
   * list, and a second file with the answer would not be seen. Hits over the limit are
   * moved behind the others, not dropped. In (0, 1]; 1 turns it off. Default `1`.
   */
  fileShare: number;
  /**
   * Most of the k results code — or prose — may take, as a share of k (rounded up, at
   * least one). A question rarely says whether it wants the implementation or the page
   * that documents it, and a page that repeats the question's words can push every code
   * hit out of the first five; the cap keeps the best of the other kind in view. Hits
   * over the limit are moved behind the others, not dropped. In (0, 1]; 1 turns it off.
   * Default `0.7`: at most 3 of the first 4 results, 4 of the first 5, 7 of the first 10.
   */
  kindShare: number;
  /**
   * Join a code hit with the candidates of this search that lie right next to it in its
   * file (chunks that meet) into one hit, while the joined span stays within this many code
   * points: a function long enough to be cut in parts, or a method and the helper beside
   * it, is then cited once, whole, and the place its second part took goes to the next
   * candidate. Prose is never joined (a section's neighbours are other topics, and its
   * nested pieces already offer finer spans). The joined hit keeps its best member's
   * score. 0 turns it off. In [0, 1e6]. Default `2000`, the longest span the benchmark
   * format accepts and the chunker's cap.
   */
  joinSpan: number;
  /**
   * Score factor for a chunk outside the projects a question names, when the corpus holds
   * several projects side by side (top-level folders that each hold a Python package of
   * their own name, see `CorpusProjects`): "how does requests retry?" means the requests
   * project's code, not click's. The name itself is then taken out of the words searched —
   * it says where to look, and inside its project it is everywhere. 1 turns both off; a
   * corpus of one project is never affected. In (0, 1]. Default `0.5`.
   */
  projectFactor: number;
}

export const DEFAULT_RERANK_OPTIONS: Readonly<RerankOptions> = Object.freeze({
  depth: 50,
  proximity: 0.2,
  coverage: 0.2,
  proximityWindow: 3,
  modality: 0.1,
  auxiliaryFactor: 0.6,
  historyFactor: 0.8,
  descriptionFactor: 0.8,
  stubFactor: 0.5,
  definition: 0.3,
  explanation: 0.3,
  placeKinds: Object.freeze(['where'] as AnswerKind[]),
  sectionSupport: 0.05,
  answerEvidence: Object.freeze({ default: 0.1, error: 0.2, list: 0, yesno: 0, value: 0 }),
  answerType: 0.2,
  dedupe: true,
  fileShare: 1,
  kindShare: 0.7,
  joinSpan: 2000,
  projectFactor: 0.5,
});
