"""Agreement of a blind second labelling with the corpus gold, per type and domain; lists disagreements.

    .venv/bin/python data/decisions/audit/agreement.py data/decisions/audit/second-edition/*.relabel.jsonl

Each relabel file has one line per item: {"id", "label", "ambiguous", "note"}, written by an annotator who saw
the state and question (the matching *.blind.jsonl) but neither the gold nor the ambiguous flag.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1] / "corpus.jsonl"


def main(paths: list[str]) -> int:
    corpus = {i["id"]: i for i in map(json.loads, CORPUS.read_text().splitlines())}
    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    disagreements = []
    for path in paths:
        for line in Path(path).read_text().splitlines():
            row = json.loads(line)
            item = corpus[row["id"]]
            qtype = item["request"]["questions"]["q"]["type"]
            agree = row["label"] == item["gold"]
            for key in ((qtype, item["domain"]), (qtype, "all"), ("all", item["domain"]), ("all", "all")):
                counts[key][0] += agree
                counts[key][1] += 1
            if not agree:
                disagreements.append((row["id"], qtype, item["gold"], row["label"], item["ambiguous"], row["note"]))
    print("| type | items | agree | agreement |\n|---|---:|---:|---:|")
    for qtype in ("noul", "choice", "score", "all"):
        agree, n = counts[(qtype, "all")]
        if n:
            print(f"| {qtype} | {n} | {agree} | {agree / n:.1%} |")
    print("\n| domain | items | agree | agreement |\n|---|---:|---:|---:|")
    for (qtype, domain), (agree, n) in sorted(counts.items()):
        if qtype == "all" and domain != "all":
            print(f"| {domain} | {n} | {agree} | {agree / n:.1%} |")
    print(f"\n{len(disagreements)} disagreements (id, type, gold, second label, marked ambiguous, note):")
    for d in disagreements:
        print("  " + " | ".join(map(str, d)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
