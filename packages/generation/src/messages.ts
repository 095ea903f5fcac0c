/** The answer when retrieval returned nothing: no generator is asked. */
export const NO_SOURCES_ANSWER = 'No sources were retrieved for this question, so there is nothing to answer from.';

/** The extractive generator's answer when no retrieved sentence or line matches the question. */
export const NOT_FOUND_ANSWER = 'The retrieved sources do not appear to contain the answer to this question.';
