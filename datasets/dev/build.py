#!/usr/bin/env python3
"""Build the development question sets from their specs (datasets/dev/specs/*.json).

Each spec names a file, a question, a reference answer, a kind and two text anchors:

  start  text that must occur exactly once in the file (after `after`, when given); the
         gold span starts at the beginning of the line that holds it.
  end    one of
           a string: the span ends after its first occurrence at or after the start;
           "<line>":  the end of the start anchor's last line;
           "<para>":  the end of the paragraph (up to the next blank line);
           "<block>": the Python statement that starts there, with its indented body
                      (decorators, a multi-line signature and closing brackets included).
  after  optional text that must occur exactly once; the span then starts at the first
         occurrence of `start` after it (for names that repeat, like a class's `convert`).

Offsets are Unicode code points of the file decoded as UTF-8 with line endings kept
(`open(path, encoding="utf-8", newline="")`), `last_character_index` exclusive; no
spec may point into a file with CRLF line endings, so Python's default reading gives the
same offsets. Trailing blanks are never part of a span.

    python3 datasets/dev/build.py           # writes datasets/dev/dev_*.json
    python3 datasets/dev/build.py --check   # exit 1 if a built file is out of date

Any missing or ambiguous anchor, a span over 2,000 characters, a duplicate id or a bad
kind fails the build and names the spec.
"""
import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
KINDS = {"named", "paraphrased", "disambiguation"}
MAX_SPAN = 2000

# corpus name -> (folder the spec's `file` is relative to, prefix of the output file_path)
CORPORA = {
    "vllm": (REPO.parent / "shared" / "data" / "raw", "data/raw/"),
    "other": (REPO / ".bench" / "dev-corpora" / "other", "other/"),
    "werkzeug": (REPO / ".bench" / "dev-corpora" / "werkzeug", "werkzeug/"),
    "attrs": (REPO / ".bench" / "dev-corpora" / "attrs", "attrs/"),
    "babel": (REPO / ".bench" / "dev-corpora" / "babel", "babel/"),
    "jinja2": (REPO / ".bench" / "dev-corpora" / "jinja2", "jinja2/"),
    "doit": (REPO / ".bench" / "dev-corpora" / "doit", "doit/"),
    "tornado": (REPO / ".bench" / "dev-corpora" / "tornado", "tornado/"),
    "bs4": (REPO / ".bench" / "dev-corpora" / "bs4", "bs4/"),
    "cmd2": (REPO / ".bench" / "dev-corpora" / "cmd2", "cmd2/"),
    "pexpect": (REPO / ".bench" / "dev-corpora" / "pexpect", "pexpect/"),
    "itsdangerous": (REPO / ".bench" / "dev-corpora" / "itsdangerous", "itsdangerous/"),
    "cherrypy": (REPO / ".bench" / "dev-corpora" / "cherrypy", "cherrypy/"),
    "cachelib": (REPO / ".bench" / "dev-corpora" / "cachelib", "cachelib/"),
    "blinker": (REPO / ".bench" / "dev-corpora" / "blinker", "blinker/"),
    "factoryboy": (REPO / ".bench" / "dev-corpora" / "factoryboy", "factoryboy/"),
    "bidict": (REPO / ".bench" / "dev-corpora" / "bidict", "bidict/"),
    "structlog": (REPO / ".bench" / "dev-corpora" / "structlog", "structlog/"),
}

