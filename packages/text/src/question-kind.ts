/**
 * What form a question's answer takes, read from the question's wording — a default
 * value, an error and when it is raised, a place in the code, steps or a command, a list,
 * a yes or no with its condition, a single value, what happens under a condition, how
 * something is computed or decided, or (anything else) an explanation — and
 * the Python code that carries each kind of fact. Retrieval prefers code that carries it
 * (bm25's `rerank.answerEvidence`), the extractive generator the lines that do, the LLM
 * generator is told the form. English question forms and Python syntax only; nothing here
 * names a project.
 */
import { isPassThrough } from './definitions.js';

export type AnswerKind = 'default' | 'error' | 'where' | 'how' | 'list' | 'yesno' | 'value' | 'consequence' | 'mechanism' | 'explain';

export interface QuestionKindRule {
  kind: Exclude<AnswerKind, 'explain'>;
  /** Matched against the question; the first rule that matches decides. */
  question: RegExp;
  /**
   * Words of which `question` cannot match without one (lowercase, ASCII): a question that
   * holds none of them skips the rule. Why: V8 compiles a pattern on its first use in a
   * process, and these patterns cost 0.1–1.7 ms each to compile, most of a one-shot
   * search's time in this module; the check is what a question that the rule cannot match
   * costs instead. Absent: the rule is always tried. Must hold for every question the
   * pattern matches (a property test compares against the patterns alone).
   */
  requires?: readonly string[];
}

/** Who would choose a value, in "unless I change it", "when you do not pick one". */
const ASKER = '(i|we|you|one|the (user|caller|application))';
/** Verbs of choosing a value (in "unless I change it", "when I do not choose one"). */
const CHOOSE = '(change|choose|pick|select|set|pass|give|specify|provide|configure|supply|override)';
/** Verbs that say a caller supplied a value (in "when none is given"). */
const GIVEN = '(given|set|specified|provided|passed|requested|named|chosen|configured|supplied)';

/**
 * The rules, most specific first: "what is the default timeout" is a default question
 * before it is a value question, "which error is raised" an error question before a list.
 */
