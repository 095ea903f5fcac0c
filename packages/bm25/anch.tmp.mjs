// ../../.bench/anch.ts
import { readIndex } from "@rag/core";

// src/class-summaries.ts
var CLASS_WITH_DOCSTRING = /^\s*(?:@[^\n]*\n\s*)*class\s+([A-Za-z_]\w*)\s*(?:\((?:[^()]|\([^()]*\))*\))?\s*:[ \t]*(?:#[^\n]*)?\n\s*[rRuU]?(?:("""|''')([\s\S]*?)\2|(["'])((?:[^"'\\\n]|\\.)*)\4)/;
var CLASS_HEADER = /^\s*(?:@[^\n]*\n\s*)*class\s/;
var CLASS_SUMMARY_LIMITS = Object.freeze({
  /** Longest summary carried (characters): a first sentence longer than this describes more than what the class is. */
  maxLength: 300
});
function summaryLine(docstring) {
  const paragraph = docstring.trim().split(/\n[ \t]*\n/)[0] ?? "";
  const sentence = paragraph.split(/(?<=[.!?])\s/)[0] ?? "";
  const line = sentence.replace(/\s+/g, " ").trim();
  return line.length > CLASS_SUMMARY_LIMITS.maxLength ? "" : line;
}
function lastPart(symbol) {
  return symbol.slice(symbol.lastIndexOf(".") + 1);
}
function enclosingSummary(symbol, byClass) {
  for (let end = symbol.length; end > 0; end = symbol.lastIndexOf(".", end - 1)) {
    const summary = byClass.get(symbol.slice(0, end));
    if (summary !== void 0) return { summary, self: end === symbol.length };
  }
  return void 0;
}
function lazyClassSummaries(chunks2) {
  const summaries = new Array(chunks2.length).fill("");
  const done = new Uint8Array(chunks2.length);
  return (d) => {
    if (done[d] === 0) {
      const path = chunks2[d].file_path;
      let start = d;
      while (start > 0 && chunks2[start - 1].file_path === path) start--;
      let end = d + 1;
      while (end < chunks2.length && chunks2[end].file_path === path) end++;
      if (chunks2[start].language === "python") summariseRun(chunks2, start, end, summaries);
      done.fill(1, start, end);
    }
    return summaries[d];
  };
}
function summariseRun(chunks2, start, end, summaries) {
  const byClass = /* @__PURE__ */ new Map();
  for (let i = start; i < end; i++) {
    const { symbol, kind } = chunks2[i];
    if (kind !== "class" || symbol === "" || byClass.has(symbol)) continue;
    const match = CLASS_WITH_DOCSTRING.exec(chunks2[i].text);
    if (match && match[1] === lastPart(symbol)) byClass.set(symbol, summaryLine(match[3] ?? match[5]));
  }
  if (byClass.size === 0) return;
  for (let i = start; i < end; i++) {
    const { symbol } = chunks2[i];
    if (symbol === "") continue;
    const found = enclosingSummary(symbol, byClass);
    if (found && found.summary !== "" && !(found.self && CLASS_HEADER.test(chunks2[i].text))) summaries[i] = found.summary;
  }
}

// src/projects.ts
import { fileRunsOf } from "@rag/core";
var RELEASE_SUFFIX = /[-_.]v?\d+(\.\d+)*([-_.]?[a-z]+\d*)?$/i;
var WORD = /(?<![\w./-])[A-Za-z0-9][A-Za-z0-9_-]*(?![\w/-]|\.\w)/g;
var NO_PROJECTS = Object.freeze([]);
function normalName(name) {
  return name.toLowerCase().replaceAll("-", "_");
}
function projectNameOf(folder) {
  return normalName(folder.replace(RELEASE_SUFFIX, ""));
}
var CorpusProjects = class {
  /** Project names, index = project number − 1. */
  names;
  /** Per chunk its project number (1-based), 0 for none. */
  #projectOf;
  constructor(chunks2) {
    const folderOf = (path) => {
      const slash = path.indexOf("/");
      return slash < 0 ? void 0 : path.slice(0, slash);
    };
    const projects = /* @__PURE__ */ new Map();
    const names = [];
    const { starts, files } = fileRunsOf(chunks2);
    for (const { file_path } of files) {
      const folder = folderOf(file_path);
      if (folder === void 0 || projects.has(folder)) continue;
      const parts = file_path.split("/");
      if (parts.length < 3) continue;
      const name = projectNameOf(parts[0]);
      const packageDir = parts[1] === "src" && parts.length > 3 ? parts[2] : parts[1];
      if (name === "" || normalName(packageDir) !== name || !/\.pyi?$/.test(file_path)) continue;
      names.push(name);
      projects.set(parts[0], names.length);
    }
    this.names = names;
    this.#projectOf = new Uint16Array(chunks2.length);
    if (names.length > 0) {
      for (let r = 0; r < files.length; r++) {
        const folder = folderOf(files[r].file_path);
        const project = folder === void 0 ? 0 : projects.get(folder) ?? 0;
        if (project !== 0) this.#projectOf.fill(project, starts[r], starts[r + 1]);
      }
    }
  }
  /**
   * The projects `query` names and the query without their names. A project's name in a
   * question says where to look, not what to match: `requests` or `click` occurs all over
   * its own project's code and docs, so as a search word it lifts whatever repeats it most.
   * The name is left in place when it is all the question says, and when the question names
   * several projects.
   */
  scope(query) {
    if (this.names.length === 0) return { text: query, projects: NO_PROJECTS };
    const projects = [];
    const text = query.replace(WORD, (word) => {
      const p = this.names.indexOf(normalName(word)) + 1;
      if (p === 0) return word;
      if (!projects.includes(p)) projects.push(p);
      return " ";
    });
    if (projects.length === 0) return { text: query, projects: NO_PROJECTS };
    const keep = projects.length > 1 || !/[A-Za-z0-9]/.test(text);
    return { text: keep ? query : text, projects: projects.sort((a, b) => a - b) };
  }
  /** Each chunk's project number (0 for none), by chunk id: not to be written. */
  get chunkProjects() {
    return this.#projectOf;
  }
  /** Chunk `d`'s project number, 0 for none. */
  projectOf(d) {
    return this.#projectOf[d];
  }
};

// src/anchors.ts
var PROSE = /* @__PURE__ */ new Set(["markdown", "rst", "text"]);
var INLINE_CODE = /``?([^`\n]{1,120}?)``?/g;
var NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
var ANCHOR_LIMITS = Object.freeze({
  /** A name defined by more chunks than this (`__init__`, `forward`) says too little about which one a paragraph means. */
  maxDefinitions: 3,
  /** Longest paragraph carried (characters): past this a paragraph is about more than the name. */
  maxParagraph: 1200,
  /** Most anchor text one chunk collects (characters), so a name every page cites does not grow without bound. */
  maxPerChunk: 6e3
});
function mentionedName(code) {
  let text = code.trim();
  const target = /<([^<>]+)>$/.exec(text);
  if (target) text = target[1].trim();
  text = text.replace(/^[~!.]+/, "").replace(/\(\)$/, "");
  return NAME.test(text) ? text : void 0;
}
function lastPart2(symbol) {
  const dot = symbol.lastIndexOf(".");
  return dot < 0 ? symbol : symbol.slice(dot + 1);
}
function definitionsByName(chunks2) {
  const byName = /* @__PURE__ */ new Map();
  for (let i = 0; i < chunks2.length; i++) {
    const chunk = chunks2[i];
    if (PROSE.has(chunk.language) || chunk.symbol === "") continue;
    const name = lastPart2(chunk.symbol);
    const list = byName.get(name);
    if (list) list.push(i);
    else byName.set(name, [i]);
  }
  return byName;
}
function resolveMention(name, chunks2, byName) {
  const candidates = byName.get(lastPart2(name)) ?? [];
  if (name.includes(".")) {
    const qualified = candidates.filter((id) => {
      const chunk = chunks2[id];
      const module = chunk.file_path.replace(/\.pyi?$/, "").replaceAll("/", ".");
      const full = `${module}.${chunk.symbol}`;
      return full === name || full.endsWith(`.${name}`) || chunk.symbol === name || chunk.symbol.endsWith(`.${name}`);
    });
    if (qualified.length > 0) return qualified.length <= ANCHOR_LIMITS.maxDefinitions ? qualified : [];
  }
  return candidates.length <= ANCHOR_LIMITS.maxDefinitions ? candidates : [];
}
function anchorTexts(chunks2) {
  const anchors = new Array(chunks2.length).fill("");
  const byName = definitionsByName(chunks2);
  if (byName.size === 0) return anchors;
  const seen = new Array(chunks2.length);
  const projects = new CorpusProjects(chunks2);
  const scoped = projects.names.length >= 2 ? projects.chunkProjects : void 0;
  const scopedByName = /* @__PURE__ */ new Map();
  const byNameFor = (project) => {
    if (!scoped || project === 0) return byName;
    let map = scopedByName.get(project);
    if (!map) {
      map = /* @__PURE__ */ new Map();
      for (const [name, ids] of byName) {
        const own = ids.filter((id) => scoped[id] === project);
        if (own.length > 0) map.set(name, own);
      }
      scopedByName.set(project, map);
    }
    return map;
  };
  for (let c = 0; c < chunks2.length; c++) {
    const chunk = chunks2[c];
    if (!PROSE.has(chunk.language)) continue;
    const names = byNameFor(scoped ? scoped[c] : 0);
    for (const paragraph of chunk.text.split(/\n[ \t]*\n/)) {
      if (paragraph.length > ANCHOR_LIMITS.maxParagraph || !paragraph.includes("`")) continue;
      const targets = /* @__PURE__ */ new Set();
      for (const match of paragraph.matchAll(INLINE_CODE)) {
        const name = mentionedName(match[1]);
        if (name) for (const id of resolveMention(name, chunks2, names)) targets.add(id);
      }
      for (const id of targets) {
        const known = seen[id] ??= /* @__PURE__ */ new Set();
        if (known.has(paragraph)) continue;
        const addition = known.has(chunk.symbol) || chunk.symbol === "" ? paragraph : `${chunk.symbol}
${paragraph}`;
        if (anchors[id].length + addition.length > ANCHOR_LIMITS.maxPerChunk) continue;
        known.add(paragraph);
        known.add(chunk.symbol);
        anchors[id] = anchors[id] === "" ? addition : `${anchors[id]}
${addition}`;
      }
    }
  }
  return anchors;
}
function joinAnchor(text, summary) {
  return summary === "" ? text : text === "" ? summary : `${text}
${summary}`;
}
function anchorField(chunks2, context) {
  const anchors = context.anchors ? anchorTexts(chunks2) : void 0;
  const summaryOf = context.classSummaries ? lazyClassSummaries(chunks2) : void 0;
  return {
    hashes: hashAnchorTexts(anchors, chunks2.length),
    textOf: (d) => summaryOf ? joinAnchor(anchors?.[d] ?? "", summaryOf(d)) : anchors?.[d]
  };
}
function hashAnchorTexts(anchors, docCount) {
  const hashes = new Uint32Array(docCount * 2);
  for (let d = 0; d < docCount; d++) {
    const text = anchors?.[d] ?? "";
    let a = 2166136261;
    let b = 795761181;
    for (let i = 0; i < text.length; i++) {
      const unit2 = text.charCodeAt(i);
      a = Math.imul(a ^ unit2, 16777619);
      b = Math.imul(b ^ unit2, 16777619) ^ b >>> 15;
    }
    hashes[2 * d] = a >>> 0;
    hashes[2 * d + 1] = b >>> 0;
  }
  return hashes;
}

