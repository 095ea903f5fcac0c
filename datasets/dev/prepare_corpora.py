#!/usr/bin/env python3
"""Assemble the development corpora of other codebases from installed Debian packages.

The development question sets (see README.md) are about nineteen codebases: vLLM (read in
place from ../shared/data/raw) and eighteen more that install offline from Debian:

  click     python3-click (code)     + python-click-doc (Sphinx sources, RST)
  requests  python3-requests (code)  + python-requests-doc (Sphinx sources, RST)
  werkzeug  python3-werkzeug (code)  + python-werkzeug-doc (Sphinx sources, RST)
  attrs     python3-attr (code)      + python-attr-doc (Sphinx sources, mostly Markdown)
  babel     python3-babel (code)     + python-babel-doc (Sphinx sources, RST)
  jinja2    python3-jinja2 (code)    + python-jinja2-doc (Sphinx sources, RST)
  doit      python3-doit (code)      + python-doit-doc (Sphinx sources, RST)
  tornado   python3-tornado (code)   + python-tornado-doc (Sphinx sources, RST)
  bs4       python3-bs4 (code)       + python-bs4-doc (Sphinx sources, RST: one long page)
  cmd2      python3-cmd2 (code)      + python-cmd2-doc (Sphinx sources, RST)
  pexpect   python3-pexpect (code)   + python-pexpect-doc (Sphinx sources, RST)
  itsdangerous python3-itsdangerous (code) + python-itsdangerous-doc (Sphinx sources, RST)
  cherrypy  python3-cherrypy3 (code) + python-cherrypy3-doc (Sphinx sources, RST)
  cachelib  python3-cachelib (code)  + python-cachelib-doc (Sphinx sources, RST: autodoc stubs)
  blinker   python3-blinker (code)   + python-blinker-doc (Sphinx sources, RST: one page)
  factoryboy python3-factory-boy (code) + python-factory-boy-doc (Sphinx sources, RST)
  bidict    python3-bidict (code)    + python-bidict-doc (Sphinx sources, RST)
  structlog python3-structlog (code) + python-structlog-doc (Sphinx sources, Markdown)

Debian ships the Sphinx sources as `_sources/<page>.rst.txt`; they are copied as
`docs/<page>.rst`, the name they have in the projects' repositories, so the RST chunker
sees them as RST. click and requests land in one corpus folder (`other/`), so every
question about them is asked against an index that holds two unrelated projects;
werkzeug and attrs are corpora of their own (`werkzeug/`, `attrs/`) laid out as their
repositories are (`src/werkzeug/…`, `src/attr/…`, `src/attrs/…`, `docs/…`), subpackages and
type stubs (`.pyi`) included; Markdown pages (`_sources/<page>.md.txt`) become `docs/<page>.md`.

    python3 datasets/dev/prepare_corpora.py [--out .bench/dev-corpora]

Exits 1 with the apt-get command to run when a package is missing.
"""
import argparse
import shutil
import sys
from pathlib import Path

SITE = Path("/usr/lib/python3/dist-packages")