export const QUESTION_KIND_RULES: readonly QuestionKindRule[] = Object.freeze([
  {
    kind: 'default',
    requires: ['default', 'omitted', 'absent', 'missing', 'not'],
    question: /\bdefaults?\b|\bdefault(ed)? (value|setting)\b|\bwhen (it is |they are )?(omitted|absent|missing|not (given|set|specified|provided|passed))\b|\bif (it is |they are )?(omitted|absent|missing|not (given|set|specified|provided|passed))\b/i,
  },
  {
    kind: 'how',
    requires: ['how', 'steps', 'command', 'what'],
    question:
      /^\s*how (do|can|should|would|could) (i|we|you|one|users?)\b|^\s*how to\b|\b(steps|command|commands) (to|for)\b|^\s*what (do|should|must|can) (i|we|you|one) (add|put|write|run|set|use|pass|call|install|type|change)\b/i,
  },
  { kind: 'error', requires: ['exception', 'error', 'raise', 'throw', 'fail', 'rejected', 'refused'], question: /\b(exceptions?|errors?|raises?|raised|throws?|thrown|fails?|failure|rejected|refused)\b/i },
  {
    kind: 'where',
    requires: ['where', 'which'],
    question: /^\s*where\b|\bin which (file|module|class|function|method|package)\b|\bwhich (file|module|class|function|method) (defines|implements|contains|handles|holds|sets)\b/i,
  },
  { kind: 'yesno', question: /^\s*(is|are|can|could|does|do|did|should|may|will|must|has|have)\b/i },
  {
    // "Which formats are supported", "In what order are they tried", "What values …", any plural subject that agrees with
    // its verb ("Which characters are replaced", "What unit names are used"), "What are the
    // <things> …" and "What three <things> …": several things are asked for. Not "What flag
    // do I …" (singular) nor "What should you do".
    kind: 'list',
    requires: ['supported', 'available', 'allowed', 'accepted', 'valid', 'possible', 'order', 'list', 'name', 'which', 'what'],
    question:
      /\b(supported|available|allowed|accepted|valid|possible)\b|\bin (what|which) order\b|^\s*(list|name)\b|^\s*(which|what)\s+(\w+\s+){0,2}(options|values|formats|types|kinds|modes|backends|methods|platforms|architectures|flags|variables|fields|parameters|arguments|strings|answers|versions)\b|^\s*(which|what)\s+(\w+\s+){0,2}\w+[^\Ws]s\s+(are|were|have|do)\b|^\s*what are (all |some of )?the (\w+\s+){0,4}\w+[^\Ws]s\b|^\s*what (two|three|four|five|six|seven|eight|nine|ten|\d+)\s/i,
  },
  {
    // A default asked without the word: "when none is given", "when no bundle path is
    // passed", "a header that names no charset", "unless configured otherwise", "unless I
    // change it", "when you do not pick one", "is assumed".
    // After the place, how-to and list forms, which say more about the answer's shape.
    kind: 'default',
    // 'no' is in "none", "nothing", "not"; "n't" in "don't".
    requires: ['no', 'neither', 'unless', "n't", 'assumed'],
    question: new RegExp(
      [
        `\\b(none|nothing|no(\\s+[\\w-]+){1,3})\\s+(is|are|was|were)\\s+${GIVEN}\\b`,
        `\\b(names?|gives?|specif(y|ies)|pass(es)?|sets?|requests?)\\s+(no|neither|none)\\b`,
        `\\bunless\\b[^?]{0,40}\\botherwise\\b`,
        `\\bunless\\s+${ASKER}\\s+${CHOOSE}\\b`,
        `\\b(when|if)\\s+${ASKER}\\s+(do|does|did)\\s*(not|n't)\\s+${CHOOSE}\\b`,
        `\\b(is|are)\\s+assumed\\b`,
      ].join('|'),
      'i',
    ),
  },
  {
    kind: 'value',
    requires: ['what', 'how'],
    question: /^\s*what (is|are) the (\w+\s+){0,3}(value|size|number|length|limit|type|unit|name|format|path|port|version|timeout|rate|width|threshold|shape)s?\b|^\s*what (value|size|number|length|limit|timeout|threshold) (is|does|do|was)\b|\bhow (many|much|long|large|big|often|wide)\b/i,
  },
  {
    // "What happens when the residual is None?", "What does the buffer return if no
    // receiver is set?": the answer is the branch taken under that condition; "When does the
    // serializer compress its payload?": the condition itself, the same branch's opening
    // line. Last, so that
    // an error, a default, a list or a value asked that way keeps its more telling form.
    kind: 'consequence',
    requires: ['what', 'when'],
    question: /^\s*what happens\b|^\s*what (does|do|will|would|is)\b.{0,80}\b(do|return|returned|give|yield|print|produce)\b.{0,60}\b(when|if|unless)\b|^\s*when (does|do|did|is|are|was|were|will|would|can|could|should|must|may)\b/i,
  },
  {
    // "How is the module name derived from the template's name?", "How does the loader tell
    // whether a cached template is stale?": the answer is the computation or the check — the
    // line that returns or assigns the computed value — not the sentences around it.
    kind: 'mechanism',
    requires: ['how'],
    question:
      /^\s*how (is|are|was|were)\b.{0,100}\b(computed|calculated|derived|determined|resolved|evaluated|adjusted|decided|chosen|picked|built|generated|formed|turned into|converted|estimated|counted|measured|detected|normali[sz]ed|encoded|decoded|parsed|named|split|matched|compared|sorted|ordered|rounded|truncated|hashed|signed|escaped|validated|checked)\b|^\s*how (does|do|did|can)\b.{0,100}\b(decide|determine|compute|calculate|derive|tell|figure out|detect|find|pick|choose|know|resolve|check|recogni[sz]e|work out|estimate|count|measure|compare|match)\b/i,
  },
]);

/**
 * A leading clause that sets the scene before the question proper: "In click, where is
 * …", "Using the OpenAI server, how do I …", "During training, how …". The question's form
 * is read after it, since the rules above look for its first words.
 */
