"""How many labelled items does a user need to calibrate for their own traffic?

    .venv/bin/python bench/fit_size.py --scores docs/calibration/qwen2.5-coder-1.5b-instruct.bfloat16.slot-scores.jsonl \
        --dtype bfloat16 --json bench/out/fit-size-qwen-bf16.json

Models `onepass calibrate --data my_labels.jsonl` on one domain's traffic: for every domain of the corpus
and every fit size n, draws n of that domain's items at random (all question types mixed, as traffic
comes), fits one temperature per question type on them (a type with fewer than 5 drawn items stays at
T = 1), and measures ECE on the domain's remaining items, uncalibrated and calibrated. Repeated over
--draws random draws; reports the mean over domains and draws, and how often calibrating made ECE worse.
Reads the label logits cached by `onepass calibrate --scores` (no model runs).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from onepass import score_cache  # noqa: E402
from onepass.learn.calibration import ece, fit_temperature  # noqa: E402
from onepass.evaluate import gold_index  # noqa: E402
from onepass.readouts.base import softmax  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scores", required=True)
    parser.add_argument("--data", default=str(ROOT / "data/decisions/corpus.jsonl"))
    parser.add_argument("--model", default="qwen2.5-coder-1.5b-instruct")
    parser.add_argument("--readout", default="slot")
    parser.add_argument("--dtype", default="float32")
    parser.add_argument("--sizes", default="10,25,50,100")
    parser.add_argument("--test-min", type=int, default=20, help="fewest items left to test on in a domain")
    parser.add_argument("--draws", type=int, default=20)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()

    corpus = [json.loads(line) for line in Path(args.data).read_text().splitlines() if line.strip()]
    rows = score_cache.select(Path(args.scores), corpus, model=args.model, readout=args.readout, dtype=args.dtype)
    items = [{"domain": i["domain"], "type": i["request"]["questions"]["q"]["type"],
              "scores": np.array(rows[i["id"]]["scores"], float), "gold": gold_index(i["request"]["questions"]["q"], i["gold"])}
             for i in corpus if i["id"] in rows]
    domains = sorted({i["domain"] for i in items})
    rng = np.random.default_rng(0)

    def domain_ece(test, temps):
        probs = [softmax(i["scores"], temps.get(i["type"], 1.0)) for i in test]
        return ece(np.array([p.max() for p in probs]), np.array([float(np.argmax(p) == i["gold"]) for p, i in zip(probs, test)]))

    result = {"scores": args.scores, "items": len(items), "domains": len(domains), "draws": args.draws, "by_size": {}}
    print("| fit items n | domains | ECE uncalibrated | ECE calibrated | share of fits worse than uncalibrated |")
    print("|---|---|---|---|---|")
    for n in [int(x) for x in args.sizes.split(",")]:
        before, after, worse, used = [], [], 0, 0
        for domain in domains:
            mine = [i for i in items if i["domain"] == domain]
            if len(mine) < n + args.test_min:
                continue
            used += 1
            for _ in range(args.draws):
                order = rng.permutation(len(mine))
                fit, test = [mine[k] for k in order[:n]], [mine[k] for k in order[n:]]
                temps = {}
                for t in {i["type"] for i in fit}:
                    rows_t = [i for i in fit if i["type"] == t]
                    if len(rows_t) >= 5:
                        temps[t] = fit_temperature([i["scores"] for i in rows_t], [i["gold"] for i in rows_t])
                b, a = domain_ece(test, {}), domain_ece(test, temps)
                before.append(b)
                after.append(a)
                worse += a > b
        if not before:
            continue
        row = {"domains": used, "ece_uncalibrated": float(np.mean(before)), "ece_calibrated": float(np.mean(after)),
               "worse_share": worse / len(before)}
        result["by_size"][n] = row
        print(f"| {n} | {used} | {row['ece_uncalibrated']:.3f} | {row['ece_calibrated']:.3f} | {row['worse_share']:.2f} |")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
