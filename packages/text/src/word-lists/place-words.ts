/**
 * Words a question uses to ask where a thing is rather than what it does (source: written
 * for this project from the ways people ask for a definition: "where is X implemented",
 * "which class defines X", "in which file is X declared"). A question whose words are these,
 * function words and the thing's name asks for the thing itself.
 */
export const PLACE_QUERY_WORDS: readonly string[] = Object.freeze(
  `where implemented implement implements implementation defined define defines definition
   declared declare declares declaration located locate location lives live
   code source class classes function functions method methods module modules file files
   package object type find found written`
    .split(/\s+/)
    .filter((word) => word.length > 0),
);
