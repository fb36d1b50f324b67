"""Side by side: the method each of several bench/learn.py result files chose per task, question and budget,
with its test accuracy, log loss and ECE (against its noise floor). Used to compare choice rules run on the
same splits and cached reads (for example `--resplits 1` against the default).

    .venv/bin/python bench/learn_compare.py "given split=docs/learn/qwen-seed0-resplits1.json" \\
        "5 splits=docs/learn/qwen-seed0.json"
"""

from __future__ import annotations

import json
import sys


def chosen(path: str) -> dict:
    rows = json.load(open(path))["rows"]
    return {(r["task"], r["question"], r["labels"]): r for r in rows if r.get("chosen")}


def main(argv: list[str]) -> int:
    if not argv or any("=" not in a for a in argv):
        print(__doc__, file=sys.stderr)
        return 2
    runs = [(a.split("=", 1)[0], chosen(a.split("=", 1)[1])) for a in argv]
    keys = sorted(set().union(*(set(r) for _, r in runs)))
    head = "| task / question | labels | " + " | ".join(f"{name}: method, accuracy, NLL, ECE (floor)" for name, _ in runs) + " |"
    print(head)
    print("|---|---:|" + "---|" * len(runs))
    for task, question, labels in keys:
        cells = []
        for _name, rows in runs:
            r = rows.get((task, question, labels))
            cells.append("–" if r is None else f"{r['method']}, {r['accuracy']:.3f} ± {r['accuracy_se']:.3f}, "
                         f"{r['nll']:.3f}, {r['ece']:.3f} ({r.get('ece_noise_floor', float('nan')):.3f})")
        print(f"| {task} / {question} | {labels} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