# output set -> spec files that feed it
SETS = {
    "dev_vllm_code": ["vllm_code.json"],
    "dev_vllm_docs": ["vllm_docs.json"],
    # vLLM's configuration (workflows, issue forms, pyproject.toml, example charts), indexed
    # as text since 2026-12-08: no other set asks about a file that is neither code nor docs.
    "dev_vllm_config": ["vllm_config.json"],
    "dev_other_code": ["click_code.json", "requests_code.json"],
    "dev_other_docs": ["click_docs.json", "requests_docs.json"],
    # Questions that name their project, asked of the two projects indexed together.
    "dev_other_scoped": ["click_scoped.json", "requests_scoped.json"],
    # A third codebase, indexed alone in the layout of its repository (src/werkzeug, docs).
    "dev_werkzeug_code": ["werkzeug_code.json"],
    "dev_werkzeug_docs": ["werkzeug_docs.json"],
    # A fourth, with Markdown docs and type stubs beside its modules.
    "dev_attrs_code": ["attrs_code.json"],
    "dev_attrs_docs": ["attrs_docs.json"],
    # A fifth, added after the description factor (2026-12-05) and measured before anything
    # was chosen on it: internationalisation code with RST docs.
    "dev_babel_code": ["babel_code.json"],
    "dev_babel_docs": ["babel_docs.json"],
    # A sixth, added on 2026-12-05 (late) and measured before anything was chosen on it: a
    # template engine (lexer, compiler, sandbox, loaders, caches) with long RST reference pages.
    "dev_jinja2_code": ["jinja2_code.json"],
    "dev_jinja2_docs": ["jinja2_docs.json"],
    "dev_doit_code": ["doit_code.json"],
    "dev_doit_docs": ["doit_docs.json"],
    "dev_tornado_code": ["tornado_code.json"],
    "dev_tornado_docs": ["tornado_docs.json"],
    "dev_bs4_code": ["bs4_code.json"],
    "dev_bs4_docs": ["bs4_docs.json"],
    # A tenth, added on 2026-12-06 (a later session) and measured before anything was chosen
    # on it: a command-interpreter framework with feature and API pages.
    "dev_cmd2_code": ["cmd2_code.json"],
    "dev_cmd2_docs": ["cmd2_docs.json"],
    # An eleventh, added on 2026-12-06 (a later session) after class summaries were taken,
    # and measured once before anything was chosen on it: driving interactive programs
    # through a pseudo-terminal (spawn, expect, pxssh, replwrap), with FAQ and overview pages.
    "dev_pexpect_code": ["pexpect_code.json"],
    "dev_pexpect_docs": ["pexpect_docs.json"],
    # A twelfth, written right after the eleventh, also measured once with nothing chosen
    # on it: signing and serializing tokens (signer, timed, URL-safe, key rotation).
    "dev_itsdangerous_code": ["itsdangerous_code.json"],
    "dev_itsdangerous_docs": ["itsdangerous_docs.json"],
    # A fourteenth, written on 2026-12-07 and measured once before anything was chosen on
    # it: a web framework with RST docs (CherryPy: cache, sessions, request bodies, charset
    # negotiation, static files, the engine bus), like the private "other codebases" sets.
    "dev_cherrypy_code": ["cherrypy_code.json"],
    "dev_cherrypy_docs": ["cherrypy_docs.json"],
    # Two tiny codebases (~100 chunks each), written on 2026-12-07 and measured once before
    # anything was chosen on them: cache backends (code only: its docs pages are autodoc
    # stubs) and signals, for what a corpus that small lacks (most common words).
    "dev_cachelib_code": ["cachelib_code.json"],
    "dev_blinker_code": ["blinker_code.json"],
    "dev_blinker_docs": ["blinker_docs.json"],
    # A seventeenth codebase, written on 2026-12-07 (a later session) by reading its code and
    # docs, and measured once before anything was chosen on it: test-data factories
    # (factory_boy: declarations, fuzzy values, Faker, Django / SQLAlchemy / MongoDB).
    "dev_factoryboy_code": ["factoryboy_code.json"],
    "dev_factoryboy_docs": ["factoryboy_docs.json"],
    # An eighteenth, written and measured with it: a two-way mapping type whose package is
    # private modules (`bidict/_base.py`, …), the layout of httpx.
    "dev_bidict_code": ["bidict_code.json"],
    "dev_bidict_docs": ["bidict_docs.json"],
    # A nineteenth, written right after: structured logging with Markdown (MyST) docs.
    "dev_structlog_code": ["structlog_code.json"],
    "dev_structlog_docs": ["structlog_docs.json"],
}


class SpecError(Exception):
    pass


def find_once(text, needle, start, what):
    first = text.find(needle, start)
    if first < 0:
        raise SpecError(f"{what} not found: {needle!r}")
    if text.find(needle, first + 1) >= 0:
        raise SpecError(f"{what} occurs more than once: {needle!r}")
    return first


def line_start(text, index):
    return text.rfind("\n", 0, index) + 1


def line_end(text, index):
    end = text.find("\n", index)
    return len(text) if end < 0 else end


def indent_of(line):
    return len(line) - len(line.lstrip(" \t"))


def block_end(text, begin):
    """End of the Python statement starting at `begin` (a line start) and its body."""
    lines = text[begin:].split("\n")
    base = indent_of(lines[0])
    consumed = 0
    end = begin
    header_done = False
    for i, line in enumerate(lines):
        stripped = line.strip()
        if i > 0 and stripped and indent_of(line) <= base:
            continuing = not header_done and (stripped.startswith(("@", "def ", "async def ", "class ")) or stripped[0] in ")]}")
            if not continuing:
                break
        if stripped:
            end = begin + consumed + len(line.rstrip())
            if stripped.endswith(":") and indent_of(line) == base and not stripped.startswith("@"):
                header_done = True
        consumed += len(line) + 1
    return end