// src/options.ts
import { parseOptions, RagError, v } from "@rag/core";
import {
  DEFAULT_QUERY_OPTIONS,
  DEFAULT_TOKENIZER_OPTIONS,
  QUERY_SETTINGS_SCHEMA,
  TOKENIZER_SETTINGS_SCHEMA,
  withQueryDefaults,
  withTokenizerDefaults
} from "@rag/text";

// src/rerank/options.ts
var ANSWER_KINDS = Object.freeze(["default", "error", "where", "how", "list", "yesno", "value", "consequence", "mechanism", "explain"]);
var EVIDENCE_KINDS = Object.freeze(["default", "error", "list", "yesno", "value"]);
var DEFAULT_RERANK_OPTIONS = Object.freeze({
  depth: 50,
  proximity: 0.2,
  coverage: 0.2,
  proximityWindow: 3,
  modality: 0.1,
  auxiliaryFactor: 0.8,
  historyFactor: 0.8,
  descriptionFactor: 0.8,
  stubFactor: 0.5,
  definition: 0.3,
  explanation: 0.3,
  placeKinds: Object.freeze(["where"]),
  sectionSupport: 0.05,
  answerEvidence: Object.freeze({ default: 0.1, error: 0.2, list: 0, yesno: 0, value: 0 }),
  answerType: 0.2,
  dedupe: true,
  fileShare: 1,
  kindShare: 0.7,
  joinSpan: 2e3,
  projectFactor: 0.5
});

