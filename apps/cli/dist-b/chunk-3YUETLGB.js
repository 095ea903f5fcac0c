#!/usr/bin/env node
import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);
import {
  PROSE_FLAG,
  PROSE_LANGUAGES,
  RagError,
  codePointLength,
  external_exports,
  integerIn,
  optionError,
  parseOptions,
  proseFlags,
  selectHits,
  writeFileAtomic
} from "./chunk-4AD4YNFC.js";

// ../../packages/text/dist/chunk-SBLMXTP6.js
var NON_ASCII_WORD = /^[\p{L}\p{N}\p{M}]$/u;
var NON_ASCII_LETTER = /^[\p{L}\p{M}]$/u;
var DOT = 46;
var DASH = 45;
var SLASH = 47;
function isAsciiLetter(c) {
  return c >= 97 && c <= 122 || c >= 65 && c <= 90;
}
function versionTail(text, start, end) {
  const c = text.charCodeAt(end);
  if (c !== SLASH && c !== DASH || end - start < 2) return 0;
  for (let i = start; i < end; i++) if (!isAsciiLetter(text.charCodeAt(i))) return 0;
  let j = end + 1;
  while (j < text.length && j - end - 1 < 3 && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j++;
  const digits = j - end - 1;
  if (digits < 1 || digits > 2) return 0;
  if (j < text.length && (wordWidth(text, j, false) > 0 || text.charCodeAt(j) === DOT && j + 1 < text.length && wordWidth(text, j + 1, false) > 0)) return 0;
  return 1 + digits;
}
var WORD = 1;
var LETTER = 2;
var ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const letter = c >= 97 && c <= 122 || c >= 65 && c <= 90;
  if (letter || c >= 48 && c <= 57 || c === 95) ASCII_CLASS[c] = WORD | (letter ? LETTER : 0);
}
function wordWidth(text, i, letterOnly) {
  const c = text.charCodeAt(i);
  if (c < 128) return ASCII_CLASS[c] & (letterOnly ? LETTER : WORD) ? 1 : 0;
  const pattern = letterOnly ? NON_ASCII_LETTER : NON_ASCII_WORD;
  if (c >= 55296 && c <= 56319 && i + 1 < text.length) {
    const pair = text.slice(i, i + 2);
    return pattern.test(pair) ? 2 : 0;
  }
  return pattern.test(text[i]) ? 1 : 0;
}
function forEachSegmentRange(text, visit) {
  const n = text.length;
  let i = 0;
  while (i < n) {
    const first = wordWidth(text, i, false);
    if (first === 0) {
      i++;
      continue;
    }
    const start = i;
    i += first;
    for (; ; ) {
      let width;
      while (i < n && (width = wordWidth(text, i, false)) > 0) i += width;
      const c = text.charCodeAt(i);
      if (i + 1 < n && (c === DOT || c === DASH) && wordWidth(text, i + 1, c === DASH) > 0) {
        i++;
        continue;
      }
      break;
    }
    i += versionTail(text, start, i);
    visit(start, i);
  }
}
function forEachSegment(text, visit) {
  forEachSegmentRange(text, (start, end) => visit(text.slice(start, end)));
}
var MIN_STEM = 3;
var MIN_DOUBLE_L_STEM = 6;
function isLowerAscii(word) {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c < 97 || c > 122) return false;
  }
  return true;
}
function isVowel(c) {
  return c === "a" || c === "e" || c === "i" || c === "o" || c === "u" || c === "y";
}
function hasVowel(word) {
  for (let i = 0; i < word.length; i++) if (isVowel(word[i])) return true;
  return false;
}
function undouble(word) {
  const last = word[word.length - 1];
  if (word.length > MIN_STEM && last === word[word.length - 2] && last !== void 0 && "bdgmnprt".includes(last)) {
    return word.slice(0, -1);
  }
  return word;
}
function stripPlural(word) {
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith("sses")) return word.slice(0, -2);
  if (word.endsWith("es") && word.length - 2 >= MIN_STEM) {
    const before = word.slice(0, -2);
    if (/(?:[sxz]|ch|sh)$/.test(before)) return before;
  }
  if (word.endsWith("s") && !/(?:ss|us|is|as)$/.test(word)) return word.slice(0, -1);
  return word;
}
function stripVerbSuffix(word) {
  if (word.endsWith("ied") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith("ing")) {
    const stem = word.slice(0, -3);
    if (stem.length >= MIN_STEM && hasVowel(stem)) return undouble(stem);
    return word;
  }
  if (word.endsWith("ed") && !word.endsWith("eed")) {
    const stem = word.slice(0, -2);
    if (stem.length >= MIN_STEM + 1 && hasVowel(stem)) return undouble(stem);
  }
  return word;
}
function americanize(word) {
  const ise = /^([a-z]{3,})is(e|es|ed|ing|ation|ations|er|ers|able)$/.exec(word);
  if (ise) return `${ise[1]}iz${ise[2]}`;
  const yse = /^([a-z]{2,})ys(e|es|ed|ing|er|ers)$/.exec(word);
  if (yse) return `${yse[1]}yz${yse[2]}`;
  const our = /^([a-z]{2,}[^aeou])our(s|ed|ing|ite|ites|able|al)?$/.exec(word);
  if (our && word.length >= 6) return `${our[1]}or${our[2] ?? ""}`;
  return word;
}
function stemWord(word) {
  if (word.length <= MIN_STEM || !isLowerAscii(word)) return word;
  let stem = stripVerbSuffix(stripPlural(americanize(word)));
  if (stem.endsWith("e") && stem.length > MIN_STEM) stem = stem.slice(0, -1);
  if (stem.endsWith("ical") && stem.length >= 7) stem = stem.slice(0, -2);
  if (stem.length >= MIN_DOUBLE_L_STEM && stem.endsWith("ll")) stem = stem.slice(0, -1);
  return stem;
}
function foldDerivation(stem) {
  if (stem.endsWith("ification")) return `${stem.slice(0, -9)}ify`;
  if (stem.endsWith("ization")) return stem.slice(0, -5);
  if (stem.endsWith("ation") && stem.length - 5 >= 5) stem = stem.slice(0, -5);
  else if (stem.endsWith("at") && stem.length - 2 >= 5) stem = stem.slice(0, -2);
  return stem;
}
var UPPER = 1;
var LOWER = 2;
var DIGIT = 3;
var OTHER = 4;
var UNDERSCORE = 95;
var VERSIONED = /^([A-Za-z]{2,})[/-](\d{1,2})$/;
var DASH2 = 45;
var NON_ASCII_UPPER = new RegExp("^\\p{Lu}$", "u");
var NON_ASCII_LOWER = new RegExp("^\\p{Ll}$", "u");
function classify(word, i) {
  const c = word.charCodeAt(i);
  if (c >= 97 && c <= 122) return LOWER;
  if (c >= 65 && c <= 90) return UPPER;
  if (c >= 48 && c <= 57) return DIGIT;
  if (c < 128) return OTHER;
  const ch = word[i];
  if (NON_ASCII_UPPER.test(ch)) return UPPER;
  if (NON_ASCII_LOWER.test(ch)) return LOWER;
  return OTHER;
}
function splitCase(piece, splitDigits, out) {
  let start = 0;
  let prev = classify(piece, 0);
  for (let i = 1; i < piece.length; i++) {
    const cur = classify(piece, i);
    let cut2 = -1;
    if (cur === UPPER && (prev === LOWER || prev === DIGIT)) cut2 = i;
    else if (cur === LOWER && prev === UPPER && i - 2 >= start && classify(piece, i - 2) === UPPER && i + 1 < piece.length && classify(piece, i + 1) === LOWER) {
      cut2 = i - 1;
    } else if (splitDigits && cur === DIGIT !== (prev === DIGIT) && cur !== OTHER && prev !== OTHER) cut2 = i;
    if (cut2 > start) {
      out.push(piece.slice(start, cut2));
      start = cut2;
    }
    prev = cur;
  }
  out.push(piece.slice(start));
}
function singularAcronym(word) {
  const last = word.length - 1;
  if (last < 2 || word.charCodeAt(last) !== 115) return word;
  for (let i = 0; i < last; i++) if (classify(word, i) !== UPPER) return word;
  return word.slice(0, last);
}
function isAscii(text) {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) return false;
  return true;
}
function splitPieces(identifier) {
  const pieces = [];
  let start = 0;
  for (let i = 0; i <= identifier.length; i++) {
    const c = i < identifier.length ? identifier.charCodeAt(i) : UNDERSCORE;
    if (c === UNDERSCORE || c === DASH2) {
      if (i > start) pieces.push(identifier.slice(start, i));
      start = i + 1;
    }
  }
  return pieces;
}
function isPlainLower(word, digits) {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (!(c >= 97 && c <= 122 || digits && c >= 48 && c <= 57)) return false;
  }
  return true;
}
var SegmentExpander = class {
  #options;
  /** The options' stopwords and the extra ones, as one set: looked up for every word. */
  #stopwords;
  #memo;
  #memoLimit;
  constructor(options, expanderOptions = {}) {
    this.#options = options;
    this.#stopwords = /* @__PURE__ */ new Set([...options.stopwords, ...expanderOptions.extraStopwords ?? []]);
    this.#memo = expanderOptions.memoize ? /* @__PURE__ */ new Map() : void 0;
    this.#memoLimit = expanderOptions.memoLimit ?? Number.POSITIVE_INFINITY;
  }
  #fitsLength(term) {
    return term.length >= this.#options.minTokenLength && term.length <= this.#options.maxTokenLength;
  }
  /** A plain word or sub-word after the stoplists and the stemmer, or undefined when dropped. */
  #wordTerm(word) {
    const options = this.#options;
    if (!this.#fitsLength(word)) return void 0;
    if (this.#stopwords.has(word)) return void 0;
    if (!options.stem) return word;
    const stem = stemWord(word);
    return options.derivations ? foldDerivation(stem) : stem;
  }
  /** Lowercase form of a plain word or sub-word, singular when stemming and it is an acronym plural. */
  #plainForm(word) {
    return (this.#options.stem ? singularAcronym(word) : word).toLowerCase();
  }
  #analyse(identifier) {
    const cached = this.#memo?.get(identifier);
    if (cached) return cached;
    const analysed = this.#analyseUncached(identifier);
    if (this.#memo) {
      if (this.#memo.size >= this.#memoLimit) this.#memo.clear();
      this.#memo.set(identifier, analysed);
    }
    return analysed;
  }
  /**
   * A whole identifier is kept verbatim (lowercased), never stopped or stemmed; its
   * sub-words, like plain words, go through the stoplists and the stemmer.
   */
  #analyseUncached(identifier) {
    const terms = [];
    const single = (word, whole2) => {
      const term = this.#wordTerm(word);
      if (term !== void 0) terms.push(term);
      return { whole: whole2, terms, firstSubword: terms.length };
    };
    if (isPlainLower(identifier, !this.#options.splitDigits)) return single(identifier, identifier);
    const pieces = splitPieces(identifier);
    if (pieces.length === 0) return { whole: "", terms, firstSubword: 0 };
    const whole = pieces.join("_").toLowerCase();
    const subwords = [];
    for (const piece of pieces) splitCase(piece, this.#options.splitDigits, subwords);
    if (subwords.length === 1) return single(this.#plainForm(subwords[0]), whole);
    if (this.#fitsLength(whole)) terms.push(whole);
    const firstSubword = terms.length;
    if (this.#options.splitIdentifiers) {
      for (const subword of subwords) {
        const term = this.#wordTerm(this.#plainForm(subword));
        if (term !== void 0) terms.push(term);
      }
    }
    return { whole, terms, firstSubword };
  }
  #emitAll({ terms, firstSubword }, emit) {
    for (let i = 0; i < terms.length; i++) emit(terms[i], i >= firstSubword);
  }
  /** Emits the terms of one segment as produced by `forEachSegment`. */
  expand(raw, emit) {
    const versioned = VERSIONED.exec(raw);
    if (versioned) {
      const joined = `${versioned[1]}${versioned[2]}`.toLowerCase();
      if (this.#fitsLength(joined)) emit(joined, false);
      this.expand(versioned[1], emit);
      return;
    }
    const segment = isAscii(raw) ? raw : raw.normalize("NFKC");
    if (!segment.includes(".")) {
      this.#emitAll(this.#analyse(segment), emit);
      return;
    }
    const parts = segment.split(".").map((part) => this.#analyse(part));
    if (this.#options.dottedNames) {
      const wholes = parts.map((part) => part.whole).filter((whole) => whole.length > 0);
      const dotted = wholes.join(".");
      if (wholes.length > 1 && this.#fitsLength(dotted)) emit(dotted, false);
    }
    for (const part of parts) this.#emitAll(part, emit);
  }
};

// ../../packages/text/dist/index.js
var DEFAULT_ABBREVIATIONS = Object.freeze({
  number: ["num"],
  maximum: ["max"],
  minimum: ["min"],
  sequenc: ["seq"],
  length: ["len"],
  configuration: ["config", "cfg"],
  argument: ["arg"],
  parameter: ["param"],
  attention: ["attn"],
  temperatur: ["temp"],
  probability: ["prob"],
  position: ["pos"],
  previous: ["prev"],
  directory: ["dir"],
  dimension: ["dim"],
  environment: ["env", "environ"],
  request: ["req"],
  respons: ["resp"],
  messag: ["msg"],
  buffer: ["buf"],
  context: ["ctx"],
  implementation: ["impl"],
  information: ["info"],
  utility: ["util"],
  allocation: ["alloc"],
  allocat: ["alloc"],
  specification: ["spec"],
  expression: ["expr"],
  temporary: ["tmp"],
  initializ: ["init"],
  quantization: ["quant"],
  statistic: ["stat"],
  authentication: ["auth"],
  authorization: ["auth"],
  application: ["app"],
  databas: ["db"],
  document: ["doc"],
  exception: ["exc"],
  execut: ["exec"],
  function: ["func", "fn"],
  index: ["idx"],
  library: ["lib"],
  object: ["obj"],
  packag: ["pkg"],
  referenc: ["ref"],
  repository: ["repo"],
  sourc: ["src"],
  destination: ["dst", "dest"],
  string: ["str"],
  synchronous: ["sync"],
  asynchronous: ["async"],
  valu: ["val"],
  variabl: ["var"],
  command: ["cmd"],
  generat: ["gen"],
  calculat: ["calc"],
  current: ["cur", "curr"],
  imag: ["img"],
  vocabulary: ["vocab"],
  operation: ["op"],
  optimization: ["opt"],
  option: ["opt"],
  property: ["prop"],
  attribut: ["attr"],
  address: ["addr"],
  averag: ["avg"],
  boolean: ["bool"],
  character: ["char"],
  column: ["col"],
  connection: ["conn"],
  description: ["desc"],
  dictionary: ["dict"],
  distribut: ["dist"],
  element: ["elem"],
  encod: ["enc"],
  extension: ["ext"],
  frequency: ["freq"],
  integer: ["int"],
  languag: ["lang"],
  manager: ["mgr"],
  memory: ["mem"],
  miscellaneous: ["misc"],
  original: ["orig"],
  pointer: ["ptr"],
  precision: ["prec"],
  process: ["proc"],
  random: ["rand"],
  receiv: ["recv"],
  register: ["reg"],
  schedul: ["sched"],
  segment: ["seg"],
  separator: ["sep"],
  standard: ["std"],
  system: ["sys"],
  templat: ["tmpl"],
  threshold: ["thresh"],
  transaction: ["txn"],
  gradient: ["grad"],
  normalization: ["norm"],
  featur: ["feat"],
  millisecond: ["ms"],
  timestamp: ["ts"],
  error: ["err"],
  multipl: ["multi"],
  identifier: ["id"]
});
var DEFAULT_ALIASES = Object.freeze({
  constructor: "init",
  initializer: "init",
  initialization: "init",
  initializ: "init",
  destructor: "del",
  iterator: "iter"
});
var DEFAULT_QUESTION_WORDS = Object.freeze(
  `explain explains describe describes tell show give please
   mean means meaning purpose happen happens happened
   exactly specifically particular`.split(/\s+/).filter((word) => word.length > 0)
);
var DEFAULT_STOPWORDS = Object.freeze(
  `a an the and or but nor so yet if then than else
   i me my mine myself we us our ours ourselves you your yours yourself yourselves
   he him his himself she her hers herself it its itself they them their theirs themselves
   this that these those there here
   am is are was were be been being have has had having do does did doing done
   will would shall should can could may might must
   of at by for with about against between into through during to from in on onto upon
   as via per
   what which who whom whose where when why how
   also just very too such some other same own both either neither
   whether while until because although though since unless
   s t d ll m re ve don doesn didn isn aren wasn weren hasn haven hadn won wouldn shouldn couldn`.split(/\s+/).filter((word) => word.length > 0)
);
var DEFAULT_TOKENIZER_OPTIONS = Object.freeze({
  splitIdentifiers: true,
  splitDigits: false,
  dottedNames: true,
  stopwords: DEFAULT_STOPWORDS,
  stem: true,
  derivations: false,
  minTokenLength: 2,
  maxTokenLength: 64
});
var DEFAULT_QUERY_OPTIONS = Object.freeze({
  questionWords: DEFAULT_QUESTION_WORDS,
  subwordWeight: 1,
  aliases: DEFAULT_ALIASES,
  abbreviations: DEFAULT_ABBREVIATIONS,
  abbreviationWeight: 0.5
});
var unit = external_exports.number().min(0).max(1);
var count = external_exports.number().int().min(1);
var words = external_exports.array(external_exports.string()).readonly();
var TOKENIZER_SETTINGS_SCHEMA = external_exports.strictObject({
  splitIdentifiers: external_exports.boolean().optional(),
  splitDigits: external_exports.boolean().optional(),
  dottedNames: external_exports.boolean().optional(),
  stopwords: words.optional(),
  stem: external_exports.boolean().optional(),
  derivations: external_exports.boolean().optional(),
  minTokenLength: count.optional(),
  maxTokenLength: count.optional()
}).refine((s) => (s.maxTokenLength ?? Math.max(DEFAULT_TOKENIZER_OPTIONS.maxTokenLength, s.minTokenLength ?? 0)) >= (s.minTokenLength ?? DEFAULT_TOKENIZER_OPTIONS.minTokenLength), {
  message: "an integer \u2265 minTokenLength",
  path: ["maxTokenLength"]
});
var QUERY_SETTINGS_SCHEMA = external_exports.strictObject({
  questionWords: words.optional(),
  subwordWeight: unit.optional(),
  aliases: external_exports.record(external_exports.string(), external_exports.string()).optional(),
  abbreviations: external_exports.record(external_exports.string(), words).optional(),
  abbreviationWeight: unit.optional()
});
function withTokenizerDefaults(settings) {
  const d = DEFAULT_TOKENIZER_OPTIONS;
  const minTokenLength = settings.minTokenLength ?? d.minTokenLength;
  return {
    splitIdentifiers: settings.splitIdentifiers ?? d.splitIdentifiers,
    splitDigits: settings.splitDigits ?? d.splitDigits,
    dottedNames: settings.dottedNames ?? d.dottedNames,
    stopwords: settings.stopwords ?? d.stopwords,
    stem: settings.stem ?? d.stem,
    derivations: settings.derivations ?? d.derivations,
    minTokenLength,
    maxTokenLength: settings.maxTokenLength ?? Math.max(d.maxTokenLength, minTokenLength)
  };
}
function withQueryDefaults(settings) {
  const d = DEFAULT_QUERY_OPTIONS;
  return {
    questionWords: settings.questionWords ?? d.questionWords,
    subwordWeight: settings.subwordWeight ?? d.subwordWeight,
    aliases: settings.aliases ?? d.aliases,
    abbreviations: settings.abbreviations ?? d.abbreviations,
    abbreviationWeight: settings.abbreviationWeight ?? d.abbreviationWeight
  };
}
function resolveTokenizerOptions(settings = {}) {
  return withTokenizerDefaults(parseOptions(TOKENIZER_SETTINGS_SCHEMA, settings, { subject: "tokenizer", root: "tokenizer" }));
}
function resolveQueryOptions(settings = {}) {
  return withQueryDefaults(parseOptions(QUERY_SETTINGS_SCHEMA, settings, { subject: "query", root: "query" }));
}
var sharedExpander;
var sharedQueryTokenizer;
var SHARED_MEMO_LIMIT = 5e4;
var QUERY_MEMO_LIMIT = 5e3;
function defaultExpander() {
  return sharedExpander ??= new SegmentExpander(resolveTokenizerOptions({}), { memoize: true, memoLimit: SHARED_MEMO_LIMIT });
}
function tokenize(text, options = {}) {
  const expander = Object.keys(options).length === 0 ? defaultExpander() : new SegmentExpander(resolveTokenizerOptions(options));
  const terms = [];
  const emit = (term) => {
    terms.push(term);
  };
  forEachSegment(text, (segment) => expander.expand(segment, emit));
  return terms;
}
function createQueryTokenizer(tokenizer, query) {
  const expander = new SegmentExpander(tokenizer, { extraStopwords: query.questionWords, memoize: true, memoLimit: QUERY_MEMO_LIMIT });
  const aliases = new Map(Object.entries(query.aliases));
  const abbreviations = new Map(Object.entries(query.abbreviations));
  return (text) => {
    const seen = /* @__PURE__ */ new Map();
    const emit = (term, isSubword) => {
      const weight2 = isSubword ? query.subwordWeight : 1;
      const entry = seen.get(term);
      if (entry) {
        entry.count++;
        entry.weight = Math.max(entry.weight, weight2);
      } else {
        seen.set(term, { count: 1, weight: weight2 });
      }
    };
    forEachSegment(text, (segment) => expander.expand(segment, emit));
    if (aliases.size > 0) {
      for (const term of [...seen.keys()]) {
        const alias = aliases.get(term);
        if (alias !== void 0 && !seen.has(alias)) seen.set(alias, { count: 1, weight: 1 });
      }
    }
    if (query.abbreviationWeight > 0) {
      for (const term of [...seen.keys()]) {
        const weight2 = query.abbreviationWeight * (seen.get(term)?.weight ?? 0);
        for (const short of abbreviations.get(term) ?? []) {
          if (!seen.has(short) && weight2 > 0) seen.set(short, { count: 1, weight: weight2, expansion: true });
        }
      }
    }
    const terms = [];
    for (const [term, { count: count22, weight: weight2, expansion }] of seen) {
      if (weight2 > 0) terms.push(expansion ? { term, weight: weight2 * (1 + Math.log(count22)), expansion } : { term, weight: weight2 * (1 + Math.log(count22)) });
    }
    return terms;
  };
}
function tokenizeQuery(text, options = {}) {
  if (options.tokenizer === void 0 && options.query === void 0) {
    sharedQueryTokenizer ??= createQueryTokenizer(resolveTokenizerOptions({}), resolveQueryOptions({}));
    return sharedQueryTokenizer(text);
  }
  const tokenizer = resolveTokenizerOptions(options.tokenizer ?? {});
  const query = resolveQueryOptions(options.query ?? {});
  return createQueryTokenizer(tokenizer, query)(text);
}
function identifierTerm(identifier) {
  return identifier.split(/[-_]+/).filter((piece) => piece.length > 0).join("_").toLowerCase();
}
var INNER_SEPARATOR = /[A-Za-z0-9][_-][A-Za-z0-9]/;
var CAMEL = /[a-z0-9][A-Z]|[A-Z]{2}[a-z]/;
function isIdentifierSpelling(part) {
  return INNER_SEPARATOR.test(part) || CAMEL.test(part);
}
function hasInnerSeparator(name) {
  return INNER_SEPARATOR.test(name);
}
var ASSIGNMENT = /[ \t]*(?::[^=\n]{0,80})?=(?!=)/y;
var COLON = /[ \t]*:/y;
function isWordUnit(unit22) {
  return unit22 >= 97 && unit22 <= 122 || unit22 >= 48 && unit22 <= 57 || unit22 === 95 || unit22 >= 65 && unit22 <= 90;
}
function startsLine(text, index) {
  for (let i = index - 1; i >= 0; i--) {
    const unit22 = text.charCodeAt(i);
    if (unit22 === 10) return true;
    if (unit22 !== 32 && unit22 !== 9) return false;
  }
  return true;
}
function definedAt(text, start, end) {
  const before = text.charCodeAt(start - 1);
  const quoted = (before === 34 || before === 39) && text.charCodeAt(end) === before;
  if (quoted) {
    COLON.lastIndex = end + 1;
    return COLON.test(text);
  }
  ASSIGNMENT.lastIndex = end;
  if (ASSIGNMENT.test(text)) return true;
  if (followsDefOrClass(text, start)) return true;
  COLON.lastIndex = end;
  return startsLine(text, start) && COLON.test(text);
}
function followsDefOrClass(text, start) {
  let i = start;
  while (i > 0 && (text.charCodeAt(i - 1) === 32 || text.charCodeAt(i - 1) === 9)) i--;
  if (i === start) return false;
  for (const keyword of ["def", "class"]) {
    const from = i - keyword.length;
    if (from >= 0 && text.startsWith(keyword, from) && (from === 0 || !isWordUnit(text.charCodeAt(from - 1)))) return true;
  }
  return false;
}
function insideCodeSpan(lowered, start) {
  let runs = 0;
  for (let i = start - 1; i >= 0; i--) {
    const unit22 = lowered.charCodeAt(i);
    if (unit22 === 10) break;
    if (unit22 === 96 && lowered.charCodeAt(i + 1) !== 96) runs++;
  }
  return runs % 2 === 1;
}
function separatedNamesIn(text, mode) {
  const names = /* @__PURE__ */ new Set();
  let lowered;
  const length = text.length;
  for (let underscore = text.indexOf("_"); underscore >= 0; ) {
    let start = underscore;
    while (start > 0 && isWordUnit(text.charCodeAt(start - 1))) start--;
    let end = underscore + 1;
    while (end < length && isWordUnit(text.charCodeAt(end))) end++;
    underscore = text.indexOf("_", end);
    let first = start;
    let last = end;
    while (first < last && text.charCodeAt(first) === 95) first++;
    while (last > first && text.charCodeAt(last - 1) === 95) last--;
    const inner = text.indexOf("_", first);
    if (inner < 0 || inner >= last) continue;
    const name = text.slice(first, last).toLowerCase();
    if (names.has(name)) continue;
    const found = mode === "defines" ? definedAt(text, start, end) : insideCodeSpan(lowered ??= text.toLowerCase(), start);
    if (found) names.add(name);
  }
  return names;
}
var LINE_ASSIGNED = /^\s*(?:self\.)?([A-Za-z_]\w*)\s*(?::[^=]+)?=(?!=)/;
var LINE_DEFINED = /^\s*(?:async\s+)?(?:def|class)\s+([A-Za-z_]\w*)/;
var LINE_PARAMETER = /[(,]\s*([A-Za-z_]\w*)\s*(?::\s*[^=,()]+(?:\[[^\]]*\])?)?\s*=(?!=)/g;
function definedNames(line) {
  const names = [];
  const assigned = LINE_ASSIGNED.exec(line)?.[1];
  if (assigned) names.push(assigned);
  const defined = LINE_DEFINED.exec(line)?.[1];
  if (defined) names.push(defined);
  for (const match of line.matchAll(LINE_PARAMETER)) names.push(match[1]);
  return names.map((n) => n.toLowerCase());
}
function cut(text, max) {
  return text.length <= max ? text : `${text.slice(0, Math.max(1, max - 1))}\u2026`;
}
function matchLines(text, query, options = {}) {
  const context = options.context ?? 1;
  const maxLineLength = options.maxLineLength ?? 160;
  const terms = new Set(tokenizeQuery(query).map((t) => t.term));
  if (terms.size === 0) return [];
  const lines = text.split("\n");
  const counts = lines.map((line) => new Set(tokenize(line).filter((term) => terms.has(term))).size);
  let best2 = -1;
  for (let i = 0; i < lines.length; i++) if (counts[i] > 0 && (best2 < 0 || counts[i] > counts[best2])) best2 = i;
  if (best2 < 0) return [];
  const shown = [];
  for (let i = Math.max(0, best2 - context); i <= Math.min(lines.length - 1, best2 + context); i++) {
    shown.push({ line: i, text: cut(lines[i].replace(/\s+$/, ""), maxLineLength), matches: counts[i] > 0 });
  }
  return shown;
}
function markTerms(line, query, mark) {
  const terms = new Set(tokenizeQuery(query).map((t) => t.term));
  if (terms.size === 0) return line;
  return line.replace(/[\p{L}\p{N}_][\p{L}\p{N}_.-]*[\p{L}\p{N}_]|[\p{L}\p{N}_]/gu, (word) => tokenize(word).some((term) => terms.has(term)) ? mark(word) : word);
}
var QUESTION_KIND_RULES = Object.freeze([
  {
    kind: "default",
    question: /\bdefaults?\b|\bdefault(ed)? (value|setting)\b|\bwhen (it is |they are )?(omitted|absent|missing|not (given|set|specified|provided|passed))\b|\bif (it is |they are )?(omitted|absent|missing|not (given|set|specified|provided|passed))\b/i
  },
  {
    kind: "how",
    question: /^\s*how (do|can|should|would|could) (i|we|you|one|users?)\b|^\s*how to\b|\b(steps|command|commands) (to|for)\b|^\s*what (do|should|must|can) (i|we|you|one) (add|put|write|run|set|use|pass|call|install|type|change)\b/i
  },
  { kind: "error", question: /\b(exceptions?|errors?|raises?|raised|throws?|thrown|fails?|failure|rejected|refused)\b/i },
  {
    kind: "where",
    question: /^\s*where\b|\bin which (file|module|class|function|method|package)\b|\bwhich (file|module|class|function|method) (defines|implements|contains|handles|holds|sets)\b/i
  },
  { kind: "yesno", question: /^\s*(is|are|can|could|does|do|did|should|may|will|must|has|have)\b/i },
  {
    kind: "list",
    question: /\b(supported|available|allowed|accepted|valid|possible)\b|^\s*(list|name)\b|^\s*(which|what)\s+(\w+\s+){0,2}(options|values|formats|types|kinds|modes|backends|methods|platforms|architectures|flags|variables|fields|parameters|arguments|strings|answers|versions)\b/i
  },
  {
    kind: "value",
    question: /^\s*what (is|are) the (\w+\s+){0,3}(value|size|number|length|limit|type|unit|name|format|path|port|version|timeout|rate|width|threshold|shape)s?\b|\bhow (many|much|long|large|big|often|wide)\b/i
  }
]);
var LEADING_CLAUSE = /^\s*(in|with|for|using|on|inside|within|from|under|when using|after|before|during|once)\b[^,?]{0,60},\s*/i;
function detectAnswerKind(question) {
  const asked = question.replace(LEADING_CLAUSE, "");
  for (const rule of QUESTION_KIND_RULES) if (rule.question.test(asked)) return rule.kind;
  return "explain";
}
var ASSIGNS = /(^|[\s(,])[A-Za-z_][\w.]*\s*(:\s*[^=\n]{1,60})?=(?!=)\s*[^\s=]/;
var FALLBACK = /\b(get|getattr|pop|setdefault|getenv)\(\s*[^()]+,\s*[^()]+\)/;
var LITERAL_VALUE = /=(?!=)\s*(-?\d|["'[({]|None\b|True\b|False\b)/;
var RAISES = /\b(raise|except)\b/;
var SEQUENCE_LITERAL = /[[({]\s*("[^"]*"|'[^']*'|[\w.]+)\s*,\s*("[^"]*"|'[^']*'|[\w.]+)/;
var CONDITION = /\b(if not|raise|assert)\b/;
function codeCarriesKind(code, kind) {
  switch (kind) {
    case "default":
      return ASSIGNS.test(code) || FALLBACK.test(code);
    case "error":
      return RAISES.test(code);
    case "list":
      return SEQUENCE_LITERAL.test(code);
    case "yesno":
      return CONDITION.test(code);
    case "value":
      return LITERAL_VALUE.test(code);
    default:
      return false;
  }
}

// ../../packages/models/dist/index.js
import { homedir } from "os";
import { join, resolve } from "path";
import { existsSync, readFileSync, statSync } from "fs";
import { isAbsolute, join as join2, resolve as resolve2 } from "path";
import { createHash } from "crypto";
import { readFile } from "fs/promises";
import { join as join3 } from "path";
var MODEL_DTYPES = ["q4", "q8", "fp32", "fp16", "int8", "uint8", "q4f16", "bnb4"];
var MODEL_DTYPE_FILE_SUFFIX = Object.freeze({
  fp32: "",
  fp16: "_fp16",
  q8: "_quantized",
  int8: "_int8",
  uint8: "_uint8",
  q4: "_q4",
  q4f16: "_q4f16",
  bnb4: "_bnb4"
});
var OFFLINE_ENV_VARS = ["HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "RAG_OFFLINE"];
function isTruthyFlag(value) {
  return value !== void 0 && ["1", "true", "yes"].includes(value.toLowerCase());
}
function downloadsAllowedByEnvironment(env = process.env) {
  return !OFFLINE_ENV_VARS.some((name) => isTruthyFlag(env[name]));
}
function defaultCacheDir(env = process.env) {
  return resolve(env.RAG_CACHE_DIR ?? join(homedir(), ".cache", "rag"));
}
var DEFAULT_MODEL_CACHE_DIR = join(defaultCacheDir(), "models");
var DEFAULT_REMOTE_HOST = "https://huggingface.co/";
var DEFAULT_DOWNLOAD_CHECK_TIMEOUT_MS = 1e4;
var REQUIRED_MODEL_FILES = ["config.json", "tokenizer.json", "tokenizer_config.json"];
var GENERIC_ADVICE = "pass a model folder holding config.json, tokenizer.json, tokenizer_config.json and onnx/model*.onnx (modelDir), copied from a machine where the model downloaded.";
function onnxFile(dtype) {
  return join2("onnx", `model${MODEL_DTYPE_FILE_SUFFIX[dtype]}.onnx`);
}
function isHubModelId(name) {
  return /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/.test(name) && !name.includes("..") && !name.includes("--");
}
function readConfig(dir) {
  try {
    return JSON.parse(readFileSync(join2(dir, "config.json"), "utf8"));
  } catch {
    return void 0;
  }
}
function externalDataFiles(config, dtype) {
  const jsConfig = config?.["transformers.js_config"];
  const base = `model${MODEL_DTYPE_FILE_SUFFIX[dtype]}.onnx`;
  const spec = jsConfig?.use_external_data_format;
  const value = spec && typeof spec === "object" ? spec[base] : spec;
  if (value === true) return [join2("onnx", `${base}_data`)];
  if (typeof value === "number" && value > 0) {
    return Array.from({ length: value }, (_, i) => join2("onnx", i === 0 ? `${base}_data` : `${base}_data_${i}`));
  }
  return [];
}
function checkModelFolder(dir, dtype) {
  const missing = REQUIRED_MODEL_FILES.filter((f) => !existsSync(join2(dir, f)));
  const presentDtypes = MODEL_DTYPES.filter((d) => existsSync(join2(dir, onnxFile(d))));
  const chosen = dtype === "auto" ? presentDtypes[0] : presentDtypes.includes(dtype) ? dtype : void 0;
  if (chosen === void 0) missing.push(dtype === "auto" ? "onnx/model*.onnx" : onnxFile(dtype));
  else missing.push(...externalDataFiles(readConfig(dir), chosen).filter((f) => !existsSync(join2(dir, f))));
  return chosen === void 0 ? { missing, presentDtypes } : { missing, dtype: chosen, presentDtypes };
}
function adviceOf(options) {
  return options.advice ?? GENERIC_ADVICE;
}
function offlineHint(options) {
  const advice = adviceOf(options);
  return advice[0].toUpperCase() + advice.slice(1);
}
async function checkHubReachable(id, options) {
  const host = options.remoteHost ?? DEFAULT_REMOTE_HOST;
  const url = `${host}${id}/resolve/main/config.json`;
  const timeout = options.downloadCheckTimeoutMs ?? DEFAULT_DOWNLOAD_CHECK_TIMEOUT_MS;
  let status;
  try {
    const response = await fetch(url, { method: "HEAD", redirect: "follow", signal: AbortSignal.timeout(timeout) });
    status = response.status;
  } catch (error) {
    const name = error.name;
    const cause = name === "TimeoutError" || name === "AbortError" ? `no answer within ${timeout} ms` : error.cause?.code ?? name;
    throw new RagError("MODEL_NOT_FOUND", `Could not load model ${id}: it is not on this machine and ${host} cannot be reached (${cause}).`, {
      hint: `Run once where the hub is reachable (it downloads into ${options.cacheDir ?? DEFAULT_MODEL_CACHE_DIR}), or ${adviceOf(options)}`,
      cause: error
    });
  }
  if (status === 401 || status === 403 || status === 404) {
    throw new RagError("MODEL_NOT_FOUND", `Model ${id} was not found on ${host} (HTTP ${status}).`, {
      hint: "Check the model id; a gated model needs HF_TOKEN."
    });
  }
  if (status >= 400) {
    throw new RagError("MODEL_NOT_FOUND", `Model ${id} could not be fetched from ${host} (HTTP ${status}).`, { hint: offlineHint(options) });
  }
}
function describeMissing(dir, check) {
  const present = check.presentDtypes.length > 0 ? ` It has weights for: ${check.presentDtypes.join(", ")}.` : "";
  return `${dir} is missing ${check.missing.join(", ")}.${present}`;
}
async function locateModel(options = {}) {
  const dtype = options.dtype ?? "auto";
  if (dtype !== "auto" && !MODEL_DTYPES.includes(dtype)) {
    throw new RagError("INVALID_ARGUMENT", `Unknown dtype "${String(dtype)}".`, { hint: `Use one of: auto, ${MODEL_DTYPES.join(", ")}.` });
  }
  const cacheDir = resolve2(options.cacheDir ?? DEFAULT_MODEL_CACHE_DIR);
  const hubDtype = options.hubDtype ?? "fp32";
  const remoteHost = (options.remoteHost ?? DEFAULT_REMOTE_HOST).replace(/\/?$/, "/");
  if (options.modelDir !== void 0) {
    const dir = resolve2(options.modelDir);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      throw new RagError("MODEL_NOT_FOUND", `Model folder ${dir} does not exist.`, { hint: offlineHint(options) });
    }
    const check = checkModelFolder(dir, dtype);
    if (check.missing.length > 0 || check.dtype === void 0) {
      throw new RagError("MODEL_NOT_FOUND", `${describeMissing(dir, check)}`, {
        hint: check.presentDtypes.length > 0 && dtype !== "auto" ? `Pass --dtype ${check.presentDtypes[0]} or add the missing files.` : offlineHint(options)
      });
    }
    return { kind: "folder", pathOrId: dir, modelId: dir, dtype: check.dtype, cacheDir, remoteHost };
  }
  const id = options.model;
  if (id === void 0) {
    throw new RagError("INVALID_ARGUMENT", "Name a model: a hub id (model) or a local folder (modelDir).", { hint: offlineHint(options) });
  }
  if (!isHubModelId(id) || isAbsolute(id)) {
    throw new RagError("MODEL_NOT_FOUND", `"${id}" is neither a model folder nor a hub model id (owner/name).`, { hint: offlineHint(options) });
  }
  const cached = join2(cacheDir, id);
  if (existsSync(cached)) {
    const check = checkModelFolder(cached, dtype === "auto" ? hubDtype : dtype);
    const anyCheck = dtype === "auto" && check.dtype === void 0 ? checkModelFolder(cached, "auto") : check;
    if (anyCheck.missing.length === 0 && anyCheck.dtype !== void 0) {
      return { kind: "folder", pathOrId: cached, modelId: id, dtype: anyCheck.dtype, cacheDir, remoteHost };
    }
  }
  if (!(options.allowDownload ?? downloadsAllowedByEnvironment())) {
    throw new RagError("MODEL_NOT_FOUND", `Model ${id} is not in the cache (${cacheDir}) and downloads are off.`, { hint: offlineHint(options) });
  }
  await checkHubReachable(id, { ...options, cacheDir, remoteHost });
  return { kind: "download", pathOrId: id, modelId: id, dtype: dtype === "auto" ? hubDtype : dtype, cacheDir, remoteHost };
}
function isModelOnDisk(options = {}) {
  const dtype = options.dtype ?? "auto";
  if (options.modelDir !== void 0) {
    const dir = resolve2(options.modelDir);
    return existsSync(dir) && checkModelFolder(dir, dtype).missing.length === 0;
  }
  const id = options.model;
  if (id === void 0 || !isHubModelId(id)) return false;
  const cached = join2(resolve2(options.cacheDir ?? DEFAULT_MODEL_CACHE_DIR), id);
  return existsSync(cached) && checkModelFolder(cached, dtype).missing.length === 0;
}
async function loadTransformers() {
  process.env.ORT_DISABLE_TELEMETRY ??= "1";
  const transformers = await import("@huggingface/transformers");
  transformers.env.logLevel = transformers.LogLevel.ERROR;
  return transformers;
}
var environmentLock = Promise.resolve();
async function withTransformersEnvironment(env, patch, run) {
  const previous = environmentLock;
  let release;
  environmentLock = new Promise((resolve32) => release = resolve32);
  await previous.catch(() => void 0);
  const saved = {};
  for (const key of Object.keys(patch)) saved[key] = env[key];
  Object.assign(env, patch);
  try {
    return await run();
  } finally {
    Object.assign(env, saved);
    release();
  }
}
function fetchWithTimeout(base, timeoutMs) {
  return async (input, init = {}) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, controller.signal]) : controller.signal;
    try {
      return await base(input, { ...init, signal });
    } finally {
      clearTimeout(timer);
    }
  };
}
async function fingerprintModelFolder(dir, files) {
  const hash = createHash("sha256");
  for (const file of files) {
    hash.update(file);
    hash.update(await readFile(join3(dir, file)));
  }
  return hash.digest("hex").slice(0, 16);
}
function describeLoadFailure(error) {
  const e = error;
  const cause = e?.cause;
  const detail = cause?.code ?? cause?.message;
  return `${e?.message ?? String(error)}${detail && !String(e?.message).includes(detail) ? ` (${detail})` : ""}`;
}

// ../../packages/bm25/dist/chunk-EMKUUR2Y.js
var TermDictionary = class _TermDictionary {
  joined;
  /** `offsets[i]` .. `offsets[i + 1]` is term i's slice of `joined`; length `size + 1`. */
  offsets;
  constructor(joined, offsets) {
    this.joined = joined;
    this.offsets = offsets;
  }
  /** Builds a dictionary from terms already sorted with the default string order. */
  static fromSorted(terms) {
    const offsets = new Uint32Array(terms.length + 1);
    let position = 0;
    for (let i = 0; i < terms.length; i++) {
      position += terms[i].length;
      offsets[i + 1] = position;
    }
    return new _TermDictionary(terms.join(""), offsets);
  }
  get size() {
    return this.offsets.length - 1;
  }
  termAt(id) {
    return this.joined.slice(this.offsets[id], this.offsets[id + 1]);
  }
  /** Sign of (term `id`) − `term` in code-unit order. */
  #compare(id, term) {
    const start = this.offsets[id];
    const length = this.offsets[id + 1] - start;
    const shared = Math.min(length, term.length);
    for (let i = 0; i < shared; i++) {
      const difference = this.joined.charCodeAt(start + i) - term.charCodeAt(i);
      if (difference !== 0) return difference;
    }
    return length - term.length;
  }
  /** Every term, in id order. */
  *terms() {
    for (let id = 0; id < this.size; id++) yield this.termAt(id);
  }
  /** Id of `term`, or -1 when it is not in the dictionary. */
  lookup(term) {
    let lo = 0;
    let hi = this.size - 1;
    while (lo <= hi) {
      const mid = lo + hi >>> 1;
      const order = this.#compare(mid, term);
      if (order === 0) return mid;
      if (order < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
};
var TABLE_ROW = /^[ \t]*\|/;
var DELIMITER_ROW = /^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(\||$)/;
function tableHeaders(chunk) {
  const headers = [];
  const lines = chunk.text.split("\n");
  let at = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (i + 1 < lines.length && TABLE_ROW.test(line) && DELIMITER_ROW.test(lines[i + 1])) {
      headers.push({ offset: chunk.first_character_index + codePointLength(chunk.text.slice(0, at)), text: line.trim() });
    }
    at += line.length + 1;
  }
  return headers;
}
function tableHeaderContexts(chunks) {
  const contexts = new Array(chunks.length).fill("");
  let headers = [];
  let file = "";
  let symbol = "";
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i];
    if (chunk.file_path !== file || chunk.symbol !== symbol) {
      headers = [];
      file = chunk.file_path;
      symbol = chunk.symbol;
    }
    if (chunk.language !== "markdown") continue;
    if (TABLE_ROW.test(chunk.text)) {
      let header;
      for (const candidate of headers) {
        if (candidate.offset < chunk.first_character_index && (!header || candidate.offset > header.offset)) header = candidate;
      }
      if (header) contexts[i] = header.text;
    }
    for (const found of tableHeaders(chunk)) {
      if (!headers.some((known) => known.offset === found.offset)) headers.push(found);
    }
  }
  return contexts;
}
function pathFieldText(filePath) {
  const parts = filePath.split("/").filter((part) => part.length > 0);
  const name = parts.pop();
  if (name === void 0) return "";
  const dot = name.lastIndexOf(".");
  parts.push(dot > 0 ? name.slice(0, dot) : name);
  return dot > 0 ? `${parts.join(".")} ${name}` : parts.join(".");
}
function fieldTexts(chunk, context = "", anchor = "") {
  return [chunk.text, pathFieldText(chunk.file_path), context === "" ? chunk.symbol : `${chunk.symbol}
${context}`, anchor];
}
var ANSWER_KINDS = Object.freeze(["default", "error", "where", "how", "list", "yesno", "value", "explain"]);
var EVIDENCE_KINDS = Object.freeze(["default", "error", "list", "yesno", "value"]);
var DEFAULT_RERANK_OPTIONS = Object.freeze({
  depth: 50,
  proximity: 0.2,
  coverage: 0.2,
  proximityWindow: 3,
  modality: 0.1,
  auxiliaryFactor: 0.8,
  definition: 0.3,
  explanation: 0.3,
  placeKinds: Object.freeze(["where"]),
  sectionSupport: 0.05,
  answerEvidence: Object.freeze({ default: 0.1, error: 0.2, list: 0, yesno: 0, value: 0 }),
  dedupe: true,
  fileShare: 1,
  kindShare: 0.7,
  projectFactor: 0.5
});
var FIELD_NAMES = ["body", "path", "symbol", "anchor"];
var DEFAULT_CONTEXT_OPTIONS = Object.freeze({ tableHeaders: true, anchors: true });
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
var weight = external_exports.number().min(0).max(10);
var unit2 = external_exports.number().min(0).max(1);
var FIELD_SCHEMA = external_exports.strictObject({ weight: external_exports.number().min(0).optional(), b: unit2.optional() });
var RERANK_SCHEMA = external_exports.strictObject({
  depth: external_exports.number().int().min(0).optional(),
  proximity: weight.optional(),
  coverage: weight.optional(),
  proximityWindow: external_exports.number().int().min(1).max(50).optional(),
  modality: weight.optional(),
  auxiliaryFactor: external_exports.number().gt(0).max(1).optional(),
  definition: weight.optional(),
  explanation: weight.optional(),
  placeKinds: external_exports.array(external_exports.enum(ANSWER_KINDS)).optional(),
  sectionSupport: weight.optional(),
  answerEvidence: external_exports.strictObject({ default: weight.optional(), error: weight.optional(), list: weight.optional(), yesno: weight.optional(), value: weight.optional() }).optional(),
  dedupe: external_exports.boolean().optional(),
  fileShare: external_exports.number().gt(0).max(1).optional(),
  kindShare: external_exports.number().gt(0).max(1).optional(),
  projectFactor: external_exports.number().gt(0).max(1).optional()
});
var BM25_SETTINGS_SCHEMA = external_exports.strictObject({
  k1: external_exports.number().gt(0).optional(),
  b: unit2.optional(),
  fields: external_exports.strictObject({ body: FIELD_SCHEMA.optional(), path: FIELD_SCHEMA.optional(), symbol: FIELD_SCHEMA.optional(), anchor: FIELD_SCHEMA.optional() }).optional(),
  tokenizer: TOKENIZER_SETTINGS_SCHEMA.optional(),
  query: QUERY_SETTINGS_SCHEMA.optional(),
  context: external_exports.strictObject({ tableHeaders: external_exports.boolean().optional(), anchors: external_exports.boolean().optional() }).optional(),
  rerank: RERANK_SCHEMA.optional()
});
function resolveBm25Options(settings = {}) {
  const parsed = parseOptions(BM25_SETTINGS_SCHEMA, settings, { subject: "bm25", root: "settings" });
  const d = DEFAULT_BM25_OPTIONS;
  const fields = {};
  for (const name of FIELD_NAMES) {
    const given = parsed.fields?.[name] ?? {};
    const fallbackB = name === "body" ? parsed.b ?? d.fields.body.b : d.fields[name].b;
    fields[name] = { weight: given.weight ?? d.fields[name].weight, b: given.b ?? fallbackB };
  }
  if (FIELD_NAMES.every((name) => fields[name].weight === 0)) {
    throw new RagError("INVALID_ARGUMENT", "bm25 settings give every field weight 0, so nothing could match.", {
      hint: "Give at least one of fields.body/path/symbol a weight > 0."
    });
  }
  const rerank = parsed.rerank ?? {};
  const resolvedRerank = { ...d.rerank };
  for (const key of Object.keys(rerank)) {
    if (rerank[key] !== void 0) resolvedRerank[key] = rerank[key];
  }
  if (rerank.answerEvidence !== void 0) {
    const given = Object.fromEntries(Object.entries(rerank.answerEvidence).filter(([, value]) => value !== void 0));
    resolvedRerank.answerEvidence = { ...d.rerank.answerEvidence, ...given };
  }
  return {
    k1: parsed.k1 ?? d.k1,
    fields,
    tokenizer: withTokenizerDefaults(parsed.tokenizer ?? {}),
    query: withQueryDefaults(parsed.query ?? {}),
    context: { tableHeaders: parsed.context?.tableHeaders ?? d.context.tableHeaders, anchors: parsed.context?.anchors ?? d.context.anchors },
    rerank: resolvedRerank
  };
}
var PROSE = PROSE_FLAG;
var AUXILIARY = 2;
var AUXILIARY_DIRS = /* @__PURE__ */ new Set(["test", "tests", "testing", "example", "examples", "benchmark", "benchmarks"]);
var AUXILIARY_QUERY_WORDS = "test tests testing tested example examples benchmark benchmarks benchmarking";
var DOCUMENTATION_QUERY_WORDS = "doc docs documented documentation documenting explained explanation described description guide tutorial manual readme";
var TEST_FILE = /^(test_.*|.*_test|conftest)\.py$/;
function isAuxiliaryPath(filePath) {
  const parts = filePath.split("/");
  const name = parts.pop() ?? "";
  return TEST_FILE.test(name) || parts.some((part) => AUXILIARY_DIRS.has(part.toLowerCase()));
}
function chunkFlags(chunks) {
  const flags = new Uint8Array(chunks.length);
  let path;
  let auxiliary = 0;
  for (let d = 0; d < chunks.length; d++) {
    const chunk = chunks[d];
    if (chunk.file_path !== path) {
      path = chunk.file_path;
      auxiliary = isAuxiliaryPath(path) ? AUXILIARY : 0;
    }
    flags[d] = (PROSE_LANGUAGES.has(chunk.language) ? PROSE : 0) | auxiliary;
  }
  return flags;
}
var TermModalities = class _TermModalities {
  #data;
  #flags;
  #logLengthRatio;
  #ratios;
  #known;
  /** `undefined` when the corpus has no prose or no code (there is nothing to choose between). */
  static learn(data, flags) {
    const body = data.fields[FIELD_NAMES.indexOf("body")];
    let proseLength = 0;
    let codeLength = 0;
    for (let d = 0; d < data.docCount; d++) {
      if (flags[d] & PROSE) proseLength += body.lengths[d];
      else codeLength += body.lengths[d];
    }
    if (proseLength === 0 || codeLength === 0) return void 0;
    return new _TermModalities(data, flags, Math.log(codeLength / proseLength));
  }
  constructor(data, flags, logLengthRatio) {
    this.#data = data;
    this.#flags = flags;
    this.#logLengthRatio = logLengthRatio;
    this.#ratios = new Float32Array(data.dictionary.size);
    this.#known = new Uint8Array(data.dictionary.size);
  }
  /** Term `id`'s log ratio of prose to code frequency; 0 for a term seen only in paths or symbols. */
  ratio(id) {
    if (this.#known[id] === 0) {
      const body = this.#data.fields[FIELD_NAMES.indexOf("body")];
      let prose = 0;
      let code = 0;
      for (let p = body.offsets[id]; p < body.offsets[id + 1]; p++) {
        if (this.#flags[body.docs[p]] & PROSE) prose += body.tfs[p];
        else code += body.tfs[p];
      }
      this.#ratios[id] = prose + code === 0 ? 0 : Math.log((prose + 0.5) / (code + 0.5)) + this.#logLengthRatio;
      this.#known[id] = 1;
    }
    return this.#ratios[id];
  }
};
var FNV_PRIME = 16777619;
var CHECKSUM_SEED = 2166136261;
function checksumWords(words2, seed = CHECKSUM_SEED) {
  let hash = seed;
  for (let i = 0; i < words2.length; i++) hash = Math.imul(hash ^ words2[i], FNV_PRIME);
  return hash >>> 0;
}
function hashString(hash, text) {
  let h = hash;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h;
}
function hashDecimal(hash, n) {
  let divisor = 1;
  while (divisor * 10 <= n) divisor *= 10;
  let h = hash;
  for (; divisor >= 1; divisor /= 10) h = Math.imul(h ^ 48 + Math.floor(n / divisor) % 10, FNV_PRIME);
  return h;
}
function hashChunkKey(hash, chunk) {
  let h = hashString(hash, chunk.file_path);
  h = Math.imul(h ^ 0, FNV_PRIME);
  h = hashDecimal(h, chunk.first_character_index);
  h = Math.imul(h ^ 0, FNV_PRIME);
  h = hashDecimal(h, chunk.last_character_index);
  return Math.imul(h ^ 1, FNV_PRIME);
}
function fingerprintChunks(chunks) {
  let a = 2166136261;
  let b = 795761181;
  for (const chunk of chunks) {
    a = hashChunkKey(a, chunk);
    b = hashChunkKey(b ^ 1540483477, chunk);
  }
  const hex = (n) => (n >>> 0).toString(16).padStart(8, "0");
  return `${chunks.length}-${hex(a)}${hex(b)}`;
}
var PROSE2 = /* @__PURE__ */ new Set(["markdown", "rst", "text"]);
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
function lastPart(symbol) {
  const dot = symbol.lastIndexOf(".");
  return dot < 0 ? symbol : symbol.slice(dot + 1);
}
function definitionsByName(chunks) {
  const byName = /* @__PURE__ */ new Map();
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i];
    if (PROSE2.has(chunk.language) || chunk.symbol === "") continue;
    const name = lastPart(chunk.symbol);
    const list = byName.get(name);
    if (list) list.push(i);
    else byName.set(name, [i]);
  }
  return byName;
}
function resolveMention(name, chunks, byName) {
  const candidates = byName.get(lastPart(name)) ?? [];
  if (name.includes(".")) {
    const qualified = candidates.filter((id) => {
      const chunk = chunks[id];
      const module = chunk.file_path.replace(/\.py$/, "").replaceAll("/", ".");
      const full = `${module}.${chunk.symbol}`;
      return full === name || full.endsWith(`.${name}`) || chunk.symbol === name || chunk.symbol.endsWith(`.${name}`);
    });
    if (qualified.length > 0) return qualified.length <= ANCHOR_LIMITS.maxDefinitions ? qualified : [];
  }
  return candidates.length <= ANCHOR_LIMITS.maxDefinitions ? candidates : [];
}
function anchorTexts(chunks) {
  const anchors = new Array(chunks.length).fill("");
  const byName = definitionsByName(chunks);
  if (byName.size === 0) return anchors;
  const seen = new Array(chunks.length);
  for (const chunk of chunks) {
    if (!PROSE2.has(chunk.language)) continue;
    for (const paragraph of chunk.text.split(/\n[ \t]*\n/)) {
      if (paragraph.length > ANCHOR_LIMITS.maxParagraph || !paragraph.includes("`")) continue;
      const targets = /* @__PURE__ */ new Set();
      for (const match of paragraph.matchAll(INLINE_CODE)) {
        const name = mentionedName(match[1]);
        if (name) for (const id of resolveMention(name, chunks, byName)) targets.add(id);
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
var EVIDENCE_BIT = Object.fromEntries(EVIDENCE_KINDS.map((kind, i) => [kind, 1 << i]));
function computeChunkFeatures(chunks, dictionary, rerank) {
  return new FeatureBuilder(chunks, dictionary, rerank).build(() => -1);
}
function reuseChunkFeatures(chunks, dictionary, rerank, previous, sourceOf, newTerms) {
  const builder = new FeatureBuilder(chunks, dictionary, rerank);
  const renumbered = new Int32Array(previous.dictionary.size).fill(-2);
  const newIdOf = (old) => {
    if (renumbered[old] === -2) renumbered[old] = dictionary.lookup(previous.dictionary.termAt(old));
    return renumbered[old];
  };
  const fresh = builder.wantsNames ? freshNames(newTerms ?? dictionary.terms(), previous.dictionary) : [];
  const spellsFresh = fresh.length > 0 ? new RegExp(fresh.map(escapeRegExp).join("|"), "i") : void 0;
  const { evidence, nameOffsets, names } = previous.features;
  return builder.build((d, out) => {
    const source = sourceOf[d];
    if (source < 0 || spellsFresh && spellsFresh.test(chunks[d].text)) return -1;
    for (let i = nameOffsets[source]; i < nameOffsets[source + 1]; i++) {
      const id = newIdOf(names[i]);
      if (id >= 0) out.push(id);
    }
    return evidence[source];
  });
}
function freshNames(terms, previous) {
  const fresh = [];
  for (const term of terms) if (SEPARATED_NAME.test(term) && previous.lookup(term) < 0) fresh.push(term);
  return fresh;
}
var SEPARATED_NAME = /^[^_\s.\-/]+_[^\s.\-/]*[^_\s.\-/]$/;
var escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
var FeatureBuilder = class {
  wantsNames;
  #chunks;
  #dictionary;
  #kinds;
  #flags;
  constructor(chunks, dictionary, rerank) {
    const on = rerank.depth > 0;
    this.#chunks = chunks;
    this.#dictionary = dictionary;
    this.#kinds = on ? EVIDENCE_KINDS.filter((kind) => rerank.answerEvidence[kind] > 0) : [];
    this.wantsNames = on && (rerank.definition > 0 || rerank.explanation > 0);
    this.#flags = chunkFlags(chunks);
  }
  /**
   * `given(d, names)` pushes chunk d's name ids and returns its evidence bits, or returns -1
   * (pushing nothing) for a chunk whose features are to be read from its text.
   */
  build(given) {
    const chunks = this.#chunks;
    const evidence = new Uint8Array(chunks.length);
    const nameOffsets = new Uint32Array(chunks.length + 1);
    const names = [];
    const ids = [];
    for (let d = 0; d < chunks.length; d++) {
      ids.length = 0;
      const bits = given(d, ids);
      evidence[d] = bits >= 0 ? bits : this.#read(d, ids);
      ids.sort((a, b) => a - b);
      for (const id of ids) names.push(id);
      nameOffsets[d + 1] = names.length;
    }
    return { evidence, nameOffsets, names: Uint32Array.from(names) };
  }
  /** Chunk d's evidence bits, its names pushed to `ids`, read from its text. */
  #read(d, ids) {
    const text = this.#chunks[d].text;
    const prose = (this.#flags[d] & PROSE) !== 0;
    let bits = 0;
    if (!prose) {
      for (const kind of this.#kinds) if (codeCarriesKind(text, kind)) bits |= EVIDENCE_BIT[kind];
    }
    if (this.wantsNames) {
      for (const name of separatedNamesIn(text, prose ? "explains" : "defines")) {
        const id = this.#dictionary.lookup(name);
        if (id >= 0) ids.push(id);
      }
    }
    return bits;
  }
};
function carriesEvidence(features, d, kind) {
  return (features.evidence[d] & EVIDENCE_BIT[kind]) !== 0;
}
function hasName(features, d, termId) {
  const { nameOffsets, names } = features;
  let low = nameOffsets[d];
  let high = nameOffsets[d + 1];
  while (low < high) {
    const middle = low + high >>> 1;
    const id = names[middle];
    if (id === termId) return true;
    if (id < termId) low = middle + 1;
    else high = middle;
  }
  return false;
}
function checkChunkFeatures(features, docCount, termCount) {
  const { evidence, nameOffsets, names } = features;
  if (evidence.length !== docCount) return `it has evidence for ${evidence.length} chunks, not ${docCount}`;
  if (nameOffsets.length !== docCount + 1 || nameOffsets[0] !== 0 || nameOffsets[docCount] !== names.length) return "its name offsets do not span its names";
  for (let d = 0; d < docCount; d++) {
    if (nameOffsets[d] > nameOffsets[d + 1]) return "its name offsets are out of order";
    for (let i = nameOffsets[d]; i < nameOffsets[d + 1]; i++) {
      if (names[i] >= termCount || i > nameOffsets[d] && names[i - 1] >= names[i]) return `the names of chunk ${d} are out of range or order`;
    }
  }
  if (evidence.some((bits) => bits >= 1 << EVIDENCE_KINDS.length)) return "its evidence has unknown bits";
  return void 0;
}
function equalsRange(key, text, start) {
  for (let j = 0; j < key.length; j++) if (key.charCodeAt(j) !== text.charCodeAt(start + j)) return false;
  return true;
}
var SegmentTable = class {
  #keys;
  #hashes;
  #values;
  #mask;
  #size = 0;
  constructor(capacity = 1 << 16) {
    this.#keys = new Array(capacity);
    this.#hashes = new Int32Array(capacity);
    this.#values = new Int32Array(capacity);
    this.#mask = capacity - 1;
  }
  /** FNV-1a over the UTF-16 code units of text[start, end). */
  static hash(text, start, end) {
    let hash = 2166136261;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
    return hash;
  }
  /** Value stored for text[start, end) whose hash is `hash`, or -1. */
  get(text, start, end, hash) {
    const length = end - start;
    for (let i = hash & this.#mask; ; i = i + 1 & this.#mask) {
      const key = this.#keys[i];
      if (key === void 0) return -1;
      if (this.#hashes[i] === hash && key.length === length && equalsRange(key, text, start)) {
        return this.#values[i];
      }
    }
  }
  /** Stores `value` for `key` (not present yet), whose hash is `hash`. */
  set(key, hash, value) {
    if ((this.#size + 1) * 2 > this.#keys.length) this.#grow();
    this.#insert(key, hash, value);
    this.#size++;
  }
  #insert(key, hash, value) {
    let i = hash & this.#mask;
    while (this.#keys[i] !== void 0) i = i + 1 & this.#mask;
    this.#keys[i] = key;
    this.#hashes[i] = hash;
    this.#values[i] = value;
  }
  #grow() {
    const keys = this.#keys;
    const hashes = this.#hashes;
    const values = this.#values;
    const capacity = keys.length * 2;
    this.#keys = new Array(capacity);
    this.#hashes = new Int32Array(capacity);
    this.#values = new Int32Array(capacity);
    this.#mask = capacity - 1;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (key !== void 0) this.#insert(key, hashes[i], values[i]);
    }
  }
};
var CONTINUES_SEGMENT = 1073741824;
var TERM_ID_MASK = CONTINUES_SEGMENT - 1;
var MAX_TF = 65535;
var PROGRESS_EVERY = 1024;
var Int32Buffer = class {
  data = new Int32Array(1024);
  length = 0;
  push(value) {
    if (this.length === this.data.length) this.grow(this.length * 2);
    this.data[this.length++] = value;
  }
  grow(capacity) {
    const next = new Int32Array(capacity);
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
};
function ensureSize(array, size) {
  if (size <= array.length) return array;
  const next = new Int32Array(Math.max(size, array.length * 2));
  next.set(array);
  return next;
}
var TermInterner = class {
  terms = [];
  #ids = /* @__PURE__ */ new Map();
  #expander;
  #segments = new SegmentTable();
  /** Slot s's term ids are #slotTerms[#slotStart[s] .. #slotStart[s + 1]). */
  #slotStart = new Int32Buffer();
  #slotTerms = new Int32Buffer();
  constructor(expander) {
    this.#expander = expander;
    this.#slotStart.push(0);
  }
  #intern(term) {
    let id = this.#ids.get(term);
    if (id === void 0) {
      id = this.terms.length;
      this.terms.push(term);
      this.#ids.set(term, id);
    }
    return id;
  }
  #addSegment(segment, hash) {
    this.#expander.expand(segment, (term) => this.#slotTerms.push(this.#intern(term)));
    const slot = this.#slotStart.length - 1;
    this.#slotStart.push(this.#slotTerms.length);
    this.#segments.set(segment, hash, slot);
    return slot;
  }
  /**
   * Appends the id of every term of `text`, in order, to `out`, and the same ids as
   * sequence entries (`CONTINUES_SEGMENT` on all but a segment's first term) to `sequence`.
   */
  appendTermIds(text, out, sequence) {
    forEachSegmentRange(text, (start, end) => {
      const hash = SegmentTable.hash(text, start, end);
      let slot = this.#segments.get(text, start, end, hash);
      if (slot < 0) slot = this.#addSegment(text.slice(start, end), hash);
      const from = this.#slotStart.data[slot];
      const to = this.#slotStart.data[slot + 1];
      for (let i = from; i < to; i++) {
        const id = this.#slotTerms.data[i];
        out.push(id);
        sequence.push(i === from ? id : id | CONTINUES_SEGMENT);
      }
    });
  }
  idOf(term) {
    return this.#ids.get(term);
  }
  /** The id of `term`, interning it if it is new (terms taken over from a previous build). */
  internTerm(term) {
    return this.#intern(term);
  }
};
var FILE_LOCAL_FIELDS = FIELD_NAMES.map((name) => name !== "anchor");
var TermTranslator = class {
  #map;
  #dictionary;
  #interner;
  constructor(dictionary, interner) {
    this.#dictionary = dictionary;
    this.#interner = interner;
    this.#map = new Int32Array(dictionary.size).fill(-1);
  }
  /** This build's ids of the previous terms taken over, in the previous dictionary's (sorted) order. */
  takenOverInOrder() {
    return this.#map.filter((id) => id >= 0);
  }
  /** Appends previous entries [from, to) of `entries` to `out` (ids) and `sequence` (with flags). */
  append(entries, from, to, out, sequence) {
    for (let i = from; i < to; i++) {
      const entry = entries[i];
      const old = entry & TERM_ID_MASK;
      let id = this.#map[old];
      if (id < 0) {
        id = this.#interner.internTerm(this.#dictionary.termAt(old));
        this.#map[old] = id;
      }
      out.push(id);
      sequence.push(id | entry & CONTINUES_SEGMENT);
    }
  }
};
function sortedOrder(interner) {
  const sorted = interner.terms.slice().sort();
  return Int32Array.from(sorted, (term) => interner.idOf(term));
}
function mergeSortedOrder(interner, takenOver) {
  const terms = interner.terms;
  const fromPrevious = new Uint8Array(terms.length);
  for (const id of takenOver) fromPrevious[id] = 1;
  const fresh = terms.filter((_, id) => fromPrevious[id] === 0).sort();
  const order = new Int32Array(terms.length);
  let a = 0;
  let b = 0;
  for (let t = 0; t < order.length; t++) {
    const takeFresh = a >= takenOver.length || b < fresh.length && fresh[b] < terms[takenOver[a]];
    order[t] = takeFresh ? interner.idOf(fresh[b++]) : takenOver[a++];
  }
  return { order, fresh };
}
function checkDenseIds(chunks) {
  for (let i = 0; i < chunks.length; i++) {
    if (chunks[i].id !== i) {
      throw new RagError("INVALID_ARGUMENT", `Chunk at position ${i} has id ${chunks[i].id}; bm25 needs ids equal to positions.`, {
        hint: "Number chunks 0, 1, 2, \u2026 in the order they are passed (as @rag/chunking and the index store do)."
      });
    }
  }
}
function renumberSequences(entries, offsets, newId) {
  const data = entries.data;
  for (let i = 0; i < entries.length; i++) {
    const entry = data[i];
    data[i] = newId[entry & TERM_ID_MASK] | entry & CONTINUES_SEGMENT;
  }
  return { offsets, terms: new Uint32Array(data.buffer, 0, entries.length) };
}
function invert(pairs, newId, termCount, docCount) {
  const total = pairs.termIds.length;
  const termIds = pairs.termIds.data;
  const offsets = new Uint32Array(termCount + 1);
  for (let p = 0; p < total; p++) offsets[newId[termIds[p]] + 1]++;
  for (let t = 0; t < termCount; t++) offsets[t + 1] += offsets[t];
  const cursor = offsets.slice(0, termCount);
  const docs = new Uint32Array(total);
  const tfs = new Uint16Array(total);
  const pairTfs = pairs.tfs.data;
  for (let d = 0; d < docCount; d++) {
    for (let p = pairs.docStart[d]; p < pairs.docStart[d + 1]; p++) {
      const position = cursor[newId[termIds[p]]]++;
      docs[position] = d;
      tfs[position] = Math.min(pairTfs[p], MAX_TF);
    }
  }
  return { offsets, docs, tfs, lengths: pairs.lengths };
}
function buildIndexData(chunks, options, onProgress, previous) {
  checkDenseIds(chunks);
  if (previous && previous.sourceOf.length !== chunks.length) {
    throw new RagError("INVALID_ARGUMENT", `sourceOf has ${previous.sourceOf.length} entries for ${chunks.length} chunks.`);
  }
  const docCount = chunks.length;
  const interner = new TermInterner(new SegmentExpander(options.tokenizer, { memoize: true }));
  const pairs = FIELD_NAMES.map(() => ({
    termIds: new Int32Buffer(),
    tfs: new Int32Buffer(),
    docStart: new Uint32Array(docCount + 1),
    lengths: new Uint32Array(docCount)
  }));
  let counts = new Int32Array(1 << 16);
  let lastDoc = new Int32Array(1 << 16).fill(-1);
  let docFrequencies = new Int32Array(1 << 16);
  const touched = new Int32Buffer();
  const termIds = new Int32Buffer();
  const contexts = options.context.tableHeaders ? tableHeaderContexts(chunks) : void 0;
  const anchors = options.context.anchors ? anchorTexts(chunks) : void 0;
  const sequence = new Int32Buffer();
  const sequenceOffsets = new Uint32Array(docCount + 1);
  const old = previous?.data;
  const translator = old ? new TermTranslator(old.dictionary, interner) : void 0;
  for (let d = 0; d < docCount; d++) {
    const source = previous ? previous.sourceOf[d] : -1;
    const texts = source < 0 ? fieldTexts(chunks[d], contexts?.[d], anchors?.[d]) : void 0;
    let at = source < 0 ? 0 : old.sequences.offsets[source];
    for (let f = 0; f < FIELD_NAMES.length; f++) {
      const field = pairs[f];
      termIds.length = 0;
      if (source < 0) {
        interner.appendTermIds(texts[f], termIds, sequence);
      } else {
        const length = old.fields[f].lengths[source];
        if (FILE_LOCAL_FIELDS[f]) translator.append(old.sequences.terms, at, at + length, termIds, sequence);
        else interner.appendTermIds(anchors?.[d] ?? "", termIds, sequence);
        at += length;
      }
      if (interner.terms.length > counts.length) {
        const size = interner.terms.length;
        counts = ensureSize(counts, size);
        docFrequencies = ensureSize(docFrequencies, size);
        const previous2 = lastDoc.length;
        lastDoc = ensureSize(lastDoc, size);
        lastDoc.fill(-1, previous2);
      }
      touched.length = 0;
      const ids = termIds.data;
      for (let i = 0; i < termIds.length; i++) {
        const id = ids[i];
        if (counts[id]++ === 0) touched.push(id);
      }
      field.lengths[d] = termIds.length;
      for (let i = 0; i < touched.length; i++) {
        const id = touched.data[i];
        field.termIds.push(id);
        field.tfs.push(counts[id]);
        counts[id] = 0;
        if (lastDoc[id] !== d) {
          lastDoc[id] = d;
          docFrequencies[id]++;
        }
      }
      field.docStart[d + 1] = field.termIds.length;
    }
    sequenceOffsets[d + 1] = sequence.length;
    if (onProgress && ((d + 1) % PROGRESS_EVERY === 0 || d + 1 === docCount)) {
      onProgress({ phase: "fit", done: d + 1, total: docCount });
    }
  }
  const merged = translator ? mergeSortedOrder(interner, translator.takenOverInOrder()) : void 0;
  const order = merged ? merged.order : sortedOrder(interner);
  const termCount = order.length;
  const sorted = new Array(termCount);
  const newId = new Int32Array(termCount);
  const sortedFrequencies = new Uint32Array(termCount);
  for (let t = 0; t < termCount; t++) {
    const id = order[t];
    sorted[t] = interner.terms[id];
    newId[id] = t;
    sortedFrequencies[t] = docFrequencies[id];
  }
  const dictionary = TermDictionary.fromSorted(sorted);
  return {
    options,
    docCount,
    dictionary,
    docFrequencies: sortedFrequencies,
    fields: pairs.map((field) => invert(field, newId, termCount, docCount)),
    sequences: renumberSequences(sequence, sequenceOffsets, newId),
    features: old ? reuseChunkFeatures(chunks, dictionary, options.rerank, old, previous.sourceOf, merged.fresh) : computeChunkFeatures(chunks, dictionary, options.rerank),
    chunkFingerprint: fingerprintChunks(chunks)
  };
}
function inverseDocumentFrequency(docCount, docFrequency) {
  return Math.log(1 + (docCount - docFrequency + 0.5) / (docFrequency + 0.5));
}
function lengthNorm(b, length, averageLength) {
  return averageLength > 0 ? 1 - b + b * length / averageLength : 1;
}
function fieldTermWeight(weight2, tf, inverseNorm) {
  return weight2 * tf * inverseNorm;
}
function saturate(combinedTf, k1) {
  return (k1 + 1) * combinedTf / (k1 + combinedTf);
}
function termContribution(queryIdfWeight, combinedTf, k1) {
  return queryIdfWeight * saturate(combinedTf, k1);
}
function round(value) {
  return String(Number(value.toPrecision(6)));
}
function explainTerm(index, queryTerm, doc) {
  const { data } = index;
  const id = data.dictionary.lookup(queryTerm.term);
  if (id < 0) return { value: 0, description: `term "${queryTerm.term}": not in the index` };
  const docFrequency = data.docFrequencies[id];
  const idf = inverseDocumentFrequency(data.docCount, docFrequency);
  const weight2 = queryTerm.weight * idf;
  const { k1 } = data.options;
  const fieldDetails = [];
  let combined = 0;
  for (let f = 0; f < FIELD_NAMES.length; f++) {
    const name = FIELD_NAMES[f];
    const { weight: fieldWeight, b } = data.options.fields[name];
    if (fieldWeight === 0) continue;
    const tf = index.termFrequency(f, id, doc);
    if (tf === 0) continue;
    const share = fieldTermWeight(fieldWeight, tf, index.inverseNorm(f, doc));
    combined += share;
    const length = data.fields[f].lengths[doc];
    const average = index.averageFieldLengths[f];
    fieldDetails.push({
      value: share,
      description: `field ${name}: weight ${round(fieldWeight)} \xB7 tf / B`,
      details: [
        { value: tf, description: `tf: occurrences of "${queryTerm.term}" in ${name}` },
        {
          value: lengthNorm(b, length, average),
          description: `B = 1 \u2212 b + b \xB7 len / avglen with b=${round(b)}, len=${length}, avglen=${round(average)}`
        }
      ]
    });
  }
  if (combined === 0) return { value: 0, description: `term "${queryTerm.term}": not in this chunk (in ${docFrequency} others)` };
  return {
    value: termContribution(weight2, combined, k1),
    description: `term "${queryTerm.term}": qw \xB7 idf \xB7 (k1 + 1) \xB7 tf\u0303 / (k1 + tf\u0303) with k1=${round(k1)}`,
    details: [
      { value: queryTerm.weight, description: "qw: query weight, 1 + ln(count) (\xD7 subwordWeight for a sub-word)" },
      { value: idf, description: `idf = ln(1 + (N \u2212 df + 0.5) / (df + 0.5)) with N=${data.docCount}, df=${docFrequency}` },
      { value: combined, description: "tf\u0303: \u03A3 over fields of weight \xB7 tf / B", details: fieldDetails }
    ]
  };
}
function explainChunk(index, queryTerms, doc) {
  const details = queryTerms.map((term) => explainTerm(index, term, doc));
  let total = 0;
  for (const detail of details) total += detail.value;
  return {
    value: total,
    description: `BM25F score of chunk ${doc}: sum over ${queryTerms.length} query term(s)`,
    details
  };
}
function ranksBelow(a, b, scores) {
  const sa = scores[a];
  const sb = scores[b];
  return sa < sb || sa === sb && a > b;
}
function siftDown(heap, size, scores) {
  let i = 0;
  for (; ; ) {
    const left = 2 * i + 1;
    if (left >= size) return;
    const right = left + 1;
    let worst = left;
    if (right < size && ranksBelow(heap[right], heap[left], scores)) worst = right;
    if (!ranksBelow(heap[worst], heap[i], scores)) return;
    const swap = heap[i];
    heap[i] = heap[worst];
    heap[worst] = swap;
    i = worst;
  }
}
function siftUp(heap, index, scores) {
  let i = index;
  while (i > 0) {
    const parent = i - 1 >>> 1;
    if (!ranksBelow(heap[i], heap[parent], scores)) return;
    const swap = heap[i];
    heap[i] = heap[parent];
    heap[parent] = swap;
    i = parent;
  }
}
function selectTopK(candidates, count3, scores, k) {
  return selectFrom(candidates, count3, scores, k);
}
function selectTopKDense(scores, count3, k) {
  const capacity = Math.min(k, count3);
  if (capacity <= 0) return [];
  const heap = new Uint32Array(capacity);
  let size = 0;
  let floor = 0;
  for (let id = 0; id < count3; id++) {
    const score = scores[id];
    if (!(score > floor)) continue;
    if (size < capacity) {
      heap[size] = id;
      siftUp(heap, size, scores);
      size++;
      if (size === capacity) floor = scores[heap[0]];
    } else {
      heap[0] = id;
      siftDown(heap, size, scores);
      floor = scores[heap[0]];
    }
  }
  return drain(heap, size, scores);
}
function selectFrom(candidates, count3, scores, k) {
  const capacity = Math.min(k, count3);
  if (capacity <= 0) return [];
  const heap = new Uint32Array(capacity);
  let size = 0;
  let floor = 0;
  for (let i = 0; i < count3; i++) {
    const id = candidates[i];
    const score = scores[id];
    if (!(score > 0) || score < floor) continue;
    if (size < capacity) {
      heap[size] = id;
      siftUp(heap, size, scores);
      size++;
      if (size === capacity) floor = scores[heap[0]];
    } else if (ranksBelow(heap[0], id, scores)) {
      heap[0] = id;
      siftDown(heap, size, scores);
      floor = scores[heap[0]];
    }
  }
  return drain(heap, size, scores);
}
function drain(heap, size, scores) {
  const hits = new Array(size);
  for (let out = size - 1; out >= 0; out--) {
    const id = heap[0];
    hits[out] = { chunkId: id, score: scores[id] };
    heap[0] = heap[out];
    siftDown(heap, out, scores);
  }
  return hits;
}
var TermBounds = class {
  #view;
  /** termCount × fields; NaN until computed. */
  #bounds;
  constructor(view2, termCount) {
    this.#view = view2;
    this.#bounds = new Float64Array(termCount * view2.fields.length).fill(Number.NaN);
  }
  /** Σ_f of the term's per-field bounds (its largest combined frequency, loosely). */
  combinedBound(id) {
    const { fields, inverseNorms, fieldWeights } = this.#view;
    const count3 = fields.length;
    let sum = 0;
    for (let f = 0; f < count3; f++) {
      let bound = this.#bounds[id * count3 + f];
      if (Number.isNaN(bound)) {
        bound = 0;
        const weight2 = fieldWeights[f];
        if (weight2 > 0) {
          const { offsets, docs, tfs } = fields[f];
          const norms = inverseNorms[f];
          for (let p = offsets[id]; p < offsets[id + 1]; p++) bound = Math.max(bound, fieldTermWeight(weight2, tfs[p], norms[docs[p]]));
        }
        this.#bounds[id * count3 + f] = bound;
      }
      sum += bound;
    }
    return sum;
  }
};
var NONE = 4294967295;
var SLACK = 1 + 1e-9;
function maxScoreTopK(view2, terms, k, bounds, stats) {
  const n = terms.length;
  if (n === 0 || k < 1) return [];
  const { fields, inverseNorms, fieldWeights, k1 } = view2;
  const upper = terms.map((term) => termContribution(term.weight, bounds.combinedBound(term.id), k1));
  const order = terms.map((_, i) => i).sort((a, b) => upper[a] - upper[b] || a - b);
  const prefix = new Float64Array(n);
  for (let r = 0; r < n; r++) prefix[r] = (r > 0 ? prefix[r - 1] : 0) + upper[order[r]];
  const slotStart = new Uint32Array(n + 1);
  const slotField = [];
  const slotPosition = [];
  const slotEnd = [];
  for (let i = 0; i < n; i++) {
    const id = terms[i].id;
    for (let f = 0; f < fields.length; f++) {
      const { offsets } = fields[f];
      if (fieldWeights[f] > 0 && offsets[id + 1] > offsets[id]) {
        slotField.push(f);
        slotPosition.push(offsets[id]);
        slotEnd.push(offsets[id + 1]);
      }
    }
    slotStart[i + 1] = slotField.length;
  }
  const position = Uint32Array.from(slotPosition);
  const end = Uint32Array.from(slotEnd);
  let visited = 0;
  const headOf = (i) => {
    let best2 = NONE;
    for (let s = slotStart[i]; s < slotStart[i + 1]; s++) {
      if (position[s] < end[s]) {
        const doc = fields[slotField[s]].docs[position[s]];
        if (doc < best2) best2 = doc;
      }
    }
    return best2;
  };
  const termDoc = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    termDoc[i] = headOf(i);
    for (let s = slotStart[i]; s < slotStart[i + 1]; s++) if (position[s] < end[s]) visited++;
  }
  const seek = (i, doc) => {
    for (let s = slotStart[i]; s < slotStart[i + 1]; s++) {
      const docs = fields[slotField[s]].docs;
      let lo = position[s];
      const hi = end[s];
      if (lo >= hi || docs[lo] >= doc) continue;
      let step = 1;
      let bound = lo + 1;
      while (bound < hi && docs[bound] < doc) {
        visited++;
        lo = bound;
        step *= 2;
        bound = lo + step;
      }
      let top = Math.min(bound, hi);
      if (bound < hi) visited++;
      while (lo + 1 < top) {
        const mid = lo + top >>> 1;
        visited++;
        if (docs[mid] < doc) lo = mid;
        else top = mid;
      }
      position[s] = top;
    }
    termDoc[i] = headOf(i);
  };
  const takeAt = (i, doc) => {
    let tf = 0;
    for (let s = slotStart[i]; s < slotStart[i + 1]; s++) {
      const at = position[s];
      if (at >= end[s]) continue;
      const f = slotField[s];
      const field = fields[f];
      if (field.docs[at] !== doc) continue;
      tf += fieldTermWeight(fieldWeights[f], field.tfs[at], inverseNorms[f][doc]);
      position[s] = at + 1;
      if (at + 1 < end[s]) visited++;
    }
    termDoc[i] = headOf(i);
    return tf;
  };
  const heapIds = new Uint32Array(k);
  const heapScores = new Float64Array(k);
  let size = 0;
  const below = (a, b) => heapScores[a] < heapScores[b] || heapScores[a] === heapScores[b] && heapIds[a] > heapIds[b];
  const swap = (a, b) => {
    const id = heapIds[a];
    heapIds[a] = heapIds[b];
    heapIds[b] = id;
    const score = heapScores[a];
    heapScores[a] = heapScores[b];
    heapScores[b] = score;
  };
  const siftDown2 = (from, limit) => {
    let i = from;
    for (; ; ) {
      const left = 2 * i + 1;
      if (left >= limit) return;
      let worst = left;
      if (left + 1 < limit && below(left + 1, left)) worst = left + 1;
      if (!below(worst, i)) return;
      swap(worst, i);
      i = worst;
    }
  };
  const push = (doc, score) => {
    if (size < k) {
      heapIds[size] = doc;
      heapScores[size] = score;
      let i = size++;
      while (i > 0) {
        const parent = i - 1 >>> 1;
        if (!below(i, parent)) break;
        swap(i, parent);
        i = parent;
      }
    } else if (score > heapScores[0]) {
      heapIds[0] = doc;
      heapScores[0] = score;
      siftDown2(0, size);
    }
  };
  let essentialFrom = 0;
  const contributions = new Float64Array(n);
  const scored = new Uint32Array(n);
  for (; ; ) {
    let doc = NONE;
    for (let r = essentialFrom; r < n; r++) {
      const head = termDoc[order[r]];
      if (head < doc) doc = head;
    }
    if (doc === NONE) break;
    const threshold = size === k ? heapScores[0] : 0;
    let partial = 0;
    let count3 = 0;
    const score = (i) => {
      if (termDoc[i] !== doc) return;
      const tf = takeAt(i, doc);
      if (tf > 0) {
        contributions[i] = termContribution(terms[i].weight, tf, k1);
        partial += contributions[i];
        scored[count3++] = i;
      }
    };
    for (let r = essentialFrom; r < n; r++) score(order[r]);
    let possible = true;
    for (let r = essentialFrom - 1; r >= 0; r--) {
      if (size === k && (partial + prefix[r]) * SLACK <= threshold) {
        possible = false;
        break;
      }
      seek(order[r], doc);
      score(order[r]);
    }
    if (possible && count3 > 0) {
      scored.subarray(0, count3).sort();
      let total = 0;
      for (let c = 0; c < count3; c++) total += contributions[scored[c]];
      if (total > 0) push(doc, total);
    }
    if (size === k) {
      const kth = heapScores[0];
      while (essentialFrom < n && prefix[essentialFrom] * SLACK < kth) essentialFrom++;
    }
  }
  if (stats) stats.postingsVisited += visited;
  const hits = new Array(size);
  for (let out = size - 1; out >= 0; out--) {
    hits[out] = { chunkId: heapIds[0], score: heapScores[0] };
    swap(0, out);
    siftDown2(0, out);
  }
  return hits;
}
var MAX_CACHED_IMPACTS = 8 << 20;
var DENSE_POSTINGS_SHARE = 2;
function averageOf(lengths) {
  let sum = 0;
  for (let i = 0; i < lengths.length; i++) sum += lengths[i];
  return lengths.length === 0 ? 0 : sum / lengths.length;
}
var Bm25Index = class _Bm25Index {
  data;
  averageFieldLengths;
  /** 1 / B_f(d) per field. */
  #inverseNorms;
  #tokenizeQuery;
  #expansionGate;
  /**
   * Scores in float64, not float32: explain() must reproduce a search score exactly and
   * the tests compare top-k with a brute force; the cost is 8 bytes per chunk.
   */
  #scores;
  #termWeights;
  #touched;
  #termDocs;
  #view;
  /** Per-term score bounds for pruning, made on first use. */
  #bounds;
  /** Each searched term's chunks and saturated frequencies (see `#impactsOf`), made on first use. */
  #impacts = /* @__PURE__ */ new Map();
  #cachedPostings = 0;
  constructor(data) {
    this.data = data;
    const { docCount, options } = data;
    this.averageFieldLengths = data.fields.map((field) => averageOf(field.lengths));
    this.#inverseNorms = data.fields.map((field, f) => {
      const b = options.fields[FIELD_NAMES[f]].b;
      const average = this.averageFieldLengths[f];
      const inverse = new Float64Array(docCount);
      for (let d = 0; d < docCount; d++) inverse[d] = 1 / lengthNorm(b, field.lengths[d], average);
      return inverse;
    });
    this.#tokenizeQuery = createQueryTokenizer(options.tokenizer, options.query);
    this.#scores = new Float64Array(docCount);
    this.#termWeights = new Float64Array(docCount);
    this.#touched = new Uint32Array(docCount);
    this.#termDocs = new Uint32Array(docCount);
    this.#view = {
      fields: data.fields,
      inverseNorms: this.#inverseNorms,
      fieldWeights: FIELD_NAMES.map((name) => options.fields[name].weight),
      k1: options.k1
    };
  }
  /** Builds an index; `settings` are validated (see `resolveBm25Options`). */
  /** `previous`: a build over earlier chunks whose analysed terms are taken over (see `ReusableBuild`). */
  static build(chunks, settings = {}, onProgress, previous) {
    return new _Bm25Index(buildIndexData(chunks, resolveBm25Options(settings), onProgress, previous));
  }
  get options() {
    return this.data.options;
  }
  get docCount() {
    return this.data.docCount;
  }
  stats() {
    return {
      docCount: this.data.docCount,
      termCount: this.data.dictionary.size,
      postings: this.data.fields.map((field) => field.docs.length),
      averageFieldLengths: [...this.averageFieldLengths]
    };
  }
  /** The query's terms that occur in the index, with ids and idf-scaled weights. */
  resolveQuery(query) {
    const resolved = [];
    for (const { term, weight: weight2 } of this.#queryTerms(query)) {
      const id = this.data.dictionary.lookup(term);
      if (id < 0) continue;
      const docFrequency = this.data.docFrequencies[id];
      const idf = inverseDocumentFrequency(this.data.docCount, docFrequency);
      resolved.push({ term, id, queryWeight: weight2, docFrequency, idf, weight: weight2 * idf });
    }
    return resolved;
  }
  /** The best `k` chunks for `query`, best first; [] when no query term is indexed. */
  search(query, k) {
    return this.searchTerms(this.resolveQuery(query), k);
  }
  /**
   * `search` for terms already resolved by `resolveQuery` (callers that need them too resolve
   * once). By default every posting of every term is scored. `pruning` searches several
   * terms with MaxScore instead (see `maxScoreTopK`), which returns exactly the same hits
   * from a fraction of the postings, but per chunk it does more work than the exhaustive
   * loop's one add, and on corpora up to 4× vLLM it is slower (see docs/benchmarks.md), so it
   * is not the default. The exhaustive loop sums into one score per chunk; `dense` says
   * whether it then looks at every chunk (no per-posting bookkeeping) or only at the chunks
   * it touched; by default dense when the query's postings reach half the chunk count.
   * Both give the same hits. `stats` counts the posting entries read.
   */
  searchTerms(terms, k, options = {}) {
    if (terms.length === 0 || k < 1) return [];
    if (terms.length > 1 && options.pruning === true) {
      this.#bounds ??= new TermBounds(this.#view, this.data.dictionary.size);
      return maxScoreTopK(this.#view, terms, k, this.#bounds, options.stats);
    }
    if (options.stats) for (const term of terms) options.stats.postingsVisited += this.#postingCount(term.id);
    const scores = this.#scores;
    const lists = terms.map((term) => this.#impactsOf(term.id));
    let postings = 0;
    for (const list of lists) postings += list.docs.length;
    if (options.dense ?? postings * DENSE_POSTINGS_SHARE >= this.data.docCount) {
      for (let t = 0; t < lists.length; t++) {
        const { docs, impacts } = lists[t];
        const weight2 = terms[t].weight;
        for (let p = 0; p < docs.length; p++) scores[docs[p]] += weight2 * impacts[p];
      }
      const hits2 = selectTopKDense(scores, this.data.docCount, k);
      scores.fill(0);
      return hits2;
    }
    const touched = this.#touched;
    let touchedCount = 0;
    for (let t = 0; t < lists.length; t++) {
      const term = terms[t];
      const { docs, impacts } = lists[t];
      const weight2 = term.weight;
      for (let p = 0; p < docs.length; p++) {
        const d = docs[p];
        if (scores[d] === 0) touched[touchedCount++] = d;
        scores[d] += weight2 * impacts[p];
      }
    }
    const hits = selectTopK(touched, touchedCount, scores, k);
    for (let i = 0; i < touchedCount; i++) scores[touched[i]] = 0;
    return hits;
  }
  /**
   * The chunks term `id` occurs in (scored fields) with saturate(tf̃) for each, tf̃ summed over
   * the fields in their order as explain() sums them. Kept per term; past
   * {@link MAX_CACHED_IMPACTS} kept postings the oldest terms make room, so memory stays bounded.
   */
  #impactsOf(id) {
    const cached = this.#impacts.get(id);
    if (cached) return cached;
    const { k1, fields: fieldOptions } = this.data.options;
    const only = this.#onlyField(id);
    let made;
    if (only >= 0) {
      const weight2 = fieldOptions[FIELD_NAMES[only]].weight;
      const { offsets, docs, tfs } = this.data.fields[only];
      const inverseNorm = this.#inverseNorms[only];
      const start = offsets[id];
      const end = offsets[id + 1];
      const impacts = new Float64Array(end - start);
      for (let p = start; p < end; p++) impacts[p - start] = saturate(fieldTermWeight(weight2, tfs[p], inverseNorm[docs[p]]), k1);
      made = { docs: docs.subarray(start, end), impacts };
    } else {
      const termWeights = this.#termWeights;
      const termDocs = this.#termDocs;
      let count3 = 0;
      for (let f = 0; f < FIELD_NAMES.length; f++) {
        const weight2 = fieldOptions[FIELD_NAMES[f]].weight;
        if (weight2 === 0) continue;
        const { offsets, docs: docs2, tfs } = this.data.fields[f];
        const inverseNorm = this.#inverseNorms[f];
        const end = offsets[id + 1];
        for (let p = offsets[id]; p < end; p++) {
          const d = docs2[p];
          if (termWeights[d] === 0) termDocs[count3++] = d;
          termWeights[d] += fieldTermWeight(weight2, tfs[p], inverseNorm[d]);
        }
      }
      const docs = termDocs.slice(0, count3);
      const impacts = new Float64Array(count3);
      for (let i = 0; i < count3; i++) {
        const d = docs[i];
        impacts[i] = saturate(termWeights[d], k1);
        termWeights[d] = 0;
      }
      made = { docs, impacts };
    }
    for (const [old, kept] of this.#impacts) {
      if (this.#cachedPostings + made.docs.length <= MAX_CACHED_IMPACTS) break;
      this.#impacts.delete(old);
      this.#cachedPostings -= kept.docs.length;
    }
    this.#impacts.set(id, made);
    this.#cachedPostings += made.docs.length;
    return made;
  }
  /** Postings of term `id` in the scored fields. */
  #postingCount(id) {
    let count3 = 0;
    for (let f = 0; f < FIELD_NAMES.length; f++) {
      if (this.data.options.fields[FIELD_NAMES[f]].weight === 0) continue;
      const { offsets } = this.data.fields[f];
      count3 += offsets[id + 1] - offsets[id];
    }
    return count3;
  }
  /** The one scored field (weight > 0) with postings for term `id`, or -1 when several have. */
  #onlyField(id) {
    let only = -1;
    for (let f = 0; f < FIELD_NAMES.length; f++) {
      const { offsets } = this.data.fields[f];
      if (offsets[id + 1] === offsets[id] || this.data.options.fields[FIELD_NAMES[f]].weight === 0) continue;
      if (only >= 0) return -1;
      only = f;
    }
    return only;
  }
  /** Term frequency of term `id` in field `f` of chunk `doc` (binary search in its postings). */
  termFrequency(f, id, doc) {
    const { offsets, docs, tfs } = this.data.fields[f];
    let lo = offsets[id];
    let hi = offsets[id + 1] - 1;
    while (lo <= hi) {
      const mid = lo + hi >>> 1;
      const at = docs[mid];
      if (at === doc) return tfs[mid];
      if (at < doc) lo = mid + 1;
      else hi = mid - 1;
    }
    return 0;
  }
  /** 1 / B_f(doc): the precomputed inverse length norm of field `f` of chunk `doc`. */
  inverseNorm(f, doc) {
    return this.#inverseNorms[f][doc];
  }
  /** Why chunk `chunkId` scores what it does for `query`; `value` equals its search score. */
  explain(query, chunkId) {
    if (!Number.isInteger(chunkId) || chunkId < 0 || chunkId >= this.data.docCount) {
      throw new RagError("INVALID_ARGUMENT", `Chunk id ${chunkId} is not in this index (it has ${this.data.docCount} chunks).`, {
        hint: `Pass an id between 0 and ${this.data.docCount - 1}.`
      });
    }
    return explainChunk(this, this.#queryTerms(query), chunkId);
  }
  /**
   * Decides, per query, which expansion terms (`QueryTerm.expansion`) take part; the
   * retriever installs one that keeps identifier abbreviations for code-leaning questions
   * only. Search and explain both go through it, so they always agree.
   */
  gateQueryExpansions(gate) {
    this.#expansionGate = gate;
  }
  #queryTerms(query) {
    const terms = this.#tokenizeQuery(query);
    if (!terms.some((term) => term.expansion)) return terms;
    return this.#expansionGate ? this.#expansionGate(terms) : terms;
  }
};
var BM25_FORMAT = "rag-bm25";
var BM25_FORMAT_VERSION = 6;
var BM25_FILE_NAME = "bm25.bin";
var MAGIC = new TextEncoder().encode("RAGBM25\n");
var ALIGN = 8;
var BYTES = { u8: 1, u16: 2, u32: 4 };
function typeOf(array) {
  if (array instanceof Uint8Array) return "u8";
  if (array instanceof Uint16Array) return "u16";
  return "u32";
}
var alignUp = (n) => Math.ceil(n / ALIGN) * ALIGN;
function namedSections(data, vocabulary) {
  const sections = [
    ["vocabulary", vocabulary],
    ["termOffsets", data.dictionary.offsets],
    ["docFrequencies", data.docFrequencies]
  ];
  data.fields.forEach((field, f) => {
    const name = FIELD_NAMES[f];
    sections.push([`${name}.offsets`, field.offsets], [`${name}.docs`, field.docs], [`${name}.tfs`, field.tfs], [`${name}.lengths`, field.lengths]);
  });
  sections.push(["sequences.offsets", data.sequences.offsets], ["sequences.terms", data.sequences.terms]);
  sections.push(["features.evidence", data.features.evidence], ["features.nameOffsets", data.features.nameOffsets], ["features.names", data.features.names]);
  return sections;
}
function encodeIndexParts(data) {
  const sections = namedSections(data, new TextEncoder().encode(data.dictionary.joined));
  const relative = {};
  let payloadBytes = 0;
  for (const [name, array] of sections) {
    relative[name] = { type: typeOf(array), offset: payloadBytes, length: array.length };
    payloadBytes = alignUp(payloadBytes + array.byteLength);
  }
  const header = {
    format: BM25_FORMAT,
    version: BM25_FORMAT_VERSION,
    littleEndian: true,
    options: data.options,
    docCount: data.docCount,
    termCount: data.dictionary.size,
    fields: FIELD_NAMES,
    chunkFingerprint: data.chunkFingerprint,
    payloadBytes
  };
  const payloadChecksum = checksumSections(sections);
  let payloadOffset = alignUp(MAGIC.length + 4);
  let headerBytes;
  for (; ; ) {
    const absolute = {};
    for (const [name, entry] of Object.entries(relative)) absolute[name] = { ...entry, offset: entry.offset + payloadOffset };
    headerBytes = new TextEncoder().encode(JSON.stringify({ ...header, payloadOffset, payloadChecksum, sections: absolute }));
    const needed = alignUp(MAGIC.length + 4 + headerBytes.length);
    if (needed === payloadOffset) break;
    payloadOffset = needed;
  }
  const prefix = new Uint8Array(payloadOffset);
  prefix.set(MAGIC, 0);
  new DataView(prefix.buffer).setUint32(MAGIC.length, headerBytes.length, true);
  prefix.set(headerBytes, MAGIC.length + 4);
  const parts = [prefix];
  for (const [, array] of sections) {
    parts.push(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
    const padding = alignUp(array.byteLength) - array.byteLength;
    if (padding > 0) parts.push(new Uint8Array(padding));
  }
  return parts;
}
function checksumSections(sections) {
  let hash = CHECKSUM_SEED;
  for (const [, array] of sections) {
    const whole = array.byteLength >>> 2;
    const aligned = array.byteOffset % 4 === 0;
    const words2 = aligned ? new Uint32Array(array.buffer, array.byteOffset, whole) : new Uint32Array(new Uint8Array(array.buffer, array.byteOffset, whole * 4).slice().buffer);
    hash = checksumWords(words2, hash);
    const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    const tail = new Uint8Array(alignUp(array.byteLength) - whole * 4);
    tail.set(bytes.subarray(whole * 4));
    hash = checksumWords(new Uint32Array(tail.buffer), hash);
  }
  return hash;
}
function corrupt(label, what, cause) {
  return new RagError("INDEX_CORRUPT", `The bm25 index ${label} is damaged: ${what}.`, {
    hint: "Rebuild the index with `rag index --corpus_dir <dir>`.",
    cause
  });
}
function readHeader(bytes, label) {
  if (bytes.length < MAGIC.length + 4 || MAGIC.some((byte, i) => bytes[i] !== byte)) {
    throw corrupt(label, "it does not start with the bm25 file signature");
  }
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(MAGIC.length, true);
  if (MAGIC.length + 4 + headerLength > bytes.length) throw corrupt(label, "its header is cut short");
  let header;
  try {
    header = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(MAGIC.length + 4, MAGIC.length + 4 + headerLength)));
  } catch (error) {
    throw corrupt(label, "its header is not valid JSON", error);
  }
  if (typeof header !== "object" || header === null || header.format !== BM25_FORMAT) {
    throw corrupt(label, `its header does not say "format": "${BM25_FORMAT}"`);
  }
  if (header.version !== BM25_FORMAT_VERSION) {
    throw new RagError(
      "INDEX_INCOMPATIBLE",
      `The bm25 index ${label} has format version ${String(header.version)}; this version of @rag/bm25 reads version ${BM25_FORMAT_VERSION}.`,
      { hint: "Rebuild the index with `rag index --corpus_dir <dir>`." }
    );
  }
  if (header.littleEndian !== true || new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) {
    throw new RagError("INDEX_INCOMPATIBLE", `The bm25 index ${label} is little-endian and this machine is not.`, {
      hint: "Rebuild the index on this machine."
    });
  }
  return header;
}
var SectionReader = class {
  #bytes;
  #header;
  #label;
  constructor(bytes, header, label, verifyChecksum) {
    this.#bytes = bytes.byteOffset % ALIGN === 0 ? bytes : bytes.slice();
    this.#header = header;
    this.#label = label;
    const { payloadOffset, payloadBytes, payloadChecksum } = header;
    if (!Number.isInteger(payloadOffset) || !Number.isInteger(payloadBytes) || payloadOffset % ALIGN !== 0 || payloadBytes % 4 !== 0) {
      throw corrupt(label, "its header has an invalid payload range");
    }
    if (payloadOffset + payloadBytes !== this.#bytes.length) throw corrupt(label, `it is ${this.#bytes.length} bytes long, not ${payloadOffset + payloadBytes}`);
    const words2 = new Uint32Array(this.#bytes.buffer, this.#bytes.byteOffset + payloadOffset, payloadBytes / 4);
    if (verifyChecksum && checksumWords(words2) !== payloadChecksum) throw corrupt(label, "its checksum does not match its contents");
  }
  read(name, type) {
    const entry = this.#header.sections?.[name];
    if (!entry || entry.type !== type || !Number.isInteger(entry.offset) || !Number.isInteger(entry.length) || entry.offset % ALIGN !== 0) {
      throw corrupt(this.#label, `section ${name} is missing or malformed`);
    }
    const byteLength = entry.length * BYTES[type];
    if (entry.offset < this.#header.payloadOffset || entry.offset + byteLength > this.#bytes.length) {
      throw corrupt(this.#label, `section ${name} lies outside the file`);
    }
    const at = this.#bytes.byteOffset + entry.offset;
    if (type === "u8") return new Uint8Array(this.#bytes.buffer, at, entry.length);
    if (type === "u16") return new Uint16Array(this.#bytes.buffer, at, entry.length);
    return new Uint32Array(this.#bytes.buffer, at, entry.length);
  }
};
function isAscending(offsets) {
  for (let i = 1; i < offsets.length; i++) if (offsets[i] < offsets[i - 1]) return false;
  return true;
}
function allBelow(values, limit) {
  for (let i = 0; i < values.length; i++) if (values[i] >= limit) return false;
  return true;
}
function readField(reader, name, termCount, docCount, label) {
  const field = {
    offsets: reader.read(`${name}.offsets`, "u32"),
    docs: reader.read(`${name}.docs`, "u32"),
    tfs: reader.read(`${name}.tfs`, "u16"),
    lengths: reader.read(`${name}.lengths`, "u32")
  };
  const consistent = field.offsets.length === termCount + 1 && field.offsets[0] === 0 && field.offsets[termCount] === field.docs.length && field.tfs.length === field.docs.length && field.lengths.length === docCount && isAscending(field.offsets) && allBelow(field.docs, docCount);
  if (!consistent) throw corrupt(label, `the ${name} postings are inconsistent`);
  return field;
}
function readSequences(reader, fields, termCount, docCount, label) {
  const sequences = { offsets: reader.read("sequences.offsets", "u32"), terms: reader.read("sequences.terms", "u32") };
  const { offsets, terms } = sequences;
  let consistent = offsets.length === docCount + 1 && offsets[0] === 0 && offsets[docCount] === terms.length;
  for (let d = 0; consistent && d < docCount; d++) {
    let length = 0;
    for (const field of fields) length += field.lengths[d];
    consistent = offsets[d + 1] - offsets[d] === length;
  }
  for (let i = 0; consistent && i < terms.length; i++) consistent = (terms[i] & TERM_ID_MASK) < termCount;
  if (!consistent) throw corrupt(label, "its term sequences are inconsistent");
  return sequences;
}
function decodeIndex(bytes, label, decode = {}) {
  const header = readHeader(bytes, label);
  const reader = new SectionReader(bytes, header, label, decode.checksum ?? true);
  const { docCount, termCount } = header;
  if (!Number.isInteger(docCount) || !Number.isInteger(termCount) || docCount < 0 || termCount < 0) {
    throw corrupt(label, "its header has invalid counts");
  }
  if (JSON.stringify(header.fields) !== JSON.stringify(FIELD_NAMES)) throw corrupt(label, `its fields are ${JSON.stringify(header.fields)}`);
  let options;
  try {
    options = resolveBm25Options(header.options);
  } catch (error) {
    throw corrupt(label, "its stored options are invalid", error);
  }
  const offsets = reader.read("termOffsets", "u32");
  const joined = new TextDecoder().decode(reader.read("vocabulary", "u8"));
  if (offsets.length !== termCount + 1 || offsets[termCount] !== joined.length || !isAscending(offsets)) {
    throw corrupt(label, "its vocabulary does not match its term offsets");
  }
  const docFrequencies = reader.read("docFrequencies", "u32");
  if (docFrequencies.length !== termCount) throw corrupt(label, "its document frequencies do not match its vocabulary");
  const fields = FIELD_NAMES.map((name) => readField(reader, name, termCount, docCount, label));
  return {
    options,
    docCount,
    dictionary: new TermDictionary(joined, offsets),
    docFrequencies,
    fields,
    sequences: readSequences(reader, fields, termCount, docCount, label),
    features: readFeatures(reader, termCount, docCount, label),
    chunkFingerprint: String(header.chunkFingerprint)
  };
}
function readFeatures(reader, termCount, docCount, label) {
  const features = {
    evidence: reader.read("features.evidence", "u8"),
    nameOffsets: reader.read("features.nameOffsets", "u32"),
    names: reader.read("features.names", "u32")
  };
  const broken = checkChunkFeatures(features, docCount, termCount);
  if (broken !== void 0) throw corrupt(label, `its chunk features are inconsistent: ${broken}`);
  return features;
}
function createQueryShaper(tokenizer, query) {
  const expander = new SegmentExpander(tokenizer, { extraStopwords: query.questionWords });
  return (text) => {
    const words2 = [];
    const identifiers = /* @__PURE__ */ new Set();
    forEachSegment(text, (segment) => {
      for (const part of segment.split(".")) {
        const trimmed = part.replace(/^[-_]+|[-_]+$/g, "");
        if (isIdentifierSpelling(trimmed)) identifiers.add(trimmed);
      }
      const terms = [];
      expander.expand(segment, (term) => terms.push(term));
      if (terms.length > 0) words2.push(terms);
    });
    const all = [...identifiers];
    return { words: words2, identifiers: all, separatedIdentifiers: all.filter(hasInnerSeparator) };
  };
}
var ChunkScan = class {
  /** Occurrences in position order: `slots[i]` was seen at `positions[i]`. */
  slots = new Int32Array(256);
  positions = new Int32Array(256);
  count = 0;
  /** Occurrences per slot in the last scan. */
  perSlot = new Int32Array(64);
  scan(data, doc, slotOf, slotCount, window) {
    this.count = 0;
    if (slotCount > this.perSlot.length) this.perSlot = new Int32Array(slotCount);
    this.perSlot.fill(0, 0, slotCount);
    const { offsets, terms } = data.sequences;
    let i = offsets[doc];
    let position = -1;
    for (const field of data.fields) {
      const end = i + field.lengths[doc];
      position += window + 1;
      for (; i < end; i++) {
        const entry = terms[i];
        if ((entry & CONTINUES_SEGMENT) === 0) position++;
        const slot = slotOf[entry & TERM_ID_MASK];
        if (slot >= 0) this.#push(slot, position);
      }
    }
  }
  #push(slot, position) {
    if (this.count === this.slots.length) {
      const slots = new Int32Array(this.count * 2);
      const positions = new Int32Array(this.count * 2);
      slots.set(this.slots);
      positions.set(this.positions);
      this.slots = slots;
      this.positions = positions;
    }
    this.slots[this.count] = slot;
    this.positions[this.count] = position;
    this.count++;
    this.perSlot[slot]++;
  }
  /**
   * How many occurrences of slot `first` have an occurrence of slot `second` at distance
   * 0..window after them (distance 0: both in one identifier).
   */
  countFollowing(first, second, window) {
    if (this.perSlot[first] === 0 || this.perSlot[second] === 0) return 0;
    let count3 = 0;
    for (let i = 0; i < this.count; i++) {
      if (this.slots[i] !== first) continue;
      const x = this.positions[i];
      let j = i;
      while (j > 0 && this.positions[j - 1] === x) j--;
      for (; j < this.count && this.positions[j] - x <= window; j++) {
        if (this.slots[j] === second) {
          count3++;
          break;
        }
      }
    }
    return count3;
  }
};
function phraseScore(scan, pairs, window) {
  let matched = 0;
  let total = 0;
  for (const pair of pairs) {
    total += pair.weight;
    const count3 = scan.countFollowing(pair.first, pair.second, window);
    matched += pair.weight * count3 / (count3 + 1);
  }
  return total > 0 ? matched / total : 0;
}
function coverageScore(scan, weights) {
  let found = 0;
  let total = 0;
  for (let slot = 0; slot < weights.length; slot++) {
    total += weights[slot];
    if (scan.perSlot[slot] > 0) found += weights[slot];
  }
  return total > 0 ? found / total : 0;
}
var RELEASE_SUFFIX = /[-_.]v?\d+(\.\d+)*([-_.]?[a-z]+\d*)?$/i;
var WORD2 = /(?<![\w./-])[A-Za-z0-9][A-Za-z0-9_-]*(?![\w/-]|\.\w)/g;
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
  constructor(chunks) {
    const folderOf = (path) => {
      const slash = path.indexOf("/");
      return slash < 0 ? void 0 : path.slice(0, slash);
    };
    const projects = /* @__PURE__ */ new Map();
    const names = [];
    for (const chunk of chunks) {
      const parts = chunk.file_path.split("/");
      if (parts.length < 3 || projects.has(parts[0])) continue;
      const name = projectNameOf(parts[0]);
      const packageDir = parts[1] === "src" && parts.length > 3 ? parts[2] : parts[1];
      if (name === "" || normalName(packageDir) !== name || !chunk.file_path.endsWith(".py")) continue;
      names.push(name);
      projects.set(parts[0], names.length);
    }
    this.names = names;
    this.#projectOf = new Uint16Array(chunks.length);
    if (names.length > 0) {
      for (let d = 0; d < chunks.length; d++) {
        const folder = folderOf(chunks[d].file_path);
        this.#projectOf[d] = folder === void 0 ? 0 : projects.get(folder) ?? 0;
      }
    }
  }
  /**
   * The projects `query` names and the query without their names. A project's name in a
   * question says where to look, not what to match: `requests` or `click` occurs all over
   * its own project's code and docs, so as a search word it lifts whatever repeats it most.
   * The name is left in place when it is all the question says.
   */
  scope(query) {
    if (this.names.length === 0) return { text: query, projects: NO_PROJECTS };
    const projects = [];
    const text = query.replace(WORD2, (word) => {
      const p = this.names.indexOf(normalName(word)) + 1;
      if (p === 0) return word;
      if (!projects.includes(p)) projects.push(p);
      return " ";
    });
    if (projects.length === 0) return { text: query, projects: NO_PROJECTS };
    return { text: /[A-Za-z0-9]/.test(text) ? text : query, projects: projects.sort((a, b) => a - b) };
  }
  /** Chunk `d`'s project number, 0 for none. */
  projectOf(d) {
    return this.#projectOf[d];
  }
};
var HEADING_SEPARATOR = " > ";
function unitPaths(chunks, flags) {
  return chunks.map((chunk, d) => {
    if (!(flags[d] & PROSE)) return chunk.symbol;
    const cut2 = chunk.symbol.lastIndexOf(HEADING_SEPARATOR);
    return cut2 < 0 ? chunk.symbol : chunk.symbol.slice(0, cut2);
  });
}
function inUnit(unit22, prose, other) {
  if (other.symbol === unit22) return true;
  return prose && other.symbol.length > unit22.length && other.symbol.startsWith(unit22) && other.symbol.startsWith(HEADING_SEPARATOR, unit22.length);
}
function overlap(a, b) {
  return a.first_character_index < b.last_character_index && b.first_character_index < a.last_character_index;
}
function sectionSupport(candidateIds, relative, chunks, units, flags) {
  const support = new Float64Array(candidateIds.length);
  const byFile = /* @__PURE__ */ new Map();
  candidateIds.forEach((id, i) => {
    const file = chunks[id].file_path;
    const group = byFile.get(file);
    if (group) group.push(i);
    else byFile.set(file, [i]);
  });
  for (const group of byFile.values()) {
    if (group.length < 2) continue;
    for (const i of group) {
      const id = candidateIds[i];
      const chunk = chunks[id];
      const unit22 = units[id];
      const prose = (flags[id] & PROSE) !== 0;
      let best2 = 0;
      for (const j of group) {
        if (j === i || relative[j] <= best2) continue;
        const other = chunks[candidateIds[j]];
        if (!overlap(chunk, other) && inUnit(unit22, prose, other)) best2 = relative[j];
      }
      support[i] = best2;
    }
  }
  return support;
}
var NO_NAMES = /* @__PURE__ */ new Set();
var Reranker = class {
  #index;
  #chunks;
  #options;
  #flags;
  #modalities;
  #auxiliaryTerms;
  #documentationTerms;
  #shape;
  #slotOf;
  #units;
  #scan = new ChunkScan();
  #projects;
  constructor(index, chunks) {
    this.#index = index;
    this.#chunks = chunks;
    const { options } = index;
    this.#options = options.rerank;
    this.#flags = chunkFlags(chunks);
    this.#modalities = options.rerank.modality > 0 ? TermModalities.learn(index.data, this.#flags) : void 0;
    this.#auxiliaryTerms = new Set(tokenize(AUXILIARY_QUERY_WORDS, options.tokenizer));
    this.#documentationTerms = new Set(tokenize(DOCUMENTATION_QUERY_WORDS, options.tokenizer));
    this.#shape = createQueryShaper(options.tokenizer, options.query);
    this.#slotOf = new Int32Array(index.data.dictionary.size).fill(-1);
    this.#units = unitPaths(chunks, this.#flags);
    this.#projects = new CorpusProjects(chunks);
  }
  /**
   * The question as searched and the projects it names: when the corpus holds several
   * projects (see `CorpusProjects`) and `projectFactor` < 1, a project's name is taken out
   * of the words searched and chunks of the other projects are scaled by `projectFactor`.
   */
  scope(query) {
    if (this.#options.projectFactor === 1 || this.#projects.names.length < 2) return { text: query, projects: [] };
    return this.#projects.scope(query);
  }
  get options() {
    return this.#options;
  }
  /**
   * How prose-like a query with these term ids reads, in (−1, 1): tanh of the terms' mean
   * log ratio of prose to code frequency (see `termModalities`); 0 for no terms, undefined
   * when the prior is off or the corpus has only one kind of text.
   */
  leanOf(termIds) {
    if (!this.#modalities) return void 0;
    if (termIds.length === 0) return 0;
    let sum = 0;
    for (const id of termIds) sum += this.#modalities.ratio(id);
    return Math.tanh(sum / termIds.length);
  }
  /** How many first-stage hits a search for `k` results re-scores. */
  depthFor(k) {
    return Math.max(k, this.#options.depth);
  }
  /**
   * The best `k` of `candidates` (first-stage hits for `query`, best first) after
   * re-scoring; `terms` are the query's resolved terms (`Bm25Index.resolveQuery`).
   */
  rerank(query, terms, candidates, k, projects = []) {
    if (candidates.length === 0) return [];
    const top = candidates[0].score;
    const prepared = this.#prepare(query, terms, projects);
    try {
      const support = this.#support(
        candidates.map((hit) => hit.chunkId),
        candidates.map((hit) => hit.score / top)
      );
      const rescored = candidates.map((hit, i) => ({ chunkId: hit.chunkId, score: this.#parts(prepared, hit.chunkId, hit.score, top, support?.[i] ?? 0).score }));
      rescored.sort((a, b) => b.score - a.score || a.chunkId - b.chunkId);
      const o = this.#options;
      return selectHits(rescored, this.#chunks, this.#flags, k, { dedupe: o.dedupe, fileShare: o.fileShare, kindShare: o.kindShare });
    } finally {
      this.#release(prepared);
    }
  }
  /**
   * The second-stage score of `chunkId` and its parts, given its and the best first-stage
   * score; section support is taken from the query's first-stage candidates.
   */
  explainParts(query, chunkId, score, top, projects = []) {
    const terms = this.#index.resolveQuery(query);
    const prepared = this.#prepare(query, terms, projects);
    try {
      let support = 0;
      if (this.#options.sectionSupport > 0) {
        const others = this.#index.searchTerms(terms, this.#options.depth).filter((hit) => hit.chunkId !== chunkId);
        const ids = [...others.map((hit) => hit.chunkId), chunkId];
        const relative = [...others.map((hit) => top > 0 ? hit.score / top : 0), top > 0 ? score / top : 0];
        support = this.#support(ids, relative)[ids.length - 1];
      }
      return {
        parts: this.#parts(prepared, chunkId, score, top, support),
        lean: prepared.lean,
        asksForAuxiliary: prepared.asksForAuxiliary,
        asksForPlace: prepared.asksForPlace,
        kind: prepared.kind,
        evidenceWeight: prepared.evidenceWeight
      };
    } finally {
      this.#release(prepared);
    }
  }
  /** The explanation tree of a second-stage score around the chunk's BM25F explanation. */
  explain(query, chunkId, first, top, projects = []) {
    const { parts, lean, asksForAuxiliary, asksForPlace, kind, evidenceWeight } = this.explainParts(query, chunkId, first.value, top, projects);
    const o = this.#options;
    const flags = this.#flags[chunkId];
    const named = projects.map((p) => this.#projects.names[p - 1]).join(", ");
    return {
      value: parts.score,
      description: "second stage: scope \xB7 (a \xB7 (s / s_top + proximity \xB7 phrase + coverage \xB7 covered + definition \xB7 defined + explanation \xB7 explained + sectionSupport \xB7 support + answerEvidence[kind] \xB7 evidence) + modality \xB7 (1 + side \xB7 lean))",
      details: [
        { value: parts.relative, description: `s / s_top: BM25F score relative to the query's best (${top})`, details: [first] },
        { value: parts.phrase, description: `phrase: share of adjacent query word pairs found in order within ${o.proximityWindow} words (weight ${o.proximity})` },
        { value: parts.covered, description: `covered: share of the query's term weight found in the chunk (weight ${o.coverage})` },
        {
          value: parts.defined,
          description: asksForPlace ? `defined: share of the query's identifiers this code chunk defines, or 1 when its own name is a word of this place question (weight ${o.definition})` : `defined: share of the query's identifiers this code chunk defines (weight ${o.definition})`
        },
        {
          value: parts.explained,
          description: asksForPlace ? `explained: 0, the question asks where a name lives (${kind} is one of placeKinds): only its definition answers (weight ${o.explanation})` : `explained: share of the query's identifiers this prose chunk spells as inline code (weight ${o.explanation})`
        },
        {
          value: parts.support,
          description: `support: best relative first-stage score of another, non-overlapping candidate of the same function or section (weight ${o.sectionSupport})`
        },
        {
          value: parts.evidence,
          description: `evidence: the question asks for ${kind === "explain" ? "an explanation" : `${kind === "error" ? "an" : "a"} ${kind}`}; 1 when this code chunk carries that kind of fact (weight ${evidenceWeight})`
        },
        {
          value: parts.auxiliary,
          description: flags & AUXILIARY ? asksForAuxiliary ? "a: test/example/benchmark chunk, but the query asks for one, so 1" : `a: test/example/benchmark chunk, the query asks for none (auxiliaryFactor ${o.auxiliaryFactor})` : "a: implementation chunk, 1"
        },
        {
          value: 1 + parts.side * lean,
          description: `1 + side \xB7 lean: ${flags & PROSE ? "prose" : "code"} chunk, query lean ${lean.toFixed(4)} toward prose (weight ${o.modality})`
        },
        {
          value: parts.scope,
          description: projects.length === 0 ? "scope: the question names no project of the corpus, so 1" : parts.scope === 1 ? `scope: the question names ${named} and this chunk is there, so 1` : `scope: the question names ${named} and this chunk is elsewhere (projectFactor ${o.projectFactor})`
        }
      ]
    };
  }
  /** Section support of each candidate (see `sectionSupport`); `undefined` when it is off. */
  #support(ids, relative) {
    return this.#options.sectionSupport > 0 ? sectionSupport(ids, relative, this.#chunks, this.#units, this.#flags) : void 0;
  }
  #parts(prepared, chunkId, score, top, support) {
    const o = this.#options;
    const flags = this.#flags[chunkId];
    const relative = top > 0 ? score / top : 0;
    const scan = this.#scan;
    if (o.proximity > 0 || o.coverage > 0 || prepared.definitions.length > 0) {
      scan.scan(this.#index.data, chunkId, this.#slotOf, prepared.slotIds.length, o.proximityWindow);
    }
    const phrase = o.proximity > 0 ? phraseScore(scan, prepared.pairs, o.proximityWindow) : 0;
    const covered = o.coverage > 0 ? coverageScore(scan, prepared.slotWeights) : 0;
    const features = this.#index.data.features;
    let defined = 0;
    let explained = 0;
    if (prepared.definitions.length > 0) {
      let found = 0;
      for (const { slot } of prepared.definitions) {
        if (scan.perSlot[slot] !== 0 && hasName(features, chunkId, prepared.slotIds[slot])) found++;
      }
      if (flags & PROSE) explained = prepared.asksForPlace ? 0 : found / prepared.definitions.length;
      else defined = found / prepared.definitions.length;
    }
    if (prepared.placeNames.size > 0 && !(flags & PROSE)) {
      const symbol = this.#chunks[chunkId].symbol;
      if (prepared.placeNames.has(symbol.slice(symbol.lastIndexOf(".") + 1))) defined = 1;
    }
    const evidence = prepared.evidenceWeight > 0 && !(flags & PROSE) && carriesEvidence(features, chunkId, prepared.kind) ? 1 : 0;
    const auxiliary = flags & AUXILIARY && !prepared.asksForAuxiliary ? o.auxiliaryFactor : 1;
    const side = flags & PROSE ? 1 : -1;
    const scope = prepared.projects.length > 0 && !prepared.projects.includes(this.#projects.projectOf(chunkId)) ? o.projectFactor : 1;
    const value = scope * (auxiliary * (relative + o.proximity * phrase + o.coverage * covered + o.definition * defined + o.explanation * explained + o.sectionSupport * support + prepared.evidenceWeight * evidence) + o.modality * (1 + side * prepared.lean));
    return { relative, phrase, covered, defined, explained, support, evidence, auxiliary, side, scope, score: value };
  }
  #prepare(query, terms, projects) {
    const shape = this.#shape(query);
    const weightOf2 = new Map(terms.map((term) => [term.term, term]));
    const slotIds = terms.map((term) => term.id);
    const slotWeights = terms.map((term) => term.weight);
    slotIds.forEach((id, slot) => this.#slotOf[id] = slot);
    const slotFor = (term) => {
      const resolved = weightOf2.get(term);
      return resolved ? this.#slotOf[resolved.id] : -1;
    };
    const pairs = [];
    if (this.#options.proximity > 0) {
      for (let i = 0; i + 1 < shape.words.length; i++) {
        const a = shape.words[i][0];
        const b = shape.words[i + 1][0];
        if (a === b) continue;
        const first = slotFor(a);
        const second = slotFor(b);
        if (first < 0 || second < 0) continue;
        pairs.push({ first, second, weight: Math.min(weightOf2.get(a).weight, weightOf2.get(b).weight) });
      }
    }
    const lean = this.leanOf(terms.map((term) => term.id)) ?? 0;
    const kind = detectAnswerKind(query);
    const asksForPlace = this.#options.placeKinds.includes(kind) && !shape.words.some((variants) => variants.some((term) => this.#documentationTerms.has(term)));
    return {
      projects,
      kind,
      evidenceWeight: kind in this.#options.answerEvidence ? this.#options.answerEvidence[kind] : 0,
      shape,
      pairs,
      slotIds,
      slotWeights,
      definitions: this.#definitions(shape.separatedIdentifiers, slotFor),
      lean,
      asksForAuxiliary: terms.some((term) => this.#auxiliaryTerms.has(term.term)),
      asksForPlace,
      placeNames: asksForPlace ? new Set(query.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []) : NO_NAMES
    };
  }
  #definitions(identifiers, slotFor) {
    if (this.#options.definition === 0 && this.#options.explanation === 0) return [];
    const definitions = [];
    for (const identifier of identifiers) {
      const name = identifierTerm(identifier);
      const slot = slotFor(name);
      if (slot >= 0 && !definitions.some((known) => known.name === name)) definitions.push({ name, slot });
    }
    return definitions;
  }
  #release(prepared) {
    for (const id of prepared.slotIds) this.#slotOf[id] = -1;
  }
};

// ../../packages/bm25/dist/index.js
import { readFile as readFile2 } from "fs/promises";
import { join as join4 } from "path";
import { isDeepStrictEqual } from "util";
function checkK(options) {
  const k = options?.k;
  if (typeof k !== "number" || !Number.isInteger(k) || k < 1) {
    throw new RagError("INVALID_ARGUMENT", `Search needs k to be an integer \u2265 1 (got ${String(k)}).`, {
      hint: "Pass { k: 5 } or another positive whole number."
    });
  }
  return k;
}
function checkQuery(query) {
  if (typeof query !== "string") {
    throw new RagError("INVALID_ARGUMENT", "Search needs the query as a string.", { hint: "Pass the question text." });
  }
  return query;
}
var Bm25Retriever = class {
  name = "bm25";
  index;
  reranker;
  #prefetchTexts;
  /** `prefetchTexts`: see `LoadContext.prefetchTexts` (the second stage reads candidates' texts). */
  constructor(index, chunks, prefetchTexts) {
    this.index = index;
    this.#prefetchTexts = prefetchTexts;
    if (chunks !== void 0 && chunks.length !== index.docCount) {
      throw new RagError("INVALID_ARGUMENT", `The bm25 index has ${index.docCount} chunks but ${chunks.length} were given.`, {
        hint: "Pass the chunks the index was built over."
      });
    }
    this.reranker = chunks !== void 0 && index.options.rerank.depth > 0 ? new Reranker(index, chunks) : void 0;
    const reranker = this.reranker;
    if (reranker && index.options.query.abbreviationWeight > 0) {
      index.gateQueryExpansions((terms) => {
        const ids = terms.filter((t) => !t.expansion).map((t) => index.data.dictionary.lookup(t.term)).filter((id) => id >= 0);
        const lean = reranker.leanOf(ids);
        return lean !== void 0 && lean < 0 ? terms : terms.filter((t) => !t.expansion);
      });
    }
  }
  async search(query, options) {
    if (!this.#prefetchTexts || !this.reranker) return this.searchSync(query, options);
    const k = checkK(options);
    const reranker = this.reranker;
    const scope = reranker.scope(checkQuery(query));
    const terms = this.index.resolveQuery(scope.text);
    const candidates = this.index.searchTerms(terms, reranker.depthFor(k));
    await this.#prefetchTexts(candidates.map((hit) => hit.chunkId));
    return reranker.rerank(scope.text, terms, candidates, k, scope.projects);
  }
  /** `search` without the promise, for callers in a hot loop (benchmarks, fusion). */
  searchSync(query, options) {
    const k = checkK(options);
    checkQuery(query);
    if (!this.reranker) return this.index.search(query, k);
    const scope = this.reranker.scope(query);
    const terms = this.index.resolveQuery(scope.text);
    return this.reranker.rerank(scope.text, terms, this.index.searchTerms(terms, this.reranker.depthFor(k)), k, scope.projects);
  }
  /**
   * Why `chunkId` scores what it does. With the second stage on, the tree's root is the
   * second-stage score (equal to the search score of every hit it returned) and its first
   * detail holds the BM25F explanation; a chunk outside the re-scored depth gets the score
   * it would have had.
   */
  explain(query, chunkId) {
    if (!this.reranker) return this.index.explain(query, chunkId);
    const scope = this.reranker.scope(query);
    const first = this.index.explain(scope.text, chunkId);
    const top = this.index.search(scope.text, 1)[0]?.score ?? 0;
    return this.reranker.explain(scope.text, chunkId, first, top, scope.projects);
  }
  async save(dir) {
    await writeFileAtomic(join4(dir, BM25_FILE_NAME), encodeIndexParts(this.index.data));
  }
};
function createBm25Retriever(chunks, settings = {}, onProgress, previous) {
  return new Bm25Retriever(Bm25Index.build(chunks, settings, onProgress, previous), chunks);
}
async function readReusableBuild(previous, settings) {
  try {
    const data = decodeIndex(await (previous.readFile ?? readFile2)(join4(previous.dir, BM25_FILE_NAME)), BM25_FILE_NAME);
    if (!isDeepStrictEqual(data.options, resolveBm25Options(settings))) return void 0;
    if (data.chunkFingerprint !== fingerprintChunks(previous.chunks)) return void 0;
    return { data, sourceOf: previous.sourceOf };
  } catch {
    return void 0;
  }
}
async function loadBm25Retriever(dir, chunks, context = {}) {
  const path = join4(dir, BM25_FILE_NAME);
  let bytes;
  try {
    bytes = await (context.readFile ?? readFile2)(path);
  } catch (error) {
    throw new RagError("INDEX_CORRUPT", `The bm25 index file ${path} is missing or unreadable.`, {
      hint: "Rebuild the index with `rag index --corpus_dir <dir>`.",
      cause: error
    });
  }
  const data = decodeIndex(bytes, path, { checksum: context.verified !== true });
  if (context.verified !== true && data.chunkFingerprint !== fingerprintChunks(chunks)) {
    throw new RagError("INDEX_CORRUPT", `The bm25 index ${path} was built over other chunks than the ${chunks.length} it is loaded with.`, {
      hint: "Rebuild the index with `rag index --corpus_dir <dir>`."
    });
  }
  return new Bm25Retriever(new Bm25Index(data), chunks, context.prefetchTexts);
}
var bm25RetrieverFactory = {
  name: "bm25",
  description: "Code-aware BM25F over chunk text, file path and symbol (lexical, no model).",
  async build(chunks, context = {}) {
    const settings = context.settings ?? {};
    const previous = context.previous ? await readReusableBuild(context.previous, settings) : void 0;
    return createBm25Retriever(chunks, settings, context.onProgress, previous);
  },
  load: loadBm25Retriever
};

// ../../packages/embedding/dist/chunk-BYI5W3YN.js
import { createHash as createHash2 } from "crypto";
import { createHash as createHash22 } from "crypto";
import { readdir, readFile as readFile3, rm } from "fs/promises";
import { join as join5 } from "path";
import { resolve as resolve3 } from "path";
import { createRequire } from "module";
import { readFile as readFile22 } from "fs/promises";
import { join as join22 } from "path";
import { stat } from "fs/promises";
import { basename, dirname, join as join32 } from "path";
import { existsSync as existsSync2 } from "fs";
import { mkdtemp, readFile as readFile32, rm as rm2, writeFile } from "fs/promises";
import { tmpdir } from "os";
import { join as join42 } from "path";
import { isDeepStrictEqual as isDeepStrictEqual2 } from "util";
function dotRow(a, m, row, dim) {
  const base = row * dim;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < dim; i += 4) {
    s0 += a[i] * m[base + i];
    s1 += a[i + 1] * m[base + i + 1];
    s2 += a[i + 2] * m[base + i + 2];
    s3 += a[i + 3] * m[base + i + 3];
  }
  for (; i < dim; i++) s0 += a[i] * m[base + i];
  return s0 + s1 + s2 + s3;
}
function normalizeInPlace(v, offset = 0, dim = v.length - offset) {
  let sum = 0;
  for (let i = offset; i < offset + dim; i++) sum += v[i] * v[i];
  const norm = Math.sqrt(sum);
  if (norm > 0) {
    const inverse = 1 / norm;
    for (let i = offset; i < offset + dim; i++) v[i] = v[i] * inverse;
  }
  return norm;
}
function typeOf2(array) {
  if (array instanceof Float32Array) return "f32";
  if (array instanceof Int8Array) return "i8";
  if (array instanceof Uint32Array) return "u32";
  return "u8";
}
function view(type, buffer, offset, length) {
  switch (type) {
    case "f32":
      return new Float32Array(buffer, offset, length);
    case "i8":
      return new Int8Array(buffer, offset, length);
    case "u32":
      return new Uint32Array(buffer, offset, length);
    default:
      return new Uint8Array(buffer, offset, length);
  }
}
var align8 = (n) => n + 7 & ~7;
function checksum(bytes) {
  let hash = 2166136261;
  const words2 = bytes.byteOffset % 4 === 0 ? new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >>> 2) : null;
  let i = 0;
  if (words2) {
    for (let w = 0; w < words2.length; w++) hash = Math.imul(hash ^ words2[w], 16777619);
    i = words2.length * 4;
  }
  for (; i < bytes.length; i++) hash = Math.imul(hash ^ bytes[i], 16777619);
  return hash >>> 0;
}
function encodeContainer(magic, header, sections) {
  const layout = {};
  let payloadBytes = 0;
  for (const [name, array] of Object.entries(sections)) {
    layout[name] = { type: typeOf2(array), offset: payloadBytes, length: array.length };
    payloadBytes = align8(payloadBytes + array.byteLength);
  }
  const payload = new Uint8Array(payloadBytes);
  for (const [name, array] of Object.entries(sections)) {
    payload.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), layout[name].offset);
  }
  const sum = checksum(payload);
  let payloadOffset = 0;
  let headerBytes = new Uint8Array();
  for (let attempt = 0; attempt < 4; attempt++) {
    const full = { ...header, payloadOffset, payloadBytes, checksum: sum, sections: {} };
    for (const [name, entry] of Object.entries(layout)) full.sections[name] = { ...entry, offset: payloadOffset + entry.offset };
    headerBytes = new TextEncoder().encode(JSON.stringify(full));
    const next = align8(12 + headerBytes.length);
    if (next === payloadOffset) break;
    payloadOffset = next;
  }
  const out = new Uint8Array(payloadOffset + payloadBytes);
  out.set(new TextEncoder().encode(magic.padEnd(8, "\0").slice(0, 8)), 0);
  new DataView(out.buffer).setUint32(8, headerBytes.length, true);
  out.set(headerBytes, 12);
  out.set(payload, payloadOffset);
  return out;
}
function corrupt2(label, why) {
  return new RagError("INDEX_CORRUPT", `${label} is damaged: ${why}.`, {
    hint: "Rebuild the index with `rag index --corpus_dir <dir>`."
  });
}
function decodeContainer(bytes, magic, label) {
  const expected = new TextEncoder().encode(magic.padEnd(8, "\0").slice(0, 8));
  if (bytes.length < 12 || expected.some((b, i) => bytes[i] !== b)) {
    throw new RagError("INDEX_INCOMPATIBLE", `${label} is not a file this version can read (bad magic).`, {
      hint: "Rebuild the index with `rag index --corpus_dir <dir>`."
    });
  }
  const aligned = new Uint8Array(bytes.length);
  aligned.set(bytes);
  const headerLength = new DataView(aligned.buffer).getUint32(8, true);
  let header;
  try {
    header = JSON.parse(new TextDecoder().decode(aligned.subarray(12, 12 + headerLength)));
  } catch {
    throw corrupt2(label, "its header is not valid JSON");
  }
  if (header.payloadOffset + header.payloadBytes !== aligned.length) throw corrupt2(label, "it is truncated or has trailing bytes");
  if (checksum(aligned.subarray(header.payloadOffset)) !== header.checksum) throw corrupt2(label, "its checksum does not match");
  const sections = {};
  for (const [name, entry] of Object.entries(header.sections)) {
    sections[name] = view(entry.type, aligned.buffer, entry.offset, entry.length);
  }
  return { header, sections };
}
function multiplyDense(a, x, width, out = new Float64Array(a.rows * width)) {
  out.fill(0);
  for (let r = 0; r < a.rows; r++) {
    const base = r * width;
    const end = a.rowStart[r + 1];
    let p = a.rowStart[r];
    for (; p + 1 < end; p += 2) {
      const v0 = a.values[p];
      const v1 = a.values[p + 1];
      const x0 = a.colIndex[p] * width;
      const x1 = a.colIndex[p + 1] * width;
      for (let c = 0; c < width; c++) out[base + c] = out[base + c] + v0 * x[x0 + c] + v1 * x[x1 + c];
    }
    if (p < end) {
      const v = a.values[p];
      const xBase = a.colIndex[p] * width;
      for (let c = 0; c < width; c++) out[base + c] = out[base + c] + v * x[xBase + c];
    }
  }
  return out;
}
function multiplyTransposeDense(a, y, width, out = new Float64Array(a.cols * width)) {
  out.fill(0);
  for (let r = 0; r < a.rows; r++) {
    const yBase = r * width;
    for (let p = a.rowStart[r]; p < a.rowStart[r + 1]; p++) {
      const v = a.values[p];
      const base = a.colIndex[p] * width;
      for (let c = 0; c < width; c++) out[base + c] = out[base + c] + v * y[yBase + c];
    }
  }
  return out;
}
function csrFromTriples(rows, cols, rowOf, colOf, valueOf, count22) {
  const rowStart = new Uint32Array(rows + 1);
  for (let i = 0; i < count22; i++) rowStart[rowOf[i] + 1]++;
  for (let r = 0; r < rows; r++) rowStart[r + 1] += rowStart[r];
  const cursor = rowStart.slice(0, rows);
  const colIndex = new Uint32Array(count22);
  const values = new Float32Array(count22);
  for (let i = 0; i < count22; i++) {
    const at = cursor[rowOf[i]]++;
    colIndex[at] = colOf[i];
    values[at] = valueOf[i];
  }
  return { rows, cols, rowStart, colIndex, values };
}
function transpose(a) {
  const rowStart = new Uint32Array(a.cols + 1);
  for (let p = 0; p < a.colIndex.length; p++) rowStart[a.colIndex[p] + 1]++;
  for (let c = 0; c < a.cols; c++) rowStart[c + 1] += rowStart[c];
  const cursor = rowStart.slice(0, a.cols);
  const colIndex = new Uint32Array(a.colIndex.length);
  const values = new Float32Array(a.values.length);
  for (let r = 0; r < a.rows; r++) {
    for (let p = a.rowStart[r]; p < a.rowStart[r + 1]; p++) {
      const at = cursor[a.colIndex[p]]++;
      colIndex[at] = r;
      values[at] = a.values[p];
    }
  }
  return { rows: a.cols, cols: a.rows, rowStart, colIndex, values };
}
function windowCooccurrence(corpus, window, minPairCount) {
  const vocabulary = corpus.terms.length;
  if (vocabulary > 65536) throw new Error("windowCooccurrence needs a vocabulary of at most 65,536 terms");
  const codes = new Uint32Array(corpus.tokens.length * window);
  let count22 = 0;
  const { tokens, docStart } = corpus;
  for (let d = 0; d < corpus.docCount; d++) {
    const end = docStart[d + 1];
    for (let i = docStart[d]; i < end; i++) {
      const a = tokens[i];
      const last = Math.min(end, i + window + 1);
      for (let j = i + 1; j < last; j++) {
        const b = tokens[j];
        if (a === b) continue;
        codes[count22++] = a < b ? a * vocabulary + b : b * vocabulary + a;
      }
    }
  }
  const sorted = codes.subarray(0, count22).sort();
  let distinct = 0;
  for (let i = 0; i < count22; ) {
    let j = i + 1;
    while (j < count22 && sorted[j] === sorted[i]) j++;
    if (j - i >= minPairCount) distinct++;
    i = j;
  }
  const rows = new Uint32Array(distinct * 2);
  const cols = new Uint32Array(distinct * 2);
  const values = new Float32Array(distinct * 2);
  let out = 0;
  for (let i = 0; i < count22; ) {
    let j = i + 1;
    while (j < count22 && sorted[j] === sorted[i]) j++;
    if (j - i >= minPairCount) {
      const code = sorted[i];
      const low = Math.floor(code / vocabulary);
      const high = code - low * vocabulary;
      rows[out] = low;
      cols[out] = high;
      values[out++] = j - i;
      rows[out] = high;
      cols[out] = low;
      values[out++] = j - i;
    }
    i = j;
  }
  return csrFromTriples(vocabulary, vocabulary, rows, cols, values, out);
}
function documentCooccurrence(corpus) {
  const rows = [];
  const cols = [];
  const values = [];
  const counts = /* @__PURE__ */ new Map();
  for (let d = 0; d < corpus.docCount; d++) {
    counts.clear();
    for (let p = corpus.docStart[d]; p < corpus.docStart[d + 1]; p++) {
      const t = corpus.tokens[p];
      counts.set(t, (counts.get(t) ?? 0) + 1);
    }
    for (const [t, c] of counts) {
      rows.push(t);
      cols.push(d);
      values.push(c);
    }
  }
  return csrFromTriples(corpus.terms.length, corpus.docCount, Uint32Array.from(rows), Uint32Array.from(cols), Float32Array.from(values), rows.length);
}
function toPpmi(m, smoothing) {
  const rowSum = new Float64Array(m.rows);
  const colSum = new Float64Array(m.cols);
  for (let r = 0; r < m.rows; r++) {
    for (let p = m.rowStart[r]; p < m.rowStart[r + 1]; p++) {
      rowSum[r] += m.values[p];
      colSum[m.colIndex[p]] += m.values[p];
    }
  }
  const colSmoothed = Float64Array.from(colSum, (s) => Math.pow(s, smoothing));
  let smoothedTotal = 0;
  for (const s of colSmoothed) smoothedTotal += s;
  const rowStart = new Uint32Array(m.rows + 1);
  const colIndex = new Uint32Array(m.colIndex.length);
  const values = new Float32Array(m.values.length);
  let out = 0;
  for (let r = 0; r < m.rows; r++) {
    rowStart[r] = out;
    for (let p = m.rowStart[r]; p < m.rowStart[r + 1]; p++) {
      const c = m.colIndex[p];
      const pmi = Math.log(m.values[p] * smoothedTotal / (rowSum[r] * colSmoothed[c]));
      if (pmi > 0) {
        colIndex[out] = c;
        values[out++] = pmi;
      }
    }
  }
  rowStart[m.rows] = out;
  return { rows: m.rows, cols: m.cols, rowStart, colIndex: colIndex.slice(0, out), values: values.slice(0, out) };
}
function gram(x, rows, width) {
  const g = new Float64Array(width * width);
  let r = 0;
  for (; r + 3 < rows; r += 4) {
    const b0 = r * width;
    const b1 = b0 + width;
    const b2 = b1 + width;
    const b3 = b2 + width;
    for (let a = 0; a < width; a++) {
      const v0 = x[b0 + a];
      const v1 = x[b1 + a];
      const v2 = x[b2 + a];
      const v3 = x[b3 + a];
      const gBase = a * width;
      for (let b = a; b < width; b++) {
        g[gBase + b] = g[gBase + b] + v0 * x[b0 + b] + v1 * x[b1 + b] + v2 * x[b2 + b] + v3 * x[b3 + b];
      }
    }
  }
  for (; r < rows; r++) {
    const base = r * width;
    for (let a = 0; a < width; a++) {
      const va = x[base + a];
      const gBase = a * width;
      for (let b = a; b < width; b++) g[gBase + b] = g[gBase + b] + va * x[base + b];
    }
  }
  for (let a = 0; a < width; a++) for (let b = 0; b < a; b++) g[a * width + b] = g[b * width + a];
  return g;
}
function multiplySmall(x, rows, width, m, outWidth) {
  const out = new Float64Array(rows * outWidth);
  for (let r = 0; r < rows; r++) {
    const base = r * width;
    const outBase = r * outWidth;
    let a = 0;
    for (; a + 3 < width; a += 4) {
      const v0 = x[base + a];
      const v1 = x[base + a + 1];
      const v2 = x[base + a + 2];
      const v3 = x[base + a + 3];
      const m0 = a * outWidth;
      const m1 = m0 + outWidth;
      const m2 = m1 + outWidth;
      const m3 = m2 + outWidth;
      for (let c = 0; c < outWidth; c++) {
        out[outBase + c] = out[outBase + c] + v0 * m[m0 + c] + v1 * m[m1 + c] + v2 * m[m2 + c] + v3 * m[m3 + c];
      }
    }
    for (; a < width; a++) {
      const va = x[base + a];
      const mBase = a * outWidth;
      for (let c = 0; c < outWidth; c++) out[outBase + c] = out[outBase + c] + va * m[mBase + c];
    }
  }
  return out;
}
function symmetricEigen(matrix, n, maxSweeps = 30) {
  const a = Float64Array.from(matrix);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  let scale = 0;
  for (let i = 0; i < n * n; i++) scale += a[i] * a[i];
  const tolerance = 1e-22 * Math.max(scale, 1e-300);
  for (let sweep = 0; sweep < maxSweeps; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p * n + q] * a[p * n + q];
    if (off <= tolerance) break;
    for (let p = 0; p < n - 1; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q];
        if (Math.abs(apq) < 1e-300) continue;
        const app = a[p * n + p];
        const aqq = a[q * n + q];
        const theta = (aqq - app) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p];
          const akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k];
          const aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k * n + p];
          const vkq = v[k * n + q];
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((i, j) => a[j * n + j] - a[i * n + i]);
  const values = new Float64Array(n);
  const vectors = new Float64Array(n * n);
  order.forEach((from, to) => {
    values[to] = a[from * n + from];
    for (let k = 0; k < n; k++) vectors[k * n + to] = v[k * n + from];
  });
  return { values, vectors };
}
function choleskyOrthonormalize(x, rows, width) {
  const r = gram(x, rows, width);
  for (let j = 0; j < width; j++) {
    for (let k = 0; k < j; k++) {
      const rkj = r[k * width + j];
      for (let i = j; i < width; i++) r[j * width + i] = r[j * width + i] - rkj * r[k * width + i];
    }
    const pivot = r[j * width + j];
    if (!(pivot > 1e-10 * Math.max(r[0], 1e-300))) return null;
    const root = Math.sqrt(pivot);
    for (let i = j; i < width; i++) r[j * width + i] = r[j * width + i] / root;
  }
  const inverse = new Float64Array(width * width);
  for (let j = width - 1; j >= 0; j--) {
    inverse[j * width + j] = 1 / r[j * width + j];
    for (let i = j + 1; i < width; i++) {
      let sum = 0;
      for (let k = j + 1; k <= i; k++) sum += r[j * width + k] * inverse[k * width + i];
      inverse[j * width + i] = -sum / r[j * width + j];
    }
  }
  return multiplySmall(x, rows, width, inverse, width);
}
function orthonormalizeColumns(x, rows, width) {
  const { values, vectors } = symmetricEigen(gram(x, rows, width), width);
  const largest = Math.max(values[0] ?? 0, 0);
  const scaled = new Float64Array(width * width);
  for (let c = 0; c < width; c++) {
    const lambda = values[c];
    const factor = lambda > largest * 1e-12 && lambda > 0 ? 1 / Math.sqrt(lambda) : 0;
    for (let k = 0; k < width; k++) scaled[k * width + c] = vectors[k * width + c] * factor;
  }
  return multiplySmall(x, rows, width, scaled, width);
}
function gaussianMatrix(rows, cols, seed) {
  let state = seed >>> 0;
  const uniform = () => {
    state = state + 1831565813 >>> 0;
    let t = state;
    t = Math.imul(t ^ t >>> 15, t | 1);
    t ^= t + Math.imul(t ^ t >>> 7, t | 61);
    return (((t ^ t >>> 14) >>> 0) + 1) / 4294967297;
  };
  const out = new Float64Array(rows * cols);
  for (let i = 0; i < out.length; i += 2) {
    const radius = Math.sqrt(-2 * Math.log(uniform()));
    const angle = 2 * Math.PI * uniform();
    out[i] = radius * Math.cos(angle);
    if (i + 1 < out.length) out[i + 1] = radius * Math.sin(angle);
  }
  return out;
}
function orthonormalize(x, rows, width) {
  const once = choleskyOrthonormalize(x, rows, width);
  const twice = once && choleskyOrthonormalize(once, rows, width);
  return twice ?? orthonormalizeColumns(orthonormalizeColumns(x, rows, width), rows, width);
}
function randomizedSvd(a, options) {
  if (a.rows <= a.cols) return leftSingularVectors(a, options);
  const right = leftSingularVectors(transpose(a), options);
  const u = multiplyDense(a, right.u, right.rank);
  for (let r = 0; r < a.rows; r++) {
    for (let c = 0; c < right.rank; c++) {
      const sigma = right.singularValues[c];
      u[r * right.rank + c] = sigma > 0 ? u[r * right.rank + c] / sigma : 0;
    }
  }
  return { u, singularValues: right.singularValues, rank: right.rank };
}
function leftSingularVectors(a, options) {
  const width = Math.min(options.rank + options.oversampling, a.rows, a.cols);
  const rank = Math.min(options.rank, width);
  const omega = gaussianMatrix(a.cols, width, options.seed);
  let q = orthonormalize(multiplyDense(a, omega, width), a.rows, width);
  for (let i = 0; i < options.powerIterations; i++) {
    q = orthonormalize(multiplyDense(a, multiplyTransposeDense(a, q, width), width), a.rows, width);
  }
  const bt = multiplyTransposeDense(a, q, width);
  const { values, vectors } = symmetricEigen(gram(bt, a.cols, width), width);
  const rotation = new Float64Array(width * rank);
  for (let k = 0; k < width; k++) for (let c = 0; c < rank; c++) rotation[k * rank + c] = vectors[k * width + c];
  const u = multiplySmall(q, a.rows, width, rotation, rank);
  const singularValues = new Float64Array(rank);
  for (let c = 0; c < rank; c++) singularValues[c] = Math.sqrt(Math.max(values[c], 0));
  return { u, singularValues, rank };
}
function grow(array, needed) {
  if (needed <= array.length) return array;
  const bigger = new Uint32Array(Math.max(needed, array.length * 2));
  bigger.set(array);
  return bigger;
}
function encodeCorpus(documents, options) {
  const provisional = /* @__PURE__ */ new Map();
  let termCount = 0;
  let frequency = new Uint32Array(1024);
  let lastDocument = new Uint32Array(1024);
  let stream = new Uint32Array(1 << 16);
  let streamLength = 0;
  const starts = [0];
  let doc = 0;
  for (const terms of documents) {
    doc++;
    stream = grow(stream, streamLength + terms.length);
    for (const term of terms) {
      let id = provisional.get(term);
      if (id === void 0) {
        id = termCount++;
        provisional.set(term, id);
        frequency = grow(frequency, termCount);
        lastDocument = grow(lastDocument, termCount);
      }
      if (lastDocument[id] !== doc) {
        lastDocument[id] = doc;
        frequency[id]++;
      }
      stream[streamLength++] = id;
    }
    starts.push(streamLength);
  }
  const names = new Array(termCount);
  for (const [term, id] of provisional) names[id] = term;
  const kept = [];
  for (let id = 0; id < termCount; id++) if (frequency[id] >= options.minCount) kept.push(id);
  kept.sort((a, b) => frequency[b] - frequency[a] || (names[a] < names[b] ? -1 : 1));
  kept.length = Math.min(kept.length, options.maxVocabulary);
  const remap = new Int32Array(termCount).fill(-1);
  kept.forEach((id, index) => remap[id] = index);
  const tokens = new Uint32Array(streamLength);
  const docStart = new Uint32Array(starts.length);
  let out = 0;
  for (let d = 0; d + 1 < starts.length; d++) {
    docStart[d] = out;
    for (let p = starts[d]; p < starts[d + 1]; p++) {
      const id = remap[stream[p]];
      if (id >= 0) tokens[out++] = id;
    }
  }
  docStart[starts.length - 1] = out;
  return {
    terms: kept.map((id) => names[id]),
    documentFrequency: Uint32Array.from(kept, (id) => frequency[id]),
    docCount: doc,
    tokens: tokens.slice(0, out),
    docStart
  };
}
var CORPUS_MODEL_FILE = "corpus-model.bin";
var MAGIC2 = "RAGCEM1\n";
var FORMAT_VERSION = 2;
function idfOf(docCount, df) {
  return Math.log(1 + (docCount - df + 0.5) / (df + 0.5));
}
function hashVectors(vectors) {
  const words2 = new Uint32Array(vectors.buffer, vectors.byteOffset, vectors.length);
  let hash = 2166136261;
  for (let i = 0; i < words2.length; i++) hash = Math.imul(hash ^ words2[i], 16777619);
  return (hash >>> 0).toString(16).padStart(8, "0");
}
var CorpusEmbedder = class _CorpusEmbedder {
  constructor(options, terms, idf, vectors, mean) {
    this.options = options;
    this.terms = terms;
    this.idf = idf;
    this.vectors = vectors;
    this.mean = mean;
    this.dimension = mean.length;
    this.#lookup = new Map(terms.map((t, i) => [t, i]));
    this.id = `corpus-ppmi-svd:${this.dimension}:${hashVectors(vectors)}`;
    this.settings = { embedder: "corpus", corpus: { ...options } };
  }
  options;
  terms;
  idf;
  vectors;
  mean;
  id;
  dimension;
  settings;
  #lookup;
  get vocabularySize() {
    return this.terms.length;
  }
  /** Id of `term` in the vocabulary, or -1. */
  termId(term) {
    return this.#lookup.get(term) ?? -1;
  }
  /** Adds `weight ·` term vector `id` into `out`. */
  #accumulate(out, outOffset, id, weight2) {
    const d = this.dimension;
    const base = id * d;
    for (let i = 0; i < d; i++) out[outOffset + i] = out[outOffset + i] + weight2 * this.vectors[base + i];
  }
  /** Normalise, centre, normalise again: the same steps for chunks and queries. */
  #finish(out, offset) {
    if (normalizeInPlace(out, offset, this.dimension) === 0) return;
    if (!this.options.center) return;
    for (let i = 0; i < this.dimension; i++) out[offset + i] = out[offset + i] - this.mean[i];
    normalizeInPlace(out, offset, this.dimension);
  }
  /** Chunk pooling weights: (1 + ln tf) · idf per distinct in-vocabulary term. */
  #poolTerms(termIds, out, offset, counts, touched) {
    let distinct = 0;
    for (let i = 0; i < termIds.length; i++) {
      const id = termIds[i];
      if (counts[id] === 0) touched[distinct++] = id;
      counts[id]++;
    }
    for (let i = 0; i < distinct; i++) {
      const id = touched[i];
      this.#accumulate(out, offset, id, (1 + Math.log(counts[id])) * this.idf[id]);
      counts[id] = 0;
    }
    this.#finish(out, offset);
  }
  /** Chunk vectors straight from an already encoded corpus (the fit reuses its tokens). */
  embedEncoded(corpus, onProgress) {
    const out = new Float32Array(corpus.docCount * this.dimension);
    const counts = new Float32Array(this.terms.length);
    const touched = new Uint32Array(this.terms.length);
    const step = Math.max(1, Math.ceil(corpus.docCount / 20));
    for (let d = 0; d < corpus.docCount; d++) {
      this.#poolTerms(corpus.tokens.subarray(corpus.docStart[d], corpus.docStart[d + 1]), out, d * this.dimension, counts, touched);
      if (onProgress && ((d + 1) % step === 0 || d + 1 === corpus.docCount)) onProgress({ phase: "embed", done: d + 1, total: corpus.docCount });
    }
    return out;
  }
  embedDocumentsSync(texts) {
    const out = new Float32Array(texts.length * this.dimension);
    const counts = new Float32Array(this.terms.length);
    const touched = new Uint32Array(this.terms.length);
    texts.forEach((text, index) => {
      const ids = [];
      for (const term of tokenize(text)) {
        const id = this.#lookup.get(term);
        if (id !== void 0) ids.push(id);
      }
      this.#poolTerms(ids, out, index * this.dimension, counts, touched);
    });
    return out;
  }
  async embedDocuments(texts) {
    return this.embedDocumentsSync(texts);
  }
  /** In-vocabulary query terms with their pooling weights (query weight × idf). */
  queryTerms(text) {
    const out = [];
    for (const { term, weight: weight2 } of tokenizeQuery(text)) {
      const id = this.#lookup.get(term);
      if (id !== void 0) out.push({ term, id, weight: weight2 * this.idf[id] });
    }
    return out;
  }
  embedQuerySync(text) {
    const out = new Float32Array(this.dimension);
    for (const { id, weight: weight2 } of this.queryTerms(text)) this.#accumulate(out, 0, id, weight2);
    this.#finish(out, 0);
    return out;
  }
  async embedQuery(text) {
    return this.embedQuerySync(text);
  }
  /**
   * Splits the cosine of `text` with a chunk vector into one part per query term plus the
   * centring correction. With s = Σ wₜ·vₜ, r = s/|s| and e = (r − μ)/|r − μ|, the score
   * e·c = Σₜ wₜ (vₜ·c) / (|s|·|r − μ|) − (μ·c)/|r − μ|, and the parts sum to it exactly.
   */
  explainQuery(text, chunkVectors, chunkRow) {
    const d = this.dimension;
    const terms = this.queryTerms(text);
    const sum = new Float32Array(d);
    for (const { id, weight: weight2 } of terms) this.#accumulate(sum, 0, id, weight2);
    const sumNorm = Math.hypot(...sum);
    if (sumNorm === 0) return { value: 0, description: "no query term has a vector in this corpus, so the query vector is zero" };
    let centredNorm = 1;
    if (this.options.center) {
      let squares = 0;
      for (let i = 0; i < d; i++) squares += (sum[i] / sumNorm - this.mean[i]) ** 2;
      centredNorm = Math.sqrt(squares);
    }
    const details = terms.map(({ term, id, weight: weight2 }) => {
      const similarity = dotRow(chunkVectors.subarray(chunkRow * d, chunkRow * d + d), this.vectors, id, d);
      const contribution = weight2 * similarity / (sumNorm * centredNorm);
      return {
        value: contribution,
        description: `term "${term}": weight ${weight2.toFixed(3)} (query weight \xD7 idf), cosine with the chunk ${similarity.toFixed(3)}`
      };
    });
    if (this.options.center) {
      const meanDot = dotRow(this.mean, chunkVectors, chunkRow, d);
      details.push({ value: -meanDot / centredNorm, description: "centring: minus the chunk\u2019s similarity to the mean chunk vector" });
    }
    const value = details.reduce((s, e) => s + e.value, 0);
    return { value, description: `cosine of the idf-weighted term-vector means (${this.id})`, details };
  }
  encode() {
    const joined = new TextEncoder().encode(this.terms.join("\n"));
    return encodeContainer(
      MAGIC2,
      { format: "rag-corpus-embedder", version: FORMAT_VERSION, id: this.id, dimension: this.dimension, termCount: this.terms.length, options: this.options },
      { terms: joined, idf: this.idf, mean: this.mean, vectors: this.vectors }
    );
  }
  static decode(bytes, label) {
    const { header, sections } = decodeContainer(bytes, MAGIC2, label);
    if (header.version !== FORMAT_VERSION) {
      throw new RagError("INDEX_INCOMPATIBLE", `${label} has corpus-embedder format version ${String(header.version)}; this version reads ${FORMAT_VERSION}.`, {
        hint: "Rebuild the index with `rag index --corpus_dir <dir> --retriever embedding`."
      });
    }
    const termText = new TextDecoder().decode(sections.terms);
    const terms = termText.length === 0 ? [] : termText.split("\n");
    return new _CorpusEmbedder(
      header.options,
      terms,
      sections.idf,
      sections.vectors,
      sections.mean
    );
  }
};
function fitCorpusEmbedder(texts, options, onProgress) {
  const seconds = {};
  let clock = performance.now();
  const lap = (name) => {
    const now = performance.now();
    seconds[name] = (now - clock) / 1e3;
    clock = now;
  };
  const steps = 4;
  const report = (done) => onProgress?.({ phase: "fit", done, total: steps });
  report(0);
  const corpus = encodeCorpus(
    (function* () {
      for (const text of texts) yield tokenize(text);
    })(),
    { minCount: options.minCount, maxVocabulary: Math.min(options.maxVocabulary, 65536) }
  );
  lap("tokenize");
  report(1);
  const counts = options.context === "window" ? windowCooccurrence(corpus, options.window, options.minPairCount) : documentCooccurrence(corpus);
  lap("cooccurrence");
  const ppmi = toPpmi(counts, options.smoothing);
  lap("ppmi");
  report(2);
  const vocabulary = corpus.terms.length;
  const dimension = options.dimension;
  const vectors = new Float32Array(vocabulary * dimension);
  if (vocabulary > 0 && ppmi.values.length > 0) {
    const svd = randomizedSvd(ppmi, {
      rank: Math.min(dimension, vocabulary),
      oversampling: options.oversampling,
      powerIterations: options.powerIterations,
      seed: options.seed
    });
    for (let t = 0; t < vocabulary; t++) {
      for (let c = 0; c < svd.rank; c++) vectors[t * dimension + c] = svd.u[t * svd.rank + c] * Math.pow(svd.singularValues[c], options.eigenPower);
      normalizeInPlace(vectors, t * dimension, dimension);
    }
  }
  lap("svd");
  report(3);
  const idf = Float32Array.from(corpus.documentFrequency, (df) => idfOf(corpus.docCount, df));
  const uncentred = new CorpusEmbedder({ ...options, center: false }, corpus.terms, idf, vectors, new Float32Array(dimension));
  const pooled = uncentred.embedEncoded(corpus);
  const mean = new Float32Array(dimension);
  if (options.center && corpus.docCount > 0) {
    for (let d = 0; d < corpus.docCount; d++) for (let i = 0; i < dimension; i++) mean[i] = mean[i] + pooled[d * dimension + i];
    for (let i = 0; i < dimension; i++) mean[i] = mean[i] / corpus.docCount;
  }
  const embedder = new CorpusEmbedder(options, corpus.terms, idf, vectors, mean);
  if (options.center) {
    for (let d = 0; d < corpus.docCount; d++) {
      const offset = d * dimension;
      let norm = 0;
      for (let i = 0; i < dimension; i++) norm += pooled[offset + i] * pooled[offset + i];
      if (norm === 0) continue;
      for (let i = 0; i < dimension; i++) pooled[offset + i] = pooled[offset + i] - mean[i];
      normalizeInPlace(pooled, offset, dimension);
    }
  }
  lap("pool");
  report(4);
  onProgress?.({ phase: "embed", done: corpus.docCount, total: corpus.docCount });
  return { embedder, vectors: pooled, stats: { vocabulary, tokens: corpus.tokens.length, nonZeros: ppmi.values.length, seconds } };
}
var DEFAULT_CORPUS_EMBEDDER_OPTIONS = Object.freeze({
  dimension: 128,
  context: "chunk",
  window: 5,
  minPairCount: 2,
  minCount: 2,
  maxVocabulary: 5e4,
  smoothing: 0.75,
  eigenPower: 0.5,
  powerIterations: 1,
  oversampling: 16,
  center: false,
  seed: 1
});
function embeddingText(chunk, includeMetadata) {
  if (!includeMetadata) return chunk.text;
  return `${chunk.file_path}${chunk.symbol ? ` ${chunk.symbol}` : ""}
${chunk.text}`;
}
function chunkFingerprint(chunks) {
  const hash = createHash2("sha256");
  for (const c of chunks) {
    hash.update(`${c.file_path}\0${c.first_character_index}\0${c.last_character_index}\0${c.text.length}\0`);
    hash.update(c.text);
  }
  return hash.digest("hex").slice(0, 32);
}
var MAGIC22 = "RAGCKP1\n";
function checkpointKey(embedderId, batchSize, texts) {
  const hash = createHash22("sha256");
  hash.update(`${embedderId}
${batchSize}
`);
  for (const text of texts) {
    hash.update(`${text.length}:`);
    hash.update(text);
  }
  return hash.digest("hex").slice(0, 32);
}
var EmbeddingCheckpoint = class {
  constructor(root, key, embedderId, dimension) {
    this.key = key;
    this.embedderId = embedderId;
    this.dimension = dimension;
    this.dir = join5(root, key);
  }
  key;
  embedderId;
  dimension;
  dir;
  /** Batches already on disk: batch index → (row ids, vectors). Unreadable files are skipped. */
  async readFinished() {
    const finished = /* @__PURE__ */ new Map();
    let names;
    try {
      names = await readdir(this.dir);
    } catch {
      return finished;
    }
    for (const name of names) {
      const match = /^batch-(\d+)\.bin$/.exec(name);
      if (!match) continue;
      try {
        const { header, sections } = decodeContainer(await readFile3(join5(this.dir, name)), MAGIC22, name);
        if (header.embedderId !== this.embedderId || header.dimension !== this.dimension) continue;
        const rows = sections.rows;
        const vectors = sections.vectors;
        if (vectors.length !== rows.length * this.dimension) continue;
        finished.set(Number(match[1]), { rows, vectors });
      } catch {
      }
    }
    return finished;
  }
  async writeBatch(index, rows, vectors) {
    const bytes = encodeContainer(MAGIC22, { embedderId: this.embedderId, dimension: this.dimension, batch: index }, { rows, vectors });
    await writeFileAtomic(join5(this.dir, `batch-${index}.bin`), bytes);
  }
  /** Removes the checkpoint once its vectors are safely in an index. */
  async discard() {
    await rm(this.dir, { recursive: true, force: true });
  }
};
async function embedTexts(embedder, texts, options) {
  const dimension = embedder.dimension;
  const vectors = new Float32Array(texts.length * dimension);
  const order = texts.map((_, i) => i).sort((a, b) => texts[a].length - texts[b].length || a - b);
  const batchCount = Math.ceil(order.length / options.batchSize);
  const checkpoint = options.checkpointRoot === null ? null : new EmbeddingCheckpoint(options.checkpointRoot, checkpointKey(embedder.id, options.batchSize, texts), embedder.id, dimension);
  const finished = checkpoint ? await checkpoint.readFinished() : /* @__PURE__ */ new Map();
  let done = 0;
  let resumedBatches = 0;
  let computedBatches = 0;
  for (let batch = 0; batch < batchCount; batch++) {
    const rows = Uint32Array.from(order.slice(batch * options.batchSize, (batch + 1) * options.batchSize));
    const saved = finished.get(batch);
    let batchVectors;
    if (saved && saved.rows.length === rows.length && saved.rows.every((r, i) => r === rows[i])) {
      batchVectors = saved.vectors;
      resumedBatches++;
    } else {
      batchVectors = await embedder.embedDocuments(Array.from(rows, (r) => texts[r]));
      await checkpoint?.writeBatch(batch, rows, batchVectors);
      computedBatches++;
    }
    rows.forEach((row, i) => vectors.set(batchVectors.subarray(i * dimension, (i + 1) * dimension), row * dimension));
    done += rows.length;
    options.onProgress?.({ phase: "embed", done, total: texts.length });
  }
  return { vectors, resumedBatches, computedBatches, checkpoint };
}
var DEFAULT_MODEL = "Xenova/all-MiniLM-L6-v2";
var DEFAULT_HNSW_OPTIONS = Object.freeze({ m: 16, efConstruction: 200, efSearch: 128, seed: 100 });
var DEFAULT_EMBEDDING_OPTIONS = Object.freeze({
  embedder: "corpus",
  model: DEFAULT_MODEL,
  modelDir: null,
  dtype: "fp32",
  remoteHost: "https://huggingface.co/",
  connectTimeoutMs: 15e3,
  windowTokens: null,
  windowOverlap: 32,
  batchTokens: 8192,
  batchSize: 256,
  resume: true,
  corpus: DEFAULT_CORPUS_EMBEDDER_OPTIONS,
  index: "auto",
  exactLimit: 1e5,
  hnsw: DEFAULT_HNSW_OPTIONS,
  encoding: "float32",
  includeMetadata: true
});
var CONTEXT = { subject: "embedding", root: "settings" };
var count2 = external_exports.number().int().min(1);
var CORPUS_SCHEMA = external_exports.strictObject({
  dimension: integerIn(2, 1024).optional(),
  context: external_exports.enum(["window", "chunk"]).optional(),
  window: integerIn(1, 20).optional(),
  minPairCount: count2.optional(),
  minCount: count2.optional(),
  maxVocabulary: integerIn(1, 65536).optional(),
  smoothing: external_exports.number().gt(0).max(1).optional(),
  eigenPower: external_exports.number().min(0).max(1).optional(),
  powerIterations: integerIn(0, 6).optional(),
  oversampling: integerIn(0, 256).optional(),
  center: external_exports.boolean().optional(),
  seed: integerIn(0, 2 ** 32 - 1).optional()
});
var HNSW_SCHEMA = external_exports.strictObject({
  m: integerIn(2, 128).optional(),
  efConstruction: integerIn(8, 2e3).optional(),
  efSearch: integerIn(1, 1e4).optional(),
  seed: integerIn(0, 2 ** 31 - 1).optional()
});
var EMBEDDING_SETTINGS_SCHEMA = external_exports.strictObject({
  embedder: external_exports.enum(["corpus", "transformers"]).optional(),
  model: external_exports.string().min(1).optional(),
  modelDir: external_exports.string().min(1).nullable().optional(),
  dtype: external_exports.enum(Object.keys(MODEL_DTYPE_FILE_SUFFIX)).optional(),
  cacheDir: external_exports.string().min(1).optional(),
  allowRemote: external_exports.boolean().optional(),
  remoteHost: external_exports.string().regex(/^https?:\/\//, "an http(s) URL").optional(),
  connectTimeoutMs: integerIn(100, 6e5).optional(),
  windowTokens: external_exports.number().int().min(8).nullable().optional(),
  windowOverlap: external_exports.number().int().min(0).optional(),
  batchTokens: external_exports.number().int().min(64).optional(),
  batchSize: count2.optional(),
  resume: external_exports.boolean().optional(),
  corpus: CORPUS_SCHEMA.optional(),
  index: external_exports.enum(["auto", "exact", "hnsw"]).optional(),
  exactLimit: external_exports.number().int().min(0).optional(),
  hnsw: HNSW_SCHEMA.optional(),
  encoding: external_exports.enum(["float32", "int8"]).optional(),
  includeMetadata: external_exports.boolean().optional()
});
function withDefaults(defaults, given) {
  const out = { ...defaults };
  for (const [key, value] of Object.entries(given ?? {})) if (value !== void 0) out[key] = value;
  return out;
}
function resolveEmbeddingOptions(settings = {}) {
  const d = DEFAULT_EMBEDDING_OPTIONS;
  const parsed = parseOptions(EMBEDDING_SETTINGS_SCHEMA, settings ?? {}, CONTEXT);
  const modelDir = parsed.modelDir ?? d.modelDir;
  const namesModel = parsed.model !== void 0 || modelDir !== null;
  const windowTokens = parsed.windowTokens === void 0 ? d.windowTokens : parsed.windowTokens;
  const windowOverlap = parsed.windowOverlap ?? d.windowOverlap;
  if (windowTokens !== null && windowOverlap > windowTokens / 2) {
    throw optionError(CONTEXT, ["windowOverlap"], `an integer in [0, ${Math.floor(windowTokens / 2)}] (half of windowTokens)`, windowOverlap);
  }
  return {
    embedder: parsed.embedder ?? (namesModel ? "transformers" : d.embedder),
    model: parsed.model ?? d.model,
    modelDir: modelDir === null ? null : resolve3(modelDir),
    dtype: parsed.dtype ?? d.dtype,
    cacheDir: resolve3(parsed.cacheDir ?? defaultCacheDir()),
    allowRemote: parsed.allowRemote ?? downloadsAllowedByEnvironment(),
    remoteHost: parsed.remoteHost ?? d.remoteHost,
    connectTimeoutMs: parsed.connectTimeoutMs ?? d.connectTimeoutMs,
    windowTokens,
    windowOverlap,
    batchTokens: parsed.batchTokens ?? d.batchTokens,
    batchSize: parsed.batchSize ?? d.batchSize,
    resume: parsed.resume ?? d.resume,
    corpus: withDefaults(DEFAULT_CORPUS_EMBEDDER_OPTIONS, parsed.corpus),
    index: parsed.index ?? d.index,
    exactLimit: parsed.exactLimit ?? d.exactLimit,
    hnsw: withDefaults(DEFAULT_HNSW_OPTIONS, parsed.hnsw),
    encoding: parsed.encoding ?? d.encoding,
    includeMetadata: parsed.includeMetadata ?? d.includeMetadata
  };
}
var TopK = class {
  constructor(capacity) {
    this.capacity = capacity;
    this.#ids = new Int32Array(Math.max(0, capacity));
    this.#scores = new Float64Array(Math.max(0, capacity));
  }
  capacity;
  #ids;
  #scores;
  #size = 0;
  get size() {
    return this.#size;
  }
  /** The score a candidate must beat to enter once the heap is full; -Infinity before. */
  get threshold() {
    return this.#size < this.capacity ? -Infinity : this.#scores[0];
  }
  #below(i, j) {
    const si = this.#scores[i];
    const sj = this.#scores[j];
    return si < sj || si === sj && this.#ids[i] > this.#ids[j];
  }
  #swap(i, j) {
    const id = this.#ids[i];
    this.#ids[i] = this.#ids[j];
    this.#ids[j] = id;
    const score = this.#scores[i];
    this.#scores[i] = this.#scores[j];
    this.#scores[j] = score;
  }
  #siftDown(size) {
    let i = 0;
    for (; ; ) {
      const left = 2 * i + 1;
      if (left >= size) return;
      const right = left + 1;
      const worst = right < size && this.#below(right, left) ? right : left;
      if (!this.#below(worst, i)) return;
      this.#swap(i, worst);
      i = worst;
    }
  }
  push(id, score) {
    if (this.capacity <= 0) return;
    if (this.#size < this.capacity) {
      let i = this.#size++;
      this.#ids[i] = id;
      this.#scores[i] = score;
      while (i > 0) {
        const parent = i - 1 >>> 1;
        if (!this.#below(i, parent)) return;
        this.#swap(i, parent);
        i = parent;
      }
      return;
    }
    const rootScore = this.#scores[0];
    if (score < rootScore || score === rootScore && id > this.#ids[0]) return;
    this.#ids[0] = id;
    this.#scores[0] = score;
    this.#siftDown(this.#size);
  }
  /** Empties the heap into hits, best first. */
  drain() {
    const hits = new Array(this.#size);
    for (let out = this.#size - 1; out >= 0; out--) {
      hits[out] = { chunkId: this.#ids[0], score: this.#scores[0] };
      this.#swap(0, out);
      this.#siftDown(out);
    }
    this.#size = 0;
    return hits;
  }
};
function dotAt(query, vectors, base, dimension) {
  let s0 = 0;
  let s1 = 0;
  let i = 0;
  for (; i + 1 < dimension; i += 2) {
    s0 += query[i] * vectors[base + i];
    s1 += query[i + 1] * vectors[base + i + 1];
  }
  if (i < dimension) s0 += query[i] * vectors[base + i];
  return s0 + s1;
}
function searchExact(vectors, dimension, query, k) {
  const count22 = dimension === 0 ? 0 : Math.floor(vectors.length / dimension);
  const top = new TopK(Math.min(k, count22));
  const even = dimension - dimension % 2;
  let threshold = -Infinity;
  const offer = (row2, score) => {
    if (score >= threshold) {
      top.push(row2, score);
      threshold = top.threshold;
    }
  };
  let row = 0;
  for (; row + 3 < count22; row += 4) {
    const b0 = row * dimension;
    const b1 = b0 + dimension;
    const b2 = b1 + dimension;
    const b3 = b2 + dimension;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let t0 = 0;
    let t1 = 0;
    let t2 = 0;
    let t3 = 0;
    for (let i = 0; i < even; i += 2) {
      const x = query[i];
      const y = query[i + 1];
      s0 += x * vectors[b0 + i];
      s1 += x * vectors[b1 + i];
      s2 += x * vectors[b2 + i];
      s3 += x * vectors[b3 + i];
      t0 += y * vectors[b0 + i + 1];
      t1 += y * vectors[b1 + i + 1];
      t2 += y * vectors[b2 + i + 1];
      t3 += y * vectors[b3 + i + 1];
    }
    if (even < dimension) {
      const x = query[even];
      s0 += x * vectors[b0 + even];
      s1 += x * vectors[b1 + even];
      s2 += x * vectors[b2 + even];
      s3 += x * vectors[b3 + even];
    }
    offer(row, s0 + t0);
    offer(row + 1, s1 + t1);
    offer(row + 2, s2 + t2);
    offer(row + 3, s3 + t3);
  }
  for (; row < count22; row++) offer(row, dotAt(query, vectors, row * dimension, dimension));
  return top.drain();
}
var hnswModule;
function loadHnsw() {
  hnswModule ??= createRequire(import.meta.url)("hnswlib-node");
  return hnswModule;
}
var HnswVectorIndex = class _HnswVectorIndex {
  constructor(graph, dimension, count22, options) {
    this.count = count22;
    this.options = options;
    this.#graph = graph;
    this.#dimension = dimension;
    this.#scratch = new Array(dimension).fill(0);
    this.#efSearch = options.efSearch;
  }
  count;
  options;
  #graph;
  #dimension;
  #scratch;
  #efSearch;
  /** Inserts every row of `vectors`; reports phase `hnsw` every 1,000 points. */
  static build(vectors, dimension, options, onProgress) {
    const count22 = dimension === 0 ? 0 : vectors.length / dimension;
    const { HierarchicalNSW: Graph } = loadHnsw();
    const graph = new Graph("ip", dimension);
    graph.initIndex(Math.max(count22, 1), options.m, options.efConstruction, options.seed);
    const point = new Array(dimension);
    for (let row = 0; row < count22; row++) {
      for (let i = 0; i < dimension; i++) point[i] = vectors[row * dimension + i];
      graph.addPoint(point, row);
      if (onProgress && ((row + 1) % 1e3 === 0 || row + 1 === count22)) onProgress({ phase: "hnsw", done: row + 1, total: count22 });
    }
    return new _HnswVectorIndex(graph, dimension, count22, options);
  }
  static read(path, dimension, count22, options) {
    const { HierarchicalNSW: Graph } = loadHnsw();
    const graph = new Graph("ip", dimension);
    graph.readIndexSync(path);
    return new _HnswVectorIndex(graph, dimension, count22, options);
  }
  /** Candidate list size used by searches (at least k is always used); tunable after loading. */
  get efSearch() {
    return this.#efSearch;
  }
  set efSearch(ef) {
    this.#efSearch = ef;
  }
  search(query, k) {
    const wanted = Math.min(k, this.count);
    if (wanted <= 0) return [];
    for (let i = 0; i < this.#dimension; i++) this.#scratch[i] = query[i];
    this.#graph.setEf(Math.max(this.#efSearch, wanted));
    const { distances, neighbors } = this.#graph.searchKnn(this.#scratch, wanted);
    const hits = neighbors.map((chunkId, i) => ({ chunkId, score: 1 - distances[i] }));
    return hits.sort((a, b) => b.score - a.score || a.chunkId - b.chunkId);
  }
  write(path) {
    this.#graph.writeIndexSync(path);
  }
};
var VECTORS_FILE = "vectors.bin";
var MAGIC3 = "RAGVEC1\n";
var FORMAT_VERSION2 = 1;
function quantizeInt8(vectors, dimension) {
  const count22 = dimension === 0 ? 0 : vectors.length / dimension;
  const codes = new Int8Array(vectors.length);
  const scales = new Float32Array(count22);
  for (let row = 0; row < count22; row++) {
    const base = row * dimension;
    let largest = 0;
    for (let i = 0; i < dimension; i++) largest = Math.max(largest, Math.abs(vectors[base + i]));
    const scale = largest / 127;
    scales[row] = scale;
    if (scale === 0) continue;
    for (let i = 0; i < dimension; i++) codes[base + i] = Math.round(vectors[base + i] / scale);
  }
  return { codes, scales };
}
function dequantizeInt8(codes, scales, dimension) {
  const out = new Float32Array(codes.length);
  for (let row = 0; row < scales.length; row++) {
    const scale = scales[row];
    const base = row * dimension;
    for (let i = 0; i < dimension; i++) out[base + i] = codes[base + i] * scale;
  }
  return out;
}
function encodeVectors(vectors, dimension, encoding) {
  const count22 = dimension === 0 ? 0 : vectors.length / dimension;
  const header = { format: "rag-vectors", version: FORMAT_VERSION2, count: count22, dimension, encoding };
  if (encoding === "int8") {
    const { codes, scales } = quantizeInt8(vectors, dimension);
    return encodeContainer(MAGIC3, header, { codes, scales });
  }
  return encodeContainer(MAGIC3, header, { vectors });
}
function decodeVectors(bytes, label) {
  const { header, sections } = decodeContainer(bytes, MAGIC3, label);
  if (header.version !== FORMAT_VERSION2) {
    throw new RagError("INDEX_INCOMPATIBLE", `${label} has vector format version ${String(header.version)}; this version reads ${FORMAT_VERSION2}.`, {
      hint: "Rebuild the index with `rag index --corpus_dir <dir> --retriever embedding`."
    });
  }
  const count22 = header.count;
  const dimension = header.dimension;
  const encoding = header.encoding;
  const vectors = encoding === "int8" ? dequantizeInt8(sections.codes, sections.scales, dimension) : sections.vectors;
  if (vectors.length !== count22 * dimension) {
    throw new RagError("INDEX_CORRUPT", `${label} is damaged: it holds ${vectors.length} numbers, not ${count22} \xD7 ${dimension}.`, {
      hint: "Rebuild the index with `rag index --corpus_dir <dir> --retriever embedding`."
    });
  }
  return { vectors, count: count22, dimension, encoding };
}
var EMBEDDING_MANIFEST_FILE = "embedding.json";
var HNSW_FILE = "hnsw.bin";
var EMBEDDING_FORMAT = "rag-embedding";
var EMBEDDING_FORMAT_VERSION = 1;
var QUERY_CACHE_SIZE = 64;
var STORE_HITS_CACHE_SIZE = 64;
var EmbeddingRetriever = class {
  constructor(embedder, vectors, manifest, hnsw, checkpoint = null, buildStats = null, store = null) {
    this.embedder = embedder;
    this.vectors = vectors;
    this.manifest = manifest;
    this.hnsw = hnsw;
    this.buildStats = buildStats;
    this.store = store;
    this.#checkpoint = checkpoint;
  }
  embedder;
  vectors;
  manifest;
  hnsw;
  buildStats;
  store;
  name = "embedding";
  #queryCache = /* @__PURE__ */ new Map();
  /** The store's hits of recent searches (query → chunk id → score), for `explain`. */
  #storeHits = /* @__PURE__ */ new Map();
  #checkpoint;
  get count() {
    return this.manifest.count;
  }
  async embedQuery(query) {
    const cached = this.#queryCache.get(query);
    if (cached) return cached;
    const vector = await this.embedder.embedQuery(query);
    if (this.#queryCache.size >= QUERY_CACHE_SIZE) this.#queryCache.delete(this.#queryCache.keys().next().value);
    this.#queryCache.set(query, vector);
    return vector;
  }
  /** Nearest chunks to a query vector (already unit length). */
  searchVector(vector, k) {
    if (k <= 0 || this.count === 0) return [];
    if (this.store) throw storeSearchesError();
    if (this.hnsw) return this.hnsw.search(vector, k);
    return searchExact(this.vectors, this.manifest.embedder.dimension, vector, k);
  }
  async search(query, options) {
    const vector = await this.embedQuery(query);
    if (!this.store || options.k <= 0 || this.count === 0) return this.searchVector(vector, options.k);
    const hits = await this.store.search(vector, options.k);
    if (this.#storeHits.size >= STORE_HITS_CACHE_SIZE) this.#storeHits.delete(this.#storeHits.keys().next().value);
    this.#storeHits.set(query, new Map(hits.map((hit) => [hit.chunkId, hit.score])));
    return hits;
  }
  /** `search` without the promise; only for the corpus embedder, whose queries need no model call. */
  searchSync(query, options) {
    if (this.store) throw storeSearchesError();
    if (!(this.embedder instanceof CorpusEmbedder)) {
      throw new RagError("INVALID_ARGUMENT", "searchSync needs the corpus embedder; a transformers model embeds asynchronously.", {
        hint: "Use `await retriever.search(query, { k })`."
      });
    }
    return this.searchVector(this.embedder.embedQuerySync(query), options.k);
  }
  explain(query, chunkId) {
    const d = this.manifest.embedder.dimension;
    if (!Number.isInteger(chunkId) || chunkId < 0 || chunkId >= this.count) {
      return { value: 0, description: `chunk ${chunkId} is not in this index` };
    }
    if (this.store) {
      const score = this.#storeHits.get(query)?.get(chunkId);
      return score === void 0 ? { value: 0, description: `chunk ${chunkId} was not among the nearest vectors ${this.store.description} returned for this query (run search() with it first)` } : { value: score, description: `inner product of the query and chunk vectors (${this.manifest.embedder.id}, ${d} dimensions), from ${this.store.description}` };
    }
    if (this.embedder instanceof CorpusEmbedder) return this.embedder.explainQuery(query, this.vectors, chunkId);
    const vector = this.#queryCache.get(query);
    if (!vector) {
      return { value: 0, description: "the query has not been embedded yet: run search() with it first, then explain()" };
    }
    return {
      value: dotRow(vector, this.vectors, chunkId, d),
      description: `cosine of the query and chunk vectors (${this.manifest.embedder.id}, ${d} dimensions, ${this.hnsw ? "HNSW" : "exact"} search)`
    };
  }
  async save(dir, context) {
    if (this.store) {
      throw new RagError("INVALID_ARGUMENT", "This embedding retriever was loaded without its vectors (the store searches them); it cannot be saved.", {
        hint: "Save the retriever a build returned, or load it from a store that keeps the vectors in files."
      });
    }
    const d = this.manifest.embedder.dimension;
    context?.vectors?.(dir, { dimension: d, vectors: this.vectors });
    await writeFileAtomic(join22(dir, VECTORS_FILE), encodeVectors(this.vectors, d, this.manifest.encoding));
    if (this.embedder instanceof CorpusEmbedder) await writeFileAtomic(join22(dir, CORPUS_MODEL_FILE), this.embedder.encode());
    if (this.hnsw) this.hnsw.write(join22(dir, HNSW_FILE));
    await writeFileAtomic(join22(dir, EMBEDDING_MANIFEST_FILE), JSON.stringify(this.manifest, null, 1));
    await this.#checkpoint?.discard();
    this.#checkpoint = null;
  }
  async dispose() {
    await this.embedder.dispose?.();
  }
};
function storeSearchesError() {
  return new RagError("INVALID_ARGUMENT", "The vectors of this embedding index are searched by its store (pgvector), which answers asynchronously.", {
    hint: "Use `await retriever.search(query, { k })`."
  });
}
async function readEmbeddingManifest(dir, read = readFile22) {
  let text;
  try {
    text = Buffer.from(await read(join22(dir, EMBEDDING_MANIFEST_FILE))).toString("utf8");
  } catch (error) {
    throw new RagError("INDEX_NOT_FOUND", `No embedding index in ${dir} (${EMBEDDING_MANIFEST_FILE} is missing).`, {
      hint: "Build one with `rag index --corpus_dir <dir> --retriever embedding`.",
      cause: error
    });
  }
  let manifest;
  try {
    manifest = JSON.parse(text);
  } catch (error) {
    throw new RagError("INDEX_CORRUPT", `${join22(dir, EMBEDDING_MANIFEST_FILE)} is not valid JSON.`, {
      hint: "Rebuild the index with `rag index --corpus_dir <dir> --retriever embedding`.",
      cause: error
    });
  }
  if (manifest.format !== EMBEDDING_FORMAT || manifest.version !== EMBEDDING_FORMAT_VERSION) {
    throw new RagError(
      "INDEX_INCOMPATIBLE",
      `The embedding index in ${dir} has format ${String(manifest.format)} version ${String(manifest.version)}; this version reads ${EMBEDDING_FORMAT} version ${EMBEDDING_FORMAT_VERSION}.`,
      { hint: "Rebuild the index with `rag index --corpus_dir <dir> --retriever embedding`." }
    );
  }
  return manifest;
}
function createManifest(embedder, count22, chunkFingerprint2, index, options) {
  return {
    format: EMBEDDING_FORMAT,
    version: EMBEDDING_FORMAT_VERSION,
    embedder: { id: embedder.id, dimension: embedder.dimension, settings: embedder.settings },
    count: count22,
    chunkFingerprint: chunkFingerprint2,
    index,
    hnsw: index === "hnsw" ? { ...options.hnsw } : null,
    encoding: options.encoding,
    includeMetadata: options.includeMetadata
  };
}
function requiredModelFiles(dtype) {
  return [...REQUIRED_MODEL_FILES, onnxFile(dtype)];
}
function offlineAdvice(options, name) {
  return `on a machine with internet, run once with model "${name}" (it is cached in ${join32(options.cacheDir, "models")}) and copy that folder, or download config.json, tokenizer.json, tokenizer_config.json and ${requiredModelFiles(options.dtype)[3]} from https://huggingface.co/${name} into one folder and pass it as modelDir (--model_dir). Or use the zero-download embedder (embedder "corpus").`;
}
function offlineHint2(options, name) {
  const advice = offlineAdvice(options, name);
  return advice[0].toUpperCase() + advice.slice(1);
}
async function createPipeline(transformers, name, options, localOnly) {
  const pipe = await transformers.pipeline("feature-extraction", name, {
    dtype: options.dtype,
    device: "cpu",
    local_files_only: localOnly
  });
  return pipe;
}
async function loadFromFolder(transformers, options, dir) {
  const info = await stat(dir).catch(() => null);
  if (!info?.isDirectory()) {
    throw new RagError("MODEL_NOT_FOUND", `Model folder ${dir} does not exist.`, {
      hint: `Point modelDir (--model_dir) at a folder holding ${requiredModelFiles(options.dtype).join(", ")}.`
    });
  }
  const { missing } = checkModelFolder(dir, options.dtype);
  if (missing.length > 0) {
    throw new RagError("MODEL_NOT_FOUND", `Model folder ${dir} lacks ${missing.join(", ")}.`, {
      hint: `A model folder needs ${requiredModelFiles(options.dtype).join(", ")} (dtype ${options.dtype}); copy them from the model's hub page or a transformers.js cache.`
    });
  }
  const folderName = basename(dir);
  const usableName = /^[\w.-]{1,96}$/.test(folderName) && !folderName.includes("..") && !folderName.includes("--");
  const name = usableName ? folderName : dir;
  try {
    const pipeline = await withTransformersEnvironment(
      transformers.env,
      { allowRemoteModels: false, allowLocalModels: true, localModelPath: `${dirname(dir)}/`, useFSCache: false },
      () => createPipeline(transformers, name, options, true)
    );
    const config = pipeline.model.config ?? {};
    const id = `transformers:folder:${folderName}:${options.dtype}:${await fingerprintModelFolder(dir, requiredModelFiles(options.dtype))}`;
    return { transformers, pipeline, id, source: "folder", location: dir, config };
  } catch (error) {
    throw new RagError("MODEL_NOT_FOUND", `Could not load the model in ${dir}: ${describeLoadFailure(error)}`, {
      hint: "Check that the folder holds a sentence-embedding model exported for transformers.js (ONNX) and that its files are complete.",
      cause: error
    });
  }
}
async function loadFromHub(transformers, options) {
  const name = options.model;
  const cacheDir = join32(options.cacheDir, "models");
  const location = await locateModel({
    model: name,
    cacheDir,
    dtype: options.dtype,
    allowDownload: options.allowRemote,
    remoteHost: options.remoteHost,
    downloadCheckTimeoutMs: options.connectTimeoutMs,
    advice: offlineAdvice(options, name)
  });
  const cached = location.kind === "folder";
  const id = `transformers:${name}:${options.dtype}`;
  const patch = cached ? (
    // Everything is on disk: read it from the cache and never touch the network.
    { allowRemoteModels: false, allowLocalModels: true, localModelPath: `${cacheDir}/`, cacheDir, useFSCache: true }
  ) : {
    allowRemoteModels: true,
    allowLocalModels: false,
    cacheDir,
    useFSCache: true,
    remoteHost: options.remoteHost,
    fetch: fetchWithTimeout(globalThis.fetch.bind(globalThis), options.connectTimeoutMs)
  };
  try {
    const pipeline = await withTransformersEnvironment(transformers.env, patch, () => createPipeline(transformers, name, options, cached));
    const config = pipeline.model.config ?? {};
    return { transformers, pipeline, id, source: cached ? "cache" : "hub", location: cached ? join32(cacheDir, name) : options.remoteHost, config };
  } catch (error) {
    const where = cached ? `the cached copy in ${join32(cacheDir, name)}` : `${options.remoteHost} (not cached in ${cacheDir})`;
    throw new RagError("MODEL_NOT_FOUND", `Could not load model "${name}" from ${where}: ${describeLoadFailure(error)}`, {
      hint: cached ? `Delete ${join32(cacheDir, name)} so it downloads again, or pass a complete folder as modelDir.` : offlineHint2(options, name),
      cause: error
    });
  }
}
async function loadSentenceModel(options) {
  const transformers = await loadTransformers();
  return options.modelDir ? loadFromFolder(transformers, options, options.modelDir) : loadFromHub(transformers, options);
}
function planWindows(tokenCount, contentLength, overlap2) {
  if (contentLength < 1) throw new RangeError("contentLength must be at least 1");
  if (tokenCount <= contentLength) return [0];
  const stride = Math.max(1, contentLength - overlap2);
  const starts = [];
  for (let start = 0; start + contentLength < tokenCount; start += stride) starts.push(start);
  starts.push(tokenCount - contentLength);
  return starts;
}
var DEFAULT_WINDOW_CAP = 256;
function findSpecialTokens(encode) {
  const plain = encode("hello", false);
  const wrapped = encode("hello", true);
  for (let start = 0; start + plain.length <= wrapped.length; start++) {
    if (plain.every((id, i) => wrapped[start + i] === id)) {
      return { prefix: wrapped.slice(0, start), suffix: wrapped.slice(start + plain.length) };
    }
  }
  return { prefix: [], suffix: [] };
}
var TransformersEmbedder = class _TransformersEmbedder {
  constructor(loaded, options) {
    this.options = options;
    this.#loaded = loaded;
    const tokenizer = loaded.pipeline.tokenizer;
    const specials = findSpecialTokens((text, special) => tokenizer.encode(text, { add_special_tokens: special }));
    this.#prefix = specials.prefix;
    this.#suffix = specials.suffix;
    this.#padId = tokenizer.pad_token_id ?? 0;
    const positions = Number(loaded.config.max_position_embeddings ?? Infinity);
    const modelLimit = Math.min(tokenizer.model_max_length || Infinity, Number.isFinite(positions) ? positions : Infinity);
    this.windowTokens = options.windowTokens ?? Math.min(modelLimit, DEFAULT_WINDOW_CAP);
    if (this.windowTokens - this.#prefix.length - this.#suffix.length < 1) {
      throw new RangeError(`windowTokens ${this.windowTokens} leaves no room next to the model's special tokens`);
    }
    const windowPart = options.windowTokens === null ? "" : `:w${this.windowTokens}`;
    this.id = `${loaded.id}${windowPart}`;
    this.settings = {
      embedder: "transformers",
      ...options.modelDir ? { modelDir: options.modelDir } : { model: options.model },
      dtype: options.dtype,
      windowTokens: options.windowTokens,
      windowOverlap: options.windowOverlap
    };
  }
  options;
  id;
  settings;
  windowTokens;
  #loaded;
  #prefix;
  #suffix;
  #padId;
  #dimension = 0;
  /** Loads the model (see `loadSentenceModel`) and measures its output size with one probe. */
  static async create(options) {
    const embedder = new _TransformersEmbedder(await loadSentenceModel(options), options);
    const probe = await embedder.#run([{ owner: 0, ids: [...embedder.#prefix, ...embedder.#suffix], weight: 1 }], 1, null);
    embedder.#dimension = probe.length;
    return embedder;
  }
  get dimension() {
    return this.#dimension;
  }
  /** Where the model was loaded from: a folder, the cache, or the hub URL. */
  get location() {
    return this.#loaded.location;
  }
  /** The pipeline itself, for callers that want transformers.js directly. */
  get pipeline() {
    return this.#loaded.pipeline;
  }
  /** The token windows `text` is embedded as, special tokens included. */
  windowsOf(text) {
    const ids = this.#loaded.pipeline.tokenizer.encode(text, { add_special_tokens: false });
    const content = this.windowTokens - this.#prefix.length - this.#suffix.length;
    const overlap2 = Math.min(this.options.windowOverlap, Math.floor(content / 2));
    return planWindows(ids.length, content, overlap2).map((start) => [...this.#prefix, ...ids.slice(start, start + content), ...this.#suffix]);
  }
  async embedDocuments(texts) {
    const windows = [];
    texts.forEach((text, owner) => {
      for (const ids of this.windowsOf(text)) windows.push({ owner, ids, weight: Math.max(1, ids.length - this.#prefix.length - this.#suffix.length) });
    });
    const out = await this.#run(windows, texts.length, this.#dimension);
    for (let t = 0; t < texts.length; t++) normalizeInPlace(out, t * this.#dimension, this.#dimension);
    return out;
  }
  async embedQuery(text) {
    return this.embedDocuments([text]);
  }
  /**
   * Runs windows through the model in length-sorted, token-bounded batches and adds each
   * window's normalised mean-pooled vector, times its weight, into its owner's row.
   * `dimension` null means "not known yet" (the probe): the output then has one row.
   */
  async #run(windows, owners, dimension) {
    const { Tensor } = this.#loaded.transformers;
    const order = windows.map((_, i) => i).sort((a, b) => windows[b].ids.length - windows[a].ids.length || a - b);
    let out = dimension === null ? new Float32Array(0) : new Float32Array(owners * dimension);
    for (let from = 0; from < order.length; ) {
      const longest = windows[order[from]].ids.length;
      const size = Math.max(1, Math.min(order.length - from, Math.floor(this.options.batchTokens / Math.max(1, longest))));
      const batch = order.slice(from, from + size).map((i) => windows[i]);
      from += size;
      const ids = new BigInt64Array(size * longest).fill(BigInt(this.#padId));
      const mask = new BigInt64Array(size * longest);
      batch.forEach((w, row) => {
        for (let p = 0; p < w.ids.length; p++) {
          ids[row * longest + p] = BigInt(w.ids[p]);
          mask[row * longest + p] = 1n;
        }
      });
      const inputIds = new Tensor("int64", ids, [size, longest]);
      const attentionMask = new Tensor("int64", mask, [size, longest]);
      let outputs;
      try {
        outputs = await this.#loaded.pipeline.model({ input_ids: inputIds, attention_mask: attentionMask });
      } finally {
        inputIds.dispose();
        attentionMask.dispose();
      }
      const hidden = outputs.last_hidden_state ?? outputs.token_embeddings ?? outputs.logits;
      try {
        if (!hidden || hidden.dims.length !== 3) throw new Error("the model returned no [batch, sequence, hidden] output");
        const width = hidden.dims[2];
        if (dimension === null) {
          dimension = width;
          out = new Float32Array(owners * width);
        }
        const data = hidden.data;
        const pooled = new Float32Array(width);
        batch.forEach((w, row) => {
          pooled.fill(0);
          for (let p = 0; p < w.ids.length; p++) {
            const base = (row * longest + p) * width;
            for (let c = 0; c < width; c++) pooled[c] = pooled[c] + data[base + c];
          }
          normalizeInPlace(pooled);
          const target = w.owner * width;
          for (let c = 0; c < width; c++) out[target + c] = out[target + c] + w.weight * pooled[c];
        });
      } finally {
        for (const tensor of Object.values(outputs)) tensor?.dispose?.();
      }
    }
    return out;
  }
  async dispose() {
    await this.#loaded.pipeline.dispose?.();
  }
};
function mergeEmbeddingSettings(...layers) {
  const out = {};
  for (const layer of layers) {
    if (!layer) continue;
    for (const [key, value] of Object.entries(layer)) {
      if (value === void 0) continue;
      const previous = out[key];
      const nested = (key === "corpus" || key === "hnsw") && typeof value === "object" && value !== null;
      out[key] = nested ? { ...previous, ...value } : value;
    }
  }
  return out;
}
function useHnsw(options, count22) {
  return options.index === "hnsw" || options.index === "auto" && count22 > options.exactLimit;
}
async function buildEmbeddingRetriever(chunks, settings = {}, onProgress, previous) {
  const options = resolveEmbeddingOptions(settings);
  const texts = chunks.map((c) => embeddingText(c, options.includeMetadata));
  let embedder;
  let vectors;
  let checkpoint = null;
  let stats = {};
  const started = performance.now();
  if (options.embedder === "corpus") {
    const fitted = fitCorpusEmbedder(texts, options.corpus, onProgress);
    embedder = fitted.embedder;
    vectors = fitted.vectors;
    stats = { ...fitted.stats };
  } else {
    embedder = await TransformersEmbedder.create(options);
    const kept = previous ? await readReusableVectors(previous, embedder, options) : void 0;
    const missing = kept ? texts.map((_, i) => i).filter((i) => !kept.has(i)) : texts.map((_, i) => i);
    const embedded = await embedTexts(embedder, missing.map((i) => texts[i]), {
      batchSize: options.batchSize,
      checkpointRoot: options.resume ? join42(options.cacheDir, "checkpoints") : null,
      ...onProgress ? { onProgress: (event) => onProgress({ ...event, done: event.done + (texts.length - missing.length), total: texts.length }) } : {}
    });
    vectors = new Float32Array(texts.length * embedder.dimension);
    const dimension = embedder.dimension;
    missing.forEach((row, i) => vectors.set(embedded.vectors.subarray(i * dimension, (i + 1) * dimension), row * dimension));
    for (const [row, vector] of kept ?? []) vectors.set(vector, row * dimension);
    checkpoint = embedded.checkpoint;
    stats = { resumedBatches: embedded.resumedBatches, computedBatches: embedded.computedBatches, reusedVectors: texts.length - missing.length };
  }
  const embedSeconds = (performance.now() - started) / 1e3;
  const hnswStarted = performance.now();
  const hnsw = useHnsw(options, chunks.length) ? HnswVectorIndex.build(vectors, embedder.dimension, options.hnsw, onProgress) : null;
  const manifest = createManifest(embedder, chunks.length, chunkFingerprint(chunks), hnsw ? "hnsw" : "exact", options);
  stats = { ...stats, embedSeconds, ...hnsw ? { hnswSeconds: (performance.now() - hnswStarted) / 1e3 } : {} };
  return new EmbeddingRetriever(embedder, vectors, manifest, hnsw, checkpoint, stats);
}
async function readReusableVectors(previous, embedder, options) {
  try {
    const manifest = await readEmbeddingManifest(previous.dir, previous.readFile);
    const same = manifest.embedder.id === embedder.id && manifest.embedder.dimension === embedder.dimension && isDeepStrictEqual2(manifest.embedder.settings, embedder.settings) && manifest.includeMetadata === options.includeMetadata && manifest.count === previous.chunks.length && manifest.chunkFingerprint === chunkFingerprint(previous.chunks);
    if (!same) return void 0;
    const decoded = decodeVectors(await (previous.readFile ?? readFile32)(join42(previous.dir, VECTORS_FILE)), VECTORS_FILE);
    if (decoded.count !== manifest.count || decoded.dimension !== embedder.dimension) return void 0;
    const kept = /* @__PURE__ */ new Map();
    const dimension = embedder.dimension;
    previous.sourceOf.forEach((source, row) => {
      if (source >= 0) kept.set(row, decoded.vectors.subarray(source * dimension, (source + 1) * dimension));
    });
    return kept;
  } catch {
    return void 0;
  }
}
function mismatch(dir, built, query) {
  return new RagError(
    "INDEX_INCOMPATIBLE",
    `The embedding index in ${dir} was built with ${built.id} (${built.dimension} dimensions), but queries would be embedded with ${query.id}${Number.isNaN(query.dimension) ? "" : ` (${query.dimension} dimensions)`}; their vectors are not comparable.`,
    {
      hint: "Search with the model the index was built with (the same --model_dir or model name), or rebuild the index with the new one: `rag index --retriever embedding \u2026`."
    }
  );
}
async function loadEmbeddingRetriever(dir, chunks, options = {}) {
  const manifest = await readEmbeddingManifest(dir, options.readFile);
  if (manifest.count !== chunks.length || options.verified !== true && manifest.chunkFingerprint !== chunkFingerprint(chunks)) {
    throw new RagError("INDEX_INCOMPATIBLE", `The embedding index in ${dir} was built over different chunks than the index holds.`, {
      hint: "Rebuild the index with `rag index --corpus_dir <dir> --retriever embedding`."
    });
  }
  const readBytes = async (file) => {
    try {
      return await (options.readFile ?? readFile32)(join42(dir, file));
    } catch (error) {
      throw new RagError("INDEX_CORRUPT", `The embedding index in ${dir} is incomplete: ${file} is missing.`, {
        hint: "Rebuild the index with `rag index --corpus_dir <dir> --retriever embedding`.",
        cause: error
      });
    }
  };
  const decoded = options.vectorSearch ? { count: manifest.count, dimension: manifest.embedder.dimension, vectors: new Float32Array(0) } : decodeVectors(await readBytes(VECTORS_FILE), join42(dir, VECTORS_FILE));
  if (decoded.count !== manifest.count || decoded.dimension !== manifest.embedder.dimension) {
    throw new RagError("INDEX_CORRUPT", `${join42(dir, VECTORS_FILE)} does not match ${dir}/embedding.json.`, {
      hint: "Rebuild the index with `rag index --corpus_dir <dir> --retriever embedding`."
    });
  }
  const recorded = manifest.embedder.settings;
  let embedder = options.embedder;
  if (!embedder) {
    if (recorded.embedder === "corpus") {
      const override = options.settings ?? {};
      if (override.model || override.modelDir) {
        throw mismatch(dir, manifest.embedder, { id: `transformers:${override.modelDir ?? override.model}`, dimension: NaN });
      }
      embedder = CorpusEmbedder.decode(await readBytes(CORPUS_MODEL_FILE), join42(dir, CORPUS_MODEL_FILE));
    } else {
      const override = options.settings ?? {};
      const location = override.modelDir || override.model ? {} : { model: recorded.model, modelDir: recorded.modelDir };
      embedder = await TransformersEmbedder.create(
        resolveEmbeddingOptions(
          mergeEmbeddingSettings(
            { embedder: "transformers", dtype: recorded.dtype, windowTokens: recorded.windowTokens, windowOverlap: recorded.windowOverlap },
            location,
            override
          )
        )
      );
    }
  }
  if (embedder.id !== manifest.embedder.id || embedder.dimension !== manifest.embedder.dimension) {
    const query = { id: embedder.id, dimension: embedder.dimension };
    await embedder.dispose?.();
    throw mismatch(dir, manifest.embedder, query);
  }
  if (options.vectorSearch) return new EmbeddingRetriever(embedder, decoded.vectors, manifest, null, null, null, options.vectorSearch);
  const hnsw = manifest.index === "hnsw" && manifest.hnsw ? await readHnsw(dir, manifest.embedder.dimension, manifest.count, manifest.hnsw, readBytes) : null;
  return new EmbeddingRetriever(embedder, decoded.vectors, manifest, hnsw);
}
async function readHnsw(dir, dimension, count22, settings, readBytes) {
  const path = join42(dir, HNSW_FILE);
  if (existsSync2(path)) return HnswVectorIndex.read(path, dimension, count22, settings);
  const scratch = await mkdtemp(join42(tmpdir(), "rag-hnsw-"));
  try {
    await writeFile(join42(scratch, HNSW_FILE), await readBytes(HNSW_FILE));
    return HnswVectorIndex.read(join42(scratch, HNSW_FILE), dimension, count22, settings);
  } finally {
    await rm2(scratch, { recursive: true, force: true });
  }
}
function createEmbeddingRetrieverFactory(defaults = {}) {
  return {
    name: "embedding",
    description: "dense vectors: a zero-download embedder learned from the corpus, or a transformers.js model (model / modelDir)",
    build: (chunks, context = {}) => buildEmbeddingRetriever(chunks, mergeEmbeddingSettings(defaults, context.settings), context.onProgress, context.previous),
    load: (dir, chunks, context = {}) => {
      const locating = defaults.model || defaults.modelDir ? { settings: defaults } : { settings: pickRuntime(defaults) };
      if (context.readFile) locating.readFile = context.readFile;
      if (context.verified) locating.verified = true;
      const vectorSearch = context.vectorSearch?.(dir);
      if (vectorSearch) locating.vectorSearch = vectorSearch;
      return loadEmbeddingRetriever(dir, chunks, locating);
    }
  };
}
function pickRuntime(settings) {
  const { cacheDir, allowRemote, remoteHost, connectTimeoutMs, batchTokens } = settings;
  return mergeEmbeddingSettings({ cacheDir, allowRemote, remoteHost, connectTimeoutMs, batchTokens });
}
var embeddingRetrieverFactory = createEmbeddingRetrieverFactory();

// ../../packages/hybrid/dist/chunk-YSYAOL6D.js
import { mkdir } from "fs/promises";
import { join as join6 } from "path";
function fuseWith(lists, contribution, missing) {
  const byChunk = /* @__PURE__ */ new Map();
  lists.forEach((list, l) => {
    list.hits.forEach((hit, position) => {
      let fused2 = byChunk.get(hit.chunkId);
      if (!fused2) {
        fused2 = {
          chunkId: hit.chunkId,
          score: 0,
          components: lists.map((other) => ({ name: other.name, rank: null, score: null, contribution: 0 }))
        };
        byChunk.set(hit.chunkId, fused2);
      }
      const slot = fused2.components[l];
      if (slot.rank === null) {
        slot.rank = position + 1;
        slot.score = hit.score;
        slot.contribution = contribution(l, position);
      }
    });
  });
  const fused = [...byChunk.values()];
  for (const hit of fused) {
    hit.components.forEach((slot, l) => {
      if (slot.rank === null) slot.contribution = missing(l);
    });
    hit.score = hit.components.reduce((sum, slot) => sum + slot.contribution, 0);
  }
  return fused.sort(compareFused);
}
var best = (components) => Math.max(...components.map((c) => c.contribution));
function compareFused(a, b) {
  return b.score - a.score || best(b.components) - best(a.components) || a.chunkId - b.chunkId;
}
function fuseReciprocalRank(lists, rrfK) {
  return fuseWith(
    lists,
    (l, position) => lists[l].weight / (rrfK + position + 1),
    () => 0
  );
}
var reciprocalRankFusion = {
  name: "rrf",
  description: "reciprocal rank fusion: \u03A3 weight / (rrf_k + rank)",
  fuse: (lists, { rrfK }) => fuseReciprocalRank(lists, rrfK),
  describe: (p, weight2, { rrfK }) => p.rank === null ? `${p.name}: not among its candidates` : `${p.name}: rank ${p.rank} (score ${p.score.toFixed(4)}) \u2192 ${weight2} / (${rrfK} + ${p.rank})`
};
function statistics(list) {
  const scores = list.hits.map((h) => h.score);
  if (scores.length === 0) return { min: 0, max: 0, mean: 0, deviation: 0 };
  const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
  const variance = scores.reduce((a, s) => a + (s - mean) ** 2, 0) / scores.length;
  return { min: Math.min(...scores), max: Math.max(...scores), mean, deviation: Math.sqrt(variance) };
}
function normalizeScore(score, stats, normalization) {
  if (normalization === "minmax") return stats.max > stats.min ? (score - stats.min) / (stats.max - stats.min) : 1;
  return stats.deviation > 0 ? (score - stats.mean) / stats.deviation : 0;
}
function missingScore(stats, normalization) {
  if (normalization === "minmax") return 0;
  return stats.deviation > 0 ? (stats.min - stats.mean) / stats.deviation : -1;
}
function fuseScores(lists, normalization) {
  const stats = lists.map(statistics);
  return fuseWith(
    lists,
    (l, position) => lists[l].weight * normalizeScore(lists[l].hits[position].score, stats[l], normalization),
    (l) => lists[l].hits.length === 0 ? 0 : lists[l].weight * missingScore(stats[l], normalization)
  );
}
function scoreFusion(normalization, description) {
  return {
    name: normalization,
    description,
    fuse: (lists) => fuseScores(lists, normalization),
    describe: (p, weight2) => p.rank === null ? `${p.name}: not among its candidates, counted as the bottom of its scale (${p.contribution.toFixed(4)})` : `${p.name}: rank ${p.rank}, score ${p.score.toFixed(4)} \u2192 ${weight2} \xD7 ${normalization}(score) = ${p.contribution.toFixed(4)}`
  };
}
var minMaxFusion = scoreFusion("minmax", "weighted sum of scores min-max normalised per retriever");
var zScoreFusion = scoreFusion("zscore", "weighted sum of z-scored scores per retriever");
var methods = new Map([reciprocalRankFusion, minMaxFusion, zScoreFusion].map((m) => [m.name, m]));
function fusionMethodNames() {
  return [...methods.keys()];
}
function getFusionMethod(name) {
  const method = methods.get(name);
  if (!method) {
    throw new RagError("UNKNOWN_NAME", `Unknown fusion method "${name}".`, { hint: `Valid fusion methods: ${fusionMethodNames().join(", ")}.` });
  }
  return method;
}
var DEFAULT_RRF_K = 60;
var DEFAULT_POOL = 50;
var DEFAULT_HYBRID_OPTIONS = Object.freeze({
  fusion: "rrf",
  rrfK: DEFAULT_RRF_K,
  weights: Object.freeze({}),
  pool: DEFAULT_POOL,
  dropNonPositive: true,
  dedupe: true,
  kindShare: 1
});
var CONTEXT2 = { subject: "hybrid", root: "settings" };
var perComponent = (value) => external_exports.union([value, external_exports.record(external_exports.string(), value)]);
var HYBRID_SETTINGS_SCHEMA = external_exports.strictObject({
  fusion: external_exports.string().min(1).optional(),
  rrfK: external_exports.number().gt(0).optional(),
  rrf_k: external_exports.number().gt(0).optional(),
  weights: external_exports.record(external_exports.string(), external_exports.number().min(0)).optional(),
  pool: perComponent(external_exports.number().int().min(1)).optional(),
  dropNonPositive: perComponent(external_exports.boolean()).optional(),
  dedupe: external_exports.boolean().optional(),
  kindShare: external_exports.number().gt(0).max(1).optional(),
  components: external_exports.record(external_exports.string(), external_exports.record(external_exports.string(), external_exports.unknown())).optional()
});
function resolveHybridOptions(settings = {}, base = DEFAULT_HYBRID_OPTIONS) {
  const parsed = parseOptions(HYBRID_SETTINGS_SCHEMA, settings, CONTEXT2);
  const fusion = parsed.fusion ?? base.fusion;
  getFusionMethod(fusion);
  const pool = parsed.pool ?? base.pool;
  const drop = parsed.dropNonPositive ?? base.dropNonPositive;
  return {
    fusion,
    rrfK: parsed.rrfK ?? parsed.rrf_k ?? base.rrfK,
    weights: { ...parsed.weights ?? base.weights },
    pool: typeof pool === "number" ? pool : { ...pool },
    dropNonPositive: typeof drop === "boolean" ? drop : { ...drop },
    dedupe: parsed.dedupe ?? base.dedupe,
    kindShare: parsed.kindShare ?? base.kindShare
  };
}
function weightOf(options, name) {
  return options.weights[name] ?? 1;
}
function poolOf(options, name) {
  return typeof options.pool === "number" ? options.pool : options.pool[name] ?? DEFAULT_POOL;
}
function dropsNonPositive(options, name) {
  return typeof options.dropNonPositive === "boolean" ? options.dropNonPositive : options.dropNonPositive[name] ?? true;
}
var LEXICAL_DENSE_SETTINGS = Object.freeze({
  fusion: "minmax",
  weights: Object.freeze({ bm25: 1, embedding: 0.05 }),
  kindShare: 0.7
});
var HYBRID_MANIFEST_FILE = "hybrid.json";
var HYBRID_FORMAT = "rag-hybrid";
var HYBRID_FORMAT_VERSION = 1;
var PROVENANCE_CACHE_SIZE = 64;
var HybridRetriever = class _HybridRetriever {
  /**
   * `chunks` (the ones the components search, ids equal to positions) let the fused list be
   * drawn under `dedupe` and `kindShare`; without them the fused order is returned as is.
   */
  constructor(components, options = {}, chunks) {
    this.components = components;
    this.#chunks = chunks;
    this.#flags = chunks ? proseFlags(chunks) : void 0;
    const names = components.map((c) => c.name);
    const repeated = names.find((name, i) => names.indexOf(name) !== i);
    if (repeated !== void 0) {
      throw new RagError("INVALID_ARGUMENT", `Two hybrid components are named "${repeated}".`, { hint: "Give every component retriever a distinct name." });
    }
    if (components.length === 0) throw new RagError("INVALID_ARGUMENT", "A hybrid retriever needs at least one component.", { hint: "Pass e.g. [bm25, embedding]." });
    this.options = resolveHybridOptions(options);
    this.#method = getFusionMethod(this.options.fusion);
  }
  components;
  name = "hybrid";
  options;
  #method;
  #provenance = /* @__PURE__ */ new Map();
  #chunks;
  #flags;
  /** The same components under other fusion options (nothing is rebuilt). */
  withOptions(settings) {
    return new _HybridRetriever(this.components, resolveHybridOptions(settings, this.options), this.#chunks);
  }
  /** Each component's candidates for `query`, at least `k` each. */
  async candidates(query, k) {
    return Promise.all(
      this.components.map(async (component) => {
        const hits = await component.search(query, { k: Math.max(k, poolOf(this.options, component.name)) });
        return {
          name: component.name,
          weight: weightOf(this.options, component.name),
          hits: dropsNonPositive(this.options, component.name) ? hits.filter((h) => h.score > 0) : hits
        };
      })
    );
  }
  /** Every fused candidate, best first, with provenance. */
  async fuse(query, k) {
    const fused = this.#method.fuse(await this.candidates(query, k), { rrfK: this.options.rrfK });
    if (this.#provenance.size >= PROVENANCE_CACHE_SIZE) this.#provenance.delete(this.#provenance.keys().next().value);
    this.#provenance.set(query, fused);
    return fused;
  }
  async search(query, options) {
    const fused = (await this.fuse(query, options.k)).map(({ chunkId, score }) => ({ chunkId, score }));
    const { dedupe, kindShare } = this.options;
    if (!this.#chunks || !this.#flags || !dedupe && kindShare >= 1) return fused.slice(0, options.k);
    return selectHits(fused, this.#chunks, this.#flags, options.k, { dedupe, fileShare: 1, kindShare });
  }
  /**
   * The fused score of `chunkId` split into each component's contribution, with the
   * component's own explanation below it. Uses the provenance of a recent `search` of the
   * same query (component searches are asynchronous; `explain` is not).
   */
  explain(query, chunkId) {
    const fused = this.#provenance.get(query);
    const header = `${this.#method.name} fusion of ${this.components.map((c) => c.name).join(", ")}${this.#method.name === "rrf" ? ` (rrf_k ${this.options.rrfK})` : ""}`;
    if (!fused) return { value: 0, description: `${header}: run search() with this query first, then explain()` };
    const hit = fused.find((h) => h.chunkId === chunkId);
    if (!hit) return { value: 0, description: `${header}: chunk ${chunkId} is in no component's candidates` };
    const details = hit.components.map((p, i) => {
      const component = this.components[i];
      const own = p.rank !== null ? component.explain?.(query, chunkId) : void 0;
      return {
        value: p.contribution,
        description: this.#method.describe(p, weightOf(this.options, p.name), { rrfK: this.options.rrfK }),
        ...own ? { details: [own] } : {}
      };
    });
    return { value: hit.score, description: header, details };
  }
  /** Saves each component into `dir/<component name>/` and the fusion options into `hybrid.json`. */
  async save(dir, context) {
    for (const component of this.components) {
      const target = join6(dir, component.name);
      await mkdir(target, { recursive: true });
      await component.save(target, context);
    }
    const manifest = {
      format: HYBRID_FORMAT,
      version: HYBRID_FORMAT_VERSION,
      components: this.components.map((c) => c.name),
      options: this.options
    };
    await writeFileAtomic(join6(dir, HYBRID_MANIFEST_FILE), JSON.stringify(manifest, null, 1));
  }
};

// ../../packages/hybrid/dist/index.js
import { readFile as readFile4 } from "fs/promises";
import { join as join7 } from "path";
async function readManifest(dir, read = readFile4) {
  let manifest;
  try {
    manifest = JSON.parse(Buffer.from(await read(join7(dir, HYBRID_MANIFEST_FILE))).toString("utf8"));
  } catch (error) {
    throw new RagError("INDEX_CORRUPT", `The hybrid index in ${dir} is incomplete or damaged (${HYBRID_MANIFEST_FILE}).`, {
      hint: "Rebuild it with `rag index --corpus_dir <dir> --retriever hybrid`.",
      cause: error
    });
  }
  if (manifest.format !== HYBRID_FORMAT || manifest.version !== HYBRID_FORMAT_VERSION || !Array.isArray(manifest.components)) {
    throw new RagError("INDEX_INCOMPATIBLE", `The hybrid index in ${dir} has format ${String(manifest.format)} version ${String(manifest.version)}; this version reads ${HYBRID_FORMAT} ${HYBRID_FORMAT_VERSION}.`, {
      hint: "Rebuild it with `rag index --corpus_dir <dir> --retriever hybrid`."
    });
  }
  return manifest;
}
function createHybridRetrieverFactory(components, options = {}) {
  if (components.length === 0) throw new RagError("INVALID_ARGUMENT", "A hybrid retriever needs at least one component.", { hint: "Pass e.g. [bm25RetrieverFactory, embeddingRetrieverFactory]." });
  const { components: defaultComponentSettings = {}, ...fusionDefaults } = options;
  const base = resolveHybridOptions(fusionDefaults, DEFAULT_HYBRID_OPTIONS);
  const byName = new Map(components.map((f) => [f.name, f]));
  if (byName.size !== components.length) throw new RagError("INVALID_ARGUMENT", "Two hybrid component factories share a name.", { hint: "Give every component a distinct name." });
  return {
    name: "hybrid",
    description: `fusion of ${components.map((f) => f.name).join(" + ")} (${base.fusion}${base.fusion === "rrf" ? `, rrf_k ${base.rrfK}` : ""})`,
    async build(chunks, context = {}) {
      const { components: componentSettings = {}, ...fusionSettings } = context.settings ?? {};
      for (const name of Object.keys(componentSettings)) {
        if (!byName.has(name)) {
          throw new RagError("INVALID_ARGUMENT", `hybrid settings name component "${name}", which this hybrid does not have.`, {
            hint: `Components: ${[...byName.keys()].join(", ")}.`
          });
        }
      }
      const resolved = resolveHybridOptions(fusionSettings, base);
      const built = [];
      for (const factory of components) {
        const settings = { ...defaultComponentSettings[factory.name], ...componentSettings[factory.name] };
        const previous = context.previous ? { ...context.previous, dir: join7(context.previous.dir, factory.name) } : void 0;
        built.push(await factory.build(chunks, { settings, ...context.onProgress ? { onProgress: context.onProgress } : {}, ...previous ? { previous } : {} }));
      }
      return new HybridRetriever(built, resolved, chunks);
    },
    async load(dir, chunks, context) {
      const manifest = await readManifest(dir, context?.readFile);
      const loaded = [];
      for (const name of manifest.components) {
        const factory = byName.get(name);
        if (!factory) {
          throw new RagError("INDEX_INCOMPATIBLE", `The hybrid index in ${dir} fuses "${name}", which this hybrid retriever does not have.`, {
            hint: `Rebuild it with the current components (${[...byName.keys()].join(", ")}): \`rag index --retriever hybrid\`.`
          });
        }
        loaded.push(await factory.load(join7(dir, name), chunks, context));
      }
      return new HybridRetriever(loaded, resolveHybridOptions(manifest.options, base), chunks);
    }
  };
}

export {
  tokenize,
  tokenizeQuery,
  definedNames,
  matchLines,
  markTerms,
  QUESTION_KIND_RULES,
  detectAnswerKind,
  codeCarriesKind,
  MODEL_DTYPES,
  isHubModelId,
  locateModel,
  isModelOnDisk,
  loadTransformers,
  withTransformersEnvironment,
  bm25RetrieverFactory,
  createEmbeddingRetrieverFactory,
  LEXICAL_DENSE_SETTINGS,
  createHybridRetrieverFactory
};
//# sourceMappingURL=chunk-3YUETLGB.js.map