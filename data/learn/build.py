"""Writes each task's labels.jsonl (the file `onepass learn` and bench/learn.py read) from its items.jsonl (the
states with the labels written with them), second_labels.jsonl (a blind second labelling) and
adjudication.jsonl (a third reading of every disagreement): the gold is the first label where both agree and
the adjudicated one where they did not; "x_ambiguous" lists the questions the adjudicator found genuinely
ambiguous. Run from anywhere: python data/learn/build.py [--check]"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).parent
TASKS = ["telecom_intents", "workplace_intents", "marketplace_moderation", "incident_severity", "saas_tickets"]


def build(task: str, adjudicated: dict) -> str:
    second = {r["id"]: r for r in map(json.loads, (HERE / task / "second_labels.jsonl").read_text().splitlines())}
    lines = []
    for row in map(json.loads, (HERE / task / "items.jsonl").read_text().splitlines()):
        gold, ambiguous = {}, []
        for qid, first in row["gold"].items():
            if first == second[row["id"]]["gold"][qid]:
                gold[qid] = first
            else:
                decision = adjudicated[(task, row["id"], qid)]
                gold[qid] = decision["final"]
                if decision["ambiguous"]:
                    ambiguous.append(qid)
        out = {"id": row["id"], "state": row["state"], "gold": gold}
        if ambiguous:
            out["x_ambiguous"] = ambiguous
        lines.append(json.dumps(out, ensure_ascii=False) + "\n")
    return "".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="exit 1 if a committed labels.jsonl is out of date")
    args = parser.parse_args()
    adjudicated = {(r["task"], r["id"], r["question"]): r
                   for r in map(json.loads, (HERE / "adjudication.jsonl").read_text().splitlines())}
    stale = []
    for task in TASKS:
        text = build(task, adjudicated)
        path = HERE / task / "labels.jsonl"
        if args.check:
            if not path.exists() or path.read_text() != text:
                stale.append(task)
        else:
            path.write_text(text)
        print(f"{task}: {text.count(chr(10))} items")
    if stale:
        print(f"out of date: {', '.join(stale)}; run python data/learn/build.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
