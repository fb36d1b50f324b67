"""Would a per-label bias on top of the temperature calibrate better? Fits, per question type on the
calibration split of a scores file (`onepass calibrate --scores`; the rows of --model / --readout / --dtype),
(a) temperature only and (b) temperature plus one bias per label position (L2-regularised, L-BFGS on NLL),
and prints held-out ECE and accuracy.

    .venv/bin/python bench/calibration_bias.py --scores docs/calibration/qwen2.5-coder-1.5b-instruct.slot-scores.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import torch

from onepass import evaluate as ev
from onepass import score_cache
from onepass.learn.calibration import fit_temperature, metrics
from onepass.readouts.base import softmax


def fit_bias(cal: list[tuple[np.ndarray, int]], width: int, l2: float) -> np.ndarray:
    """log T^-1 and one bias per label position (positions never seen in `cal` keep bias 0)."""
    w = torch.zeros(width + 1, dtype=torch.float64, requires_grad=True)  # log-scale, then one bias per label
    opt = torch.optim.LBFGS([w], max_iter=200)

    def loss():
        opt.zero_grad()
        total = sum(-torch.log_softmax(torch.tensor(s) * torch.exp(w[0]) + w[1 : len(s) + 1], 0)[g] for s, g in cal)
        value = total / len(cal) + l2 * (w[1:] ** 2).sum()
        value.backward()
        return value

    opt.step(loss)
    return w.detach().numpy()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scores", required=True)
    parser.add_argument("--data", default="data/decisions/corpus.jsonl")
    parser.add_argument("--l2", type=float, default=0.01)
    parser.add_argument("--model", default="qwen2.5-coder-1.5b-instruct", help="whose rows of the scores file to read")
    parser.add_argument("--readout", default="slot")
    parser.add_argument("--dtype", default="float32")
    args = parser.parse_args()
    items = {it["id"]: it for it in ev.load_corpus(Path(args.data))}
    rows = score_cache.select(Path(args.scores), list(items.values()), model=args.model, readout=args.readout, dtype=args.dtype)
    by_type: dict[str, list] = {}
    for item_id, row in rows.items():
        item = items[item_id]
        question = next(iter(item["request"]["questions"].values()))
        by_type.setdefault(question["type"], []).append((np.array(row["scores"]), ev.gold_index(question, item["gold"]), item["split"]))
    out = {}
    for qtype, rows in sorted(by_type.items()):
        cal = [(s, g) for s, g, split in rows if split != "test"]
        test = [(s, g) for s, g, split in rows if split == "test"]
        t = fit_temperature([s for s, _ in cal], [g for _, g in cal])
        w = fit_bias(cal, max(len(s) for s, _, _ in rows), args.l2)
        binary = [qtype == "noul"] * len(test)
        gold = [g for _, g in test]
        before = metrics([softmax(s) for s, _ in test], gold, binary)
        temp = metrics([softmax(s, t) for s, _ in test], gold, binary)
        bias = metrics([softmax(s * np.exp(w[0]) + w[1 : len(s) + 1]) for s, _ in test], gold, binary)
        out[qtype] = {"calibration_n": len(cal), "held_out_n": len(test), "ece_raw": round(before["ece"], 3),
                      "ece_temperature": round(temp["ece"], 3), "ece_temperature_bias": round(bias["ece"], 3),
                      "accuracy_raw": round(before["accuracy"], 3), "accuracy_temperature_bias": round(bias["accuracy"], 3)}
        print(qtype, json.dumps(out[qtype]), flush=True)
    json.dump(out, sys.stdout, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
