"""Cross-checks @rag/eval against the peer scorer (../shared/peers/python-bm25/score.py).

Writes a seeded synthetic dataset and results file into test/fixtures/ and prints the
peer's recall@1/3/5/10 on them. test/cross-check.test.ts hard-codes these numbers, so
rerun this only when the fixture generator changes:

    python3 packages/eval/scripts/cross-check.py
"""
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
PEER = os.path.normpath(os.path.join(ROOT, "..", "shared", "peers", "python-bm25"))
FIXTURES = os.path.join(HERE, "..", "test", "fixtures")
sys.path.insert(0, PEER)
sys.dont_write_bytecode = True  # never leave __pycache__ next to the shared peer
import score  # noqa: E402

FILES = ["pkg/a.py", "pkg/b.py", "docs/c.md"]


def src(path, a, b):
    return {"file_path": path, "first_character_index": a, "last_character_index": b}


def near(rng, g):
    """A span around gold span g: shifted, shrunk or grown, sometimes far off the threshold."""
    length = g["last_character_index"] - g["first_character_index"]
    kind = rng.random()
    if kind < 0.2:
        return dict(g)
    if kind < 0.35:
        # Large window that contains the gold span: IoU around or below 0.05.
        start = max(0, g["first_character_index"] - rng.randint(0, 1500))
        return src(g["file_path"], start, start + rng.randint(length, 2000))
    if kind < 0.45:
        # Same offsets in another file.
        other = rng.choice([f for f in FILES if f != g["file_path"]])
        return src(other, g["first_character_index"], g["last_character_index"])
    if kind < 0.5:
        # Touching or empty span.
        edge = g["last_character_index"]
        return src(g["file_path"], edge, edge + rng.choice([0, 40]))
    shift = rng.randint(-length, length)
    start = max(0, g["first_character_index"] + shift)
    return src(g["file_path"], start, start + max(1, length + rng.randint(-length // 2, length)))


def build(seed=20261202, n=40):
    rng = random.Random(seed)
    questions, results = [], {}
    for i in range(n):
        qid = f"q{i:02d}"
        gold = []
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            a = rng.randint(0, 5000)
            gold.append(src(rng.choice(FILES), a, a + rng.randint(20, 400)))
        questions.append({"question_id": qid, "question": f"synthetic question {i}?", "answer": "-", "sources": gold})
        if rng.random() < 0.1:
            continue  # no result entry: scores 0
        retrieved = []
        for _ in range(rng.randint(0, 10)):
            if rng.random() < 0.4:
                retrieved.append(near(rng, rng.choice(gold)))
            else:
                a = rng.randint(0, 8000)
                retrieved.append(src(rng.choice(FILES), a, a + rng.randint(1, 2000)))
        if retrieved and rng.random() < 0.2:
            retrieved.insert(rng.randrange(len(retrieved)), dict(retrieved[0]))  # a duplicate
            retrieved = retrieved[:10]
        results[qid] = retrieved
    results["stray"] = [src("pkg/a.py", 0, 10)]  # not in the dataset: ignored by both
    return questions, results


def main():
    questions, results = build()
    os.makedirs(FIXTURES, exist_ok=True)
    with open(os.path.join(FIXTURES, "cross-check-dataset.json"), "w") as f:
        json.dump({"rag_questions": questions}, f, indent=1)
    with open(os.path.join(FIXTURES, "cross-check-results.json"), "w") as f:
        entries = [{"question_id": q, "retrieved_sources": r} for q, r in results.items()]
        json.dump({"search_results": entries, "k": 10}, f, indent=1)
    metrics = score.evaluate(results, {"synthetic": questions})["synthetic"]
    print(json.dumps({k: v / 100.0 for k, v in metrics.items()}))
    hits10 = score.per_question_hits(results, 10, {"synthetic": questions})["synthetic"]
    print(json.dumps(hits10))


if __name__ == "__main__":
    main()
