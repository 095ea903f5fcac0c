#!/usr/bin/env python3
"""Assemble the development corpora of other codebases from installed Debian packages.

The development question sets (see README.md) are about three codebases: vLLM (read in
place from ../shared/data/raw) and two more that install offline from Debian:

  click     python3-click (code)     + python-click-doc (Sphinx sources, RST)
  requests  python3-requests (code)  + python-requests-doc (Sphinx sources, RST)

Debian ships the Sphinx sources as `_sources/<page>.rst.txt`; they are copied as
`docs/<page>.rst`, the name they have in the projects' repositories, so the RST chunker
sees them as RST. Both projects land in one corpus folder (`other/`), so every question
is asked against an index that holds two unrelated projects.

    python3 datasets/dev/prepare_corpora.py [--out .bench/dev-corpora]

Exits 1 with the apt-get command to run when a package is missing.
"""
import argparse
import shutil
import sys
from pathlib import Path

PACKAGES = {
    "click": {
        "code": Path("/usr/lib/python3/dist-packages/click"),
        "docs": Path("/usr/share/doc/python-click-doc/html/_sources"),
        "apt": ["python3-click", "python-click-doc"],
    },
    "requests": {
        "code": Path("/usr/lib/python3/dist-packages/requests"),
        "docs": Path("/usr/share/doc/python-requests-doc/html/_sources"),
        "apt": ["python3-requests", "python-requests-doc"],
    },
}


def copy_project(name, spec, root):
    target = root / name
    if target.exists():
        shutil.rmtree(target)
    code_out = target / name
    code_out.mkdir(parents=True)
    for source in sorted(spec["code"].glob("*.py")):
        shutil.copyfile(source, code_out / source.name)
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
    root = Path(args.out) / "other"
    root.mkdir(parents=True, exist_ok=True)
    for name, spec in PACKAGES.items():
        copy_project(name, spec, root)
    files = sum(1 for p in root.rglob("*") if p.is_file())
    print(f"prepared {files} files under {root}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