def resolve(spec, text):
    if spec.get("after"):
        search_from = find_once(text, spec["after"], 0, "after anchor") + len(spec["after"])
        anchor = text.find(spec["start"], search_from)
        if anchor < 0:
            raise SpecError(f"start anchor not found after the after anchor: {spec['start']!r}")
    else:
        anchor = find_once(text, spec["start"], 0, "start anchor")
    first = line_start(text, anchor)
    end_spec = spec["end"]
    anchor_end = anchor + len(spec["start"])
    if end_spec == "<line>":
        last = line_end(text, anchor_end - 1)
    elif end_spec == "<para>":
        blank = text.find("\n\n", anchor_end)
        last = len(text) if blank < 0 else blank
    elif end_spec == "<block>":
        last = block_end(text, first)
    else:
        hit = text.find(end_spec, anchor)
        if hit < 0:
            raise SpecError(f"end anchor not found after the start: {end_spec!r}")
        last = hit + len(end_spec)
    while last > first and text[last - 1] in " \t\r\n":
        last -= 1
    if last - first > MAX_SPAN:
        raise SpecError(f"span is {last - first} characters (> {MAX_SPAN})")
    if last <= first:
        raise SpecError("empty span")
    return first, last


def build_set(name, seen_ids):
    questions = []
    for spec_file in SETS[name]:
        specs = json.loads((HERE / "specs" / spec_file).read_text(encoding="utf-8"))
        # A spec file is named after its corpus, but click and requests share "other".
        corpus = spec_file.split("_")[0] if spec_file.split("_")[0] in CORPORA else "other"
        root, prefix = CORPORA[corpus]
        for spec in specs:
            where = f"{spec_file} {spec.get('id')}"
            try:
                if spec["id"] in seen_ids:
                    raise SpecError("duplicate id")
                seen_ids.add(spec["id"])
                if spec["kind"] not in KINDS:
                    raise SpecError(f"kind must be one of {sorted(KINDS)}")
                path = root / spec["file"]
                if not path.is_file():
                    raise SpecError(f"no such file {path} (run datasets/dev/prepare_corpora.py?)")
                with open(path, encoding="utf-8", newline="") as handle:
                    text = handle.read()
                if "\r\n" in text:
                    raise SpecError("file has CRLF line endings")
                first, last = resolve(spec, text)
            except SpecError as error:
                raise SpecError(f"{where}: {error}") from None
            questions.append({
                "question_id": spec["id"],
                "question": spec["q"],
                "answer": spec["a"],
                "sources": [{"file_path": prefix + spec["file"], "first_character_index": first, "last_character_index": last}],
                "kind": spec["kind"],
            })
    return {"rag_questions": questions}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true", help="fail if a built set differs from its specs")
    parser.add_argument("--show", action="store_true", help="print every gold span")
    args = parser.parse_args()
    seen = set()
    stale = []
    try:
        for name in SETS:
            data = build_set(name, seen)
            out = HERE / f"{name}.json"
            rendered = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
            kinds = {}
            for q in data["rag_questions"]:
                kinds[q["kind"]] = kinds.get(q["kind"], 0) + 1
            lengths = sorted(q["sources"][0]["last_character_index"] - q["sources"][0]["first_character_index"] for q in data["rag_questions"])
            print(f"{name}: {len(lengths)} questions {kinds}, median span {lengths[len(lengths) // 2]} chars")
            if args.show:
                for q in data["rag_questions"]:
                    s = q["sources"][0]
                    corpus = next(name for name, (_, prefix) in CORPORA.items() if s["file_path"].startswith(prefix))
                    root, prefix = CORPORA[corpus]
                    with open(root / s["file_path"][len(prefix):], encoding="utf-8", newline="") as handle:
                        text = handle.read()
                    print(f"--- {q['question_id']} {q['question']}\n{text[s['first_character_index']:s['last_character_index']]}")
            if args.check:
                if not out.exists() or out.read_text(encoding="utf-8") != rendered:
                    stale.append(out.name)
            else:
                out.write_text(rendered, encoding="utf-8")
    except SpecError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    if stale:
        print(f"error: out of date: {', '.join(stale)}; run python3 datasets/dev/build.py", file=sys.stderr)
        return 1
    print(f"{len(seen)} questions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