# "root": the project's folder under --out; "code": each installed package and the folder it
# goes to inside the project (the layout of the project's repository).
PACKAGES = {
    "click": {
        "code": [(SITE / "click", "click")],
        "docs": Path("/usr/share/doc/python-click-doc/html/_sources"),
        "apt": ["python3-click", "python-click-doc"],
        "root": "other/click",
    },
    "requests": {
        "code": [(SITE / "requests", "requests")],
        "docs": Path("/usr/share/doc/python-requests-doc/html/_sources"),
        "apt": ["python3-requests", "python-requests-doc"],
        "root": "other/requests",
    },
    "werkzeug": {
        "code": [(SITE / "werkzeug", "src/werkzeug")],
        "docs": Path("/usr/share/doc/python-werkzeug-doc/html/_sources"),
        "apt": ["python3-werkzeug", "python-werkzeug-doc"],
        "root": "werkzeug",
    },
    # Markdown docs (MyST) beside one reST page, and type stubs beside most modules.
    "attrs": {
        "code": [(SITE / "attr", "src/attr"), (SITE / "attrs", "src/attrs")],
        "docs": Path("/usr/share/doc/python-attr-doc/html/_sources"),
        "apt": ["python3-attr", "python-attr-doc"],
        "root": "attrs",
    },
    # Internationalisation: numbers, dates, message catalogs; its docs have API pages of
    # autodoc directives (`docs/api/…`).
    "babel": {
        "code": [(SITE / "babel", "babel")],
        "docs": Path("/usr/share/doc/python-babel-doc/html/_sources"),
        "apt": ["python3-babel", "python-babel-doc"],
        "root": "babel",
    },
    # A template engine: a lexer, parser and compiler to Python, a sandbox, loaders and
    # bytecode caches; its docs are long reference pages (the template language, the API).
    "jinja2": {
        "code": [(SITE / "jinja2", "src/jinja2")],
        "docs": Path("/usr/share/doc/python-jinja2-doc/html/_sources"),
        "apt": ["python3-jinja2", "python-jinja2-doc"],
        "root": "jinja2",
    },
    # A task runner (the build tool "doit"): tasks, their dependencies and up-to-date checks,
    # actions run as shell commands or Python calls, a run database; its docs are how-to pages.
    "doit": {
        "code": [(SITE / "doit", "doit")],
        "docs": Path("/usr/share/doc/python-doit-doc/html/_sources"),
        "apt": ["python3-doit", "python-doit-doc"],
        "root": "doit",
    },
    # A web framework with its own HTTP server and asynchronous HTTP client, an event loop,
    # streams, WebSockets and templates; its tests ship inside the package (`tornado/test/`),
    # and its docs are API pages and a user's guide (`docs/guide/…`).
    "tornado": {
        "code": [(SITE / "tornado", "tornado")],
        "docs": Path("/usr/share/doc/python-tornado-doc/html/_sources"),
        "apt": ["python3-tornado", "python-tornado-doc"],
        "root": "tornado",
    },
    # An HTML/XML parsing library (Beautiful Soup 4): a tree builder registry over three
    # parsers, encoding detection ("Unicode, Dammit"), the parse tree and its output
    # formatters; its tests ship inside the package (`bs4/tests/`), and its docs are one long
    # RST page (`docs/index.rst`).
    "bs4": {
        "code": [(SITE / "bs4", "bs4")],
        "docs": Path("/usr/share/doc/python-bs4-doc/html/_sources"),
        "apt": ["python3-bs4", "python-bs4-doc"],
        "root": "bs4",
    },
    # A framework for line-oriented command interpreters (cmd2, over the standard library's
    # cmd): settings, shortcuts, aliases and macros, history, scripts, redirection and pipes,
    # argparse-based commands and completion; its docs are feature pages and API pages.
    "cmd2": {
        "code": [(SITE / "cmd2", "cmd2")],
        "docs": Path("/usr/share/doc/python-cmd2-doc/html/_sources"),
        "apt": ["python3-cmd2", "python-cmd2-doc"],
        "root": "cmd2",
    },
    # Driving interactive programs through a pseudo-terminal (pexpect): spawn and expect,
    # pipes and file descriptors, SSH logins (pxssh), wrapped shells (replwrap); its docs are
    # an overview, a FAQ, common problems and API pages.
    "pexpect": {
        "code": [(SITE / "pexpect", "pexpect")],
        "docs": Path("/usr/share/doc/python-pexpect-doc/html/_sources"),
        "apt": ["python3-pexpect", "python-pexpect-doc"],
        "root": "pexpect",
    },
    # Signing and serializing tokens (itsdangerous): signers, key derivation and rotation,
    # timestamps, URL-safe compressed payloads; its docs are concept and API pages.
    "itsdangerous": {
        "code": [(SITE / "itsdangerous", "itsdangerous")],
        "docs": Path("/usr/share/doc/python-itsdangerous-doc/html/_sources"),
        "apt": ["python3-itsdangerous", "python-itsdangerous-doc"],
        "root": "itsdangerous",
    },
    # A web framework (CherryPy 18): an object-tree dispatcher, tools (sessions, caching,
    # static files, encoding, authentication), a request body processor, an engine bus that
    # runs plugins and the server; its tests ship inside the package (`cherrypy/test/`), and
    # its docs are a user's guide (basics, advanced, config, deploy, extend) and API pages.
    "cherrypy": {
        "code": [(SITE / "cherrypy", "cherrypy")],
        "docs": Path("/usr/share/doc/python-cherrypy3-doc/html/_sources"),
        "apt": ["python3-cherrypy3", "python-cherrypy3-doc"],
        "root": "cherrypy",
    },
    # Two tiny codebases (~100 chunks each), for what a corpus that small lacks: cache
    # backends behind one interface (cachelib: memory, files, Redis, memcached, uWSGI; its
    # docs pages are autodoc stubs, so its questions are about code), and signals (blinker:
    # named and anonymous signals, weak receivers; its docs are one tutorial page).
    "cachelib": {
        "code": [(SITE / "cachelib", "src/cachelib")],
        "docs": Path("/usr/share/doc/python3-cachelib/html/_sources"),
        "apt": ["python3-cachelib", "python-cachelib-doc"],
        "root": "cachelib",
    },
    "blinker": {
        "code": [(SITE / "blinker", "src/blinker")],
        "docs": Path("/usr/share/doc/python-blinker-doc/html/_sources"),
        "apt": ["python3-blinker", "python-blinker-doc"],
        "root": "blinker",
    },
    # Test-data factories (factory_boy 2.11: declarations, sequences, fuzzy values, Faker,
    # Django / SQLAlchemy / MongoDB factories; RST docs with a long reference page and
    # recipes), added 2026-12-07 and measured before anything was chosen on it.
    "factoryboy": {
        "code": [(SITE / "factory", "factory")],
        "docs": Path("/usr/share/doc/python-factory-boy-doc/html/_sources"),
        "apt": ["python3-factory-boy", "python-factory-boy-doc"],
        "root": "factoryboy",
    },
    # A two-way mapping type (bidict 0.22: duplication policies, inverses, ordered, frozen and
    # named variants), its package made of private modules (`_base.py`, `_dup.py`, …) as
    # httpx's is; docs with usage, extending and caveat pages. Added and measured with factoryboy.
    "bidict": {
        "code": [(SITE / "bidict", "bidict")],
        "docs": Path("/usr/share/doc/python-bidict-doc/html/_sources"),
        "apt": ["python3-bidict", "python-bidict-doc"],
        "root": "bidict",
    },
    # Structured logging (structlog 22.3: configuration, processors and renderers, level
    # filtering, context variables, the standard-library bridge), private modules beside
    # public ones, and docs in Markdown (MyST), as httpx's are. Added and measured with bidict.
    "structlog": {
        "code": [(SITE / "structlog", "structlog")],
        "docs": Path("/usr/share/doc/python-structlog-doc/html/_sources"),
        "apt": ["python3-structlog", "python-structlog-doc"],
        "root": "structlog",
    },
}

