/**
 * Endings of the adjectives (and participles) English turns into adverbs with -ly, for the
 * stemmer: `immediately` → `immediate`, `exclusively` → `exclusive`, `accordingly` →
 * `according`, `strictly` → `strict`. A word ending in -ly folds onto its base only when
 * the base ends in one of these, so `apply`, `reply`, `supply`, `assembly`, `anomaly`,
 * `early` and `only` stay whole. Source: the productive adjective suffixes of English
 * (-ent, -ant, -ive, -ous, -ate, -ful, -al, -less, participles in -ed and -ing) and the
 * common monosyllabic bases of software prose (`strict`, `direct`, `exact`, `clear`,
 * `strong`, `slow`, `quick`, `tight`, `modern`).
 */
export const ADVERB_BASE_ENDINGS: readonly string[] = [
  'ent', 'ant', 'ive', 'ous', 'ate', 'ite', 'ete', 'ful', 'al', 'ess', 'ed', 'ing',
  'ct', 'it', 'ise', 'ize', 'ure', 'ose', 'ide', 'ire', 'ile', 'ine', 'rse',
  'ain', 'ear', 'ong', 'ow', 'ick', 'ght', 'ern', 'ict', 'st',
];
