/**
 * English function words dropped from indexed text and queries (source: written for this
 * project from the closed classes of English grammar: articles, pronouns, auxiliaries,
 * prepositions, conjunctions, and the fragments contractions split into). Written for code search:
 * words that mean something in code or in a question about code stay indexable, e.g.
 * `not`, `no`, `none`, `all`, `any`, `each`, `only`, `first`, `last`, `max`, `min`,
 * `before`, `after`, `up`, `down`, `out`, `off`, `over`, `under`, `return`, `import`,
 * `class`, `self`, `true`, `false`, `default`. Whole identifiers are never dropped
 * (`is_valid` survives; only its part `is` does not).
 */
export const DEFAULT_STOPWORDS: readonly string[] = Object.freeze(
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
