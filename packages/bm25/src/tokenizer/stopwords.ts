/**
 * English function words dropped from indexed text and queries. Written for code search:
 * words that mean something in code or in a question about code stay indexable, e.g.
 * `not`, `no`, `none`, `all`, `any`, `each`, `only`, `first`, `last`, `max`, `min`,
 * `before`, `after`, `up`, `down`, `out`, `off`, `over`, `under`, `return`, `import`,
 * `class`, `self`, `true`, `false`, `default`. Whole identifiers are never dropped
 * (`is_valid` survives; only its part `is` does not).
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
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
   s t d ll m re ve don doesn didn isn aren wasn weren hasn haven hadn won wouldn shouldn couldn`
    .split(/\s+/)
    .filter((word) => word.length > 0),
);

/**
 * Question boilerplate dropped from queries only (the indexed text keeps them): verbs and
 * nouns that frame a question rather than name its subject. Kept short and generic on
 * purpose; idf already discounts the rest.
 */
export const QUESTION_WORDS: ReadonlySet<string> = new Set(
  `explain explains describe describes tell show give please
   mean means meaning purpose happen happens happened
   exactly specifically particular`
    .split(/\s+/)
    .filter((word) => word.length > 0),
);

/**
 * Words of a question mapped to the term Python spells the same concept with, so a
 * question that says "constructor" reaches `__init__` (indexed as `init`). Keys are terms
 * as the tokenizer emits them (stemmed); only language conventions belong here, never
 * names from a particular codebase.
 */
export const QUERY_ALIASES: ReadonlyMap<string, string> = new Map([
  ['constructor', 'init'],
  ['initializer', 'init'],
  ['initialization', 'init'],
  ['initializ', 'init'],
  ['destructor', 'del'],
  ['iterator', 'iter'],
]);

/**
 * Words of a question mapped to the abbreviations programmers write for them in
 * identifiers, so a question that describes behaviour in words ("the maximum number of
 * sequences") reaches the code that spells it `max_num_seqs`. Keys and values are terms as
 * the tokenizer emits them (stemmed, sub-words of split identifiers); only abbreviations
 * common across codebases belong here, never names from a particular one.
 */
export const QUERY_ABBREVIATIONS: ReadonlyMap<string, readonly string[]> = new Map([
  ['number', ['num']],
  ['maximum', ['max']],
  ['minimum', ['min']],
  ['sequenc', ['seq']],
  ['length', ['len']],
  ['configuration', ['config', 'cfg']],
  ['argument', ['arg']],
  ['parameter', ['param']],
  ['attention', ['attn']],
  ['temperatur', ['temp']],
  ['probability', ['prob']],
  ['position', ['pos']],
  ['previous', ['prev']],
  ['directory', ['dir']],
  ['dimension', ['dim']],
  ['environment', ['env']],
  ['request', ['req']],
  ['respons', ['resp']],
  ['messag', ['msg']],
  ['buffer', ['buf']],
  ['context', ['ctx']],
  ['implementation', ['impl']],
  ['information', ['info']],
  ['utility', ['util']],
  ['allocation', ['alloc']],
  ['allocat', ['alloc']],
  ['specification', ['spec']],
  ['expression', ['expr']],
  ['temporary', ['tmp']],
  ['initializ', ['init']],
  ['quantization', ['quant']],
]);