// src/options.ts
var DEFAULT_CONTEXT_OPTIONS = Object.freeze({ tableHeaders: true, anchors: true, classSummaries: true });
var DEFAULT_BM25_OPTIONS = Object.freeze({
  k1: 1.2,
  fields: Object.freeze({
    body: Object.freeze({ weight: 1, b: 0.75 }),
    path: Object.freeze({ weight: 1, b: 0.3 }),
    symbol: Object.freeze({ weight: 3, b: 0.3 }),
    anchor: Object.freeze({ weight: 0.5, b: 0.75 })
  }),
  tokenizer: DEFAULT_TOKENIZER_OPTIONS,
  query: DEFAULT_QUERY_OPTIONS,
  context: DEFAULT_CONTEXT_OPTIONS,
  rerank: DEFAULT_RERANK_OPTIONS
});
var weight = v.number().check(v.minimum(0), v.maximum(10));
var unit = v.number().check(v.minimum(0), v.maximum(1));
var FIELD_SCHEMA = v.strictObject({ weight: v.optional(v.number().check(v.minimum(0))), b: v.optional(unit) });
var RERANK_SCHEMA = v.strictObject({
  depth: v.optional(v.int().check(v.minimum(0))),
  proximity: v.optional(weight),
  coverage: v.optional(weight),
  proximityWindow: v.optional(v.int().check(v.minimum(1), v.maximum(50))),
  modality: v.optional(weight),
  auxiliaryFactor: v.optional(v.number().check(v.gt(0), v.maximum(1))),
  historyFactor: v.optional(v.number().check(v.gt(0), v.maximum(1))),
  descriptionFactor: v.optional(v.number().check(v.gt(0), v.maximum(1))),
  stubFactor: v.optional(v.number().check(v.gt(0), v.maximum(1))),
  definition: v.optional(weight),
  explanation: v.optional(weight),
  placeKinds: v.optional(v.array(v.enum(ANSWER_KINDS))),
  sectionSupport: v.optional(weight),
  answerEvidence: v.optional(v.strictObject({ default: v.optional(weight), error: v.optional(weight), list: v.optional(weight), yesno: v.optional(weight), value: v.optional(weight) })),
  answerType: v.optional(weight),
  dedupe: v.optional(v.boolean()),
  fileShare: v.optional(v.number().check(v.gt(0), v.maximum(1))),
  kindShare: v.optional(v.number().check(v.gt(0), v.maximum(1))),
  joinSpan: v.optional(v.int().check(v.minimum(0), v.maximum(1e6))),
  projectFactor: v.optional(v.number().check(v.gt(0), v.maximum(1)))
});
var BM25_SETTINGS_SCHEMA = v.strictObject({
  k1: v.optional(v.number().check(v.gt(0))),
  b: v.optional(unit),
  fields: v.optional(v.strictObject({ body: v.optional(FIELD_SCHEMA), path: v.optional(FIELD_SCHEMA), symbol: v.optional(FIELD_SCHEMA), anchor: v.optional(FIELD_SCHEMA) })),
  tokenizer: v.optional(TOKENIZER_SETTINGS_SCHEMA),
  query: v.optional(QUERY_SETTINGS_SCHEMA),
  context: v.optional(v.strictObject({ tableHeaders: v.optional(v.boolean()), anchors: v.optional(v.boolean()), classSummaries: v.optional(v.boolean()) })),
  rerank: v.optional(RERANK_SCHEMA)
});

// ../../.bench/anch.ts
var loaded = await readIndex(process.argv[2]);
var chunks = loaded.chunks.map((c) => ({ ...c, text: c.text }));
var t = (label, f) => {
  const s = performance.now();
  const r = f();
  console.log(label, (performance.now() - s).toFixed(1));
  return r;
};
for (let i = 0; i < Number(process.argv[3] ?? 4); i++) {
  t("projects", () => new CorpusProjects(chunks));
  const a = t("anchorTexts", () => anchorTexts(chunks));
  t("hash", () => hashAnchorTexts(a, chunks.length));
  t("anchorField", () => anchorField(chunks, DEFAULT_BM25_OPTIONS.context));
  if (i === 0) console.log("anchor chars", a.reduce((s, x) => s + x.length, 0), "targets", a.filter((x) => x).length);
}
