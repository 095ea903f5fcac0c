/**
 * A deliberately light suffix stemmer for English prose: it folds plurals and the
 * -ing / -ed / trailing-e forms of a word onto one key (`caches`, `caching`, `cached`,
 * `cache` → `cach`; `embeddings`, `embedding`, `embedded` → `embed`) and British spellings
 * onto American ones (`normalise` → `normalize`, `behaviour` → `behavior`, `cancelled` →
 * `canceled`), and leaves everything else alone: a question written in one variety of
 * English meets code and docs written in the other. It never produces a key shorter than
 * three letters, and only touches lowercase ASCII words (identifiers with digits or other
 * scripts pass through). It favours precision over recall: a missed fold costs one match,
 * a wrong fold (such as merging `server` into `serve`) pollutes every query that uses the word.
 */

const MIN_STEM = 3;
/** Stems at least this long lose a final double l: `cancell` (British `cancelled`) → `cancel`. */
const MIN_DOUBLE_L_STEM = 6;

function isLowerAscii(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c < 97 || c > 122) return false;
  }
  return true;
}

function isVowel(c: string | undefined): boolean {
  return c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u' || c === 'y';
}

function hasVowel(word: string): boolean {
  for (let i = 0; i < word.length; i++) if (isVowel(word[i])) return true;
  return false;
}

/** `padd` → `pad`, `runn` → `run`; `ll`, `ss`, `ff`, `zz` are kept (`install`, `pass`). */
function undouble(word: string): string {
  const last = word[word.length - 1];
  if (word.length > MIN_STEM && last === word[word.length - 2] && last !== undefined && 'bdgmnprt'.includes(last)) {
    return word.slice(0, -1);
  }
  return word;
}

function stripPlural(word: string): string {
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('es') && word.length - 2 >= MIN_STEM) {
    const before = word.slice(0, -2);
    if (/(?:[sxz]|ch|sh)$/.test(before)) return before;
  }
  if (word.endsWith('s') && !/(?:ss|us|is|as)$/.test(word)) return word.slice(0, -1);
  return word;
}

function stripVerbSuffix(word: string): string {
  // `retried`, `applied` → `retry`, `apply`, as `retries` and `applying` already give.
  if (word.endsWith('ied') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('ing')) {
    const stem = word.slice(0, -3);
    if (stem.length >= MIN_STEM && hasVowel(stem)) return undouble(stem);
    return word;
  }
  // `ed` needs a longer remainder than `ing`: `embed`, `speed` and `need` are not past
  // tenses, nor is any -eed word (`exceed`, `proceed`: `exceeds` must not lose its `ed`).
  if (word.endsWith('ed') && !word.endsWith('eed')) {
    const stem = word.slice(0, -2);
    if (stem.length >= MIN_STEM + 1 && hasVowel(stem)) return undouble(stem);
  }
  return word;
}

/**
 * British spellings onto American ones: -ise / -isation / -iser → -ize… (at least three
 * letters before, so `raise` and `noise` stay), -yse → -yze, -our → -or after a consonant
 * or `i` in words of six letters or more (`colour`, `behaviour`; `hour`, `your` stay). Words that
 * only look British (`promise`, `otherwise`) fold too, harmlessly: query and index agree.
 */
function americanize(word: string): string {
  const ise = /^([a-z]{3,})is(e|es|ed|ing|ation|ations|er|ers|able)$/.exec(word);
  if (ise) return `${ise[1]}iz${ise[2]}`;
  const yse = /^([a-z]{2,})ys(e|es|ed|ing|er|ers)$/.exec(word);
  if (yse) return `${yse[1]}yz${yse[2]}`;
  const our = /^([a-z]{2,}[^aeou])our(s|ed|ing|ite|ites|able|al)?$/.exec(word);
  if (our && word.length >= 6) return `${our[1]}or${our[2] ?? ''}`;
  return word;
}

/** The stem of one lowercase word; words it does not understand come back unchanged. */
export function stemWord(word: string): string {
  if (word.length <= MIN_STEM || !isLowerAscii(word)) return word;
  let stem = stripVerbSuffix(stripPlural(americanize(word)));
  if (stem.endsWith('e') && stem.length > MIN_STEM) stem = stem.slice(0, -1);
  // `numerical` with `numeric`, `symmetrical` with `symmetric`.
  if (stem.endsWith('ical') && stem.length >= 7) stem = stem.slice(0, -2);
  // British doubling (`cancelled`, `modelling`, `labelled`) meets American (`canceled`).
  if (stem.length >= MIN_DOUBLE_L_STEM && stem.endsWith('ll')) stem = stem.slice(0, -1);
  return stem;
}

/**
 * Folds the noun a verb makes with -ation onto the verb's stem, on top of `stemWord`:
 * `classification` → `classify`, `quantization` → `quantiz` (as `quantize`), `allocation`
 * and `allocate` → `alloc`, `computation` → `comput`, `configuration` → `configur`. A
 * question that describes behaviour ("the quantization of weights") then meets code and
 * docstrings that name it ("quantize the weights"). The remainder must keep five letters,
 * so `format`, `state` and `update` stay whole; agent nouns (`server`, `scheduler`,
 * `tokenizer`) are left alone.
 */
export function foldDerivation(stem: string): string {
  if (stem.endsWith('ification')) return `${stem.slice(0, -9)}ify`;
  if (stem.endsWith('ization')) return stem.slice(0, -5);
  if (stem.endsWith('ation') && stem.length - 5 >= 5) stem = stem.slice(0, -5);
  else if (stem.endsWith('at') && stem.length - 2 >= 5) stem = stem.slice(0, -2);
  return stem;
}
