#!/usr/bin/env node
import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);
import {
  LEXICAL_DENSE_SETTINGS,
  QUESTION_KIND_RULES,
  bm25RetrieverFactory,
  codeCarriesKind,
  createEmbeddingRetrieverFactory,
  createHybridRetrieverFactory,
  definedNames,
  detectAnswerKind,
  isHubModelId,
  isModelOnDisk,
  loadTransformers,
  locateModel,
  tokenize,
  tokenizeQuery,
  withTransformersEnvironment
} from "./chunk-3YUETLGB.js";
import {
  isPostgresUrl,
  resolvePostgresStoreOptions,
  splitConnectionString
} from "./chunk-T5TSCBZ7.js";
import {
  OffsetMap,
  RagError,
  RetrieverRegistry,
  StalenessTracker,
  __commonJS,
  __toESM,
  codePointLength,
  createFileStore,
  createOutputPathMapper,
  createSharedFileReader,
  external_exports,
  integerIn,
  isRagError,
  openIndexSession,
  optionError,
  parseOptions,
  retrieverDir,
  sliceCodePoints,
  verifyRetrieverFiles,
  writeFileAtomic
} from "./chunk-4AD4YNFC.js";

// ../../node_modules/.pnpm/ignore@7.0.17/node_modules/ignore/index.js
var require_ignore = __commonJS({
  "../../node_modules/.pnpm/ignore@7.0.17/node_modules/ignore/index.js"(exports, module) {
    "use strict";
    function makeArray(subject) {
      return Array.isArray(subject) ? subject : [subject];
    }
    var UNDEFINED = void 0;
    var EMPTY = "";
    var SPACE = " ";
    var ESCAPE = "\\";
    var REGEX_LITERAL_SPECIAL = /[.*+?()[\]{}^$|\\/]/;
    var BOM = "\uFEFF";
    var REGEX_ANCHORED_GLOBSTAR = /^\/\*{2,}$/;
    var REGEX_REPLACE_LEADING_EXCAPED_EXCLAMATION = /^\\!/;
    var REGEX_REPLACE_LEADING_EXCAPED_HASH = /^\\#/;
    var REGEX_SPLITALL_CRLF = /\r?\n/g;
    var DOUBLE_SLASH = "//";
    var SLASH_CODE = 47;
    var DOT_CODE = 46;
    var SLASH = "/";
    var TMP_KEY_IGNORE = "node-ignore";
    if (typeof Symbol !== "undefined") {
      TMP_KEY_IGNORE = /* @__PURE__ */ Symbol.for("node-ignore");
    }
    var KEY_IGNORE = TMP_KEY_IGNORE;
    var define = (object, key, value) => {
      Object.defineProperty(object, key, { value });
      return value;
    };
    var RETURN_FALSE = () => false;
    var POSIX_CLASSES = {
      alnum: "0-9A-Za-z",
      alpha: "A-Za-z",
      blank: " \\t",
      cntrl: "\\x00-\\x1f\\x7f",
      digit: "0-9",
      graph: "!-.0-~",
      lower: "a-z",
      print: " -.0-~",
      punct: "!-.:-@\\[-`{-~",
      // git's `sane-ctype.h` classifies \v and \f as control, not space,
      //   unlike C's `isspace`
      space: " \\t\\n\\r",
      upper: "A-Z",
      xdigit: "0-9A-Fa-f"
    };
    var CLASS_MEMBERS_TO_ESCAPE = "\\]^-[";
    var escapeMember = (char) => CLASS_MEMBERS_TO_ESCAPE.indexOf(char) < 0 ? char : ESCAPE + char;
    var NON_SLASH = "(?!\\/)";
    var classSource = (negated, body) => {
      if (negated) {
        return `[^\\/${body}]`;
      }
      const source = `[${body}]`;
      return new RegExp(source).test("/") ? NON_SLASH + source : source;
    };
    var scanBracket = (pattern, start) => {
      const { length } = pattern;
      let index = start + 1;
      let negated = EMPTY;
      const lead = pattern[index];
      if (lead === "!" || lead === "^") {
        negated = "^";
        index++;
      }
      let body = EMPTY;
      let prev = EMPTY;
      for (; ; ) {
        const char = pattern[index];
        if (char === UNDEFINED) {
          return null;
        }
        if (char === ESCAPE) {
          const escaped = pattern[++index];
          body += escapeMember(escaped);
          prev = escaped;
        } else if (char === "-" && prev && index + 1 < length && pattern[index + 1] !== "]") {
          index++;
          let to = pattern[index];
          if (to === ESCAPE) {
            to = pattern[index += 1];
          }
          if (prev <= to) {
            body += `-${escapeMember(to)}`;
          }
          prev = EMPTY;
        } else if (char === "[" && pattern[index + 1] === ":") {
          const nameStart = index + 2;
          let end = nameStart;
          while (end < length && pattern[end] !== "]") {
            end++;
          }
          if (end === length) {
            return null;
          }
          if (end > nameStart && pattern[end - 1] === ":") {
            const name = pattern.slice(nameStart, end - 1);
            if (!Object.prototype.hasOwnProperty.call(POSIX_CLASSES, name)) {
              return null;
            }
            body += POSIX_CLASSES[name];
            prev = EMPTY;
            index = end;
          } else {
            body += escapeMember("[");
            prev = "[";
            index = nameStart - 2;
          }
        } else {
          body += escapeMember(char);
          prev = char;
        }
        index++;
        if (pattern[index] === "]") {
          return {
            end: index,
            source: classSource(negated, body)
          };
        }
      }
    };
    var NEVER_MATCH = "[]";
    var PLACEHOLDER = "\0";
    var REGEX_RESTORE_PLACEHOLDER = new RegExp(
      `${PLACEHOLDER}(\\d+)${PLACEHOLDER}`,
      "g"
    );
    var TRAILING_WILDCARD = "\uE000";
    var TRAILING_DOUBLESTAR = "\uE001";
    var isReserved = (char) => char === PLACEHOLDER || char === TRAILING_WILDCARD || char === TRAILING_DOUBLESTAR;
    var extractBrackets = (pattern) => {
      const sources = [];
      const hold = (source) => `${PLACEHOLDER}${sources.push(source) - 1}${PLACEHOLDER}`;
      const { length } = pattern;
      let out = EMPTY;
      let index = 0;
      while (index < length) {
        const char = pattern[index];
        if (char === ESCAPE) {
          const escaped = pattern[index + 1];
          if (escaped === SLASH && index + 2 === length) {
            out += hold(NEVER_MATCH);
          } else if (escaped === "*" || escaped === "[" || escaped === SPACE) {
            out += pattern.slice(index, index + 2);
          } else {
            out += hold(
              REGEX_LITERAL_SPECIAL.test(escaped) ? ESCAPE + escaped : isReserved(escaped) ? `[${escaped}]` : escaped
            );
          }
          index += 2;
        } else if (isReserved(char)) {
          out += hold(`[${char}]`);
          index++;
        } else if (char === "[") {
          const scanned = scanBracket(pattern, index);
          if (scanned === null) {
            out += hold(NEVER_MATCH);
            index = length;
          } else {
            out += hold(scanned.source);
            index = scanned.end + 1;
          }
        } else {
          out += char;
          index++;
        }
      }
      return {
        source: out,
        sources
      };
    };
    var DIRECT = null;
    var REGEX_INNER_SLASH = /\/(?!$)/;
    var WILDCARD = "[^\\/]*";
    var REPLACERS = [
      // Replace (\ ) with ' '
      // Only a space: an escaped tab or other whitespace is already a literal by
      //   the time it reaches here, and a bare tab must be left as one, not turned
      //   into a space.
      // (\ ) -> ' '
      // (\\ ) -> '\\ '
      // (\\\ ) -> '\\ '
      [
        // A run of backslashes is taken whole, from its first one, so no match
        //   ever starts again inside it -- `(\\+?) ` did, which made a long run
        //   quadratic.
        /(\\+)( ?)/g,
        (_, run, space) => space ? run.slice(0, run.length - run.length % 2) + SPACE : run,
        ESCAPE + SPACE
      ],
      // git's wildmatch() reads a run of two or more asterisks as one globstar
      //   whenever the run fills a path segment: it starts the pattern or follows
      //   a `/`, and it ends the pattern or comes before a `/`. A run of two is
      //   already `**`; a longer one is folded into `**` here, so the steps
      //   below only ever have to know `**`.
      // `***/foo` -> `**/foo`, `a/***/b` -> `a/**/b`, `a/***` -> `a/**`
      // git also takes a run beside a literal prefix (`a***/b`) or beside an
      //   escaped slash (`***\/b`) as a globstar, and this does not; the README
      //   lists both, under "A run of asterisks".
      [
        /(^|\/)\*{3,}(?=\/|$)/g,
        (_, start) => `${start}**`,
        "*"
      ],
      // Escape metacharacters
      // which is written down by users but means special for regular expressions.
      // > There are 12 characters with special meanings:
      // > - the backslash \,
      // > - the caret ^,
      // > - the dollar sign $,
      // > - the period or dot .,
      // > - the vertical bar or pipe symbol |,
      // > - the question mark ?,
      // > - the asterisk or star *,
      // > - the plus sign +,
      // > - the opening parenthesis (,
      // > - the closing parenthesis ),
      // > - and the opening square bracket [,
      // > - the opening curly brace {,
      // > These special characters are often called "metacharacters".
      [
        /[\\$.|*+(){^]/g,
        (match) => `\\${match}`
      ],
      [
        // > a question mark (?) matches a single character
        /(?!\\)\?/g,
        () => "[^/]",
        "?"
      ],
      // leading slash
      [
        // > A leading slash matches the beginning of the pathname.
        // > For example, "/*.c" matches "cat-file.c" but not "mozilla-sha1/sha1.c".
        // A leading slash matches the beginning of the pathname
        /^\//,
        () => "^",
        SLASH
      ],
      // replace special metacharacter slash after the leading slash
      [
        /\//g,
        () => "\\/",
        SLASH
      ],
      [
        // > A leading "**" followed by a slash means match in all directories.
        // > For example, "**/foo" matches file or directory "foo" anywhere,
        // > the same as pattern "foo".
        // > "**/foo/bar" matches file or directory "bar" anywhere that is directly
        // >   under directory "foo".
        // Notice that the '*'s have been replaced as '\\*'
        /^\^*(?:\\\*\\\*\\\/)+/,
        // '**/foo' <-> 'foo'
        () => "(?:^|\\/)",
        "*"
      ],
      // starting
      [
        // there will be no leading '/'
        //   (which has been replaced by section "leading slash")
        // If starts with '**', adding a '^' to the regular expression also works
        DIRECT,
        (source, pattern) => {
          if (!source || source[0] === "^" || source[0] === "(") {
            return source;
          }
          const anchor = !REGEX_INNER_SLASH.test(pattern) ? "(?:^|\\/)" : "^";
          return anchor + source;
        }
      ],
      // two globstars
      [
        // Use lookahead assertions so that we could match more than one `'/**'`
        /\\\/\\\*\\\*(?=\\\/|$)/g,
        // Zero, one or several directories
        // should not use '*', or it will be replaced by the next replacer
        // Check if it is not the last `'/**'`
        (_, index, str) => index + 6 < str.length ? str.slice(index + 6) === "\\/" ? "(?:\\/[^\\/]+)+" : "(?:\\/[^\\/]+)*" : `\\/${TRAILING_DOUBLESTAR}`,
        "*"
      ],
      // normal intermediate wildcards
      [
        // Never replace escaped '*'
        // ignore rule '\*' will match the path '*'
        // 'abc.*/' -> go
        // 'abc.*'  -> skip this rule,
        //    coz trailing single wildcard will be handed by [trailing wildcard]
        /(^|[^\\])(?:\\\*)+(?!$)/g,
        // '*.js' matches '.js'
        // '*.js' doesn't match 'abc'
        // 1. An asterisk "*" matches anything except a slash.
        // 2. Other consecutive asterisks are considered regular asterisks
        //    and collapse into one non-slash wildcard run.
        (_, p1) => p1 + WILDCARD,
        "*"
      ],
      // trailing wildcard, held apart from a literal star
      [
        // The step above leaves a trailing `*` alone, so a single `\*` is all that
        //   can be left at the end here, and what stands in front of it says which
        //   kind it is. A wildcard arrives as the escaper wrote it, `\*` with
        //   nothing before it; a literal arrives as the user's own escape, which
        //   the escaper doubled, and then the star's own -- `\\` and then `\*`.
        //   There is no third case: every backslash still reaching the chain is
        //   one `\*`, `\[` or `\ ` carries itself, and each is followed by its
        //   own character, so a longer run can never form. This runs while the
        //   two are still distinct, before the unescape steps below collapse the
        //   literal onto the very `\*` a wildcard leaves behind.
        /(^|[^\\])((?:\\\\)*)\\\*$/,
        (match, p1, p2) => p2 === EMPTY ? p1 + TRAILING_WILDCARD : match,
        "*"
      ],
      [
        // unescape, revert step 3 except for back slash
        // For example, if a user escape a '\\*',
        // after step 3, the result will be '\\\\\\*'
        /\\\\\\(?=[$.|*+(){^])/g,
        () => ESCAPE,
        ESCAPE + ESCAPE
      ],
      [
        // '\\\\' -> '\\'
        /\\\\/g,
        () => ESCAPE,
        ESCAPE + ESCAPE
      ],
      [
        // Every real bracket expression -- POSIX classes included -- has already
        //   been held aside by `extractBrackets`, so the only `[` left in the
        //   pattern is an escaped, literal one.
        // A backslash could only stand at the end of the range if it quoted the
        //   `]`, and `\]` is held aside long before this.
        /\\\[([^\]/]*?)($|\])/g,
        // '\\[bar]' -> '\\\\[bar]'
        (match, range, close) => `\\[${range}${close}`,
        "["
      ],
      // ending
      [
        // 'js' will not match 'js.'
        // 'ab' will not match 'abc'
        DIRECT,
        // WTF!
        // https://git-scm.com/docs/gitignore
        // changes in [2.22.1](https://git-scm.com/docs/gitignore/2.22.1)
        // which re-fixes #24, #38
        // > If there is a separator at the end of the pattern then the pattern
        // > will only match directories, otherwise the pattern can match both
        // > files and directories.
        // 'js*' will not match 'a.js'
        // 'js/' will not match 'a.js'
        // 'js' will match 'a.js' and 'a.js/'
        (source) => {
          const last = source[source.length - 1];
          if (!last || last === TRAILING_WILDCARD || last === TRAILING_DOUBLESTAR) {
            return source;
          }
          return last === SLASH ? `${source}$` : `${source}(?=$|\\/$)`;
        }
      ]
    ];
    var REGEX_REPLACE_TRAILING_WILDCARD = /(^|\\\/)?\uE000$/;
    var MODE_IGNORE = "regex";
    var MODE_CHECK_IGNORE = "checkRegex";
    var UNDERSCORE = "_";
    var replaceTrailingWildcard = (_, p1) => {
      const prefix = p1 ? `${p1}[^/]+` : "[^/]*";
      return `${prefix}(?=$|\\/$)`;
    };
    var REGEX_REPLACE_TRAILING_DOUBLESTAR = /\uE001$/;
    var replaceTrailingDoublestar = () => "[\\s\\S]";
    var separatorAfter = (run, at) => {
      let separator = EMPTY;
      for (let index = at + 1; index < run.length && !run[index].wildcard; index++) {
        separator += run[index].single;
      }
      return separator;
    };
    var pinWildcards = (source) => {
      if (source.indexOf(WILDCARD) < 0) {
        return source;
      }
      const tokens = [];
      const { length } = source;
      let index = 0;
      while (index < length) {
        const char = source[index];
        if (source.startsWith(WILDCARD, index)) {
          tokens.push({ wildcard: true });
          index += WILDCARD.length;
        } else if (char === "[") {
          let end = index + 1;
          if (source[end] === "^") {
            end++;
          }
          if (source[end] === "]") {
            end++;
          }
          while (end < length && source[end] !== "]") {
            end += source[end] === ESCAPE ? 2 : 1;
          }
          end++;
          tokens.push({ single: source.slice(index, end) });
          index = end;
        } else if (char === ESCAPE) {
          tokens.push({ single: source.slice(index, index + 2) });
          index += 2;
        } else if (char === "(") {
          let depth = 0;
          let end = index;
          do {
            if (source[end] === ESCAPE) {
              end++;
            } else if (source[end] === "(") {
              depth++;
            } else if (source[end] === ")") {
              depth--;
            }
            end++;
          } while (end < length && depth > 0);
          if ("*+?".indexOf(source[end]) >= 0) {
            end++;
          }
          tokens.push({ boundary: source.slice(index, end) });
          index = end;
        } else if (char === "^" || char === "$") {
          tokens.push({ boundary: char });
          index++;
        } else {
          tokens.push({ single: char });
          index++;
        }
      }
      let out = EMPTY;
      let run = [];
      const flush = () => {
        let lastWildcard;
        run.forEach((token, at) => {
          if (token.wildcard) {
            lastWildcard = at;
          }
        });
        run.forEach((token, at) => {
          if (!token.wildcard) {
            out += token.single;
            return;
          }
          out += at === lastWildcard ? WILDCARD : `(?:(?!${separatorAfter(run, at)})[^\\/])*`;
        });
        run = [];
      };
      tokens.forEach((token) => {
        if (token.boundary === void 0) {
          run.push(token);
          return;
        }
        flush();
        out += token.boundary;
      });
      flush();
      return out;
    };
    var makeRegexPrefix = (pattern) => {
      if (REGEX_ANCHORED_GLOBSTAR.test(pattern)) {
        pattern = "**";
      }
      const { source, sources } = extractBrackets(pattern);
      const replaced = REPLACERS.reduce(
        // A pass whose matcher finds nothing hands back the very string it was
        //   given, so asking first costs a search and saves a rewrite. Ten of the
        //   fifteen passes never fire for a typical .gitignore line, and between
        //   them they were 45% of this chain.
        (prev, [matcher, replacer, required]) => {
          if (matcher === DIRECT) {
            return replacer(prev, pattern);
          }
          if (required !== UNDEFINED && prev.indexOf(required) < 0) {
            return prev;
          }
          return matcher.test(prev) ? prev.replace(matcher, replacer.bind(pattern)) : prev;
        },
        source
      );
      return sources.length ? replaced.replace(
        REGEX_RESTORE_PLACEHOLDER,
        (match, index) => sources[index]
      ) : replaced;
    };
    var checkSourceOf = (body, prefix) => {
      if (body[body.length - 1] === SLASH) {
        prefix = makeRegexPrefix(body.slice(0, -1));
      }
      const head = prefix.slice(0, -1);
      const last = prefix[prefix.length - 1];
      return last === TRAILING_WILDCARD ? `${head}$` : last === TRAILING_DOUBLESTAR ? head : NEVER_MATCH;
    };
    var matchesBasename = (body) => {
      const index = body.indexOf(SLASH);
      return index < 0 || index === body.length - 1;
    };
    var basenameOf = (path) => {
      const end = path.length - 1;
      const index = path.lastIndexOf(
        SLASH,
        path[end] === SLASH ? end - 1 : end
      );
      return index < 0 ? path : path.slice(index + 1);
    };
    var parentOf = (path) => {
      if (path.charCodeAt(0) === SLASH_CODE || path.indexOf(DOUBLE_SLASH) >= 0) {
        const slices = path.split(SLASH).filter(Boolean);
        slices.pop();
        return slices.length ? slices.join(SLASH) + SLASH : EMPTY;
      }
      const end = path.length - 1;
      const cut = path.lastIndexOf(
        SLASH,
        path.charCodeAt(end) === SLASH_CODE ? end - 1 : end
      );
      return cut < 0 ? EMPTY : path.slice(0, cut + 1);
    };
    var isString = (subject) => typeof subject === "string";
    var checkPattern = (pattern) => pattern && isString(pattern);
    var splitPattern = (pattern) => (pattern[pattern.length - 1] === "\r" ? pattern.slice(0, -1) : pattern).split(REGEX_SPLITALL_CRLF).filter(Boolean);
    var IgnoreRule = class {
      constructor(pattern, mark, body, ignoreCase, negative, prefix) {
        this.pattern = pattern;
        this.mark = mark;
        this.negative = negative;
        define(this, "body", body);
        define(this, "ignoreCase", ignoreCase);
        define(this, "regexPrefix", prefix);
      }
      // Worked out on first use and kept behind an own property, the way `regex`
      //   caches itself in `_regex`. Deciding it in the constructor instead would
      //   add a fourth `defineProperty` to every rule ever built, which cost 4% of
      //   every compile -- including the compiles of rules that are never matched
      //   against anything.
      get _basenameOnly() {
        return define(this, "_basenameOnly", matchesBasename(this.body));
      }
      get regex() {
        const key = UNDERSCORE + MODE_IGNORE;
        if (this[key]) {
          return this[key];
        }
        return this._make(MODE_IGNORE, key);
      }
      get checkRegex() {
        const key = UNDERSCORE + MODE_CHECK_IGNORE;
        if (this[key]) {
          return this[key];
        }
        return this._make(MODE_CHECK_IGNORE, key);
      }
      _make(mode, key) {
        const str = pinWildcards(
          mode === MODE_IGNORE ? this.regexPrefix.replace(REGEX_REPLACE_TRAILING_WILDCARD, replaceTrailingWildcard).replace(REGEX_REPLACE_TRAILING_DOUBLESTAR, replaceTrailingDoublestar) : checkSourceOf(this.body, this.regexPrefix)
        );
        const regex = this.ignoreCase ? new RegExp(str, "i") : new RegExp(str);
        return define(this, key, regex);
      }
    };
    var hasTrailingBackslash = (str) => {
      let count = 0;
      while (str[str.length - count - 1] === ESCAPE) {
        count++;
      }
      return count % 2 === 1;
    };
    var trimEnd = (body, stripLineEnd) => {
      let lineEnd = body.length;
      let end;
      for (; ; ) {
        if (stripLineEnd && body[lineEnd - 1] === "\r") {
          lineEnd--;
        }
        end = lineEnd;
        while (body[end - 1] === SPACE) {
          end--;
        }
        if (!stripLineEnd || body[end - 1] !== "\n") {
          break;
        }
        lineEnd = end - 1;
      }
      if (end === lineEnd) {
        return body.slice(0, lineEnd);
      }
      let backslashes = 0;
      while (body[end - backslashes - 1] === ESCAPE) {
        backslashes++;
      }
      return backslashes % 2 ? body.slice(0, end - 1) + SPACE : body.slice(0, end);
    };
    var createRule = (pattern, mark, ignoreCase, stripLineEnd, stripBOM) => {
      let body = stripBOM && pattern[0] === BOM ? pattern.slice(1) : pattern;
      if (body[0] === "#") {
        return;
      }
      let negative = false;
      if (body[0] === "!") {
        negative = true;
        body = body.slice(1);
      }
      const last = body[body.length - 1];
      if (last === SPACE || stripLineEnd && (last === "\r" || last === "\n")) {
        body = trimEnd(body, stripLineEnd);
      }
      if (!body || hasTrailingBackslash(body)) {
        return;
      }
      body = body.replace(REGEX_REPLACE_LEADING_EXCAPED_EXCLAMATION, "!").replace(REGEX_REPLACE_LEADING_EXCAPED_HASH, "#");
      const regexPrefix = makeRegexPrefix(body);
      return new IgnoreRule(
        pattern,
        mark,
        body,
        ignoreCase,
        negative,
        regexPrefix
      );
    };
    var RuleManager = class {
      constructor(ignoreCase) {
        this._ignoreCase = ignoreCase;
        this._rules = [];
        this._basenameCount = 0;
      }
      _add(pattern, index) {
        if (pattern && pattern[KEY_IGNORE]) {
          this._rules = this._rules.concat(pattern._rules._rules);
          this._basenameCount += pattern._rules._basenameCount;
          this._added = true;
          return;
        }
        const isStr = isString(pattern);
        const raw = isStr ? pattern : pattern.pattern;
        const rule = checkPattern(raw) && createRule(
          raw,
          isStr ? UNDEFINED : pattern.mark,
          this._ignoreCase,
          !this._split,
          this._stripBOM && !index
        );
        if (rule) {
          this._added = true;
          this._rules.push(rule);
          if (matchesBasename(rule.body)) {
            this._basenameCount++;
          }
        }
      }
      // @param {Array<string> | string | Ignore} pattern
      add(pattern) {
        this._added = false;
        this._split = isString(pattern);
        this._stripBOM = !this._split || pattern[0] === BOM;
        makeArray(
          this._split ? splitPattern(pattern) : pattern
        ).forEach(this._add, this);
        if (this._added) {
          this._literalRules = UNDEFINED;
        }
        return this._added;
      }
      // Match the literal 'abc/' for `checkIgnore`, last rule wins. Only a rule
      //   ending in a wildcard can match it (see `checkSourceOf`), so the rest
      //   are left out once, rather than tested or compiled for every path.
      testLiteral(path) {
        const rules = this._literalRules || (this._literalRules = this._rules.filter(
          ({ body }) => body[body.length - (body[body.length - 1] === SLASH ? 2 : 1)] === "*"
        ));
        let ignored = false;
        let unignored = false;
        let matchedRule;
        for (let index = rules.length - 1; index >= 0; index--) {
          const rule = rules[index];
          if (rule.checkRegex.test(path)) {
            ignored = !rule.negative;
            unignored = rule.negative;
            matchedRule = rule.negative ? UNDEFINED : rule;
            break;
          }
        }
        const ret = {
          ignored,
          unignored
        };
        if (matchedRule) {
          ret.rule = matchedRule;
        }
        return ret;
      }
      // Test one single path without recursively checking parent directories
      //
      // - mode `string` either `MODE_IGNORE` or `MODE_CHECK_IGNORE`
      // @returns {TestResult}
      test(path, mode) {
        const rules = this._rules;
        const { length } = rules;
        const shortcut = this._basenameCount * 2 >= length;
        const basename = shortcut ? basenameOf(path) : path;
        for (let index = length - 1; index >= 0; index--) {
          const rule = rules[index];
          if (rule[mode].test(
            shortcut && rule._basenameOnly ? basename : path
          )) {
            const { negative } = rule;
            const ret = {
              ignored: !negative,
              unignored: negative
            };
            if (!negative) {
              ret.rule = rule;
            }
            return ret;
          }
        }
        return {
          ignored: false,
          unignored: false
        };
      }
    };
    var throwError = (message, Ctor) => {
      throw new Ctor(message);
    };
    var checkPath = (path, originalPath, doThrow) => {
      if (!isString(path)) {
        return doThrow(
          `path must be a string, but got \`${originalPath}\``,
          TypeError
        );
      }
      if (!path) {
        return doThrow(`path must not be empty`, TypeError);
      }
      if (checkPath.isNotRelative(path)) {
        const r = "`path.relative()`d";
        return doThrow(
          `path should be a ${r} string, but got "${originalPath}"`,
          RangeError
        );
      }
      return true;
    };
    var isNotRelative = (path) => {
      const first = path.charCodeAt(0);
      if (first === SLASH_CODE) {
        return true;
      }
      if (first !== DOT_CODE) {
        return false;
      }
      if (path.length === 1) {
        return true;
      }
      const second = path.charCodeAt(1);
      if (second === SLASH_CODE) {
        return true;
      }
      if (second !== DOT_CODE) {
        return false;
      }
      return path.length === 2 || path.charCodeAt(2) === SLASH_CODE;
    };
    checkPath.isNotRelative = isNotRelative;
    checkPath.convert = (p) => p;
    var convertPath = (target) => isString(target) && checkPath.convert(target);
    var Ignore = class {
      constructor({
        ignorecase = true,
        ignoreCase = ignorecase,
        allowRelativePaths = false
      } = {}) {
        define(this, KEY_IGNORE, true);
        this._rules = new RuleManager(ignoreCase);
        this._strictPathCheck = !allowRelativePaths;
        this._initCache();
      }
      _initCache() {
        this._ignoreCache = /* @__PURE__ */ Object.create(null);
        this._testCache = /* @__PURE__ */ Object.create(null);
      }
      add(pattern) {
        if (this._rules.add(pattern)) {
          this._initCache();
        }
        return this;
      }
      // legacy
      addPattern(pattern) {
        return this.add(pattern);
      }
      // @returns {TestResult}
      _test(originalPath, cache, path) {
        checkPath(
          path,
          originalPath,
          this._strictPathCheck ? throwError : RETURN_FALSE
        );
        return path ? this._t(path, cache) : {
          ignored: false,
          unignored: false
        };
      }
      checkIgnore(target) {
        const path = convertPath(target);
        if (!path || path.charCodeAt(path.length - 1) !== SLASH_CODE) {
          return this._test(target, this._testCache, path);
        }
        const dir = this._t(path, this._testCache);
        if (dir.ignored) {
          return dir;
        }
        const literal = this._rules.testLiteral(path);
        return literal.ignored || literal.unignored ? literal : dir;
      }
      _t(path, cache) {
        const cached = cache[path];
        if (cached) {
          return cached;
        }
        const parentPath = parentOf(path);
        const parent = parentPath ? this._t(parentPath, cache) : UNDEFINED;
        return cache[path] = parent && parent.ignored ? parent : this._rules.test(path, MODE_IGNORE);
      }
      ignores(path) {
        return this._test(path, this._ignoreCache, convertPath(path)).ignored;
      }
      createFilter() {
        return (path) => !this.ignores(path);
      }
      filter(paths) {
        return makeArray(paths).filter(this.createFilter());
      }
      // @returns {TestResult}
      test(path) {
        return this._test(path, this._testCache, convertPath(path));
      }
    };
    var factory = (options) => new Ignore(options);
    var isPathValid = (path) => checkPath(convertPath(path), path, RETURN_FALSE);
    var setupWindows = () => {
      const makePosix = (str) => /^\\\\\?\\/.test(str) || /["<>|\u0000-\u001F]+/u.test(str) ? str : str.replace(/\\/g, "/");
      checkPath.convert = makePosix;
      const REGEX_TEST_WINDOWS_PATH_ABSOLUTE = /^[a-z]:\//i;
      checkPath.isNotRelative = (path) => REGEX_TEST_WINDOWS_PATH_ABSOLUTE.test(path) || isNotRelative(path);
    };
    if (
      // Detect `process` so that it can run in browsers.
      typeof process !== "undefined" && process.platform === "win32"
    ) {
      setupWindows();
    }
    module.exports = factory;
    factory.default = factory;
    module.exports.isPathValid = isPathValid;
    define(module.exports, /* @__PURE__ */ Symbol.for("setupWindows"), setupWindows);
  }
});

// ../../packages/service/dist/chunk-HULCMTU4.js
import { existsSync } from "fs";
import { resolve } from "path";
import { pathToFileURL } from "url";
var DEFAULT_RETRIEVER = "bm25";
function createDefaultRetrieverRegistry(options = {}) {
  const embedding = createEmbeddingRetrieverFactory(options.embedding ?? {});
  return new RetrieverRegistry([bm25RetrieverFactory, embedding, createHybridRetrieverFactory([bm25RetrieverFactory, embedding], LEXICAL_DENSE_SETTINGS)]);
}
function embeddingSettingsFor(model, baseDir) {
  if (model === void 0) return {};
  const path = resolve(baseDir, model);
  return model.startsWith(".") || model.startsWith("/") || existsSync(path) ? { modelDir: path } : { model };
}
function retrieverModuleUrl(specifier) {
  return specifier.startsWith("file:") ? specifier : pathToFileURL(specifier).href;
}
async function loadRetrieverRegistry(module, settings) {
  if (module === void 0) return createDefaultRetrieverRegistry(settings);
  const exported = await import(retrieverModuleUrl(module));
  if (typeof exported.createRetrieverRegistry !== "function") {
    throw new RagError("INVALID_ARGUMENT", `${module} exports no createRetrieverRegistry().`, {
      hint: "Export a function `createRetrieverRegistry()` that returns a RetrieverRegistry."
    });
  }
  return exported.createRetrieverRegistry();
}
function openStore(location) {
  return isPostgresUrl(location) ? lazyPostgresStore(location) : createFileStore(location);
}
function lazyPostgresStore(url) {
  const split = splitConnectionString(url);
  resolvePostgresStoreOptions({ ...split.schema ? { schema: split.schema } : {}, ...split.vectors ? { vectors: split.vectors } : {} });
  let loaded;
  let loading;
  const store = () => loading ??= import("./dist-VS2JLU2V.js").then(({ createPostgresStore }) => loaded = createPostgresStore(url));
  return {
    kind: "postgresql",
    location: split.location,
    address: url,
    open: async (pin) => (await store()).open(pin),
    read: async (pin) => (await store()).read(pin),
    readFile: async (path) => (await store()).readFile(path),
    write: async (input, options) => (await store()).write(input, options),
    verify: async () => (await store()).verify(),
    // Asked for only while loading a generation the store has opened, so it is there by then.
    vectorSearch: (dir) => loaded?.vectorSearch?.(dir),
    close: async () => {
      if (loading) await (await loading).close();
    }
  };
}
function redactLocation(location) {
  if (!isPostgresUrl(location)) return location;
  try {
    const url = new URL(location);
    if (url.password) url.password = "***";
    return url.toString();
  } catch {
    return location.replace(/:[^:@/]*@/, ":***@");
  }
}

// ../../packages/generation/dist/chunk-6MU7CBRY.js
import { createHash } from "crypto";
import { readFile } from "fs/promises";
import { join, resolve as resolve2 } from "path";
import { readFile as readFile2, rm } from "fs/promises";
var DEFAULT_CONTEXT_TOKENS = 2048;
var DEFAULT_MAX_NEW_TOKENS = 200;
var DEFAULT_MIN_SOURCE_TOKENS = 24;
var DEFAULT_DECODING = Object.freeze({ doSample: false });
var CONTEXT = { subject: "generation" };
function checkInteger(name, value, min, max) {
  if (!Number.isInteger(value) || value < min || value > max) throw optionError(CONTEXT, [name], `an integer in [${min}, ${max}]`, value);
  return value;
}
var DECODING_SCHEMA = external_exports.strictObject({
  doSample: external_exports.boolean().optional(),
  temperature: external_exports.number().gt(0).optional(),
  topK: integerIn(1, 1e6).optional(),
  topP: external_exports.number().gt(0).max(1).optional(),
  repetitionPenalty: external_exports.number().min(1).optional()
});
function resolveDecoding(options = {}) {
  const parsed = parseOptions(DECODING_SCHEMA, options, { ...CONTEXT, root: "decoding" });
  const doSample = parsed.doSample ?? false;
  const resolved = { doSample };
  if (doSample) {
    if (parsed.temperature !== void 0) resolved.temperature = parsed.temperature;
    if (parsed.topK !== void 0) resolved.topK = parsed.topK;
    if (parsed.topP !== void 0) resolved.topP = parsed.topP;
  }
  if (parsed.repetitionPenalty !== void 0) resolved.repetitionPenalty = parsed.repetitionPenalty;
  return resolved;
}
function toGenerateKwargs(d) {
  const kwargs = { do_sample: d.doSample ?? false };
  if (d.temperature !== void 0) kwargs.temperature = d.temperature;
  if (d.topK !== void 0) kwargs.top_k = d.topK;
  if (d.topP !== void 0) kwargs.top_p = d.topP;
  if (d.repetitionPenalty !== void 0) kwargs.repetition_penalty = d.repetitionPenalty;
  return kwargs;
}
var INSTRUCTIONS = Object.freeze({
  default: "Start with the default value itself, as the code or docs write it, and where it is set.",
  error: "Start with the exception or error that is raised, then the condition that raises it.",
  where: "Start with the place: the file and the function or class, then what it does there.",
  how: "Start with the command, setting or call to use, then at most a few steps.",
  yesno: "Start with yes or no, then the condition or limit that decides it.",
  list: "Start with the list itself, one item per entry, as the sources spell them.",
  value: "Start with the value itself, with its unit, as the sources write it."
});
var ANSWER_KIND_RULES = Object.freeze(QUESTION_KIND_RULES.map((rule) => ({ ...rule, instruction: INSTRUCTIONS[rule.kind] })));
function answerKindInstruction(kind) {
  return kind === "explain" ? "" : INSTRUCTIONS[kind];
}
function sha256Hex(data) {
  return createHash("sha256").update(data, "utf8").digest("hex");
}
function stableStringify(value) {
  return JSON.stringify(value, (_key, v) => {
    if (v && typeof v === "object" && !Array.isArray(v)) {
      const sorted = {};
      for (const key of Object.keys(v).sort()) sorted[key] = v[key];
      return sorted;
    }
    return v;
  });
}
function toSourceForAnswer(chunk, filePath = chunk.file_path) {
  return {
    file_path: filePath,
    first_character_index: chunk.first_character_index,
    last_character_index: chunk.last_character_index,
    start_line: chunk.start_line,
    end_line: chunk.end_line,
    symbol: chunk.symbol,
    text: chunk.text
  };
}
function sourceHash(source) {
  return source.sha256 ?? sha256Hex(source.text);
}
function describeSource(source) {
  const where = source.start_line > 0 ? source.end_line > source.start_line ? `${source.file_path}:${source.start_line}-${source.end_line}` : `${source.file_path}:${source.start_line}` : `${source.file_path} chars ${source.first_character_index}-${source.last_character_index}`;
  return source.symbol ? `${where} (${source.symbol})` : where;
}
var PROMPT_LAYOUT_VERSION = 2;
var DEFAULT_SYSTEM_PROMPT = [
  "You answer questions about a software project using only the numbered sources the user gives you.",
  "Cite each fact with the number of its source in square brackets, like [1] or [2][3], right after the fact.",
  "Cite only the numbers of the sources given.",
  "If the sources do not contain the answer, say plainly that they do not, and do not guess.",
  "Be brief: a few sentences; write code identifiers in backticks."
].join(" ");
function formatSource(n, shown) {
  const label = `[${n}] ${describeSource(shown.source)}${shown.truncated ? " (cut to fit)" : ""}`;
  return `${label}
${shown.text.trimEnd()}`;
}
function formatUserMessage(question, shown) {
  const blocks = shown.map((s, i) => formatSource(i + 1, s));
  const instruction = answerKindInstruction(detectAnswerKind(question));
  return `Sources:

${blocks.length > 0 ? blocks.join("\n\n") : "(none)"}

Question: ${question.trim()}${instruction ? `
Answer form: ${instruction}` : ""}`;
}
function formatMessages(question, shown, systemPrompt) {
  return [
    { role: "system", content: systemPrompt },
    { role: "user", content: formatUserMessage(question, shown) }
  ];
}
function promptTemplateHash(systemPrompt = DEFAULT_SYSTEM_PROMPT) {
  const example = {
    source: { file_path: "a/b.py", first_character_index: 0, last_character_index: 4, start_line: 1, end_line: 2, symbol: "S", text: "text" },
    text: "text",
    truncated: true
  };
  return sha256Hex(stableStringify({ v: PROMPT_LAYOUT_VERSION, systemPrompt, layout: formatMessages("Q?", [example], systemPrompt) }));
}
function dropPartialCharacter(text) {
  return text.replace(/\uFFFD+$/, "");
}
function buildPrompt(question, sources, tokenizer, options = {}) {
  const budget = checkInteger("contextTokens", options.contextTokens ?? DEFAULT_CONTEXT_TOKENS, 64, 1048576);
  const minSourceTokens = checkInteger("minSourceTokens", options.minSourceTokens ?? DEFAULT_MIN_SOURCE_TOKENS, 1, budget);
  const systemPrompt = options.systemPrompt ?? DEFAULT_SYSTEM_PROMPT;
  const encode = (shown2) => tokenizer.encodeChat(formatMessages(question, shown2, systemPrompt));
  let shown = [];
  let inputIds = encode(shown);
  let truncated = false;
  const tooSmall = (what) => new RagError("INVALID_ARGUMENT", `A context of ${budget} tokens is too small: ${what}.`, {
    hint: "Raise contextTokens (--context_tokens) or shorten the question."
  });
  if (inputIds.length > budget) throw tooSmall(`the instructions and the question alone take ${inputIds.length} tokens`);
  for (const source of sources) {
    const whole = [...shown, { source, text: source.text, truncated: false }];
    const wholeIds = encode(whole);
    if (wholeIds.length <= budget) {
      shown = whole;
      inputIds = wholeIds;
      continue;
    }
    const room = budget - encode([...shown, { source, text: "", truncated: true }]).length;
    const textIds = tokenizer.encode(source.text);
    let take = Math.min(room, textIds.length);
    while (take >= minSourceTokens) {
      const text = dropPartialCharacter(tokenizer.decode(textIds.slice(0, take)));
      const trial = [...shown, { source, text, truncated: true }];
      const trialIds = encode(trial);
      if (trialIds.length <= budget) {
        shown = trial;
        inputIds = trialIds;
        truncated = true;
        break;
      }
      take -= Math.max(1, trialIds.length - budget);
    }
    break;
  }
  if (shown.length === 0 && sources.length > 0) throw tooSmall(`not even ${minSourceTokens} tokens of the best source fit`);
  return { messages: formatMessages(question, shown, systemPrompt), inputIds, shown, truncated };
}
var CHAT_TEMPLATE_ARGS = Object.freeze({ add_generation_prompt: true, enable_thinking: false });
function toPromptTokenizer(tokenizer) {
  return {
    encodeChat(messages) {
      const out = tokenizer.apply_chat_template(messages, { ...CHAT_TEMPLATE_ARGS, return_tensor: false });
      const ids = Array.isArray(out) ? out : out.input_ids;
      return ids.map(Number);
    },
    encode(text) {
      return tokenizer.encode(text, { add_special_tokens: false });
    },
    decode(ids) {
      return tokenizer.decode(ids, { skip_special_tokens: false });
    }
  };
}
var CITATION = /\s?(?<![\w)])\[(\s*\d+(?:\s*[-–]\s*\d+)?(?:\s*,\s*\d+(?:\s*[-–]\s*\d+)?)*\s*)\]/g;
var CODE_SPAN = /```[\s\S]*?```|`[^`\n]*`/g;
var DROPPED = "\0";
var MAX_RANGE = 20;
function expandNumbers(inner) {
  const numbers = [];
  for (const part of inner.split(",")) {
    const range = part.split(/[-–]/).map((s) => Number.parseInt(s.trim(), 10));
    const [from, to = from] = range;
    if (to < from || to - from > MAX_RANGE) return null;
    for (let n = from; n <= to; n++) numbers.push(n);
  }
  return numbers;
}
function toCitedSource(n, source, quotes) {
  const cited = {
    n,
    file_path: source.file_path,
    first_character_index: source.first_character_index,
    last_character_index: source.last_character_index,
    start_line: source.start_line,
    end_line: source.end_line,
    symbol: source.symbol
  };
  if (quotes && quotes.length > 0) cited.quotes = quotes;
  return cited;
}
function mapCitations(text, sources) {
  const cited = /* @__PURE__ */ new Map();
  const dropped = [];
  const rewrite = (match, inner) => {
    const numbers = expandNumbers(inner);
    if (numbers === null) return match;
    const known = numbers.filter((n) => n >= 1 && n <= sources.length);
    for (const n of numbers) {
      if (n >= 1 && n <= sources.length) {
        if (!cited.has(n)) cited.set(n, toCitedSource(n, sources[n - 1]));
      } else if (!dropped.includes(n)) dropped.push(n);
    }
    if (known.length === numbers.length) return match;
    if (known.length === 0) return DROPPED;
    const lead = match.startsWith("[") ? "" : match[0];
    return `${lead}[${[...new Set(known)].join(", ")}]`;
  };
  let answer2 = "";
  let last = 0;
  for (const code of text.matchAll(CODE_SPAN)) {
    answer2 += text.slice(last, code.index).replace(CITATION, rewrite) + code[0];
    last = code.index + code[0].length;
  }
  answer2 += text.slice(last).replace(CITATION, rewrite);
  answer2 = answer2.replace(/\s?\(\u0000\)/g, "").replaceAll(DROPPED, "");
  return { answer: answer2, citedSources: [...cited.values()], droppedCitations: dropped };
}
var NO_SOURCES_ANSWER = "No sources were retrieved for this question, so there is nothing to answer from.";
var NOT_FOUND_ANSWER = "The retrieved sources do not appear to contain the answer to this question.";
var OPEN = "<think>";
var CLOSE = "</think>";
function stripThinking(text) {
  let out = text;
  const firstClose = out.indexOf(CLOSE);
  const firstOpen = out.indexOf(OPEN);
  if (firstClose >= 0 && (firstOpen < 0 || firstOpen > firstClose)) out = out.slice(firstClose + CLOSE.length);
  const filter = new ThinkingFilter();
  return (filter.push(out) + filter.flush()).trim();
}
function partialTagLength(text, tag) {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (tag.startsWith(text.slice(text.length - n))) return n;
  }
  return 0;
}
var ThinkingFilter = class {
  #inside = false;
  #pending = "";
  #started = false;
  push(chunk) {
    let text = this.#pending + chunk;
    this.#pending = "";
    let visible = "";
    while (text.length > 0) {
      const tag = this.#inside ? CLOSE : OPEN;
      const at = text.indexOf(tag);
      if (at >= 0) {
        if (!this.#inside) visible += text.slice(0, at);
        this.#inside = !this.#inside;
        text = text.slice(at + tag.length);
        continue;
      }
      const hold = partialTagLength(text, tag);
      if (!this.#inside) visible += text.slice(0, text.length - hold);
      this.#pending = text.slice(text.length - hold);
      break;
    }
    return this.#emit(visible);
  }
  /** Whatever was held back, once the stream has ended. */
  flush() {
    const rest = this.#inside ? "" : this.#pending;
    this.#pending = "";
    return this.#emit(rest);
  }
  #emit(text) {
    if (this.#started) return text;
    const trimmed = text.trimStart();
    if (trimmed.length > 0) this.#started = true;
    return trimmed;
  }
};
var DEFAULT_MAX_QUOTES = 3;
var DEFAULT_MAX_ANSWER_CHARS = 500;
var DEFAULT_MIN_RELATIVE_SCORE = 0.35;
var EXTRACTIVE_OPTIONS_SCHEMA = external_exports.strictObject({
  maxQuotes: integerIn(1, 20).optional(),
  maxAnswerChars: integerIn(40, 2e4).optional(),
  minRelativeScore: external_exports.number().gt(0).max(1).optional()
});
function resolveExtractiveOptions(options = {}) {
  const parsed = parseOptions(EXTRACTIVE_OPTIONS_SCHEMA, options, { subject: "extractive generator" });
  return {
    maxQuotes: parsed.maxQuotes ?? DEFAULT_MAX_QUOTES,
    maxAnswerChars: parsed.maxAnswerChars ?? DEFAULT_MAX_ANSWER_CHARS,
    minRelativeScore: parsed.minRelativeScore ?? DEFAULT_MIN_RELATIVE_SCORE
  };
}
var CODE_PATH = /(\.(py|pyi|pyx|js|mjs|ts|c|cc|cpp|h|hpp|cu|cuh|rs|go|java|sh|cmake|toml|ya?ml|json|cfg|ini)|(^|\/)(CMakeLists\.txt|Dockerfile[^/]*|Makefile))$/i;
var FENCE = /^\s*(```|~~~)/;
var RST_UNDERLINE = /^([=\-~^"'`#*+.])\1{2,}\s*$/;
var TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;
var LIST_ITEM = /^\s*([-*+]|\d+[.)])\s+/;
var MARKUP_ONLY = /^\s*(<[^>]*>\s*)+$|^\s*!\[[^\]]*\]\([^)]*\)\s*$|^\s*\.\.\s+\w[\w-]*::.*$|^\s*:\w[\w-]*:(?!`).*$|^\s*(!!!|\?\?\?\+?)\s+\w+.*$|^\s*-+8<-+/;
var CODE_DIRECTIVE = /^\s*\.\.\s+([\w-]+:)?(code-block|code|sourcecode|testcode|doctest|parsed-literal|example|run)::/;
var DIRECTIVE_OPTION = /^\s*:[\w-]+:/;
var SENTENCE_END = /([.!?])\s+(?=[A-Z0-9`"'(\[*_])/g;
function splitLines(text) {
  const lines = [];
  let start = 0;
  for (; ; ) {
    const newline = text.indexOf("\n", start);
    const end = newline < 0 ? text.length : newline;
    const lineEnd = end > start && text[end - 1] === "\r" ? end - 1 : end;
    lines.push({ text: text.slice(start, lineEnd), start, end: lineEnd });
    if (newline < 0) return lines;
    start = newline + 1;
  }
}
function collapse(text) {
  return text.replace(/\s+/g, " ").trim();
}
function trimmedRange(text, start, end) {
  while (start < end && /\s/.test(text[start])) start++;
  while (end > start && /\s/.test(text[end - 1])) end--;
  return [start, end];
}
function bracketBalance(line) {
  const code = line.replace(/(["'])(?:\\.|(?!\1).)*\1/g, "").replace(/#.*$/, "");
  let balance2 = 0;
  for (const ch of code) {
    if (ch === "(" || ch === "[" || ch === "{") balance2++;
    else if (ch === ")" || ch === "]" || ch === "}") balance2--;
  }
  return balance2;
}
function isNoiseCodeLine(text) {
  return /^\s*([)\]},;:]+|"""|'''|r"""|pass|else:|try:|finally:|return|\.\.\.)\s*$/.test(text);
}
var MAX_JOINED_LINES = 6;
var COMMENT = /^\s*#/;
var DOCSTRING_OPEN = /^\s*[rRbBuUfF]{0,2}("""|\'\'\')/;
var PRAGMA = /^\s*#\s*(!|-\*-|noqa|type:|pylint|fmt:|SPDX|ruff)/;
function docstringExtent(source, lines, i, to) {
  const line = lines[i];
  const open = DOCSTRING_OPEN.exec(line.text);
  const quote = open[1];
  const start = line.start + open[0].length;
  const closeOnFirst = line.text.indexOf(quote, open[0].length);
  if (closeOnFirst >= 0) return { last: i, start, end: line.start + closeOnFirst };
  for (let j = i + 1; j < to; j++) {
    const at = lines[j].text.indexOf(quote);
    if (at >= 0) return { last: j, start, end: lines[j].start + at };
  }
  return { last: to - 1, start, end: lines[to - 1].end };
}
function codeUnits(source, lines, from, to, out) {
  let comments = [];
  const flushComments = () => {
    if (comments.length > 0) {
      const [start, end] = trimmedRange(source, comments[0].start, comments.at(-1).end);
      const display = collapse(comments.map((c) => c.text.replace(COMMENT, "")).join(" "));
      if (display) out.push({ kind: "prose", display, start, end });
    }
    comments = [];
  };
  for (let i = from; i < to; i++) {
    const line = lines[i];
    if (line.text.trim() === "") {
      flushComments();
      continue;
    }
    if (PRAGMA.test(line.text)) continue;
    if (COMMENT.test(line.text)) {
      comments.push(line);
      continue;
    }
    if (DOCSTRING_OPEN.test(line.text)) {
      flushComments();
      const doc = docstringExtent(source, lines, i, to);
      proseUnits(source, doc.start, doc.end, out);
      i = doc.last;
      continue;
    }
    if (isNoiseCodeLine(line.text)) {
      flushComments();
      continue;
    }
    let last = i;
    let balance2 = bracketBalance(line.text);
    while ((balance2 > 0 || /\\\s*$/.test(lines[last].text)) && last + 1 < to && last - i < MAX_JOINED_LINES - 1) {
      last++;
      balance2 += bracketBalance(lines[last].text);
    }
    const [start, end] = trimmedRange(source, comments[0]?.start ?? line.start, lines[last].end);
    const [codeStart] = trimmedRange(source, line.start, lines[last].end);
    const display = collapse(source.slice(codeStart, end).replace(/\\\s*\n/g, " "));
    const unit = { kind: "code", display, start, end };
    const note = collapse(comments.map((c) => c.text.replace(COMMENT, "")).join(" "));
    if (note) unit.note = note;
    out.push(unit);
    comments = [];
    i = last;
  }
  flushComments();
}
function proseUnits(source, start, end, out) {
  const pieces = [];
  let pieceStart = start;
  const paragraph = source.slice(start, end);
  for (const match of paragraph.matchAll(SENTENCE_END)) {
    const cut = start + match.index + 1;
    pieces.push([pieceStart, cut]);
    pieceStart = cut;
  }
  pieces.push([pieceStart, end]);
  for (const [a, b] of pieces) {
    const [s, e] = trimmedRange(source, a, b);
    const raw = source.slice(s, e);
    const display = collapse(raw.replace(LIST_ITEM, "").replace(/``([^`]+)``/g, "`$1`"));
    if (!/[\p{L}\p{N}]/u.test(display)) continue;
    const unit = { kind: "prose", display, start: s, end: e };
    if (LIST_ITEM.test(raw)) unit.item = true;
    out.push(unit);
  }
}
function tableCells(line) {
  return line.text.split("|").map((c) => c.trim()).filter((c) => c.length > 0);
}
function tableRow(source, line, header, out) {
  const cells = tableCells(line);
  if (cells.length === 0) return;
  const [start, end] = trimmedRange(source, line.start, line.end);
  const unit = { kind: "prose", display: cells.join(" | "), start, end };
  if (header.length > 0) unit.context = header.join(" ");
  out.push(unit);
}
function docUnits(text) {
  const lines = splitLines(text);
  const out = [];
  let paragraphStart = -1;
  let paragraphEnd = -1;
  let header = [];
  const endParagraph = () => {
    if (paragraphStart >= 0) proseUnits(text, paragraphStart, paragraphEnd, out);
    paragraphStart = -1;
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    const next = lines[i + 1];
    if (FENCE.test(line.text)) {
      endParagraph();
      let close = i + 1;
      while (close < lines.length && !FENCE.test(lines[close].text)) close++;
      codeUnits(text, lines, i + 1, close, out);
      i = close + 1;
      continue;
    }
    if (CODE_DIRECTIVE.test(line.text)) {
      endParagraph();
      const indent = line.text.length - line.text.trimStart().length;
      let j = i + 1;
      while (j < lines.length && DIRECTIVE_OPTION.test(lines[j].text)) j++;
      const body = j;
      while (j < lines.length && (lines[j].text.trim() === "" || lines[j].text.length - lines[j].text.trimStart().length > indent)) j++;
      codeUnits(text, lines, body, j, out);
      i = j;
      continue;
    }
    if (/::\s*$/.test(line.text) && !/^\s*\.\./.test(line.text)) {
      if (!/^\s*::\s*$/.test(line.text)) {
        if (paragraphStart < 0) paragraphStart = line.start;
        paragraphEnd = line.end;
      }
      endParagraph();
      const indent = line.text.length - line.text.trimStart().length;
      let j = i + 1;
      while (j < lines.length && (lines[j].text.trim() === "" || lines[j].text.length - lines[j].text.trimStart().length > indent)) j++;
      codeUnits(text, lines, i + 1, j, out);
      i = j;
      continue;
    }
    const isHeading = /^\s*#{1,6}\s/.test(line.text) || next !== void 0 && RST_UNDERLINE.test(next.text) && line.text.trim() !== "";
    if (line.text.trim() === "" || isHeading || RST_UNDERLINE.test(line.text) || MARKUP_ONLY.test(line.text) || TABLE_SEPARATOR.test(line.text)) {
      endParagraph();
      i += isHeading && next !== void 0 && RST_UNDERLINE.test(next.text) ? 2 : 1;
      continue;
    }
    if (/^\s*\|/.test(line.text)) {
      endParagraph();
      if (next !== void 0 && TABLE_SEPARATOR.test(next.text)) {
        header = tableCells(line);
        i += 2;
        continue;
      }
      tableRow(text, line, header, out);
      i++;
      continue;
    }
    header = [];
    if (LIST_ITEM.test(line.text)) endParagraph();
    if (paragraphStart < 0) paragraphStart = line.start;
    paragraphEnd = line.end;
    i++;
  }
  endParagraph();
  return out;
}
function isCodePath(filePath) {
  return CODE_PATH.test(filePath);
}
function splitIntoUnits(text, filePath) {
  if (isCodePath(filePath)) {
    const lines = splitLines(text);
    const out = [];
    codeUnits(text, lines, 0, lines.length, out);
    return out;
  }
  return docUnits(text);
}
function cancelledError() {
  return new RagError("CANCELLED", "Answer generation was cancelled.", { hint: "Run the command again to get an answer." });
}
function throwIfAborted(signal) {
  if (signal?.aborted) throw cancelledError();
}
var COMMAND = /^\s*(\$\s|pip3? |python3? |uv |git |docker |export |curl |npm |pnpm |[a-z][\w-]* --[a-z])/;
var IMPERATIVE = /^(run|use|set|pass|add|install|call|create|enable|disable|start|launch|configure|specify|put|write|import)\b/i;
function carriesKind(unit, kind, fromDocs) {
  const text = unit.display;
  if (unit.kind === "code") return kind === "how" ? fromDocs || COMMAND.test(text) : codeCarriesKind(text, kind);
  switch (kind) {
    case "default":
      return /\bdefaults?\b|\bby default\b|\bunless\b/i.test(text);
    case "error":
      return /\b(raises?|raised|errors?|exceptions?|fails?|throws?)\b/i.test(text);
    case "how":
      return IMPERATIVE.test(text) || /`--?[a-z]/.test(text);
    case "list":
      return unit.item === true || unit.context !== void 0 || text.includes(" | ");
    case "yesno":
      return /\b(not|no|only|cannot|can't|never|unsupported|supported|must|requires?)\b/i.test(text);
    case "value":
      return /\d|`[^`]+`/.test(text);
    default:
      return false;
  }
}
var LENGTH_PIVOT = 30;
var RANK_DECAY = 0.3;
var DEFINITION_BOOST = 1.2;
var KIND_BOOST = 1.5;
var KIND_BOOSTS = Object.freeze({ how: 4, default: 3 });
var COVERAGE_IDF_FLOOR = 1;
function collectStatistics(units) {
  const documentFrequency = /* @__PURE__ */ new Map();
  for (const unit of units) for (const term of unit.terms) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  return { unitCount: units.length, documentFrequency };
}
function inverseFrequency(stats, term) {
  const df = stats.documentFrequency.get(term) ?? 0;
  return Math.log(1 + (stats.unitCount - df + 0.5) / (df + 0.5));
}
function unitTerms(unit) {
  const all = tokenize([unit.display, unit.note ?? "", unit.context ?? ""].join("\n"));
  return { terms: new Set(all), length: all.length };
}
function queryTerms(question) {
  return tokenizeQuery(question);
}
function scoreUnits(units, query, stats, kind = "explain") {
  const idf = new Map(query.map((q) => [q.term, inverseFrequency(stats, q.term)]));
  const asked = new Set(query.map((q) => q.term));
  const coverageWeight = new Map(query.map((q) => [q.term, q.weight * Math.max(COVERAGE_IDF_FLOOR, idf.get(q.term))]));
  let total = 0;
  for (const { term } of query) total += coverageWeight.get(term);
  for (const scored of units) {
    let sum = 0;
    let matched = 0;
    let covered = 0;
    for (const { term, weight } of query) {
      if (!scored.terms.has(term)) {
        if (scored.placeTerms.has(term)) covered += coverageWeight.get(term);
        continue;
      }
      sum += weight * idf.get(term);
      covered += coverageWeight.get(term);
      matched++;
    }
    const lengthDamping = 1 / (1 + Math.max(0, scored.length - LENGTH_PIVOT) / (2 * LENGTH_PIVOT));
    const rankDamping = 1 / (1 + RANK_DECAY * scored.sourceIndex);
    const defines = matched > 0 && scored.unit.kind === "code" && definedNames(scored.unit.display).some((n) => asked.has(n));
    const carries2 = matched > 0 && (kind === "where" ? defines : carriesKind(scored.unit, kind, scored.fromDocs));
    scored.score = sum * lengthDamping * rankDamping * (defines ? DEFINITION_BOOST : 1) * (carries2 ? KIND_BOOSTS[kind] ?? KIND_BOOST : 1);
    scored.matched = matched;
    scored.defines = defines;
    scored.coverage = total > 0 ? covered / total : 0;
  }
}
var HEADER = /^(async\s+)?(def|class)\s/;
var BODY_LINES = 4;
var BLOCK_OPENER = /^(if|elif|else|except|try|with|for|while)\b.*:$/;
var BLOCK_LINES = 3;
var EXAMPLE_LINES = 2;
var ECHO_NOVELTY = 0.65;
var INLINE_CODE = /`[^`\s][^`]*`/;
var BLANK_LINE = /\n\s*\n/;
function unitsAfter(units, unit) {
  return units.filter((u) => u.sourceIndex === unit.sourceIndex && u.unit.start >= unit.unit.end).sort((a, b) => a.unit.start - b.unit.start);
}
function indentAt(text, offset) {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  let column = lineStart;
  while (column < text.length && (text[column] === " " || text[column] === "	")) column++;
  return column - lineStart;
}
function blockOf(opener, following, text, max) {
  const depth = indentAt(text, opener.unit.start);
  const block = [];
  for (const unit of following) {
    if (block.length >= max || unit.unit.kind !== "code" || indentAt(text, unit.unit.start) <= depth) break;
    block.push(unit);
  }
  return block;
}
function firstParagraph(following, text) {
  const out = [];
  for (const unit of following) {
    const previous = out.at(-1);
    if (previous && BLANK_LINE.test(text.slice(previous.unit.end, unit.unit.start))) break;
    out.push(unit);
  }
  return out;
}
function handlerOf(line, following, text) {
  const depth = indentAt(text, line.unit.start);
  let at = text.lastIndexOf("\n", line.unit.start - 1);
  while (at > 0) {
    const start = text.lastIndexOf("\n", at - 1) + 1;
    const content = text.slice(start, at);
    if (content.trim() !== "" && indentAt(text, start) < depth) {
      if (!/^\s*try\s*:/.test(content)) return [];
      const tryDepth = indentAt(text, start);
      const handler = following.findIndex((u) => u.unit.kind === "code" && indentAt(text, u.unit.start) === tryDepth && /^except\b/.test(u.unit.display));
      if (handler < 0) return [];
      const body = following[handler + 1];
      return body && body.unit.kind === "code" && indentAt(text, body.unit.start) > tryDepth ? [following[handler], body] : [following[handler]];
    }
    at = start - 1;
  }
  return [];
}
var LITERAL_ASSIGNMENT = /^([A-Za-z_]\w*)\s*(?::[^=]+)?=\s*(-?\d[\w.]*|["'][^"']*["']|None|True|False)\s*(#.*)?$/;
var MAX_ASSIGNMENTS = 1;
function assignmentsUsedBy(lead, units) {
  if (lead.unit.kind !== "code" || HEADER.test(lead.unit.display)) return [];
  const used = new Set(lead.unit.display.match(/\b[A-Za-z_]\w*\b/g) ?? []);
  const out = [];
  for (const unit of units) {
    if (out.length >= MAX_ASSIGNMENTS) break;
    if (unit.sourceIndex !== lead.sourceIndex || unit.unit.kind !== "code" || unit.unit.start >= lead.unit.start) continue;
    const name = LITERAL_ASSIGNMENT.exec(unit.unit.display)?.[1];
    if (name && used.has(name) && name.length > 2) out.push(unit);
  }
  return out;
}
function novelty(unit, asked) {
  if (unit.terms.size === 0) return 0;
  let novel = 0;
  for (const term of unit.terms) if (!asked.has(term)) novel++;
  return novel / unit.terms.size;
}
function showsHow(unit) {
  return carriesKind(unit.unit, "how", unit.fromDocs) || INLINE_CODE.test(unit.unit.display);
}
function leadCompletion(lead, units, source, asked, kind) {
  const following = unitsAfter(units, lead);
  if (lead.unit.kind === "code" && kind === "error") {
    const handler = handlerOf(lead, following, source.text);
    if (handler.length > 0) return handler;
  }
  if (lead.unit.kind === "code") {
    if (BLOCK_OPENER.test(lead.unit.display)) return blockOf(lead, following, source.text, BLOCK_LINES);
    return HEADER.test(lead.unit.display) ? following.filter((u) => u.unit.kind === "code").slice(0, BODY_LINES) : [];
  }
  if (lead.unit.display.endsWith(":")) return firstParagraph(following, source.text).slice(0, BODY_LINES);
  const next = following[0];
  if (!next) return [];
  if (kind === "how" && next.unit.kind === "code") return following.filter((u) => u.unit.kind === "code").slice(0, EXAMPLE_LINES);
  if (BLANK_LINE.test(source.text.slice(lead.unit.end, next.unit.start))) return [];
  const restates = kind === "how" && next.unit.kind === "prose" && !showsHow(lead) && showsHow(next);
  return restates || novelty(lead, asked) <= ECHO_NOVELTY ? [next] : [];
}
function introducedLines(quoted, units) {
  const lines = [];
  for (const unit of quoted) {
    if (unit.unit.kind !== "prose" || !unit.unit.display.endsWith(":")) continue;
    const next = unitsAfter(units, unit)[0];
    if (next?.unit.kind === "code") lines.push(next);
  }
  return lines;
}
var COMPRESS_FROM = 160;
var MIN_SAVING = 0.2;
var MIN_KEPT = 40;
var CONCRETE = /`[^`]+`|\d|(?<![\w-])--?[A-Za-z][\w-]*|[\w.~-]*\/[\w./-]+|\b\w+_\w+\b|\b[a-z]+[A-Z]\w*\b|\b[A-Z][A-Z0-9]{2,}\b|"[^"\n]{2,60}"|'[^'\n]{2,60}'/;
var QUALIFIER = /\b(because|since|unless|if|when|whenever|otherwise|except|until|only|but|however|instead|never|not|no|cannot|must|requires?)\b/i;
var CLAUSE_END = /* @__PURE__ */ new Set([",", ";", ":", "\u2014"]);
var OPENERS = { "(": ")", "[": "]", "{": "}" };
function splitClauses(sentence) {
  const clauses = [];
  const closers = [];
  let inCode = false;
  let start = 0;
  for (let i = 0; i < sentence.length; i++) {
    const c = sentence[i];
    if (c === "`") inCode = !inCode;
    if (inCode) continue;
    if (OPENERS[c]) closers.push(OPENERS[c]);
    else if (closers.length > 0 && c === closers[closers.length - 1]) closers.pop();
    else if (closers.length === 0 && CLAUSE_END.has(c) && sentence[i + 1] === " ") {
      clauses.push(sentence.slice(start, i + 1));
      start = i + 1;
    }
  }
  clauses.push(sentence.slice(start));
  return clauses.map((clause) => clause.trim()).filter((clause) => clause.length > 0);
}
function carries(clause, asked) {
  return CONCRETE.test(clause) || QUALIFIER.test(clause) || tokenize(clause).some((term) => asked.has(term));
}
function compressSentence(sentence, asked) {
  if (sentence.length <= COMPRESS_FROM) return sentence;
  const clauses = splitClauses(sentence);
  if (clauses.length < 2) return sentence;
  const keep = clauses.map((clause) => carries(clause, asked));
  if (keep.every(Boolean) || !keep.some(Boolean)) return sentence;
  let out = "";
  let gap = false;
  clauses.forEach((clause, i) => {
    if (!keep[i]) {
      gap = true;
      return;
    }
    const piece = i + 1 < clauses.length && !keep[i + 1] ? clause.replace(/[,;:—]$/, "") : clause;
    out += out === "" ? i > 0 ? `\u2026 ${piece}` : piece : gap ? ` \u2026 ${piece}` : ` ${piece}`;
    gap = false;
  });
  if (gap) out = `${out.replace(/[,;:—]$/, "")} \u2026`;
  return out.length >= MIN_KEPT && out.length <= sentence.length * (1 - MIN_SAVING) ? out : sentence;
}
var EXTRACTIVE_VERSION = 7;
var MIN_ANSWER_COVERAGE = 0.1;
var WEAK_COVERAGE = 0.2;
var MAX_ABSENT_SHARE = 0.8;
var LEAD_SHARE = 0.6;
var CLOSEST_LISTED = 3;
var EXTRACTIVE_GENERATOR_NAME = "extractive";
var MIN_PROSE_TERMS = 2;
function scoredUnitsOf(sources) {
  const units = [];
  sources.forEach((source, sourceIndex) => {
    const fromDocs = !isCodePath(source.file_path);
    const placeTerms = new Set(tokenize(`${source.symbol}
${source.file_path}`));
    for (const unit of splitIntoUnits(source.text, source.file_path)) {
      const terms = unitTerms(unit);
      if (unit.kind === "prose" && terms.terms.size < MIN_PROSE_TERMS) continue;
      units.push({ unit, sourceIndex, ...terms, score: 0, matched: 0, coverage: 0, fromDocs, placeTerms });
    }
  });
  return units;
}
function addIntroducedTerms(units) {
  for (let i = 0; i + 1 < units.length; i++) {
    const [intro, next] = [units[i], units[i + 1]];
    if (intro.unit.kind === "prose" && intro.unit.display.endsWith(":") && next.unit.kind === "code" && next.sourceIndex === intro.sourceIndex) {
      intro.terms = /* @__PURE__ */ new Set([...intro.terms, ...next.terms]);
    }
  }
}
function introductionOf(code, units, text) {
  const at = units.indexOf(code);
  const previous = units[at - 1];
  if (!previous || previous.sourceIndex !== code.sourceIndex || previous.unit.kind !== "prose") return void 0;
  const between = text.slice(previous.unit.end, code.unit.start);
  return (between.match(/\n/g)?.length ?? 0) <= 4 && !/[\p{L}\p{N}]/u.test(between.replace(/^\s*(```|~~~)\w*|^\s*\.\.\s+[\w:-]+::.*$/gm, "")) ? previous : void 0;
}
function moveToFront(picked, unit, max = Number.POSITIVE_INFINITY) {
  const at = picked.indexOf(unit);
  if (at >= 0) picked.splice(at, 1);
  picked.unshift(unit);
  if (picked.length > max) picked.length = max;
}
function pickUnits(units, options) {
  const ranked = units.filter((u) => u.score > 0).sort((a, b) => b.score - a.score || a.sourceIndex - b.sourceIndex || a.unit.start - b.unit.start);
  const best = ranked[0]?.score ?? 0;
  const picked = [];
  const seen = /* @__PURE__ */ new Set();
  let chars = 0;
  for (const candidate of ranked) {
    if (picked.length >= options.maxQuotes || candidate.score < options.minRelativeScore * best) break;
    if (seen.has(candidate.unit.display)) continue;
    const cost = candidate.unit.display.length + 8;
    if (picked.length > 0 && chars + cost > options.maxAnswerChars) continue;
    picked.push(candidate);
    seen.add(candidate.unit.display);
    chars += cost;
  }
  return picked;
}
function shorten(text, max) {
  return text.length <= max ? text : `${text.slice(0, Math.max(1, max - 1)).trimEnd()}\u2026`;
}
function formatQuote(unit, maxChars, asked) {
  const { kind, display, note } = unit.unit;
  if (kind === "prose") return shorten(compressSentence(display, asked), maxChars);
  const text = shorten(display, maxChars);
  const code = text.includes("`") ? `\`\` ${text} \`\`` : `\`${text}\``;
  return note ? `${code} \u2014 ${shorten(note, Math.max(40, maxChars - text.length))}` : code;
}
function joinQuotes(units, quotes) {
  let out = quotes[0] ?? "";
  for (let i = 1; i < quotes.length; i++) {
    const previous = units[i - 1].unit;
    const flowing = previous.kind === "prose" && (units[i].unit.kind === "prose" || previous.display.endsWith(":"));
    out += (flowing ? " " : " \u2026 ") + quotes[i];
  }
  return out;
}
function groupBySource(picked) {
  const groups = /* @__PURE__ */ new Map();
  for (const unit of picked) {
    const group = groups.get(unit.sourceIndex) ?? { sourceIndex: unit.sourceIndex, units: [] };
    group.units.push(unit);
    groups.set(unit.sourceIndex, group);
  }
  for (const group of groups.values()) group.units.sort((a, b) => a.unit.start - b.unit.start);
  return [...groups.values()];
}
function quoteSpans(source, units) {
  const map = new OffsetMap(source.text);
  return units.map((u) => ({
    first_character_index: source.first_character_index + map.toCodePoint(u.unit.start),
    last_character_index: source.first_character_index + map.toCodePoint(u.unit.end)
  }));
}
function placeOf(source, unit) {
  const before = source.text.slice(0, unit.unit.start);
  const line = source.start_line > 0 ? source.start_line + (before.match(/\n/g)?.length ?? 0) : 0;
  const at = line > 0 ? `${source.file_path}:${line}` : source.file_path;
  return source.symbol ? `In \`${at}\` (\`${source.symbol}\`):` : `In \`${at}\`:`;
}
function absentShare(query, statistics) {
  let total = 0;
  let absent = 0;
  for (const { term, weight } of query) {
    const w = weight * Math.max(COVERAGE_IDF_FLOOR, inverseFrequency(statistics, term));
    total += w;
    if (!statistics.documentFrequency.has(term)) absent += w;
  }
  return total > 0 ? absent / total : 0;
}
function notFound(sources, kind, coverage) {
  const closest = sources.slice(0, CLOSEST_LISTED);
  const listed = closest.map((source, i) => `[${i + 1}] ${describeSource(source)}`).join("; ");
  return {
    lines: [`${NOT_FOUND_ANSWER} The closest sources: ${listed}.`],
    citedSources: closest.map((source, i) => toCitedSource(i + 1, source)),
    kind,
    coverage
  };
}
function answerExtractively(question, sources, options = {}) {
  const resolved = resolveExtractiveOptions(options);
  const kind = detectAnswerKind(question);
  if (sources.length === 0) return { lines: [NO_SOURCES_ANSWER], citedSources: [], kind, coverage: 0 };
  const units = scoredUnitsOf(sources);
  const query = queryTerms(question);
  const statistics = collectStatistics(units);
  addIntroducedTerms(units);
  scoreUnits(units, query, statistics, kind);
  const picked = pickUnits(units, resolved);
  if (kind === "where" && !picked[0]?.defines) {
    const definition = units.filter((u) => u.defines).sort((a, b) => b.score - a.score)[0];
    if (definition) moveToFront(picked, definition, resolved.maxQuotes);
  }
  const best = picked[0];
  if (!best || best.coverage < MIN_ANSWER_COVERAGE || best.coverage < WEAK_COVERAGE && absentShare(query, statistics) >= MAX_ABSENT_SHARE) {
    return notFound(sources, kind, best?.coverage ?? 0);
  }
  const introduction = kind === "how" && best.unit.kind === "code" && best.fromDocs ? introductionOf(best, units, sources[best.sourceIndex].text) : void 0;
  const lead = introduction ?? best;
  if (introduction) moveToFront(picked, introduction);
  const leadBudget = picked.length === 1 ? resolved.maxAnswerChars : Math.floor(resolved.maxAnswerChars * LEAD_SHARE);
  const leadSource = sources[lead.sourceIndex];
  const asked = new Set(query.map((q) => q.term));
  const body = leadCompletion(lead, units, leadSource, asked, kind);
  for (const assignment of assignmentsUsedBy(lead, units)) if (!body.includes(assignment)) body.unshift(assignment);
  let leadQuote = formatQuote(lead, leadBudget, asked);
  const joined = /* @__PURE__ */ new Set();
  for (const unit of body) {
    const next = formatQuote(unit, leadBudget, asked);
    if (leadQuote.length + next.length + 1 > leadBudget) break;
    leadQuote += ` ${next}`;
    lead.unit.end = Math.max(lead.unit.end, unit.unit.end);
    joined.add(unit);
  }
  const lines = [`${kind === "where" ? `${placeOf(leadSource, lead)} ` : ""}${leadQuote} [${lead.sourceIndex + 1}]`];
  const supporting = picked.slice(1).filter((unit) => !joined.has(unit));
  for (const line of introducedLines(supporting, units)) if (line !== lead && !joined.has(line) && !supporting.includes(line)) supporting.push(line);
  const groups = groupBySource(supporting);
  const perQuote = supporting.length > 0 ? Math.floor((resolved.maxAnswerChars - Math.min(leadQuote.length, leadBudget)) / supporting.length) : 0;
  for (const group of groups) {
    const quotes = group.units.map((u) => formatQuote(u, Math.max(40, perQuote), asked));
    lines.push(`- ${joinQuotes(group.units, quotes)} [${group.sourceIndex + 1}]`);
  }
  const bySource = /* @__PURE__ */ new Map();
  for (const unit of picked) bySource.set(unit.sourceIndex, [...bySource.get(unit.sourceIndex) ?? [], unit]);
  const citedSources = [...bySource].map(([index, quoted]) => {
    const source = sources[index];
    return toCitedSource(index + 1, source, quoteSpans(source, quoted.sort((a, b) => a.unit.start - b.unit.start)));
  });
  return { lines, citedSources, kind, coverage: lead.coverage };
}
function createExtractiveGenerator(options = {}) {
  const resolved = resolveExtractiveOptions(options);
  const identity = {
    name: EXTRACTIVE_GENERATOR_NAME,
    settings: { ...resolved },
    templateHash: sha256Hex(stableStringify({ v: EXTRACTIVE_VERSION, ...resolved }))
  };
  async function* generate(request, generateOptions = {}) {
    const started = performance.now();
    throwIfAborted(generateOptions.signal);
    const { lines, citedSources } = answerExtractively(request.question, request.sources, resolved);
    for (let i = 0; i < lines.length; i++) {
      throwIfAborted(generateOptions.signal);
      yield { type: "token", text: i + 1 < lines.length ? `${lines[i]}
` : lines[i] };
    }
    const answer2 = lines.join("\n");
    const result = {
      answer: answer2,
      citedSources,
      droppedCitations: [],
      generator: EXTRACTIVE_GENERATOR_NAME,
      sourcesUsed: request.sources.length,
      truncatedSource: false,
      promptTokens: 0,
      generatedTokens: answer2.split(/\s+/).filter(Boolean).length,
      finishReason: "stop",
      elapsedMs: performance.now() - started,
      cached: false
    };
    yield { type: "done", result };
  }
  return { name: EXTRACTIVE_GENERATOR_NAME, identity, generate, dispose: async () => void 0 };
}
var CACHE_FORMAT_VERSION = 2;
var spanSchema = external_exports.object({ first_character_index: external_exports.number().int().min(0), last_character_index: external_exports.number().int().min(0) });
var resultSchema = external_exports.object({
  answer: external_exports.string(),
  citedSources: external_exports.array(
    spanSchema.extend({
      file_path: external_exports.string(),
      n: external_exports.number().int().min(1),
      start_line: external_exports.number().int().min(0),
      end_line: external_exports.number().int().min(0),
      symbol: external_exports.string(),
      quotes: external_exports.array(spanSchema).optional()
    })
  ),
  droppedCitations: external_exports.array(external_exports.number().int()),
  generator: external_exports.string(),
  modelId: external_exports.string().optional(),
  sourcesUsed: external_exports.number().int().min(0),
  truncatedSource: external_exports.boolean(),
  promptTokens: external_exports.number().min(0),
  generatedTokens: external_exports.number().min(0),
  finishReason: external_exports.enum(["stop", "length"]),
  elapsedMs: external_exports.number().min(0),
  cached: external_exports.boolean()
});
var CACHE_FORMAT = "rag-answer-cache";
function answerCacheKey(input) {
  return sha256Hex(
    stableStringify({
      v: CACHE_FORMAT_VERSION,
      question: input.question.trim(),
      k: input.k ?? null,
      retriever: input.retriever ?? null,
      generator: input.generator,
      sources: input.sources.map((s) => [s.file_path, s.first_character_index, s.last_character_index, sourceHash(s)])
    })
  );
}
function createAnswerCache(dir) {
  const root = resolve2(dir);
  const pathOf = (key) => join(root, key.slice(0, 2), `${key}.json`);
  return {
    dir: root,
    async get(key) {
      try {
        const entry = JSON.parse(await readFile(pathOf(key), "utf8"));
        if (entry.format !== CACHE_FORMAT || entry.version !== CACHE_FORMAT_VERSION || entry.key !== key) return void 0;
        if (entry.resultSha256 !== sha256Hex(stableStringify(entry.result ?? null))) return void 0;
        const parsed = resultSchema.safeParse(entry.result);
        return parsed.success ? entry.result : void 0;
      } catch {
        return void 0;
      }
    },
    async set(key, result) {
      const stored = { ...result, cached: false };
      const entry = { format: CACHE_FORMAT, version: CACHE_FORMAT_VERSION, key, storedAt: (/* @__PURE__ */ new Date()).toISOString(), result: stored, resultSha256: sha256Hex(stableStringify(stored)) };
      await writeFileAtomic(pathOf(key), JSON.stringify(entry));
    }
  };
}
function withAnswerCache(generator, cache, context = {}, onCacheError = () => void 0) {
  async function* generate(request, options) {
    const key = answerCacheKey({ ...context, question: request.question, generator: generator.identity, sources: request.sources });
    const hit = await cache.get(key);
    if (hit) {
      if (hit.answer) yield { type: "token", text: hit.answer };
      yield { type: "done", result: { ...hit, cached: true } };
      return;
    }
    for await (const event of generator.generate(request, options)) {
      if (event.type === "done") await cache.set(key, event.result).catch(onCacheError);
      yield event;
    }
  }
  return {
    name: generator.name,
    ...generator.modelId !== void 0 ? { modelId: generator.modelId } : {},
    identity: generator.identity,
    generate,
    dispose: () => generator.dispose()
  };
}
async function answer(generator, request, options = {}) {
  let result;
  for await (const event of generator.generate(request, options)) {
    if (event.type === "token") options.onToken?.(event.text);
    else result = event.result;
  }
  if (!result) throw new RagError("INVALID_ARGUMENT", `Generator ${generator.name} ended without a result.`);
  return result;
}
var CHECKPOINT_FORMAT = "rag-answer-checkpoint";
var CHECKPOINT_VERSION = 1;
var DEFAULT_CHECKPOINT_INTERVAL_MS = 2e3;
function runFingerprint(results, generator, k) {
  const questions = results.search_results.map((r) => [r.question_id, r.question ?? "", r.retrieved_sources]);
  return sha256Hex(stableStringify({ v: CHECKPOINT_VERSION, generator: generator.identity, k: k ?? null, questions }));
}
async function readCheckpoint(path, fingerprint) {
  let checkpoint;
  try {
    checkpoint = JSON.parse(await readFile2(path, "utf8"));
  } catch {
    return /* @__PURE__ */ new Map();
  }
  if (checkpoint.format !== CHECKPOINT_FORMAT || checkpoint.version !== CHECKPOINT_VERSION || checkpoint.fingerprint !== fingerprint) return /* @__PURE__ */ new Map();
  return new Map(Object.entries(checkpoint.answers ?? {}).map(([index, text]) => [Number(index), String(text)]));
}
async function writeCheckpoint(path, fingerprint, answers) {
  const checkpoint = { format: CHECKPOINT_FORMAT, version: CHECKPOINT_VERSION, fingerprint, answers: Object.fromEntries(answers) };
  await writeFileAtomic(path, JSON.stringify(checkpoint));
}
function toSourceForAnswer2(source, read) {
  if (typeof read !== "string") return read;
  return { ...source, start_line: 0, end_line: 0, symbol: "", text: read };
}
function effectiveK(results, k) {
  const value = k ?? results.k;
  if (value !== void 0 && (!Number.isInteger(value) || value < 1)) {
    throw new RagError("INVALID_ARGUMENT", `k must be a positive integer; got ${String(value)}.`, { hint: "Pass --k 1 or more." });
  }
  return value;
}
async function answerDataset(results, options) {
  const k = effectiveK(results, options.k);
  const fingerprint = runFingerprint(results, options.generator, k);
  const answers = options.checkpointPath ? await readCheckpoint(options.checkpointPath, fingerprint) : /* @__PURE__ */ new Map();
  const total = results.search_results.length;
  for (const index of answers.keys()) if (index < 0 || index >= total) answers.delete(index);
  const resumed = answers.size;
  const generator = options.cache ? withAnswerCache(options.generator, options.cache, { ...k !== void 0 ? { k } : {}, ...options.retriever ? { retriever: options.retriever } : {} }) : options.generator;
  const interval = options.checkpointIntervalMs ?? DEFAULT_CHECKPOINT_INTERVAL_MS;
  const started = performance.now();
  let lastSave = started;
  let answered = 0;
  let generatedTokens = 0;
  const report = () => {
    const elapsedMs = performance.now() - started;
    const seconds = Math.max(elapsedMs / 1e3, 1e-9);
    options.onProgress?.({ phase: "answer", done: answers.size, total, resumed, questionsPerSecond: answered / seconds, tokensPerSecond: generatedTokens / seconds, generatedTokens, elapsedMs });
  };
  const save = async () => {
    if (options.checkpointPath) await writeCheckpoint(options.checkpointPath, fingerprint, answers);
    lastSave = performance.now();
  };
  report();
  try {
    for (let index = 0; index < total; index++) {
      if (answers.has(index)) continue;
      if (options.signal?.aborted) throw cancelledError();
      const entry = results.search_results[index];
      const retrieved = k === void 0 ? entry.retrieved_sources : entry.retrieved_sources.slice(0, k);
      const sources = await Promise.all(retrieved.map(async (s) => toSourceForAnswer2(s, await options.readSpan(s))));
      const result = await answer(generator, { question: entry.question ?? "", sources }, options.signal ? { signal: options.signal } : {});
      answers.set(index, result.answer);
      answered++;
      if (!result.cached) generatedTokens += result.generatedTokens;
      if (performance.now() - lastSave >= interval) await save();
      report();
    }
  } catch (error) {
    await save();
    throw error;
  }
  await save();
  const searchResults = results.search_results.map((entry, index) => ({ ...entry, answer: answers.get(index) }));
  return { output: { ...results, search_results: searchResults }, resumed, answered, generatedTokens, elapsedMs: performance.now() - started };
}
function checkpointPathFor(outputPath) {
  return `${outputPath}.checkpoint.json`;
}
async function answerDatasetToFile(results, outputPath, options) {
  const checkpointPath = options.checkpointPath ?? checkpointPathFor(outputPath);
  const result = await answerDataset(results, { ...options, checkpointPath });
  await writeFileAtomic(outputPath, `${JSON.stringify(result.output, null, 2)}
`);
  await rm(checkpointPath, { force: true });
  return result;
}

// ../../packages/generation/dist/index.js
import { existsSync as existsSync2 } from "fs";
import { resolve as resolve3 } from "path";
var QWEN3_MODEL_ID = "onnx-community/Qwen3-0.6B-ONNX";
var DEFAULT_HUB_DTYPE = "q4";
var GENERATOR_ADVICE = "pass --model_dir with a folder holding config.json, generation_config.json, tokenizer.json, tokenizer_config.json and onnx/model_q4.onnx (see the @rag/generation README), or use --generator extractive.";
function withDefaults(options) {
  return { ...options, model: options.model ?? QWEN3_MODEL_ID, hubDtype: DEFAULT_HUB_DTYPE, advice: GENERATOR_ADVICE };
}
function locateModel2(options = {}) {
  return locateModel(withDefaults(options));
}
function isModelOnDisk2(options = {}) {
  return isModelOnDisk(withDefaults(options));
}
var Channel = class {
  #items = [];
  #waiter;
  #closed = false;
  #error;
  #failed = false;
  push(item) {
    if (this.#closed) return;
    this.#items.push(item);
    this.#wake();
  }
  close() {
    this.#closed = true;
    this.#wake();
  }
  fail(error) {
    this.#failed = true;
    this.#error = error;
    this.close();
  }
  /** The next item, or `undefined` once closed and drained; throws what `fail` was given. */
  async next() {
    for (; ; ) {
      if (this.#items.length > 0) return this.#items.shift();
      if (this.#failed) throw this.#error;
      if (this.#closed) return void 0;
      await new Promise((resolve22) => this.#waiter = resolve22);
    }
  }
  #wake() {
    const waiter = this.#waiter;
    this.#waiter = void 0;
    waiter?.();
  }
};
var Lock = class {
  #tail = Promise.resolve();
  /** Resolves with a release function once every earlier holder has released. */
  async acquire() {
    let release;
    const held = new Promise((resolve22) => release = resolve22);
    const previous = this.#tail;
    this.#tail = previous.then(() => held);
    await previous;
    return release;
  }
};
async function loadModel(hf, location, onProgress) {
  const common = {
    local_files_only: location.kind === "folder",
    cache_dir: location.cacheDir,
    ...onProgress ? { progress_callback: (info) => onProgress(info) } : {}
  };
  try {
    return await withTransformersEnvironment(hf.env, { remoteHost: location.remoteHost }, async () => {
      const tokenizer = await hf.AutoTokenizer.from_pretrained(location.pathOrId, common);
      const model = await hf.AutoModelForCausalLM.from_pretrained(location.pathOrId, { ...common, dtype: location.dtype, device: "cpu" });
      return { tokenizer, model };
    });
  } catch (error) {
    if (isRagError(error)) throw error;
    throw new RagError("MODEL_NOT_FOUND", `Could not load ${location.modelId} (dtype ${location.dtype}): ${error.message}`, {
      hint: "Check that the folder is a complete transformers.js export of a causal LM (config.json, tokenizer files, onnx/model*.onnx), or try another --dtype.",
      cause: error
    });
  }
}
function promptTensors(hf, ids) {
  const n = ids.length;
  return {
    input_ids: new hf.Tensor("int64", BigInt64Array.from(ids, (id) => BigInt(id)), [1, n]),
    attention_mask: new hf.Tensor("int64", new BigInt64Array(n).fill(1n), [1, n])
  };
}
function abortCriteria(hf, signal) {
  class AbortCriteria extends hf.StoppingCriteria {
    _call(inputIds) {
      return inputIds.map(() => signal.aborted);
    }
  }
  return new AbortCriteria();
}
async function* streamGeneration(hf, model, tokenizer, inputIds, kwargs, signal) {
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  const channel = new Channel();
  const filter = new ThinkingFilter();
  const streamer = new hf.TextStreamer(tokenizer, {
    skip_prompt: true,
    skip_special_tokens: true,
    callback_function: (text) => {
      const visible = filter.push(text);
      if (visible) channel.push(visible);
    }
  });
  const running = model.generate({ ...promptTensors(hf, inputIds), ...kwargs, streamer, stopping_criteria: abortCriteria(hf, stop.signal) }).then(
    (output) => {
      const rest = filter.flush();
      if (rest) channel.push(rest);
      channel.close();
      return output;
    },
    (error) => {
      channel.fail(error);
      throw error;
    }
  );
  running.catch(() => void 0);
  try {
    for (let piece = await channel.next(); piece !== void 0 && !stop.signal.aborted; piece = await channel.next()) yield piece;
    const output = await running;
    if (signal?.aborted) throw cancelledError();
    return output;
  } finally {
    stop.abort();
    await running.catch(() => void 0);
    signal?.removeEventListener("abort", onAbort);
  }
}
async function createTransformersGenerator(options = {}) {
  const maxNewTokens = checkInteger("maxNewTokens", options.maxNewTokens ?? DEFAULT_MAX_NEW_TOKENS, 1, 32768);
  const contextTokens = checkInteger("contextTokens", options.contextTokens ?? DEFAULT_CONTEXT_TOKENS, 64, 1048576);
  const minSourceTokens = options.minSourceTokens ?? DEFAULT_MIN_SOURCE_TOKENS;
  const decoding = resolveDecoding(options.decoding);
  const systemPrompt = options.systemPrompt ?? DEFAULT_SYSTEM_PROMPT;
  const location = await locateModel2(options);
  const hf = await loadTransformers();
  const { tokenizer, model } = await loadModel(hf, location, options.onLoadProgress);
  if (!tokenizer.chat_template) {
    await model.dispose();
    throw new RagError("INVALID_ARGUMENT", `${location.modelId} has no chat template in its tokenizer_config.json.`, {
      hint: "Use an instruction-tuned chat model (e.g. the default qwen3)."
    });
  }
  const name = options.name ?? (location.modelId === QWEN3_MODEL_ID ? "qwen3" : location.modelId);
  const identity = {
    name,
    modelId: location.modelId,
    settings: { dtype: location.dtype, maxNewTokens, contextTokens, minSourceTokens, decoding },
    templateHash: promptTemplateHash(systemPrompt)
  };
  const promptTokenizer = toPromptTokenizer(tokenizer);
  const lock = new Lock();
  const promptOptions = { contextTokens, systemPrompt, minSourceTokens };
  async function* generate(request, generateOptions = {}) {
    const started = performance.now();
    const signal = generateOptions.signal;
    throwIfAborted(signal);
    const base = { generator: name, modelId: location.modelId, droppedCitations: [], cached: false };
    if (request.sources.length === 0) {
      yield { type: "token", text: NO_SOURCES_ANSWER };
      const result2 = { ...base, answer: NO_SOURCES_ANSWER, citedSources: [], sourcesUsed: 0, truncatedSource: false, promptTokens: 0, generatedTokens: 0, finishReason: "stop", elapsedMs: performance.now() - started };
      yield { type: "done", result: result2 };
      return;
    }
    const prompt = buildPrompt(request.question, request.sources, promptTokenizer, promptOptions);
    const release = await lock.acquire();
    let stream;
    let output;
    try {
      throwIfAborted(signal);
      const kwargs = { ...toGenerateKwargs(decoding), max_new_tokens: maxNewTokens };
      stream = streamGeneration(hf, model, tokenizer, prompt.inputIds, kwargs, signal);
      let step = await stream.next();
      for (; !step.done; step = await stream.next()) yield { type: "token", text: step.value };
      output = step.value;
    } finally {
      await stream?.return(void 0);
      release();
    }
    const all = output.tolist()[0];
    const generatedIds = all.slice(prompt.inputIds.length).map(Number);
    const text = stripThinking(tokenizer.decode(generatedIds, { skip_special_tokens: true }));
    const mapping = mapCitations(text, request.sources.slice(0, prompt.shown.length));
    const result = {
      ...base,
      answer: mapping.answer.trim(),
      citedSources: mapping.citedSources,
      droppedCitations: mapping.droppedCitations,
      sourcesUsed: prompt.shown.length,
      truncatedSource: prompt.truncated,
      promptTokens: prompt.inputIds.length,
      generatedTokens: generatedIds.length,
      finishReason: generatedIds.length >= maxNewTokens ? "length" : "stop",
      elapsedMs: performance.now() - started
    };
    yield { type: "done", result };
  }
  return {
    name,
    modelId: location.modelId,
    identity,
    generate,
    async dispose() {
      await model.dispose();
    }
  };
}
var QWEN3_GENERATOR_NAME = "qwen3";
var DEFAULT_GENERATOR = EXTRACTIVE_GENERATOR_NAME;
var BUILTINS = [
  { name: EXTRACTIVE_GENERATOR_NAME, description: "quotes the most relevant retrieved sentences and lines with citations; needs no model" },
  { name: QWEN3_GENERATOR_NAME, description: `${QWEN3_MODEL_ID} through transformers.js on the CPU (downloaded once, or --model_dir)` }
];
function looksLikePath(name) {
  return name.startsWith(".") || name.startsWith("/") || name.startsWith("~") || /^[A-Za-z]:[\\/]/.test(name) || name.includes("\\");
}
function extractiveOptions(settings) {
  const options = {};
  if (settings.maxQuotes !== void 0) options.maxQuotes = settings.maxQuotes;
  if (settings.maxAnswerChars !== void 0) options.maxAnswerChars = settings.maxAnswerChars;
  if (settings.minRelativeScore !== void 0) options.minRelativeScore = settings.minRelativeScore;
  return options;
}
function createGeneratorRegistry() {
  return {
    names: () => BUILTINS.map((b) => b.name),
    describe: () => BUILTINS.map((b) => ({ ...b })),
    async create(name, settings = {}) {
      if (name === EXTRACTIVE_GENERATOR_NAME) return createExtractiveGenerator(extractiveOptions(settings));
      if (name === QWEN3_GENERATOR_NAME) return createTransformersGenerator({ ...settings, model: QWEN3_MODEL_ID, name: QWEN3_GENERATOR_NAME });
      if (looksLikePath(name) || name.includes("/") && existsSync2(resolve3(name))) {
        return createTransformersGenerator({ ...settings, modelDir: name, name });
      }
      if (isHubModelId(name)) return createTransformersGenerator({ ...settings, model: name, name });
      throw new RagError("UNKNOWN_NAME", `Unknown generator "${name}".`, {
        hint: `Use ${BUILTINS.map((b) => b.name).join(" or ")}, a hub model id (owner/name) or a model folder path.`
      });
    }
  };
}
function chooseDefaultGenerator(options = {}) {
  return isModelOnDisk2({ ...options, model: QWEN3_MODEL_ID }) ? QWEN3_GENERATOR_NAME : DEFAULT_GENERATOR;
}

// ../../packages/service/dist/index.js
import { existsSync as existsSync4 } from "fs";
import { availableParallelism as availableParallelism2 } from "os";
import { fileURLToPath as fileURLToPath2 } from "url";
import { Worker as Worker2 } from "worker_threads";
import { readFile as readFile4, realpath as realpath2, stat as stat2 } from "fs/promises";
import { join as join3, sep as sep2 } from "path";
import { dirname, join as join22 } from "path";
import { isDeepStrictEqual } from "util";

// ../../packages/chunking/dist/chunk-6ZFSL3ER.js
import { createRequire } from "module";
import { setFlagsFromString } from "v8";
import { runInNewContext } from "vm";
var MAX_MARKDOWN_NESTING = 100;
function markdownNesting(text) {
  let deepest = 0;
  let depth = 0;
  let indent = 0;
  let inPrefix = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      deepest = Math.max(deepest, depth + (indent >> 1));
      depth = 0;
      indent = 0;
      inPrefix = true;
      continue;
    }
    if (!inPrefix) continue;
    if (c === 62) depth++;
    else if (c === 32) indent++;
    else if (c === 9) indent += 4;
    else inPrefix = false;
  }
  return Math.max(deepest, depth + (indent >> 1));
}
var DEFAULT_MAX_CHUNK_SIZE = 2e3;
var DEFAULT_TARGET_CHUNK_SIZE = 800;
var DEFAULT_MIN_CHUNK_SIZE = 200;
var DEFAULT_TEXT_OVERLAP = 200;
var DEFAULT_NESTED_CHUNK_SIZE = 600;
var DEFAULT_EXTENSIONS = Object.freeze({
  ".py": "python",
  ".md": "markdown",
  ".rst": "rst",
  ".txt": "text"
});
var DEFAULT_IGNORED_DIRS = Object.freeze([
  // version control
  ".git",
  ".hg",
  ".svn",
  ".bzr",
  // caches of Python tools
  "__pycache__",
  ".mypy_cache",
  ".pytest_cache",
  ".ruff_cache",
  ".hypothesis",
  ".ipynb_checkpoints",
  // virtual environments and installed packages
  ".venv",
  "venv",
  ".tox",
  ".nox",
  ".eggs",
  "site-packages",
  "node_modules"
]);
var CONTEXT2 = { subject: "chunking" };
var CHUNKER_OPTIONS_SCHEMA = external_exports.strictObject({
  maxChunkSize: integerIn(20, 1e6).optional(),
  targetChunkSize: external_exports.number().int().optional(),
  minChunkSize: external_exports.number().int().optional(),
  textOverlap: external_exports.number().int().optional(),
  nestedChunkSize: external_exports.number().int().optional()
});
function withinCap(name, value, fallback, min, max) {
  const chosen = value ?? fallback;
  if (chosen < min || chosen > max) throw optionError(CONTEXT2, [name], `an integer in [${min}, ${max}]`, chosen);
  return chosen;
}
function resolveChunkerOptions(options = {}) {
  const parsed = parseOptions(CHUNKER_OPTIONS_SCHEMA, options, CONTEXT2);
  const maxChunkSize = parsed.maxChunkSize ?? DEFAULT_MAX_CHUNK_SIZE;
  const half = Math.floor(maxChunkSize / 2);
  return {
    maxChunkSize,
    targetChunkSize: withinCap("targetChunkSize", parsed.targetChunkSize, Math.min(DEFAULT_TARGET_CHUNK_SIZE, maxChunkSize), 1, maxChunkSize),
    minChunkSize: withinCap("minChunkSize", parsed.minChunkSize, Math.min(DEFAULT_MIN_CHUNK_SIZE, maxChunkSize), 0, maxChunkSize),
    textOverlap: withinCap("textOverlap", parsed.textOverlap, Math.min(DEFAULT_TEXT_OVERLAP, half), 0, half),
    nestedChunkSize: withinCap("nestedChunkSize", parsed.nestedChunkSize, Math.min(DEFAULT_NESTED_CHUNK_SIZE, maxChunkSize), 0, maxChunkSize)
  };
}
function isSpaceUnit(unit) {
  return unit === 32 || unit >= 9 && unit <= 13;
}
var TextLayout = class {
  text;
  offsets;
  /** UTF-16 index where each line starts; one entry per line. */
  lineStarts;
  constructor(text) {
    this.text = text;
    this.offsets = new OffsetMap(text);
    const starts = [0];
    let at = text.indexOf("\n");
    while (at !== -1) {
      starts.push(at + 1);
      at = text.indexOf("\n", at + 1);
    }
    this.lineStarts = starts;
  }
  get lineCount() {
    return this.lineStarts.length;
  }
  /** UTF-16 index of line `line`'s start; `lineCount` maps to the text's end. */
  lineStart(line) {
    return line >= this.lineStarts.length ? this.text.length : this.lineStarts[line];
  }
  /** UTF-16 index just past line `line`'s content, before its `\r\n`/`\n`. */
  contentEnd(line) {
    let end = line + 1 >= this.lineStarts.length ? this.text.length : this.lineStarts[line + 1] - 1;
    const start = this.lineStart(line);
    if (end > start && this.text.charCodeAt(end - 1) === 13) end--;
    return end;
  }
  /** 0-based line holding UTF-16 index `index`. */
  lineOf(index) {
    const starts = this.lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = lo + hi + 1 >>> 1;
      if (starts[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
  isBlankLine(line) {
    const end = this.contentEnd(line);
    for (let i = this.lineStart(line); i < end; i++) if (!isSpaceUnit(this.text.charCodeAt(i))) return false;
    return true;
  }
  /** True when only whitespace lies between UTF-16 indices `from` and `to`. */
  isSpaceBetween(from, to) {
    for (let i = from; i < to; i++) if (!isSpaceUnit(this.text.charCodeAt(i))) return false;
    return true;
  }
  /** Code-point length of UTF-16 range [start, end). */
  codePoints(start, end) {
    return this.offsets.toCodePoint(end) - this.offsets.toCodePoint(start);
  }
  /** Range [start, end) with leading and trailing whitespace removed; null when all whitespace. */
  trim(start, end) {
    const text = this.text;
    while (start < end && isSpaceUnit(text.charCodeAt(start))) start++;
    while (end > start && isSpaceUnit(text.charCodeAt(end - 1))) end--;
    return start < end ? [start, end] : null;
  }
  /** Code-point length of lines [from, to) once trimmed; 0 when blank. */
  trimmedSize(from, to) {
    const span = this.trim(this.lineStart(from), this.lineStart(to));
    return span ? this.codePoints(span[0], span[1]) : 0;
  }
};
var require2 = createRequire(import.meta.url);
var grammars = {
  python: "tree-sitter-python",
  markdown: "@tree-sitter-grammars/tree-sitter-markdown"
};
var parsers = /* @__PURE__ */ new Map();
function getParser(name) {
  let parser = parsers.get(name);
  if (!parser) {
    const Parser = require2("tree-sitter");
    parser = new Parser();
    parser.setLanguage(require2(grammars[name]));
    parsers.set(name, parser);
  }
  return parser;
}
function parseText(name, text) {
  return getParser(name).parse(text);
}
var INTRA_LINE_BREAK_COST = 12;
function fragmentLine(layout, line, max) {
  const text = layout.text;
  const offsets = layout.offsets;
  const end = layout.contentEnd(line);
  const cuts = [];
  let from = layout.lineStart(line);
  while (layout.codePoints(from, end) > max) {
    const hard = offsets.toUtf16(offsets.toCodePoint(from) + max);
    let cut = hard;
    const floor = from + Math.ceil((hard - from) / 2);
    for (let i = hard; i > floor; i--) {
      if (isSpaceUnit(text.charCodeAt(i - 1))) {
        cut = i;
        break;
      }
    }
    cuts.push(cut);
    from = cut;
  }
  return cuts;
}
function splitLines2(layout, from, to, breakCost, limits) {
  const starts = [];
  const costs = [];
  const startCp = [];
  const endCp = [];
  const offsets = layout.offsets;
  for (let line = from; line < to; line++) {
    const lineStart = layout.lineStart(line);
    const contentEnd = layout.contentEnd(line);
    const pieceStarts = [lineStart];
    if (layout.codePoints(lineStart, contentEnd) > limits.max) pieceStarts.push(...fragmentLine(layout, line, limits.max));
    for (let k = 0; k < pieceStarts.length; k++) {
      const start = pieceStarts[k];
      const end = k + 1 < pieceStarts.length ? pieceStarts[k + 1] : contentEnd;
      starts.push(start);
      costs.push(k === 0 ? breakCost(line) : INTRA_LINE_BREAK_COST);
      startCp.push(offsets.toCodePoint(start));
      endCp.push(offsets.toCodePoint(end));
    }
  }
  const n = starts.length;
  if (n === 0) return [layout.lineStart(from), layout.lineStart(to)];
  const best = new Float64Array(n + 1).fill(Infinity);
  const back = new Int32Array(n + 1);
  best[0] = 0;
  for (let j = 1; j <= n; j++) {
    const end = endCp[j - 1];
    for (let i = j - 1; i >= 0; i--) {
      const size = end - startCp[i];
      if (size > limits.max && i < j - 1) break;
      const ratio = size / limits.target;
      const cost = best[i] + 1 + ratio * ratio + (i > 0 ? costs[i] : 0);
      if (cost < best[j]) {
        best[j] = cost;
        back[j] = i;
      }
    }
  }
  const boundaries = [layout.lineStart(to)];
  for (let j = n; j > 0; j = back[j]) boundaries.push(starts[back[j]]);
  return boundaries.reverse();
}
function addNestedPieces(layout, pieces, breakCost, nestedSize, maxSize, classify) {
  if (nestedSize === 0) return [...pieces];
  const out = [];
  for (const piece of pieces) {
    out.push(piece);
    if (layout.codePoints(piece.start, piece.end) <= 2 * nestedSize) continue;
    const from = layout.lineOf(piece.start);
    const to = layout.lineOf(piece.end - 1) + 1;
    const boundaries = splitLines2(layout, from, to, breakCost, { max: maxSize, target: nestedSize });
    const nested = [];
    for (let i = 0; i + 1 < boundaries.length; i++) {
      const span = layout.trim(Math.max(boundaries[i], piece.start), Math.min(boundaries[i + 1], piece.end));
      if (span) nested.push({ start: span[0], end: span[1], kind: classify?.(span[0], span[1]) ?? piece.kind, symbol: piece.symbol });
    }
    if (nested.length > 1) out.push(...nested);
  }
  return out;
}
function cutRegions(layout, regions, breakCost, limits) {
  const pieces = [];
  for (const region of regions) {
    const start = layout.lineStart(region.from);
    const end = layout.lineStart(region.to);
    const whole = layout.trim(start, end);
    if (!whole) continue;
    if (region.mode === "whole" && layout.codePoints(whole[0], whole[1]) <= limits.max) {
      pieces.push({ start: whole[0], end: whole[1], kind: region.classify?.(whole[0], whole[1]) ?? region.kind, symbol: region.symbol });
      continue;
    }
    const boundaries = splitLines2(layout, region.from, region.to, (line) => breakCost(line, region), limits);
    const parts = boundaries.length - 1;
    const kind = region.mode === "whole" && parts > 1 ? region.splitKind : region.kind;
    for (let i = 0; i < parts; i++) {
      const span = layout.trim(boundaries[i], boundaries[i + 1]);
      if (!span) continue;
      pieces.push({ start: span[0], end: span[1], kind: region.classify?.(span[0], span[1]) ?? kind, symbol: region.symbol });
    }
  }
  return pieces;
}
function toChunks(layout, pieces, filePath, language) {
  return pieces.map((piece, id) => ({
    id,
    file_path: filePath,
    first_character_index: layout.offsets.toCodePoint(piece.start),
    last_character_index: layout.offsets.toCodePoint(piece.end),
    start_line: layout.lineOf(piece.start) + 1,
    end_line: layout.lineOf(piece.end - 1) + 1,
    kind: piece.kind,
    symbol: piece.symbol,
    language,
    text: layout.text.slice(piece.start, piece.end)
  }));
}
function sectionRegions(layout, starts, classify) {
  const regions = [];
  let gluedFrom;
  for (let i = 0; i < starts.length; i++) {
    const start = starts[i];
    const from = gluedFrom ?? (i === 0 ? 0 : start.row);
    const to = i + 1 < starts.length ? starts[i + 1].row : layout.lineCount;
    if (to <= from) continue;
    if (start.glue && i + 1 < starts.length) {
      gluedFrom = from;
      continue;
    }
    gluedFrom = void 0;
    const region = { from, to, kind: "section", symbol: start.symbol, mode: "whole", splitKind: "section" };
    if (classify) region.classify = classify;
    regions.push(region);
  }
  if (regions.length === 0 && layout.text.length > 0) {
    regions.push({ from: 0, to: layout.lineCount, kind: "section", symbol: "", mode: "whole", splitKind: "section" });
  }
  return regions;
}
var CONTAINERS = /* @__PURE__ */ new Set(["list", "list_item", "block_quote"]);
var FENCES = /* @__PURE__ */ new Set(["fenced_code_block", "indented_code_block"]);
function rowOf(walk, node) {
  return walk.layout.lineOf(node.startIndex);
}
function headingText(node) {
  const content = node.childForFieldName("heading_content");
  return (content?.text ?? "").replace(/\s+/g, " ").trim();
}
function markBlock(walk, node, depth) {
  const { facts, layout } = walk;
  const row = rowOf(walk, node);
  if (depth < facts.depth[row]) facts.depth[row] = depth;
  if (FENCES.has(node.type)) {
    const span = layout.trim(node.startIndex, node.endIndex);
    if (span) walk.fences.push(span);
    const last = layout.lineOf(Math.max(node.startIndex, node.endIndex - 1));
    for (let line = row + 1; line <= last; line++) facts.code[line] = 1;
  } else if (node.type === "pipe_table") {
    for (const tableRow2 of node.namedChildren) {
      const r = rowOf(walk, tableRow2);
      if (r > row && depth + 1.5 < facts.depth[r]) facts.depth[r] = depth + 1.5;
    }
  } else if (CONTAINERS.has(node.type)) {
    for (const child of node.namedChildren) markBlock(walk, child, node.type === "list_item" ? depth : depth + 1);
  }
}
function visitSection(walk, section, path) {
  const children = section.namedChildren;
  const heading = children[0]?.type === "atx_heading" ? children[0] : void 0;
  const own = heading ? [...path, headingText(heading)] : [...path];
  const firstSub = children.find((child) => child.type === "section");
  if (heading) {
    const row = rowOf(walk, heading);
    walk.facts.heading[row] = 1;
    const to = firstSub ? rowOf(walk, firstSub) : walk.layout.lineOf(Math.max(section.startIndex, section.endIndex - 1)) + 1;
    const glue = firstSub !== void 0 && walk.layout.trimmedSize(row, to) < walk.options.minChunkSize;
    walk.boundaries.push({ row, symbol: own.join(" > "), glue });
  } else {
    walk.boundaries.push({ row: rowOf(walk, section), symbol: own.join(" > "), glue: false });
  }
  for (const child of children) {
    if (child === heading) continue;
    if (child.type === "section") {
      visitSection(walk, child, own);
    } else if (child.type === "setext_heading") {
      const row = rowOf(walk, child);
      const last = walk.layout.lineOf(Math.max(child.startIndex, child.endIndex - 1));
      for (let line = row; line <= last; line++) walk.facts.heading[line] = 1;
      walk.boundaries.push({ row, symbol: [...own, headingText(child)].join(" > "), glue: false });
    } else {
      markBlock(walk, child, 0);
    }
  }
}
function isInsideFence(fences, start, end) {
  let lo = 0;
  let hi = fences.length - 1;
  while (lo <= hi) {
    const mid = lo + hi >>> 1;
    const [s, e] = fences[mid];
    if (e <= start) lo = mid + 1;
    else if (s > start) hi = mid - 1;
    else return end <= e;
  }
  return false;
}
function markdownBreakCost(layout, facts) {
  return (line) => {
    const previousBlank = line > 0 && layout.isBlankLine(line - 1);
    let cost;
    if (facts.code[line]) cost = previousBlank ? 5 : 6;
    else if (facts.depth[line] === Infinity) cost = previousBlank ? 3.5 : 4;
    else cost = 0.5 * facts.depth[line] + (previousBlank ? 0 : 0.25);
    if (line > 0 && facts.heading[line - 1]) cost += 3;
    return cost;
  };
}
var FENCE2 = /^[ \t]*(`{3,}|~{3,})/;
var ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
function chunkMarkdownByLines(layout, options) {
  const facts = {
    depth: new Float64Array(layout.lineCount).fill(Infinity),
    heading: new Uint8Array(layout.lineCount),
    code: new Uint8Array(layout.lineCount)
  };
  const headings = [];
  let fence;
  for (let line = 0; line < layout.lineCount; line++) {
    const text = layout.text.slice(layout.lineStart(line), layout.contentEnd(line));
    const marker = FENCE2.exec(text)?.[1];
    if (fence !== void 0) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && text.trim() === marker) fence = void 0;
      else facts.code[line] = 1;
      continue;
    }
    if (marker) {
      fence = marker;
      facts.depth[line] = 0;
      continue;
    }
    const atx = ATX.exec(text);
    if (atx) {
      headings.push({ row: line, level: atx[1].length, title: (atx[2] ?? "").trim() });
      facts.heading[line] = 1;
      facts.depth[line] = 0;
    } else if (line === 0 || layout.isBlankLine(line - 1)) {
      facts.depth[line] = 0;
    }
  }
  const starts = [];
  if (headings.length === 0 || headings[0].row > 0) starts.push({ row: 0, symbol: "", glue: false });
  const path = [];
  headings.forEach((heading, i) => {
    while (path.length > 0 && path[path.length - 1].level >= heading.level) path.pop();
    path.push(heading);
    const next = headings[i + 1];
    const glue = next !== void 0 && next.level > heading.level && layout.trimmedSize(heading.row, next.row) < options.minChunkSize;
    starts.push({ row: heading.row, symbol: path.map((h) => h.title).join(" > "), glue });
  });
  const limits = { max: options.maxChunkSize, target: options.targetChunkSize };
  const breakCost = markdownBreakCost(layout, facts);
  const pieces = cutRegions(layout, sectionRegions(layout, starts), breakCost, limits);
  return addNestedPieces(layout, pieces, breakCost, options.nestedChunkSize, options.maxChunkSize);
}
function chunkMarkdown(layout, options) {
  if (markdownNesting(layout.text) > MAX_MARKDOWN_NESTING) return chunkMarkdownByLines(layout, options);
  const tree = parseText("markdown", layout.text);
  const root = tree.rootNode;
  if (root.hasError) return chunkMarkdownByLines(layout, options);
  const walk = {
    layout,
    options,
    facts: {
      depth: new Float64Array(layout.lineCount).fill(Infinity),
      heading: new Uint8Array(layout.lineCount),
      code: new Uint8Array(layout.lineCount)
    },
    boundaries: [],
    fences: []
  };
  for (const child of root.namedChildren) {
    if (child.type === "section") visitSection(walk, child, []);
    else walk.boundaries.push({ row: rowOf(walk, child), symbol: "", glue: false });
  }
  const classify = (start, end) => isInsideFence(walk.fences, start, end) ? "code" : void 0;
  const regions = sectionRegions(layout, walk.boundaries, classify);
  const limits = { max: options.maxChunkSize, target: options.targetChunkSize };
  const breakCost = markdownBreakCost(layout, walk.facts);
  const pieces = cutRegions(layout, regions, breakCost, limits);
  return addNestedPieces(layout, pieces, breakCost, options.nestedChunkSize, options.maxChunkSize, classify);
}
function proseBreakCost(layout) {
  return (line) => line > 0 && layout.isBlankLine(line - 1) ? 0 : 3;
}
function overlapStart(layout, start, floor, budget) {
  const offsets = layout.offsets;
  const earliest = Math.max(floor, offsets.toUtf16(Math.max(0, offsets.toCodePoint(start) - budget)));
  let line = layout.lineOf(earliest);
  if (layout.lineStart(line) < earliest) line++;
  if (line < layout.lineCount && layout.lineStart(line) < start) return layout.lineStart(line);
  for (let i = earliest; i < start; i++) {
    if (i > 0 && isSpaceUnit(layout.text.charCodeAt(i - 1)) && !isSpaceUnit(layout.text.charCodeAt(i))) return i;
  }
  return start;
}
function windowText(layout, options, overlap) {
  const max = options.maxChunkSize - overlap;
  const limits = { max, target: Math.min(options.targetChunkSize, max) };
  const region = { from: 0, to: layout.lineCount, kind: "text", symbol: "", mode: "pack", splitKind: "text" };
  const base = cutRegions(layout, [region], proseBreakCost(layout), limits);
  if (overlap === 0) return base;
  return base.map((piece, i) => {
    if (i === 0) return piece;
    const budget = Math.min(overlap, layout.codePoints(piece.start, piece.end));
    const start = overlapStart(layout, piece.start, base[i - 1].start + 1, budget);
    const span = layout.trim(start, piece.end);
    return span ? { ...piece, start: span[0] } : piece;
  });
}
var CLAUSES = /* @__PURE__ */ new Set(["elif_clause", "else_clause", "except_clause", "except_group_clause", "finally_clause", "case_clause"]);
var COMPOUND = /* @__PURE__ */ new Set([
  "if_statement",
  "for_statement",
  "while_statement",
  "try_statement",
  "with_statement",
  "match_statement",
  "function_definition",
  "class_definition",
  "decorated_definition",
  ...CLAUSES
]);
var StatementReader = class {
  constructor(layout, cursor) {
    this.layout = layout;
    this.cursor = cursor;
    this.facts = {
      depth: new Float64Array(layout.lineCount).fill(Infinity),
      comment: new Uint8Array(layout.lineCount),
      docstring: new Uint8Array(layout.lineCount)
    };
  }
  layout;
  cursor;
  facts;
  /** Statements that are children of the cursor's node (a module or block), at `depth`. */
  readChildren(depth) {
    const cursor = this.cursor;
    const statements = [];
    if (!cursor.gotoFirstChild()) return statements;
    do {
      if (cursor.nodeIsNamed) statements.push(this.readStatement(depth));
    } while (cursor.gotoNextSibling());
    cursor.gotoParent();
    return statements;
  }
  mark(statement, depth, docstring) {
    const { layout, facts } = this;
    const row = layout.lineOf(statement.start);
    if (!layout.isSpaceBetween(layout.lineStart(row), statement.start)) return;
    if (depth < facts.depth[row]) facts.depth[row] = depth;
    if (statement.type === "comment" && layout.lineOf(statement.end - 1) === row) facts.comment[row] = 1;
    if (docstring) facts.docstring[row] = 1;
  }
  readStatement(depth) {
    const cursor = this.cursor;
    const statement = { type: cursor.nodeType, start: cursor.startIndex, end: cursor.endIndex };
    this.mark(statement, depth, statement.type === "expression_statement" && this.isBareString());
    if (COMPOUND.has(statement.type)) this.readCompound(statement, depth);
    return statement;
  }
  /** The cursor is on an expression statement: is it a lone string (a docstring)? */
  isBareString() {
    const cursor = this.cursor;
    let named = 0;
    let isString = false;
    if (!cursor.gotoFirstChild()) return false;
    do {
      if (!cursor.nodeIsNamed) continue;
      named++;
      isString = cursor.nodeType === "string";
    } while (cursor.gotoNextSibling());
    cursor.gotoParent();
    return named === 1 && isString;
  }
  /** Children of a compound statement at `depth`: blocks one level deeper, clauses, a decorated definition. */
  readCompound(statement, depth) {
    const cursor = this.cursor;
    const text = this.layout.text;
    const isDefinition = statement.type === "function_definition" || statement.type === "class_definition";
    let name = "";
    let body = [];
    if (!cursor.gotoFirstChild()) return;
    do {
      const type = cursor.nodeType;
      if (type === "block") {
        const statements = this.readChildren(depth + 1);
        if (isDefinition && cursor.currentFieldName === "body") body = statements;
      } else if (CLAUSES.has(type)) {
        const clause = { type, start: cursor.startIndex, end: cursor.endIndex };
        this.mark(clause, depth + 0.5, false);
        this.readCompound(clause, depth);
      } else if (type === "function_definition" || type === "class_definition") {
        const inner = { type, start: cursor.startIndex, end: cursor.endIndex };
        this.readCompound(inner, depth);
        if (inner.definition) statement.definition = inner.definition;
      } else if (isDefinition && cursor.currentFieldName === "name") {
        name = text.slice(cursor.startIndex, cursor.endIndex);
      }
    } while (cursor.gotoNextSibling());
    cursor.gotoParent();
    if (isDefinition) statement.definition = { kind: statement.type === "class_definition" ? "class" : "function", name, body };
  }
};
function groupItems(layout, statements) {
  const items = [];
  for (const statement of statements) {
    const previous = items[items.length - 1];
    const from = layout.lineOf(statement.start);
    const last = layout.lineOf(Math.max(statement.start, statement.end - 1));
    const isComment = statement.type === "comment";
    if (previous && (from <= previous.last || !layout.isSpaceBetween(layout.lineStart(from), statement.start))) {
      previous.last = Math.max(previous.last, last);
      previous.definition = void 0;
      previous.onlyComments &&= isComment;
      continue;
    }
    items.push({ from, last, definition: statement.definition, onlyComments: isComment });
  }
  for (let i = items.length - 1; i > 0; i--) {
    const item = items[i];
    const above = items[i - 1];
    if (item.definition && above.onlyComments && above.last + 1 === item.from) {
      item.from = above.from;
      items.splice(i - 1, 1);
    }
  }
  return items;
}
function regionsOfItems(layout, options, items, to, scope, depth) {
  const regions = [];
  const packKind = scope ? "class" : "module";
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const end = i + 1 < items.length ? items[i + 1].from : to;
    const definition = item.definition;
    if (!definition) {
      const previous = regions[regions.length - 1];
      if (previous && previous.mode === "pack" && previous.kind === packKind && previous.symbol === scope) previous.to = end;
      else regions.push({ from: item.from, to: end, kind: packKind, symbol: scope, mode: "pack", splitKind: packKind, depth });
      continue;
    }
    const symbol = scope ? `${scope}.${definition.name}` : definition.name;
    if (definition.kind === "class") {
      regions.push(...classRegions(layout, options, definition.body, item.from, end, symbol, depth));
    } else {
      const kind = scope ? "method" : "function";
      regions.push({ from: item.from, to: end, kind, symbol, mode: "whole", splitKind: "block", depth: depth + 1 });
    }
  }
  return regions;
}
function classRegions(layout, options, body, from, to, symbol, depth) {
  if (layout.trimmedSize(from, to) <= options.maxChunkSize) {
    return [{ from, to, kind: "class", symbol, mode: "whole", splitKind: "block", depth: depth + 1 }];
  }
  const items = groupItems(layout, body).filter((item) => item.from > from);
  const regions = regionsOfItems(layout, options, items, to, symbol, depth + 1);
  const first = regions[0];
  if (first && first.mode === "pack" && first.kind === "class" && first.symbol === symbol) first.from = from;
  else regions.unshift({ from, to: first?.from ?? to, kind: "class", symbol, mode: "pack", splitKind: "class", depth: depth + 1 });
  return regions;
}
function pythonBreakCost(layout, facts) {
  return (line, region) => {
    const previousBlank = line > 0 && layout.isBlankLine(line - 1);
    const depth = facts.depth[line];
    if (depth === Infinity) return previousBlank ? 3.5 : 4;
    let cost = 0.5 * Math.max(0, depth - (region.depth ?? 0));
    if (!previousBlank) cost += 0.25;
    if (facts.docstring[line]) cost += 1.5;
    if (line > 0 && facts.comment[line - 1]) cost += 1.5;
    return cost;
  };
}
function chunkPython(layout, options) {
  const tree = parseText("python", layout.text);
  if (tree.rootNode.hasError) return windowText(layout, options, 0);
  const reader = new StatementReader(layout, tree.walk());
  const items = groupItems(layout, reader.readChildren(0));
  const regions = regionsOfItems(layout, options, items, layout.lineCount, "", 0);
  if (regions.length > 0) regions[0].from = 0;
  const limits = { max: options.maxChunkSize, target: options.targetChunkSize };
  return cutRegions(layout, regions, pythonBreakCost(layout, reader.facts), limits);
}
var ADORNMENT = /^([!-/:-@[-`{-~])\1+[ \t]*$/;
function lineText(layout, line) {
  return layout.text.slice(layout.lineStart(line), layout.contentEnd(line));
}
function adornment(layout, line) {
  if (line < 0 || line >= layout.lineCount) return void 0;
  const match = ADORNMENT.exec(lineText(layout, line));
  return match ? match[0].trimEnd() : void 0;
}
function findHeadings(layout) {
  const headings = [];
  for (let line = 0; line + 1 < layout.lineCount; line++) {
    const raw = lineText(layout, line);
    const title = raw.trim();
    if (title === "" || adornment(layout, line) !== void 0) continue;
    const under = adornment(layout, line + 1);
    if (!under || [...under].length < [...title].length) continue;
    const over = adornment(layout, line - 1);
    const hasOver = over !== void 0 && over === under;
    if (!hasOver && (raw !== raw.trimStart() || line > 0 && !layout.isBlankLine(line - 1))) continue;
    headings.push({ row: hasOver ? line - 1 : line, next: line + 2, title, style: `${under[0]}${hasOver ? "o" : "u"}` });
    line++;
  }
  return headings;
}
function chunkRst(layout, options) {
  const headings = findHeadings(layout);
  const levels = [];
  const path = [];
  const headingLine = new Uint8Array(layout.lineCount);
  const starts = [];
  if (headings.length === 0 || headings[0].row > 0) starts.push({ row: 0, symbol: "", glue: false });
  headings.forEach((heading, i) => {
    let level = levels.indexOf(heading.style);
    if (level === -1) level = levels.push(heading.style) - 1;
    path.length = Math.min(path.length, level);
    path.push(heading.title);
    for (let line = heading.row; line < heading.next; line++) headingLine[line] = 1;
    const nextHeading = headings[i + 1];
    const ownEnd = nextHeading ? nextHeading.row : layout.lineCount;
    const deeper = nextHeading !== void 0 && !levels.slice(0, level + 1).includes(nextHeading.style);
    const glue = deeper && layout.trimmedSize(heading.row, ownEnd) < options.minChunkSize;
    starts.push({ row: heading.row, symbol: path.join(" > "), glue });
  });
  const regions = sectionRegions(layout, starts);
  const breakCost = (line) => {
    const previousBlank = line > 0 && layout.isBlankLine(line - 1);
    let cost = previousBlank ? 0 : 4;
    if (previousBlank && /^[ \t]/.test(lineText(layout, line))) cost += 0.5;
    if (line > 0 && headingLine[line - 1] && !headingLine[line]) cost += 3;
    return cost;
  };
  const pieces = cutRegions(layout, regions, breakCost, { max: options.maxChunkSize, target: options.targetChunkSize });
  return addNestedPieces(layout, pieces, breakCost, options.nestedChunkSize, options.maxChunkSize);
}
var LANGUAGES = ["python", "markdown", "rst", "text"];
function piecesFor(language, layout, options) {
  switch (language) {
    case "python":
      return chunkPython(layout, options);
    case "markdown":
      return chunkMarkdown(layout, options);
    case "rst":
      return chunkRst(layout, options);
    case "text":
      return windowText(layout, options, options.textOverlap);
  }
}
function createChunker(language, options = {}) {
  if (!LANGUAGES.includes(language)) {
    throw new RagError("UNKNOWN_NAME", `Unknown language "${String(language)}".`, {
      hint: `Use one of: ${LANGUAGES.join(", ")}.`
    });
  }
  const resolved = Object.freeze(resolveChunkerOptions(options));
  return {
    language,
    options: resolved,
    chunk(text, filePath) {
      const layout = new TextLayout(text);
      return toChunks(layout, piecesFor(language, layout, resolved), filePath, language);
    }
  };
}
var TREE_RELEASE_CHARS = 5e5;
var collect;
function collector() {
  if (collect !== void 0) return collect;
  try {
    setFlagsFromString("--expose-gc");
    collect = runInNewContext("gc");
  } catch {
    collect = null;
  }
  return collect;
}
async function releaseParseTrees() {
  collector()?.({ type: "minor" });
  await new Promise((resolve5) => setImmediate(resolve5));
}
function chunkerCache(options) {
  const chunkers = /* @__PURE__ */ new Map();
  return (language) => {
    let chunker = chunkers.get(language);
    if (!chunker) {
      chunker = createChunker(language, options);
      chunkers.set(language, chunker);
    }
    return chunker;
  };
}
async function chunkFilesReleasing(files, options, onFile) {
  const chunkerFor = chunkerCache(options);
  const out = new Array(files.length);
  let sinceRelease = 0;
  for (let index = 0; index < files.length; index++) {
    const file = files[index];
    const chunks = chunkerFor(file.language).chunk(file.text, file.file_path);
    out[index] = chunks;
    onFile?.(index, chunks);
    sinceRelease += file.text.length;
    if (sinceRelease >= TREE_RELEASE_CHARS) {
      sinceRelease = 0;
      await releaseParseTrees();
    }
  }
  return out;
}

// ../../packages/chunking/dist/index.js
var import_ignore = __toESM(require_ignore(), 1);
import { createHash as createHash2 } from "crypto";
import { readdir, readFile as readFile3, realpath, stat } from "fs/promises";
import { extname, join as join2, relative, resolve as resolve4, sep } from "path";
import { existsSync as existsSync3 } from "fs";
import { availableParallelism } from "os";
import { fileURLToPath } from "url";
import { Worker } from "worker_threads";
var READ_CONCURRENCY = 32;
var DEFAULT_MAX_FILE_BYTES = 2e6;
var DEFAULT_MAX_LINE_LENGTH = 5e4;
function longestLine(text) {
  let longest = 0;
  let start = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
    longest = Math.max(longest, i - start);
    start = i + 1;
  }
  return Math.max(longest, text.length - start);
}
function megabytes(bytes) {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}
function isInside(root, path) {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}
function toPosix(path) {
  return sep === "/" ? path : path.split(sep).join("/");
}
async function openRoot(dir) {
  const absolute = resolve4(dir);
  let info;
  try {
    info = await stat(absolute);
  } catch (error) {
    throw new RagError("CORPUS_NOT_FOUND", `Corpus directory ${dir} does not exist.`, {
      hint: "Check the path passed as --corpus_dir (relative paths start from the current directory).",
      cause: error
    });
  }
  if (!info.isDirectory()) {
    throw new RagError("INVALID_ARGUMENT", `Corpus path ${dir} is not a directory.`, {
      hint: "Pass the folder that contains the files to index, not a single file."
    });
  }
  return realpath(absolute);
}
var IGNORE_FILES = [".gitignore", ".ignore"];
async function readIgnoreRules(dir, base) {
  let rules;
  for (const name of IGNORE_FILES) {
    const text = await readFile3(join2(dir, name), "utf8").catch(() => void 0);
    if (text !== void 0) (rules ??= (0, import_ignore.default)()).add(text);
  }
  return rules ? { base, rules } : void 0;
}
function isIgnored(stack, path, isDir) {
  for (let i = stack.length - 1; i >= 0; i--) {
    const { base, rules } = stack[i];
    const inner = base === "" ? path : path.slice(base.length + 1);
    const verdict = rules.test(isDir ? `${inner}/` : inner);
    if (verdict.ignored) return true;
    if (verdict.unignored) return false;
  }
  return false;
}
async function listCandidates(root, extensions, ignored, useIgnoreFiles, warn) {
  const candidates = [];
  const visited = /* @__PURE__ */ new Set();
  const linkedDirs = [];
  const skipDir = (name) => ignored.has(name);
  const visit = async (dir, real, parentStack) => {
    if (visited.has(real)) return;
    visited.add(real);
    const base = toPosix(relative(root, dir));
    const own = useIgnoreFiles ? await readIgnoreRules(dir, base) : void 0;
    const stack = own ? [...parentStack, own] : parentStack;
    const excluded = (relativePath, isDir) => stack.length > 0 && isIgnored(stack, relativePath, isDir);
    let entries;
    try {
      entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    } catch (error) {
      warn(`Skipped folder ${toPosix(relative(root, dir)) || "."}: ${error.message}`);
      return;
    }
    const subdirs = [];
    for (const entry of entries) {
      const path = join2(dir, entry.name);
      const relativePath = toPosix(relative(root, path));
      if (entry.name.includes("\uFFFD") && !await stat(path).then(() => true, () => false)) {
        warn(`Skipped ${relativePath}: its name is not valid UTF-8 (rename it to index it).`);
        continue;
      }
      if (entry.isDirectory()) {
        if (!skipDir(entry.name) && !excluded(relativePath, true)) subdirs.push(entry.name);
      } else if (entry.isFile()) {
        const language = extensions.get(extname(entry.name).toLowerCase());
        if (language && !excluded(relativePath, false)) candidates.push({ relativePath, absolutePath: path, language, real: join2(real, entry.name), linked: false });
      } else if (entry.isSymbolicLink()) {
        let target;
        try {
          target = await realpath(path);
        } catch {
          warn(`Skipped ${relativePath}: broken symbolic link.`);
          continue;
        }
        if (!isInside(root, target)) {
          warn(`Skipped ${relativePath}: symbolic link to ${target}, outside the corpus.`);
          continue;
        }
        const info = await stat(target).catch(() => void 0);
        if (info?.isDirectory()) {
          if (!skipDir(entry.name) && !excluded(relativePath, true)) linkedDirs.push({ path, stack });
        } else if (info?.isFile()) {
          const language = extensions.get(extname(entry.name).toLowerCase());
          if (language && !excluded(relativePath, false)) candidates.push({ relativePath, absolutePath: path, language, real: target, linked: true });
        }
      }
    }
    for (const name of subdirs) await visit(join2(dir, name), join2(real, name), stack);
  };
  await visit(root, root, []);
  for (let i = 0; i < linkedDirs.length; i++) {
    const link = linkedDirs[i];
    await visit(link.path, await realpath(link.path), link.stack);
  }
  candidates.sort((a, b) => a.relativePath < b.relativePath ? -1 : a.relativePath > b.relativePath ? 1 : 0);
  const taken = new Set(candidates.filter((c) => !c.linked).map((c) => c.real));
  const kept = [];
  for (const { relativePath, absolutePath, language, real, linked } of candidates) {
    if (linked) {
      if (taken.has(real)) continue;
      taken.add(real);
    }
    kept.push({ relativePath, absolutePath, language });
  }
  return kept;
}
var decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
async function readCandidate(candidate, limits) {
  let bytes;
  try {
    const size = (await stat(candidate.absolutePath)).size;
    if (limits.maxFileBytes > 0 && size > limits.maxFileBytes) {
      return `Skipped ${candidate.relativePath}: ${megabytes(size)}, over the ${megabytes(limits.maxFileBytes)} file size limit (raise --max_file_size, or 0 to include every size).`;
    }
    bytes = await readFile3(candidate.absolutePath);
  } catch (error) {
    return `Skipped ${candidate.relativePath}: ${error.message}`;
  }
  if (bytes.includes(0)) return `Skipped ${candidate.relativePath}: binary file (contains NUL bytes).`;
  let text;
  try {
    text = decoder.decode(bytes);
  } catch {
    return `Skipped ${candidate.relativePath}: not valid UTF-8.`;
  }
  if (limits.maxLineLength > 0) {
    const longest = longestLine(text);
    if (longest > limits.maxLineLength) {
      return `Skipped ${candidate.relativePath}: a line of ${longest} characters looks minified or generated (raise --max_line_length, or 0 to include such files).`;
    }
  }
  return {
    file_path: candidate.relativePath,
    sha256: createHash2("sha256").update(bytes).digest("hex"),
    bytes: bytes.length,
    length: codePointLength(text),
    language: candidate.language,
    text,
    absolutePath: candidate.absolutePath
  };
}
function extensionMap(extensions) {
  const map = /* @__PURE__ */ new Map();
  for (const [extension, language] of Object.entries(extensions)) {
    const key = extension.toLowerCase();
    map.set(key.startsWith(".") ? key : `.${key}`, language);
  }
  return map;
}
function checkLimit(name, value) {
  if (!Number.isInteger(value) || value < 0) throw optionError({ subject: "chunking" }, [name], "an integer \u2265 0", value);
  return value;
}
async function walkCorpus(dir, options = {}) {
  const extensions = options.extensions ?? DEFAULT_EXTENSIONS;
  const warn = options.onWarning ?? (() => void 0);
  const root = await openRoot(dir);
  const map = extensionMap(extensions);
  const candidates = await listCandidates(root, map, new Set(options.ignoredDirs ?? DEFAULT_IGNORED_DIRS), options.ignoreFiles ?? true, warn);
  const limits = {
    maxFileBytes: checkLimit("maxFileBytes", options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES),
    maxLineLength: checkLimit("maxLineLength", options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH)
  };
  const results = new Array(candidates.length);
  let next = 0;
  const worker = async () => {
    while (next < candidates.length) {
      const index = next++;
      results[index] = await readCandidate(candidates[index], limits);
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, candidates.length) }, worker));
  const read = [];
  for (const result of results) {
    if (typeof result === "string") warn(result);
    else {
      if (result.language === "markdown") {
        const nesting = markdownNesting(result.text);
        if (nesting > MAX_MARKDOWN_NESTING) warn(`${result.file_path} nests block quotes or lists ${nesting} levels deep; it is chunked by lines, not parsed.`);
      }
      read.push(result);
    }
  }
  if (read.length === 0) {
    const names = [...map.keys()].join(", ");
    throw new RagError("CORPUS_EMPTY", `No indexable files in ${dir}.`, {
      hint: `Only files ending in ${names || "(no extensions configured)"} are indexed, outside skipped folders and what .gitignore/.ignore files exclude; point --corpus_dir at a folder with such files.`
    });
  }
  return read;
}
var PARALLEL_MIN_CHARS = 2e6;
var WORKERS_MIN_CORES = 2;
function defaultConcurrency(cores = availableParallelism()) {
  return cores < WORKERS_MIN_CORES ? 1 : Math.min(4, cores);
}
function workerScript() {
  const url = new URL("./chunk-worker.js", import.meta.url);
  return url.protocol === "file:" && existsSync3(fileURLToPath(url)) ? url : void 0;
}
function withTexts(fileText, chunks) {
  const map = new OffsetMap(fileText);
  return chunks.map((chunk) => ({ ...chunk, text: sliceCodePoints(fileText, chunk.first_character_index, chunk.last_character_index, map) }));
}
function balance(files, n) {
  const order = files.map((_, i) => i).sort((a, b) => files[b].text.length - files[a].text.length || a - b);
  const buckets = Array.from({ length: n }, () => []);
  const loads = new Array(n).fill(0);
  for (const i of order) {
    let lightest = 0;
    for (let b = 1; b < n; b++) if (loads[b] < loads[lightest]) lightest = b;
    buckets[lightest].push(i);
    loads[lightest] += files[i].text.length;
  }
  return buckets.map((bucket) => bucket.sort((a, b) => a - b));
}
function runWorker(script, files, options) {
  return new Promise((resolve22, reject) => {
    const worker = new Worker(script, { workerData: { files, options } });
    worker.once("message", (message) => {
      void worker.terminate();
      if (message.ok) resolve22(message.chunks);
      else reject(new RagError("IO_ERROR", `A chunking worker failed: ${message.message}`));
    });
    worker.once("error", (error) => reject(new RagError("IO_ERROR", `A chunking worker failed: ${error.message}`, { cause: error })));
  });
}
async function chunkFilesInParallel(files, options, concurrency, onFile, minChars = PARALLEL_MIN_CHARS) {
  const totalChars = files.reduce((sum, f) => sum + f.text.length, 0);
  const script = concurrency > 1 && totalChars >= minChars ? workerScript() : void 0;
  if (!script) {
    let done2 = 0;
    return chunkFilesReleasing(files, options, () => onFile(++done2));
  }
  const buckets = balance(files, concurrency);
  const pending = buckets.slice(1).map(
    (bucket) => runWorker(script, bucket.map((i) => ({ text: files[i].text, file_path: files[i].file_path, language: files[i].language })), options)
  );
  let done = 0;
  const own = await chunkFilesReleasing(buckets[0].map((i) => files[i]), options, () => onFile(++done));
  const result = new Array(files.length);
  buckets[0].forEach((fileIndex, j) => result[fileIndex] = own[j]);
  const others = await Promise.all(pending);
  others.forEach((chunksPerFile, w) => {
    buckets[w + 1].forEach((fileIndex, j) => result[fileIndex] = withTexts(files[fileIndex].text, chunksPerFile[j]));
    done += chunksPerFile.length;
  });
  onFile(done);
  return result;
}
async function chunkCorpus(dir, options = {}) {
  const { maxChunkSize, targetChunkSize, minChunkSize, textOverlap, nestedChunkSize } = options;
  const chunkerOptions = resolveChunkerOptions({ maxChunkSize, targetChunkSize, minChunkSize, textOverlap, nestedChunkSize });
  const concurrency = options.concurrency ?? defaultConcurrency();
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
    throw optionError({ subject: "chunking" }, ["concurrency"], "an integer in [1, 64]", concurrency);
  }
  const corpus = await walkCorpus(dir, options);
  const reused = corpus.map((file) => options.reuse?.(file));
  const toChunk = corpus.filter((_, i) => reused[i] === void 0);
  const chunked = await chunkFilesInParallel(
    toChunk,
    chunkerOptions,
    concurrency,
    (done) => options.onProgress?.({ phase: "chunk", done, total: toChunk.length })
  );
  let next = 0;
  const perFile = reused.map((chunks2) => chunks2 ?? chunked[next++]);
  const files = [];
  const chunks = [];
  corpus.forEach((file, index) => {
    for (const chunk of perFile[index]) {
      chunk.id = chunks.length;
      chunks.push(chunk);
    }
    files.push({ file_path: file.file_path, sha256: file.sha256, bytes: file.bytes, length: file.length, language: file.language });
  });
  return { files, chunks, counts: { chunked: toChunk.length, reused: corpus.length - toChunk.length } };
}

// ../../packages/service/dist/index.js
var DEFAULT_SEARCH_K = 10;
var DEFAULT_ANSWER_K = 5;
var MAX_K = 100;
var MAX_QUERY_LENGTH = 4e3;
var DEFAULT_MAX_CONCURRENT_ANSWERS = 1;
var DEFAULT_MAX_QUEUED_ANSWERS = 8;
var DEFAULT_STALE_CHECK_INTERVAL_MS = 1e3;
var DEFAULT_FOLLOW_INDEX_MS = 5e3;
var AnswerQueue = class {
  #maxConcurrent;
  #maxQueued;
  #waiting = [];
  #active = 0;
  constructor(maxConcurrent, maxQueued) {
    this.#maxConcurrent = maxConcurrent;
    this.#maxQueued = maxQueued;
  }
  state() {
    return { active: this.#active, queued: this.#waiting.length, maxConcurrent: this.#maxConcurrent, maxQueued: this.#maxQueued };
  }
  /** True when a request arriving now would have to wait. */
  get busy() {
    return this.#active >= this.#maxConcurrent;
  }
  /**
   * A slot, now or when one frees up. Throws `QUEUE_FULL` synchronously when no slot is
   * free and the queue is full; rejects with `CANCELLED` if `signal` aborts while waiting.
   */
  acquire(signal) {
    if (signal?.aborted) return Promise.reject(cancelled());
    if (this.#active < this.#maxConcurrent) return Promise.resolve(this.#grant());
    if (this.#waiting.length >= this.#maxQueued) {
      throw new RagError("QUEUE_FULL", `The server is busy: ${this.#active} answer(s) in progress and ${this.#waiting.length} waiting.`, {
        hint: "Retry in a few seconds; searches are not affected."
      });
    }
    return new Promise((resolve5, reject) => {
      const onAbort = () => {
        const index = this.#waiting.indexOf(waiter);
        if (index !== -1) this.#waiting.splice(index, 1);
        reject(cancelled());
      };
      const waiter = {
        grant: (release) => {
          signal?.removeEventListener("abort", onAbort);
          resolve5(release);
        },
        reject
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push(waiter);
    });
  }
  #grant() {
    this.#active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#active--;
      const next = this.#waiting.shift();
      if (next) next.grant(this.#grant());
    };
  }
};
function cancelled() {
  return new RagError("CANCELLED", "The answer request was cancelled while it waited for a slot.");
}
var GeneratorPool = class {
  #registry;
  #settings;
  #created = /* @__PURE__ */ new Map();
  defaultName;
  constructor(registry, defaultName, settings) {
    this.#registry = registry;
    this.defaultName = defaultName;
    this.#settings = settings;
  }
  /** Names a request may use, the default first. */
  names() {
    return [this.defaultName, ...this.#registry.names().filter((n) => n !== this.defaultName)];
  }
  get(name = this.defaultName) {
    const existing = this.#created.get(name);
    if (existing) return existing;
    if (!this.names().includes(name)) {
      return Promise.reject(
        new RagError("UNKNOWN_NAME", `Unknown generator "${name}".`, { hint: `This server offers: ${this.names().join(", ")}.` })
      );
    }
    const pending = this.#registry.create(name, this.#settings);
    pending.catch(() => this.#created.delete(name));
    this.#created.set(name, pending);
    return pending;
  }
  async dispose() {
    const created = [...this.#created.values()];
    this.#created.clear();
    await Promise.all(created.map(async (p) => (await p.catch(() => void 0))?.dispose()));
  }
};
function defaultSearchWorkers(cores = availableParallelism2()) {
  return Math.max(1, Math.min(MAX_SEARCH_WORKERS, cores));
}
var MAX_SEARCH_WORKERS = 64;
function searchWorkerScript() {
  const url = new URL("./search-worker.js", import.meta.url);
  return url.protocol === "file:" && existsSync4(fileURLToPath2(url)) ? url : void 0;
}
function toError(error) {
  if (error.code !== void 0) {
    return new RagError(error.code, error.message, error.hint === void 0 ? {} : { hint: error.hint });
  }
  return new Error(error.message);
}
var SearchPool = class _SearchPool {
  #options;
  #slots = [];
  #nextId = 0;
  #restarts = 0;
  #closing = false;
  constructor(options) {
    this.#options = options;
  }
  /** Starts `workers` threads and waits until every one has opened the index. */
  static async start(options) {
    const pool = new _SearchPool(options);
    try {
      await Promise.all(Array.from({ length: options.workers }, () => pool.#spawn()));
    } catch (error) {
      await pool.close();
      throw error;
    }
    return pool;
  }
  state() {
    let workers = 0;
    let starting = 0;
    let inFlight = 0;
    for (const slot of this.#slots) {
      if (slot.gone) continue;
      if (slot.ready) workers++;
      else starting++;
      inFlight += slot.pending.size;
    }
    return { workers, starting, restarts: this.#restarts, in_flight: inFlight };
  }
  /** The hits from a worker, or `undefined` when no worker is running (search elsewhere). */
  search(query, k, retriever) {
    let best;
    for (const slot of this.#slots) {
      if (!slot.ready || slot.gone) continue;
      if (!best || slot.pending.size < best.pending.size) best = slot;
    }
    if (!best || this.#closing) return void 0;
    const id = this.#nextId++;
    const chosen = best;
    return new Promise((resolve5, reject) => {
      chosen.pending.set(id, { resolve: resolve5, reject });
      const request = { id, query, k, retriever };
      chosen.worker.postMessage(request);
    });
  }
  /** Waits for the searches in flight, then stops every worker. */
  async close() {
    this.#closing = true;
    const waits = [];
    for (const slot of this.#slots) {
      for (const pending of slot.pending.values()) waits.push(new Promise((settled) => wrap(pending, settled)));
    }
    await Promise.all(waits);
    await Promise.all(this.#slots.map((slot) => (slot.gone = true, slot.worker.terminate())));
    this.#slots.length = 0;
  }
  #spawn() {
    const worker = new Worker2(this.#options.script, { workerData: this.#options.data });
    const slot = { worker, pending: /* @__PURE__ */ new Map(), ready: false, gone: false };
    this.#slots.push(slot);
    return new Promise((resolve5, reject) => {
      worker.on("message", (message) => {
        if (message.type === "ready") {
          slot.ready = true;
          resolve5();
        } else if (message.type === "failed") {
          this.#drop(slot);
          void worker.terminate();
          reject(toError(message.error));
        } else {
          const pending = slot.pending.get(message.id);
          if (!pending) return;
          slot.pending.delete(message.id);
          if (message.type === "hits") pending.resolve(message.chunkIds.map((chunkId, i) => ({ chunkId, score: message.scores[i] })));
          else pending.reject(toError(message.error));
        }
      });
      const stopped = (why) => {
        if (slot.gone) return;
        this.#drop(slot);
        const failure = new RagError("WORKER_FAILED", `The search worker answering this request stopped (${why}).`, {
          hint: "Retry the request; the worker has been replaced."
        });
        for (const pending of slot.pending.values()) pending.reject(failure);
        slot.pending.clear();
        if (!slot.ready) {
          reject(new RagError("WORKER_FAILED", `A search worker stopped while opening the index (${why}).`));
          return;
        }
        if (this.#closing) return;
        this.#options.onWarning?.(`a search worker stopped (${why}); starting another`);
        this.#restarts++;
        this.#spawn().catch((error) => this.#options.onWarning?.(`a search worker could not be restarted: ${error.message}`));
      };
      worker.on("error", (error) => stopped(error.message));
      worker.on("exit", (code) => stopped(`exit code ${code}`));
    });
  }
  #drop(slot) {
    slot.gone = true;
    const at = this.#slots.indexOf(slot);
    if (at >= 0) this.#slots.splice(at, 1);
  }
};
function wrap(pending, settled) {
  const { resolve: resolve5, reject } = pending;
  pending.resolve = (hits) => {
    resolve5(hits);
    settled(void 0);
  };
  pending.reject = (error) => {
    reject(error);
    settled(void 0);
  };
}
var CACHE_SIZE = 64;
var DECODE_ROUNDS = 3;
var decoder2 = new TextDecoder("utf-8", { ignoreBOM: true });
function lineStartsOf(text) {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}
function lineAt(starts, index) {
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = lo + hi >>> 1;
    if (starts[mid] <= index) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
function isInside2(root, path) {
  return path === root || path.startsWith(root.endsWith(sep2) ? root : root + sep2);
}
function decodings(path) {
  const forms = [path];
  let current = path;
  for (let i = 0; i < DECODE_ROUNDS && current.includes("%"); i++) {
    try {
      current = decodeURIComponent(current);
    } catch {
      break;
    }
    forms.push(current);
  }
  return forms;
}
function refuse(path) {
  const hint = "Pass a file_path exactly as a search returned it (relative to the directory it ran in), or a path inside the corpus such as `src/app.py`.";
  if (path.includes("\0")) throw new RagError("INVALID_ARGUMENT", "file_path contains a NUL character.", { hint });
  for (const form of decodings(path)) {
    if (/^([/\\~]|[A-Za-z]:)/.test(form)) throw new RagError("INVALID_ARGUMENT", "file_path must be relative; absolute paths are refused.", { hint });
    if (form.split(/[/\\]/).some((part) => part === "..")) {
      throw new RagError("INVALID_ARGUMENT", "file_path must not contain `..`: only files inside the indexed corpus can be read.", { hint });
    }
  }
  throw new RagError("NOT_FOUND", `${path} is not a file of the indexed corpus.`, { hint });
}
var CorpusReader = class {
  #corpusDir;
  #byPath = /* @__PURE__ */ new Map();
  #outputPath;
  #tracker;
  #cache = /* @__PURE__ */ new Map();
  #realRoot;
  constructor(manifest, outputPath, tracker) {
    this.#corpusDir = manifest.corpusDir;
    this.#outputPath = outputPath;
    this.#tracker = tracker;
    for (const file of manifest.files) this.#byPath.set(file.file_path, file.file_path);
    for (const file of manifest.files) this.#byPath.set(outputPath(file.file_path), file.file_path);
  }
  /** The corpus path of `path` (an output path or a corpus path); throws when it names no indexed file. */
  resolve(path) {
    return this.#byPath.get(path) ?? refuse(path);
  }
  async read(request) {
    const fileInCorpus = this.resolve(request.file_path);
    const file = await this.#load(fileInCorpus);
    const length = file.map.codePointLength;
    const start = request.start ?? 0;
    const end = request.end ?? length;
    const changed = file.state === "fresh" ? "" : " (the file changed since it was indexed; re-index to refresh offsets)";
    if (start > length) throw new RagError("INVALID_ARGUMENT", `start ${start} is past the end of ${request.file_path} (${length} characters)${changed}.`);
    if (end > length) throw new RagError("INVALID_ARGUMENT", `end ${end} is past the end of ${request.file_path} (${length} characters)${changed}.`);
    if (end < start) throw new RagError("INVALID_ARGUMENT", `end ${end} is before start ${start}.`, { hint: "end is exclusive and must be at least start." });
    const from = file.map.toUtf16(start);
    const to = file.map.toUtf16(end);
    const startLine = lineAt(file.lineStarts, from);
    return {
      file_path: this.#outputPath(fileInCorpus),
      first_character_index: start,
      last_character_index: end,
      start_line: startLine,
      end_line: to > from ? lineAt(file.lineStarts, to - 1) : startLine,
      file_length: length,
      text: file.text.slice(from, to),
      stale: file.state !== "fresh"
    };
  }
  async #load(fileInCorpus) {
    this.#realRoot ??= realpath2(this.#corpusDir);
    const root = await this.#realRoot.catch(() => {
      this.#realRoot = void 0;
      throw new RagError("NOT_FOUND", `The corpus folder ${this.#corpusDir} no longer exists.`, { hint: "Re-index the corpus, or restore the folder." });
    });
    const gone = () => {
      throw new RagError("NOT_FOUND", `${fileInCorpus} was indexed but no longer exists.`, { hint: "Re-index the corpus to drop it from the results." });
    };
    const real = await realpath2(join3(this.#corpusDir, fileInCorpus)).catch(gone);
    if (!isInside2(root, real)) {
      throw new RagError("NOT_FOUND", `${fileInCorpus} now leads outside the indexed corpus and is not served.`, { hint: "Only files inside the corpus folder can be read." });
    }
    const info = await stat2(real).catch(gone);
    if (!info.isFile()) gone();
    const cached = this.#cache.get(real);
    if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) {
      this.#cache.delete(real);
      this.#cache.set(real, cached);
      return cached;
    }
    const bytes = await readFile4(real).catch(gone);
    const text = decoder2.decode(bytes);
    const state = this.#tracker.noteContent(fileInCorpus, bytes, info.mtimeMs);
    const entry = { mtimeMs: info.mtimeMs, size: info.size, text, map: new OffsetMap(text), lineStarts: lineStartsOf(text), state };
    this.#cache.set(real, entry);
    if (this.#cache.size > CACHE_SIZE) this.#cache.delete(this.#cache.keys().next().value);
    return entry;
  }
};
var LISTED_STALE_FILES = 50;
var RETIRED_GENERATION_GRACE_MS = 3e4;
function checkQuery(query) {
  const trimmed = query.trim();
  if (trimmed.length === 0) throw new RagError("INVALID_ARGUMENT", "query is empty.", { hint: 'Ask a question, e.g. "How is the cache sized?"' });
  if (query.length > MAX_QUERY_LENGTH) {
    throw new RagError("INVALID_ARGUMENT", `query is longer than ${MAX_QUERY_LENGTH} characters.`, { hint: "Ask a shorter question." });
  }
  return trimmed;
}
function checkK(k, fallback) {
  const value = k ?? fallback;
  if (!Number.isInteger(value) || value < 1 || value > MAX_K) {
    throw new RagError("INVALID_ARGUMENT", `k must be a whole number in [1, ${MAX_K}]; got ${String(k)}.`);
  }
  return value;
}
function toAnswerView(question, result) {
  const view = {
    question,
    answer: result.answer,
    cited_sources: result.citedSources.map((c) => {
      const cited = {
        n: c.n,
        file_path: c.file_path,
        first_character_index: c.first_character_index,
        last_character_index: c.last_character_index,
        lines: { start: c.start_line, end: c.end_line },
        symbol: c.symbol
      };
      if (c.quotes) cited.quotes = c.quotes.map((q) => ({ first_character_index: q.first_character_index, last_character_index: q.last_character_index }));
      return cited;
    }),
    dropped_citations: result.droppedCitations,
    generator: result.generator,
    finish_reason: result.finishReason,
    sources_used: result.sourcesUsed,
    prompt_tokens: result.promptTokens,
    generated_tokens: result.generatedTokens,
    elapsed_ms: Math.round(result.elapsedMs)
  };
  if (result.modelId !== void 0) view.model_id = result.modelId;
  return view;
}
async function closeGeneration(session, pool, store = true) {
  await pool?.close();
  session.close();
  if (store) await session.store.close();
}
var RagService = class {
  generators;
  queue;
  #started = Date.now();
  #staleCheckIntervalMs;
  #reopen;
  #followIntervalMs;
  #current;
  #lastFollowCheck = Date.now();
  #following;
  /** Generations moved away from, each closed when its grace timer fires (or when the service closes). */
  #retired = /* @__PURE__ */ new Map();
  #closing;
  constructor(options) {
    this.generators = options.generators;
    this.queue = options.queue;
    this.#staleCheckIntervalMs = options.staleCheckIntervalMs;
    this.#reopen = options.reopen;
    this.#followIntervalMs = options.followIntervalMs ?? 0;
    this.#current = this.#serve(options.session, options.pool);
  }
  /** The index session searched now (another one after the service moved to a newer generation). */
  get session() {
    return this.#current.session;
  }
  get reader() {
    return this.#current.reader;
  }
  get tracker() {
    return this.#current.tracker;
  }
  #serve(session, pool) {
    const tracker = new StalenessTracker(session.manifest.corpusDir, session.manifest.files, this.#staleCheckIntervalMs);
    return { session, pool, tracker, reader: new CorpusReader(session.manifest, session.outputPath, tracker) };
  }
  /**
   * On a request, at most every `followIntervalMs`: asks the store which generation is
   * published and, when it is another one, opens it and serves it from then on. Runs beside
   * the request (never delays it); a failure keeps the generation served and is retried later.
   */
  #follow() {
    if (!this.#reopen || this.#followIntervalMs <= 0 || this.#following || this.#closing) return;
    if (Date.now() - this.#lastFollowCheck < this.#followIntervalMs) return;
    this.#lastFollowCheck = Date.now();
    const reopen = this.#reopen;
    this.#following = (async () => {
      const served = this.#current;
      const published = await served.session.store.open();
      if (published.pin.generation === served.session.pin.generation) return;
      const next = await reopen();
      if (this.#closing) {
        await closeGeneration(next.session, next.pool);
        return;
      }
      this.#current = this.#serve(next.session, next.pool);
      const timer = setTimeout(() => {
        this.#retired.delete(served);
        void closeGeneration(served.session, served.pool, false).catch(() => void 0);
      }, RETIRED_GENERATION_GRACE_MS);
      timer.unref();
      this.#retired.set(served, timer);
    })().catch(() => void 0).finally(() => {
      this.#following = void 0;
    });
  }
  async search(request) {
    this.#follow();
    const question = checkQuery(request.query);
    const k = checkK(request.k, DEFAULT_SEARCH_K);
    return (await this.#search(question, k, request.retriever ?? this.session.defaultRetriever)).view;
  }
  /** {@link search}, plus each hit's text as it was indexed (for agents, who want it in one call). */
  async searchWithText(request) {
    this.#follow();
    const question = checkQuery(request.query);
    const k = checkK(request.k, DEFAULT_SEARCH_K);
    const { view, chunks } = await this.#search(question, k, request.retriever ?? this.session.defaultRetriever);
    return { view, texts: chunks.map((c) => c.text) };
  }
  async #search(question, k, retriever) {
    const served = this.#current;
    const hits = await this.#searchHits(served, question, k, retriever);
    const views = [];
    for (const hit of hits) {
      const state = await served.tracker.state(hit.chunk.file_path);
      views.push({
        rank: hit.rank,
        file_path: hit.file_path,
        first_character_index: hit.chunk.first_character_index,
        last_character_index: hit.chunk.last_character_index,
        lines: { start: hit.chunk.start_line, end: hit.chunk.end_line },
        symbol: hit.chunk.symbol,
        kind: hit.chunk.kind,
        score: hit.score,
        stale: state !== "fresh"
      });
    }
    const view = {
      question,
      retriever,
      retrieved_sources: views.map((v) => ({ file_path: v.file_path, first_character_index: v.first_character_index, last_character_index: v.last_character_index })),
      hits: views
    };
    return { view, chunks: hits.map((h) => h.chunk) };
  }
  /** Through a worker when the pool has one running, else on this thread; the same hits either way. */
  async #searchHits(served, question, k, retriever) {
    const { session, pool } = served;
    const fromPool = pool?.search(question, k, retriever);
    if (!fromPool) return session.search(question, k, retriever);
    const { chunks, outputPath } = session;
    const hits = await fromPool;
    await session.prefetchTexts(hits.map((hit) => hit.chunkId));
    return hits.map((hit, i) => {
      const chunk = chunks[hit.chunkId];
      return { rank: i + 1, score: hit.score, chunk, file_path: outputPath(chunk.file_path) };
    });
  }
  /** Stops the search workers (after the searches in flight), frees the generators' models and closes the index. */
  close() {
    return this.#closing ??= (async () => {
      await this.#following;
      const retired = [...this.#retired];
      this.#retired.clear();
      await Promise.all(
        retired.map(([served, timer]) => {
          clearTimeout(timer);
          return closeGeneration(served.session, served.pool, false);
        })
      );
      await closeGeneration(this.#current.session, this.#current.pool);
      await this.generators.dispose();
    })();
  }
  readSpan(request) {
    this.#follow();
    return this.reader.read(request);
  }
  /**
   * Starts answering `request`. Admission is decided now: a bad name or a full queue
   * throws before anything is streamed, so an HTTP caller can still answer 400 or 503.
   * Aborting `signal` (the client left) stops the search, the wait or the generation.
   */
  beginAnswer(request, signal) {
    this.#follow();
    const question = checkQuery(request.query);
    const k = checkK(request.k, DEFAULT_ANSWER_K);
    const generatorName = request.generator ?? this.generators.defaultName;
    if (!this.generators.names().includes(generatorName)) {
      throw new RagError("UNKNOWN_NAME", `Unknown generator "${generatorName}".`, { hint: `This server offers: ${this.generators.names().join(", ")}.` });
    }
    const retriever = request.retriever ?? this.session.defaultRetriever;
    if (!this.session.retrieverNames.includes(retriever)) {
      throw new RagError("UNKNOWN_NAME", `The index was not built with the "${retriever}" retriever.`, { hint: `Use one of: ${this.session.retrieverNames.join(", ")}.` });
    }
    const position = this.queue.busy ? this.queue.state().queued + 1 : 0;
    const slot = this.queue.acquire(signal);
    slot.catch(() => void 0);
    return this.#answer(question, k, generatorName, retriever, slot, position, signal);
  }
  async *#answer(question, k, generatorName, retriever, slot, position, signal) {
    let release;
    try {
      const { view: search, chunks } = await this.#search(question, k, retriever);
      yield { type: "sources", search };
      if (position > 0) yield { type: "queued", position };
      release = await slot;
      const generator = await this.generators.get(generatorName);
      const sources = chunks.map((chunk, i) => toSourceForAnswer(chunk, search.hits[i].file_path));
      for await (const event of generator.generate({ question, sources }, signal ? { signal } : {})) {
        if (event.type === "token") yield { type: "token", text: event.text };
        else yield { type: "done", answer: toAnswerView(question, event.result) };
      }
    } finally {
      if (release) release();
      else slot.then((r) => r(), () => void 0);
    }
  }
  async stats() {
    const { manifest, outputPath } = this.session;
    const report = await this.tracker.report();
    const created = Date.parse(manifest.createdAt);
    return {
      index_dir: this.session.indexDir,
      corpus_dir: manifest.corpusDir,
      files: manifest.counts.files,
      chunks: manifest.counts.chunks,
      index_created_at: manifest.createdAt,
      index_age_seconds: Number.isNaN(created) ? -1 : Math.max(0, Math.round((Date.now() - created) / 1e3)),
      tool_version: manifest.toolVersion,
      retriever: this.session.defaultRetriever,
      retrievers: [...this.session.retrieverNames],
      generator: this.generators.defaultName,
      generators: this.generators.names(),
      stale: report.stale,
      changed_count: report.changed.length,
      missing_count: report.missing.length,
      changed_files: report.changed.slice(0, LISTED_STALE_FILES).map(outputPath),
      missing_files: report.missing.slice(0, LISTED_STALE_FILES).map(outputPath),
      answers: this.queue.state(),
      search_workers: this.#current.pool?.state() ?? { workers: 0, starting: 0, restarts: 0, in_flight: 0 },
      uptime_seconds: Math.round((Date.now() - this.#started) / 1e3)
    };
  }
};
var SERVICE_OPTIONS_SCHEMA = external_exports.strictObject({
  indexDir: external_exports.string().min(1),
  retriever: external_exports.string().min(1).optional(),
  retrievers: external_exports.custom((v) => typeof v === "object" && v !== null && typeof v.get === "function", "a retriever registry").optional(),
  retrieverSettings: external_exports.strictObject({ embedding: external_exports.record(external_exports.string(), external_exports.unknown()).optional() }).optional(),
  workers: integerIn(0, MAX_SEARCH_WORKERS).optional(),
  retrieverModule: external_exports.string().min(1).optional(),
  generator: external_exports.string().min(1).optional(),
  generatorSettings: external_exports.custom((v) => typeof v === "object" && v !== null, "an object").optional(),
  generators: external_exports.custom((v) => typeof v === "object" && v !== null, "a generator registry").optional(),
  pathBase: external_exports.string().min(1).optional(),
  maxConcurrentAnswers: integerIn(1, 64).optional(),
  maxQueuedAnswers: integerIn(0, 1e4).optional(),
  staleCheckIntervalMs: integerIn(0, 36e5).optional(),
  followIndexMs: integerIn(0, 36e5).optional()
});
function withServiceDefaults(options) {
  return {
    indexDir: options.indexDir,
    retriever: options.retriever,
    retrievers: options.retrievers,
    retrieverSettings: options.retrieverSettings ?? {},
    workers: options.workers ?? (options.retrievers === void 0 || options.retrieverModule !== void 0 ? defaultSearchWorkers() : 0),
    retrieverModule: options.retrieverModule,
    generator: options.generator,
    generators: options.generators,
    generatorSettings: options.generatorSettings ?? {},
    pathBase: options.pathBase ?? process.cwd(),
    maxConcurrentAnswers: options.maxConcurrentAnswers ?? DEFAULT_MAX_CONCURRENT_ANSWERS,
    maxQueuedAnswers: options.maxQueuedAnswers ?? DEFAULT_MAX_QUEUED_ANSWERS,
    staleCheckIntervalMs: options.staleCheckIntervalMs ?? DEFAULT_STALE_CHECK_INTERVAL_MS,
    followIndexMs: options.followIndexMs
  };
}
function resolveServiceOptions(options) {
  return withServiceDefaults(parseOptions(SERVICE_OPTIONS_SCHEMA, options, { subject: "service" }));
}
async function openRagService(options, { loadGenerator = true } = {}) {
  const resolved = resolveServiceOptions(options);
  if (resolved.workers > 0 && resolved.retrievers !== void 0 && resolved.retrieverModule === void 0 && options.workers !== void 0) {
    throw new RagError("INVALID_ARGUMENT", "Search workers cannot use a retriever registry object: it cannot cross into a worker thread.", {
      hint: "Give `retrieverModule` (a module exporting createRetrieverRegistry()) or `retrieverSettings` instead of `retrievers`, or set `workers: 0`."
    });
  }
  const registry = resolved.generators ?? createGeneratorRegistry();
  const generatorName = resolved.generator ?? chooseDefaultGenerator(resolved.generatorSettings);
  const script = resolved.workers > 0 ? searchWorkerScript() : void 0;
  const store = openStore(resolved.indexDir);
  const open = async () => script ? openPooled(resolved, script, store) : { session: await openSession(resolved, store) };
  const { session, pool } = await open().catch(async (error) => {
    await store.close();
    throw error;
  });
  const generators = new GeneratorPool(registry, generatorName, resolved.generatorSettings);
  try {
    if (loadGenerator) await generators.get();
  } catch (error) {
    await pool?.close();
    session.close();
    await store.close();
    throw error;
  }
  return new RagService({
    session,
    generators,
    queue: new AnswerQueue(resolved.maxConcurrentAnswers, resolved.maxQueuedAnswers),
    staleCheckIntervalMs: resolved.staleCheckIntervalMs,
    ...pool ? { pool } : {},
    reopen: open,
    followIntervalMs: resolved.followIndexMs ?? (store.kind === "file" ? 0 : DEFAULT_FOLLOW_INDEX_MS)
  });
}
function retrieverSourceOf(resolved) {
  return resolved.retrievers ? Promise.resolve(resolved.retrievers) : loadRetrieverRegistry(resolved.retrieverModule, resolved.retrieverSettings);
}
function sessionOptionsOf(resolved, retrievers) {
  const options = { pathBase: resolved.pathBase, retrievers };
  if (resolved.retriever !== void 0) options.retriever = resolved.retriever;
  return options;
}
async function openSession(resolved, store) {
  return openIndexSession(store, sessionOptionsOf(resolved, await retrieverSourceOf(resolved)));
}
async function openPooled(resolved, script, store) {
  const shared = createSharedFileReader(store.kind === "file" ? void 0 : store.readFile);
  const session = await openIndexSession(store, { ...sessionOptionsOf(resolved, await retrieverSourceOf(resolved)), readFile: shared.read, deferLoad: true });
  await session.verifyFiles();
  const data = {
    indexDir: resolved.indexDir,
    pin: session.pin,
    files: shared.files(),
    retriever: session.defaultRetriever,
    retrieverSettings: resolved.retrieverSettings
  };
  if (resolved.retrieverModule !== void 0) data.retrieverModule = retrieverModuleUrl(resolved.retrieverModule);
  const pool = await SearchPool.start({
    script,
    workers: resolved.workers,
    data,
    onWarning: (message) => process.stderr.write(`warning: ${message}
`)
  });
  return { session, pool };
}
async function openSearchSession(indexDir, options = {}) {
  const session = await openIndexSession(openStore(indexDir), {
    retrievers: options.retrievers ?? createDefaultRetrieverRegistry(),
    pathBase: options.pathBase ?? process.cwd(),
    ...options.retriever === void 0 ? {} : { retriever: options.retriever }
  });
  return {
    manifest: session.manifest,
    chunks: session.chunks,
    retriever: await session.retriever(),
    outputPath: (file) => session.outputPath(file),
    prefetchTexts: (ids) => session.prefetchTexts(ids),
    loadSeconds: session.loadSeconds
  };
}
async function searchSources(session, query, k) {
  const hits = await session.retriever.search(query, { k });
  await session.prefetchTexts(hits.map((hit) => hit.chunkId));
  return hits.map((hit, i) => {
    const chunk = session.chunks[hit.chunkId];
    return {
      file_path: session.outputPath(chunk.file_path),
      fileInCorpus: chunk.file_path,
      chunkId: hit.chunkId,
      first_character_index: chunk.first_character_index,
      last_character_index: chunk.last_character_index,
      rank: i + 1,
      score: hit.score,
      start_line: chunk.start_line,
      end_line: chunk.end_line,
      symbol: chunk.symbol,
      kind: chunk.kind
    };
  });
}
function toMinimalSource(source) {
  return {
    file_path: source.file_path,
    first_character_index: source.first_character_index,
    last_character_index: source.last_character_index
  };
}
async function findStaleFiles(session, filesInCorpus) {
  const tracker = new StalenessTracker(session.manifest.corpusDir, session.manifest.files, Number.POSITIVE_INFINITY);
  const unique = [...new Set(filesInCorpus)];
  const states = await Promise.all(unique.map((file) => tracker.state(file)));
  return unique.filter((_, i) => states[i] !== "fresh").map((file) => session.outputPath(file));
}
async function createIndexedSpanReader(indexDir, pathBase) {
  const store = openStore(indexDir);
  const manifest = await store.open().then((opened) => opened.manifest).finally(() => store.close());
  const tracker = new StalenessTracker(manifest.corpusDir, manifest.files, Number.POSITIVE_INFINITY);
  const reader = new CorpusReader(manifest, createOutputPathMapper(manifest.corpusDir, pathBase), tracker);
  return async (source) => {
    const span = await reader.read({ file_path: source.file_path, start: source.first_character_index, end: source.last_character_index });
    return {
      file_path: source.file_path,
      first_character_index: source.first_character_index,
      last_character_index: source.last_character_index,
      start_line: span.start_line,
      end_line: span.end_line,
      symbol: "",
      text: span.text
    };
  };
}
function answerCacheDir(indexDir) {
  if (isPostgresUrl(indexDir)) return join22(process.cwd(), ".rag", "answer-cache");
  return join22(dirname(indexDir), "answer-cache");
}
async function openAnswerGenerator(options) {
  const settings = options.settings ?? {};
  const name = options.name ?? (settings.modelDir ? settings.modelDir : chooseDefaultGenerator(settings));
  const generator = await createGeneratorRegistry().create(name, settings);
  if (options.noCache) return { generator, name };
  return { generator: withAnswerCache(generator, createAnswerCache(answerCacheDir(options.indexDir)), options.context, options.onCacheError), name };
}
function rebuildReason(old, options, chunking) {
  if (old.toolVersion !== options.toolVersion) return `the index was written by rag ${old.toolVersion}, this is ${options.toolVersion}`;
  if (old.corpusDir !== options.corpusDir) return `the index is of another corpus directory (${old.corpusDir})`;
  if (!isDeepStrictEqual(old.chunking, chunking)) return "the chunking settings changed";
  if (old.retrievers.length !== 1 || old.retrievers[0].name !== options.retriever) return `the index was built with ${old.retrievers.map((r) => r.name).join(", ")}`;
  return void 0;
}
async function openPrevious(store, options, chunking) {
  if (options.full) return { reason: "--full was given" };
  let index;
  try {
    index = await store.read();
  } catch (error) {
    if (isRagError(error) && error.code === "INDEX_NOT_FOUND") return {};
    if (isRagError(error) && (error.code === "INDEX_CORRUPT" || error.code === "INDEX_INCOMPATIBLE")) return { reason: `the old index cannot be read (${error.message})` };
    throw error;
  }
  const reason = rebuildReason(index.manifest, options, chunking);
  if (reason) {
    index.texts.close();
    return { reason };
  }
  return { index };
}
async function describePreviousBuild(store, old, name, chunks, reusedFiles) {
  if (!old.manifest.retrievers.some((entry) => entry.name === name)) return void 0;
  const readFile22 = store.kind === "file" ? void 0 : store.readFile;
  try {
    await verifyRetrieverFiles(old, name, readFile22);
  } catch {
    return void 0;
  }
  const firstOldChunk = /* @__PURE__ */ new Map();
  for (const chunk of old.chunks) if (!firstOldChunk.has(chunk.file_path)) firstOldChunk.set(chunk.file_path, chunk.id);
  const sourceOf = new Int32Array(chunks.length).fill(-1);
  let file = "";
  let next = -1;
  for (let i = 0; i < chunks.length; i++) {
    const chunk = chunks[i];
    if (chunk.file_path !== file) {
      file = chunk.file_path;
      next = reusedFiles.has(file) ? firstOldChunk.get(file) ?? -1 : -1;
    }
    if (next < 0) continue;
    const source = old.chunks[next];
    const same = source !== void 0 && source.file_path === file && source.first_character_index === chunk.first_character_index && source.last_character_index === chunk.last_character_index;
    sourceOf[i] = same ? next : -1;
    next++;
  }
  return { dir: retrieverDir(old.dir, name), chunks: old.chunks, sourceOf, ...readFile22 ? { readFile: readFile22 } : {} };
}
function round(seconds) {
  return Math.round(seconds * 1e3) / 1e3;
}
async function buildIndex(options) {
  const started = performance.now();
  const maxChunkSize = options.maxChunkSize ?? DEFAULT_MAX_CHUNK_SIZE;
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const maxLineLength = options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH;
  const ignoredDirs = [...options.ignoredDirs ?? DEFAULT_IGNORED_DIRS];
  const ignoreFiles = options.ignoreFiles ?? true;
  const chunking = { maxChunkSize, maxFileBytes, maxLineLength, ignoredDirs, ignoreFiles };
  const factory = (options.retrievers ?? createDefaultRetrieverRegistry()).get(options.retriever);
  const store = openStore(options.indexDir);
  const previous = await openPrevious(store, options, chunking).catch(async (error) => {
    await store.close();
    throw error;
  });
  const old = previous.index;
  try {
    const oldHashes = new Map(old?.manifest.files.map((f) => [f.file_path, f.sha256]) ?? []);
    const oldChunks = /* @__PURE__ */ new Map();
    for (const chunk of old?.chunks ?? []) {
      const list = oldChunks.get(chunk.file_path) ?? [];
      list.push(chunk);
      oldChunks.set(chunk.file_path, list);
    }
    let reusedChunks = 0;
    const reusedFiles = /* @__PURE__ */ new Set();
    const reuse = (file) => {
      if (oldHashes.get(file.file_path) !== file.sha256) return void 0;
      reusedFiles.add(file.file_path);
      const map = new OffsetMap(file.text);
      const kept = (oldChunks.get(file.file_path) ?? []).map((chunk) => ({
        id: chunk.id,
        file_path: chunk.file_path,
        first_character_index: chunk.first_character_index,
        last_character_index: chunk.last_character_index,
        start_line: chunk.start_line,
        end_line: chunk.end_line,
        kind: chunk.kind,
        symbol: chunk.symbol,
        language: chunk.language,
        text: sliceCodePoints(file.text, chunk.first_character_index, chunk.last_character_index, map)
      }));
      reusedChunks += kept.length;
      return kept;
    };
    const corpus = await chunkCorpus(options.corpusDir, {
      maxChunkSize,
      maxFileBytes,
      maxLineLength,
      ignoredDirs,
      ignoreFiles,
      ...options.threads === void 0 ? {} : { concurrency: options.threads },
      ...old ? { reuse } : {},
      ...options.onProgress ? { onProgress: options.onProgress } : {},
      ...options.onWarning ? { onWarning: options.onWarning } : {}
    });
    const chunkedAt = performance.now();
    const seen = new Set(corpus.files.map((f) => f.file_path));
    const added = corpus.files.filter((f) => !oldHashes.has(f.file_path)).length;
    const files = {
      added,
      changed: corpus.counts.chunked - added,
      removed: [...oldHashes.keys()].filter((path) => !seen.has(path)).length,
      unchanged: corpus.counts.reused,
      total: corpus.files.length
    };
    const previousBuild = old ? await describePreviousBuild(store, old, factory.name, corpus.chunks, reusedFiles) : void 0;
    const retriever = await factory.build(corpus.chunks, {
      ...options.onProgress ? { onProgress: options.onProgress } : {},
      ...previousBuild ? { previous: previousBuild } : {}
    });
    const fittedAt = performance.now();
    const manifest = await store.write({
      manifest: {
        toolVersion: options.toolVersion,
        createdAt: (/* @__PURE__ */ new Date()).toISOString(),
        corpusDir: options.corpusDir,
        corpusDirAsGiven: options.corpusDirAsGiven ?? options.corpusDir,
        chunking,
        files: corpus.files
      },
      chunks: corpus.chunks,
      retrievers: [{ entry: { name: factory.name, settings: {}, builtAt: (/* @__PURE__ */ new Date()).toISOString() }, save: (dir, context) => retriever.save(dir, context) }]
    });
    const finished = performance.now();
    return {
      mode: old ? "incremental" : "full",
      reason: previous.reason,
      files,
      chunks: corpus.chunks.length,
      reusedChunks,
      seconds: {
        chunk: round((chunkedAt - started) / 1e3),
        fit: round((fittedAt - chunkedAt) / 1e3),
        save: round((finished - fittedAt) / 1e3),
        total: round((finished - started) / 1e3)
      },
      manifest
    };
  } finally {
    old?.texts.close();
    await store.close();
  }
}

export {
  toSourceForAnswer,
  answer,
  checkpointPathFor,
  answerDatasetToFile,
  DEFAULT_RETRIEVER,
  createDefaultRetrieverRegistry,
  embeddingSettingsFor,
  openStore,
  redactLocation,
  DEFAULT_MAX_CHUNK_SIZE,
  DEFAULT_IGNORED_DIRS,
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_MAX_LINE_LENGTH,
  DEFAULT_SEARCH_K,
  MAX_K,
  MAX_QUERY_LENGTH,
  SERVICE_OPTIONS_SCHEMA,
  withServiceDefaults,
  openRagService,
  openSearchSession,
  searchSources,
  toMinimalSource,
  findStaleFiles,
  createIndexedSpanReader,
  openAnswerGenerator,
  buildIndex
};
//# sourceMappingURL=chunk-RLGZSCZZ.js.map