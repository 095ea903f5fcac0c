"""Checks the mini dataset against its corpus and prints every gold span.

    python3 datasets/mini/verify.py          # exit status 1 on any problem
    python3 datasets/mini/verify.py --quiet  # only the summary

Checks: every cited file exists under datasets/mini/corpus, is valid UTF-8 and is not in
a directory the walker skips; 0 <= first < last <= length and last - first <= 2000 in
code points (newline="" keeps \\r\\n as two characters); the unanswered file lists the same
ids and questions; at least one gold span lies after an astral character; the corpus
still has its odd files (CRLF, syntax error, binary, Latin-1).
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
CORPUS = "datasets/mini/corpus/"
SKIPPED_DIRS = ("__pycache__", ".venv")
MAX_SPAN = 2000

problems = []


def problem(message):
    problems.append(message)
    print("PROBLEM:", message)


def load(name):
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        return json.load(f)["rag_questions"]


def check_span(qid, source, quiet):
    path = source["file_path"]
    if not path.startswith(CORPUS):
        return problem(f"{qid}: {path} is not under {CORPUS}")
    if any(part in SKIPPED_DIRS for part in path.split("/")):
        return problem(f"{qid}: {path} is in a directory the walker skips")
    try:
        with open(os.path.join(REPO, path), encoding="utf-8", newline="") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as error:
        return problem(f"{qid}: cannot read {path} as UTF-8: {error}")
    first, last = source["first_character_index"], source["last_character_index"]
    if not (0 <= first < last <= len(text)):
        return problem(f"{qid}: span [{first}, {last}) outside {path} (length {len(text)})")
    if last - first > MAX_SPAN:
        problem(f"{qid}: span of {last - first} characters is longer than {MAX_SPAN}")
    span = text[first:last]
    # Indentation before a method is fine (spans start at the line); blank edges are not.
    if span != span.rstrip() or span.lstrip(" ") != span.lstrip():
        problem(f"{qid}: span starts with a line break or ends with whitespace")
    astral_before = sum(1 for ch in text[:first] if ord(ch) > 0xFFFF)
    utf16_first = first + astral_before
    notes = []
    if astral_before:
        notes.append(f"{astral_before} astral chars before it: UTF-16 index {utf16_first}")
    if "\r\n" in text:
        notes.append("CRLF file")
    if not quiet:
        print(f"--- {qid} {path} [{first}, {last}) {last - first} chars" + (f" ({'; '.join(notes)})" if notes else ""))
        print(span)
    return astral_before


def main():
    quiet = "--quiet" in sys.argv
    answered = load("questions.json")
    unanswered = load("questions_unanswered.json")
    ids = [q["question_id"] for q in answered]
    if len(set(ids)) != len(ids):
        problem("duplicate question ids")
    if [(q["question_id"], q["question"]) for q in unanswered] != [(q["question_id"], q["question"]) for q in answered]:
        problem("questions_unanswered.json does not list the same ids and questions")
    if any("sources" in q or "answer" in q for q in unanswered):
        problem("questions_unanswered.json contains answers or sources")
    after_astral = 0
    spans = 0
    for q in answered:
        if not q.get("sources"):
            problem(f"{q['question_id']}: no sources")
        for source in q.get("sources", []):
            spans += 1
            if check_span(q["question_id"], source, quiet):
                after_astral += 1
    if after_astral == 0:
        problem("no gold span lies after an astral character")

    corpus = os.path.join(REPO, CORPUS)
    with open(os.path.join(corpus, "tinyserve/middleware.py"), "rb") as f:
        if b"\r\n" not in f.read():
            problem("tinyserve/middleware.py lost its CRLF line endings")
    with open(os.path.join(corpus, "tinyserve/broken_plugin.py"), encoding="utf-8") as f:
        try:
            compile(f.read(), "broken_plugin.py", "exec")
            problem("tinyserve/broken_plugin.py parses; it must contain a syntax error")
        except SyntaxError:
            pass
    for rel in ("docs/logo.png", "docs/legacy_notes.txt"):
        with open(os.path.join(corpus, rel), "rb") as f:
            try:
                f.read().decode("utf-8")
                problem(f"{rel} is valid UTF-8; it must not be")
            except UnicodeDecodeError:
                pass

    codes = sum(1 for q in answered if q["question_id"].startswith("code-"))
    print(f"{len(answered)} questions ({codes} code, {len(answered) - codes} docs), {spans} gold spans, "
          f"{after_astral} after an astral character, {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
