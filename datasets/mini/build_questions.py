"""Writes questions.json and questions_unanswered.json from the anchors below.

Each gold span runs from the first character of `start` to the last character of `end`
(the first occurrence of `end` at or after `start`); both anchors must occur exactly once
in their file, so a corpus edit that breaks a span fails loudly instead of shifting it.
Offsets are code points of the text as `open(path, encoding="utf-8", newline="")` reads
it: `\\r\\n` counts as two characters.

    python3 datasets/mini/build_questions.py   # then: python3 datasets/mini/verify.py
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
CORPUS = "datasets/mini/corpus"

# (question_id, question, answer, [(file inside the corpus, start anchor, end anchor), ...])
QUESTIONS = [
    ("code-01", "What TCP port does the tinyserve development server listen on by default?",
     "8421 (DEFAULT_PORT in tinyserve/defaults.py).",
     [("tinyserve/defaults.py", "# TCP port the development server", "DEFAULT_PORT = 8421")]),
    ("code-02", "How do I register a function as the handler of a URL pattern?",
     "Decorate it with @app.route(pattern, methods=(...)); App.route adds it to the router and returns the function unchanged.",
     [("tinyserve/app.py", "    def route(self, pattern", "        return register")]),
    ("code-03", "How does the router convert placeholder values and which status does it give when only the method is wrong?",
     "Router.match converts each placeholder with its cast (<id:int> gives an int) and raises LookupError(405) when a pattern matches but not the method, 404 when nothing matches.",
     [("tinyserve/routing.py", "    def match(self, method, path):", "raise LookupError(405 if allowed else 404)")]),
    ("code-04", "What does tinyserve send back when a handler raises an exception?",
     "A 500 response; with debug=True the body is the traceback, otherwise 'Internal Server Error'.",
     [("tinyserve/app.py", "    def handle(self, request):", 'return Response(body.encode("utf-8"), status=500)')]),
    ("code-05", "How large may a request body be before tinyserve rejects it?",
     "1 MiB (MAX_BODY_BYTES = 1_048_576); larger bodies get 413 before the handler runs.",
     [("tinyserve/defaults.py", "# Requests with a larger body", "MAX_BODY_BYTES = 1_048_576"),
      ("CHANGELOG.txt", "  - Requests with bodies over 1 MiB", "rejected with 413.")]),
    ("code-06", "Which function returns a localised greeting, and what language does it fall back to?",
     "grüße(name, sprache='en') in tinyserve/i18n.py; unknown language codes fall back to English.",
     [("tinyserve/i18n.py", "def grüße(name", "return vorlage.format(name=name)")]),
    ("code-07", "What banner is printed when the development server starts?",
     "STARTUP_BANNER: '🚀 tinyserve läuft auf {host}:{port} — Strg+C beendet'.",
     [("tinyserve/i18n.py", "STARTUP_BANNER = ", "Strg+C beendet\"")]),
    ("code-08", "How does the timing middleware measure how long a request took?",
     "timing_middleware reads time.perf_counter() before and after the handler and logs the difference in milliseconds.",
     [("tinyserve/middleware.py", "def timing_middleware(handler):", "    return timed")]),
    ("code-09", "What happens to a dict returned by a handler?",
     "Response.coerce turns it into a JSON body with content type application/json.",
     [("tinyserve/app.py", "    @classmethod", "return cls(bytes(value))")]),
    ("docs-01", "How do I install tinyserve?",
     "Create and activate a virtual environment, then pip install tinyserve==0.3.1.",
     [("docs/guide.md", "## Installation", "works offline from a wheel as well.")]),
    ("docs-02", "Is there a minimal hello-world example?",
     "Yes: the Quick start in docs/guide.md registers /hello/<name> with @app.route and calls app.run().",
     [("docs/guide.md", "## Quick start", "    app.run()\n```")]),
    ("docs-03", "Which environment variables configure tinyserve and what are their defaults?",
     "TINYSERVE_HOST (127.0.0.1), TINYSERVE_PORT (8421) and TINYSERVE_WORKERS (4); arguments to app.run() win.",
     [("docs/guide.md", "## Configuration", "win over environment variables.")]),
    ("docs-04", "When does tinyserve answer 405 instead of 404?",
     "When the path matches a pattern registered for other methods; 404 when no pattern matches.",
     [("docs/guide.md", "## Routing", "registered for other methods answers 405.")]),
    ("docs-05", "Why should debug mode stay off in production?",
     "In debug mode a 500 response carries the traceback, which can leak secrets.",
     [("docs/guide.md", "## Error handling", "because tracebacks can leak secrets.")]),
    ("docs-06", "How do I put tinyserve behind nginx?",
     "Keep tinyserve bound to 127.0.0.1 and proxy_pass to its port from an nginx location block.",
     [("docs/deployment.rst", "Behind a reverse proxy", "       proxy_set_header Host $host;\n   }")]),
    ("docs-07", "How should I scale tinyserve for CPU-bound handlers?",
     "Worker threads share the GIL, so start several processes on their own ports behind a load balancer.",
     [("docs/deployment.rst", "Running several workers", "put a load balancer in front of them.")]),
    ("docs-08", "Why did the default port change, and from what?",
     "Version 0.3.0 changed it from 8000 to 8421 to avoid clashing with other development servers.",
     [("CHANGELOG.txt", "  - Changed the default port", "development servers.")]),
    ("docs-09", "Which Python versions does tinyserve support?",
     "CPython 3.9 to 3.13 and PyPy 3.10.",
     [("README.md", "## Supported versions", "not for production use.")]),
]


def read(rel):
    with open(os.path.join(REPO, CORPUS, rel), encoding="utf-8", newline="") as f:
        return f.read()


def locate(rel, start, end):
    text = read(rel)
    for anchor in (start, end):
        if text.count(anchor) != 1:
            raise SystemExit(f"{rel}: anchor {anchor!r} occurs {text.count(anchor)} times, need exactly 1")
    first = text.index(start)
    last = text.index(end, first) + len(end)
    return {"file_path": f"{CORPUS}/{rel}", "first_character_index": first, "last_character_index": last}


def main():
    answered = []
    for qid, question, answer, spans in QUESTIONS:
        sources = [locate(*span) for span in spans]
        answered.append({"question_id": qid, "question": question, "answer": answer, "sources": sources})
    unanswered = [{"question_id": q["question_id"], "question": q["question"]} for q in answered]
    for name, questions in (("questions.json", answered), ("questions_unanswered.json", unanswered)):
        with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
            json.dump({"rag_questions": questions}, f, ensure_ascii=False, indent=2)
            f.write("\n")
    print(f"wrote {len(answered)} questions")


if __name__ == "__main__":
    main()
