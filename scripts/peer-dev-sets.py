#!/usr/bin/env python3
"""The predecessors' plain BM25 (the replica in ../shared/peers/python-bm25) on the
development question sets, for the side-by-side the retrieval issue asks for: the same
recall@k rule (IoU > 0.05) and the same spans (≤ 2,000 characters) as `pnpm bench:quality`.

The peer is written for the vLLM corpus and the public sets; this script points its corpus
root, tree and question files elsewhere (module attributes and its `RAG_DATASET_*`
variables) and calls its own chunker, index and scorer unchanged: AST/heading chunks of
2,000 characters with path tokens, as `pnpm bench` runs it.

    python3 datasets/dev/prepare_corpora.py     # the corpora of the other codebases
    python3 scripts/peer-dev-sets.py            # one line per development set
    python3 scripts/peer-dev-sets.py --save DIR # also DIR/<set>.json, the peer's search results

The saved results are in the format `rag search_dataset` writes, so `rag evaluate` (or a
question-by-question comparison with `pnpm bench:quality --keep DIR`'s files) reads them.
"""
import argparse
import json
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
PEER = SHARED / "peers" / "python-bm25"
DEV = REPO / ".bench" / "dev-corpora"
DATASETS = REPO / "datasets" / "dev"

# corpus root, the tree inside it that is indexed, the sets asked of it (as scripts/question-sets.mjs)
SUITES = [
    (SHARED, "data/raw/vllm-0.10.1", ["dev_vllm_code", "dev_vllm_docs", "dev_vllm_config"]),
    (DEV, "other", ["dev_other_code", "dev_other_docs", "dev_other_scoped"]),
    (DEV, "werkzeug", ["dev_werkzeug_code", "dev_werkzeug_docs"]),
    (DEV, "attrs", ["dev_attrs_code", "dev_attrs_docs"]),
    (DEV, "babel", ["dev_babel_code", "dev_babel_docs"]),
    (DEV, "jinja2", ["dev_jinja2_code", "dev_jinja2_docs"]),
    (DEV, "doit", ["dev_doit_code", "dev_doit_docs"]),
    (DEV, "tornado", ["dev_tornado_code", "dev_tornado_docs"]),
    (DEV, "bs4", ["dev_bs4_code", "dev_bs4_docs"]),
    (DEV, "cmd2", ["dev_cmd2_code", "dev_cmd2_docs"]),
    (DEV, "pexpect", ["dev_pexpect_code", "dev_pexpect_docs"]),
    (DEV, "itsdangerous", ["dev_itsdangerous_code", "dev_itsdangerous_docs"]),
    (DEV, "cherrypy", ["dev_cherrypy_code", "dev_cherrypy_docs"]),
    (DEV, "cachelib", ["dev_cachelib_code"]),
    (DEV, "blinker", ["dev_blinker_code", "dev_blinker_docs"]),
    (DEV, "factoryboy", ["dev_factoryboy_code", "dev_factoryboy_docs"]),
    (DEV, "bidict", ["dev_bidict_code", "dev_bidict_docs"]),
    (DEV, "structlog", ["dev_structlog_code", "dev_structlog_docs"]),
]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--save", help="folder for each set's search results (the search_dataset format, k = 10)")
    args = parser.parse_args()
    save = Path(args.save) if args.save else None
    if save:
        save.mkdir(parents=True, exist_ok=True)
    if not PEER.is_dir():
        print(f"error: the peer is not at {PEER}", file=sys.stderr)
        return 1
    sys.path.insert(0, str(PEER))
    import bm25_py  # noqa: E402  (the peer's modules, imported from its folder)
    import corpus_chunks  # noqa: E402
    import score  # noqa: E402

    print("set                  n   R@1   R@3   R@5  R@10")
    for root, tree, sets in SUITES:
        if not (root / tree).is_dir():
            print(f"error: {root / tree} is missing (run datasets/dev/prepare_corpora.py)", file=sys.stderr)
            return 1
        corpus_chunks.CORPUS_ROOT = str(root)
        corpus_chunks.TREE = tree
        chunks, _ = corpus_chunks.build_chunks("struct", 2000, 200, "lines")
        index = bm25_py.BM25Okapi([bm25_py.path_tokens(c["file_path"]) + bm25_py.tokenize(c["text"]) for c in chunks])
        for name in sets:
            questions = json.loads((DATASETS / f"{name}.json").read_text(encoding="utf-8"))["rag_questions"]
            results = {}
            for q in questions:
                top = index.top_n(bm25_py.tokenize(q["question"]), 10)
                results[q["question_id"]] = [
                    {"file_path": chunks[d]["file_path"], "first_character_index": chunks[d]["start"], "last_character_index": chunks[d]["end"]}
                    for d, _ in top
                ]
            if save:
                ordered = [{"question_id": q["question_id"], "question": q["question"], "retrieved_sources": results[q["question_id"]]} for q in questions]
                (save / f"{name}.json").write_text(json.dumps({"search_results": ordered, "k": 10}, indent=1) + "\n", encoding="utf-8")
            row = score.evaluate(results, {name: questions})[name]
            print(f"{name:18} {len(questions):3}  " + "  ".join(f"{row[f'R@{k}'] / 100:.2f}" for k in (1, 3, 5, 10)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