export const LEADING_CLAUSE = /^\s*(in|with|for|using|on|inside|within|from|under|when using|after|before|during|once)\b[^,?]{0,60},\s*/i;

/** The kind of answer `question` asks for; `explain` when no rule matches. */
export function detectAnswerKind(question: string): AnswerKind {
  const asked = question.replace(LEADING_CLAUSE, '');
  const lower = asked.toLowerCase();
  for (const rule of QUESTION_KIND_RULES) {
    if (rule.requires && !rule.requires.some((word) => lower.includes(word))) continue;
    if (rule.question.test(asked)) return rule.kind;
  }
  return 'explain';
}

/**
 * An assignment, annotated field or keyword default that gives a value: `x = 16`, `x: int =
 * 16`, `f(x=None)`. Written to start at the `=` and look behind for the name (what
 * `(^|[\s(,])[A-Za-z_][\w.]*\s*(:\s*[^=\n]{1,60})?=(?!=)\s*[^\s=]` matches, found faster:
 * the engine skips to each `=` instead of trying a name at every position of a chunk).
 */
export const ASSIGNS = /=(?!=)(?<=(?:^|[\s(,])[A-Za-z_][\w.]*\s*(?::\s*[^=\n]{1,60})?=)\s*[^\s=]/;
/** A lookup with a fallback: `d.get(k, 5)`, `getattr(o, "x", False)`, `os.environ.get("X", "1")`. */
const FALLBACK = /\b(get|getattr|pop|setdefault|getenv)\(\s*[^()]+,\s*[^()]+\)/;
/** A literal value on the right of `=`: a number, string, container, None/True/False. */
const LITERAL_VALUE = /=(?!=)\s*(-?\d|["'[({]|None\b|True\b|False\b)/;
const RAISES = /\b(raise|except)\b/;
const SEQUENCE_LITERAL = /[[({]\s*("[^"]*"|'[^']*'|[\w.]+)\s*,\s*("[^"]*"|'[^']*'|[\w.]+)/;
const CONDITION = /\b(if not|raise|assert)\b/;
/** A line that gives back a computed value: `return "tmpl_" + sha1(name).hexdigest()`, not `return x` or `return None`. */
const COMPUTES = /^\s*return\s+(?!(None|True|False|self)\s*$)[^\n]*[(+*\/%[]|^\s*[A-Za-z_][\w.]*\s*(:[^=\n]+)?=\s*[^=\s][^\n]*[+*\/%-]\s*[\w(]/m;
/** A line that opens a branch: the condition or handler whose block runs only then. */
const BRANCH = /^\s*(if|elif|except|while)\b.*:\s*$/m;
/** A statement that raises: what happens when a condition fails is often an exception. */
const RAISE_STATEMENT = /^\s*raise\b/m;

/**
 * Whether Python `code` (a line, or a whole chunk) carries the kind of fact a question of
 * `kind` asks for: an assignment (not a line that only hands a name on, `x=x`) or a lookup
 * with a fallback for a default, a `raise` or `except` for an error, a literal sequence for
 * a list, a guard for a yes/no, a literal for a value, a branch's opening line (`if …:`,
 * `except …:`) or a `raise` statement for what happens under a condition, a line that returns or assigns a computed
 * value (a call, an operator, an index) for how something is computed. Kinds whose answer is not a kind of code (where, how, explain) never match.
 */
export function codeCarriesKind(code: string, kind: AnswerKind): boolean {
  switch (kind) {
    case 'default':
      return (ASSIGNS.test(code) && !isPassThrough(code)) || FALLBACK.test(code);
    case 'error':
      return RAISES.test(code);
    case 'list':
      return SEQUENCE_LITERAL.test(code);
    case 'yesno':
      return CONDITION.test(code);
    case 'value':
      return LITERAL_VALUE.test(code);
    case 'consequence':
      return BRANCH.test(code) || RAISE_STATEMENT.test(code);
    case 'mechanism':
      return COMPUTES.test(code);
    default:
      return false;
  }
}

