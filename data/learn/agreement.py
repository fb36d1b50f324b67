"""Agreement between each task's labels (items.jsonl, written with the items) and its blind second
labelling (second_labels.jsonl, made by an annotator who saw only the states and the question set), per
question: raw agreement, Cohen's kappa, and for scores the share within one level; and the disagreements
that adjudication.jsonl settles. Usage: python data/learn/agreement.py [--disagreements OUT.jsonl]"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

HERE = Path(__file__).parent
TASKS = ["telecom_intents", "workplace_intents", "marketplace_moderation", "incident_severity", "saas_tickets"]


def kappa(a: list, b: list) -> float:
    n = len(a)
    observed = sum(x == y for x, y in zip(a, b)) / n
    ca, cb = Counter(a), Counter(b)
    expected = sum(ca[k] * cb[k] for k in ca) / (n * n)
    return (observed - expected) / (1 - expected) if expected < 1 else 1.0


def load(path: Path) -> dict:
    return {row["id"]: row for row in map(json.loads, path.read_text().splitlines()) if row}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--disagreements", help="write every disagreement (id, state, both labels) here")
    args = parser.parse_args()
    rows, out = [], []
    for task in TASKS:
        first, second = load(HERE / task / "items.jsonl"), load(HERE / task / "second_labels.jsonl")
        questions = json.loads((HERE / task / "questions.json").read_text())
        assert set(first) == set(second), f"{task}: the second labelling covers other ids"
        for qid, q in questions.items():
            ids = sorted(first)
            a = [first[i]["gold"][qid] for i in ids]
            b = [second[i]["gold"][qid] for i in ids]
            agree = sum(x == y for x, y in zip(a, b)) / len(ids)
            near = sum(abs(x - y) <= 1 for x, y in zip(a, b)) / len(ids) if q["type"] == "score" else None
            rows.append((task, qid, q["type"], len(ids), agree, kappa(a, b), near))
            out += [{"task": task, "id": i, "question": qid, "first": x, "second": y, "state": first[i]["state"]}
                    for i, x, y in zip(ids, a, b) if x != y]
    print("| task | question | type | items | agreement | Cohen's kappa | within one level |")
    print("|---|---|---|---:|---:|---:|---:|")
    for task, qid, qtype, n, agree, k, near in rows:
        print(f"| {task} | {qid} | {qtype} | {n} | {agree:.1%} | {k:.3f} | {'' if near is None else f'{near:.1%}'} |")
    print(f"\n{len(out)} disagreements")
    if args.disagreements:
        Path(args.disagreements).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in out))


if __name__ == "__main__":
    main()
