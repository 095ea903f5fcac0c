#!/usr/bin/env python3
"""Assemble the development corpora of other codebases from installed Debian packages.

The development question sets (see README.md) are about four codebases: vLLM (read in
place from ../shared/data/raw) and three more that install offline from Debian:

  click     python3-click (code)     + python-click-doc (Sphinx sources, RST)
  requests  python3-requests (code)  + python-requests-doc (Sphinx sources, RST)
  werkzeug  python3-werkzeug (code)  + python-werkzeug-doc (Sphinx sources, RST)

Debian ships the Sphinx sources as `_sources/<page>.rst.txt`; they are copied as
`docs/<page>.rst`, the name they have in the projects' repositories, so the RST chunker
sees them as RST. click and requests land in one corpus folder (`other/`), so every
question about them is asked against an index that holds two unrelated projects;
werkzeug is a corpus of its own (`werkzeug/`) laid out as its repository is
(`src/werkzeug/…`, `docs/…`), subpackages included.

    python3 datasets/dev/prepare_corpora.py [--out .bench/dev-corpora]

Exits 1 with the apt-get command to run when a package is missing.
"""
import argparse
import shutil
import sys
from pathlib import Path

# "root": the project's folder under --out; "code": where its package goes inside it.
PACKAGES = {
    "click": {
        "code": Path("/usr/lib/python3/dist-packages/click"),
        "docs": Path("/usr/share/doc/python-click-doc/html/_sources"),
        "apt": ["python3-click", "python-click-doc"],
        "root": "other/click",
        "code_dir": "click",
    },
    "requests": {
        "code": Path("/usr/lib/python3/dist-packages/requests"),
        "docs": Path("/usr/share/doc/python-requests-doc/html/_sources"),
        "apt": ["python3-requests", "python-requests-doc"],
        "root": "other/requests",
        "code_dir": "requests",
    },
    "werkzeug": {
        "code": Path("/usr/lib/python3/dist-packages/werkzeug"),
        "docs": Path("/usr/share/doc/python-werkzeug-doc/html/_sources"),
        "apt": ["python3-werkzeug", "python-werkzeug-doc"],
        "root": "werkzeug",
        "code_dir": "src/werkzeug",
    },
}


def copy_project(spec, out):
    target = out / spec["root"]
    if target.exists():
        shutil.rmtree(target)
    code_out = target / spec["code_dir"]
    code_out.mkdir(parents=True)
    for source in sorted(spec["code"].rglob("*.py")):
        if "__pycache__" in source.parts:
            continue
        destination = code_out / source.relative_to(spec["code"])
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, destination)
    for source in sorted(spec["docs"].rglob("*.rst.txt")):
        relative = source.relative_to(spec["docs"])
        out = target / "docs" / relative.parent / relative.name[: -len(".txt")]
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=str(Path(__file__).resolve().parents[2] / ".bench" / "dev-corpora"))
    args = parser.parse_args()
    missing = [pkg for spec in PACKAGES.values() for pkg in spec["apt"]
               if not (spec["code"] if pkg.startswith("python3-") else spec["docs"]).is_dir()]
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
