/**
 * Question boilerplate dropped from queries only (the indexed text keeps them): verbs and
 * nouns that frame a question rather than name its subject. Kept short and generic on
 * purpose; idf already discounts the rest.
 */
export const DEFAULT_QUESTION_WORDS: readonly string[] = Object.freeze(
  `explain explains describe describes tell show give please
   mean means meaning purpose happen happens happened
   exactly specifically particular`
    .split(/\s+/)
    .filter((word) => word.length > 0),
);