CODE_SUFFIXES = (".py", ".pyi")
DOC_SUFFIXES = (".rst.txt", ".md.txt")


def copy_project(spec, out):
    target = out / spec["root"]
    if target.exists():
        shutil.rmtree(target)
    for package, code_dir in spec["code"]:
        code_out = target / code_dir
        code_out.mkdir(parents=True)
        for source in sorted(package.rglob("*")):
            if "__pycache__" in source.parts or not source.name.endswith(CODE_SUFFIXES):
                continue
            destination = code_out / source.relative_to(package)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, destination)
    for source in sorted(p for p in spec["docs"].rglob("*") if p.name.endswith(DOC_SUFFIXES)):
        relative = source.relative_to(spec["docs"])
        out = target / "docs" / relative.parent / relative.name[: -len(".txt")]
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=str(Path(__file__).resolve().parents[2] / ".bench" / "dev-corpora"))
    args = parser.parse_args()
    missing = [pkg for spec in PACKAGES.values() for pkg in spec["apt"]
               if not (spec["code"][0][0] if pkg.startswith("python3-") else spec["docs"]).is_dir()]
    if missing:
        print(f"error: missing Debian packages; run: apt-get install -y {' '.join(missing)}", file=sys.stderr)
        return 1
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for spec in PACKAGES.values():
        copy_project(spec, out)
    files = sum(1 for p in out.rglob("*") if p.is_file())
    print(f"prepared {files} files under {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
