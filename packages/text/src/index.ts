export {
  DEFAULT_QUERY_OPTIONS,
  DEFAULT_TOKENIZER_OPTIONS,
  QUERY_SETTINGS_SCHEMA,
  resolveQueryOptions,
  resolveTokenizerOptions,
  TOKENIZER_SETTINGS_SCHEMA,
  withQueryDefaults,
  withTokenizerDefaults,
  type QueryOptions,
  type QuerySettings,
  type TokenizerOptions,
  type TokenizerSettings,
} from './options.js';
export { createQueryTokenizer, createTokenizer, tokenize, tokenizeQuery, type QueryTerm, type QueryTokenizeOptions } from './tokenize.js';
export { DEFAULT_STOPWORDS } from './word-lists/stopwords.js';
export { DEFAULT_QUESTION_WORDS } from './word-lists/question-words.js';
export { DEFAULT_ALIASES } from './word-lists/aliases.js';
export { DEFAULT_ABBREVIATIONS } from './word-lists/abbreviations.js';
export { PLACE_QUERY_WORDS } from './word-lists/place-words.js';
export { MAX_JOINED_WORDS, namesSpelledInWords } from './place-names.js';
export { foldDerivation, stemWord } from './stem.js';
export { hasInnerSeparator, identifierTerm, isIdentifierSpelling } from './identifiers.js';
export { CODE_STATEMENT, isCodeStatement, DESCRIPTION_MAX_CODE_LINES, DESCRIPTION_MIN_PROSE_SHARE, readsAsDescription } from './descriptions.js';
export { isMarkupStub } from './stubs.js';
export { definedNames, definesName, explainsName, separatedNamesIn } from './definitions.js';
export { markTerms, matchLines, type MatchedLine, type MatchLinesOptions } from './match-lines.js';
export { codeCarriesKind, detectAnswerKind, QUESTION_KIND_RULES, type AnswerKind, type QuestionKindRule } from './question-kind.js';
export { ANSWER_TYPE_RULES, answerTypesOf, spellsAnswerType, type AnswerType, type AnswerTypeRule } from './answer-types.js';
