/**
 * Question boilerplate dropped from queries only (the indexed text keeps them): verbs and
 * nouns that frame a question rather than name its subject, and quantifiers that say how
 * many, not what ("every key", "several keys", "the old ones": a small corpus lacks them,
 * and a question's words that no chunk holds make an answer "not found"). Kept short and
 * generic on purpose; idf already discounts the rest. "many" stays: code names things with
 * it (`get_many`).
 */
export const DEFAULT_QUESTION_WORDS: readonly string[] = Object.freeze(
  `explain explains describe describes tell show give please
   mean means meaning purpose happen happens happened
   exactly specifically particular
   every several ones`
    .split(/\s+/)
    .filter((word) => word.length > 0),
);
