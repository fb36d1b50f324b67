"""Leave-one-domain-out: does a calibration fitted on some domains help on a domain it never saw?

    .venv/bin/python bench/lodo.py --scores docs/calibration/qwen2.5-coder-1.5b-instruct.slot-scores.jsonl \
        --model qwen2.5-coder-1.5b-instruct --priors bench/out/priors-qwen-slot.json --json bench/out/lodo.json

Reads the per-item label logits that `onepass calibrate --scores FILE` caches (no model runs for those),
joins them to the corpus by each item's cache key (onepass/score_cache.py: the rows of --model, --readout
and --dtype without prior correction, either file format), and for every domain D fits each calibrator
on all other domains and applies it to D. Every item is predicted
exactly once, by a calibrator that never saw its domain; metrics are pooled over those predictions, per
question type, with the uncalibrated numbers beside them, plus the worst single domain's change in ECE.

Calibrators (all fitted per question type on the training domains):
  none          raw label distribution
  T             one temperature per type (what `onepass calibrate` ships)
  T-reg         temperature with a Gaussian prior on log T around 0 (strength --reg, in items)
  T-by-n        one temperature per (type, option/level count), falling back to the type's T
  prior         contextual calibration: the question's content-free prior divided out (onepass/priors.py)
  prior+T       contextual calibration, then a temperature per type fitted on corrected logits
With --priors, content-free priors are read from that JSON (question -> log prior) and missing ones are
computed with the model (three short reads per distinct question) and written back.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from onepass import score_cache  # noqa: E402
from onepass.calibration import ece, fit_temperature, metrics  # noqa: E402
from onepass.evaluate import gold_index  # noqa: E402
from onepass.readouts.base import softmax  # noqa: E402

TYPES = ("noul", "choice", "score")


def question_key(question: dict) -> str:
    return json.dumps(question, sort_keys=True)


def fit_t(rows, reg: float = 0.0) -> float:
    """Temperature minimising mean NLL + (reg / n) * (log T)^2 / 2 (calibration.fit_temperature)."""
    return fit_temperature([s for s, _ in rows], [g for _, g in rows], reg=reg)


def load_priors(path: Path | None, items: list[dict], args) -> dict[str, np.ndarray]:
    if path is None:
        return {}
    known = json.loads(path.read_text()) if path.exists() else {}
    missing = sorted({question_key(i["request"]["questions"]["q"]) for i in items} - set(known))
    if missing:
        from onepass import Engine
        from onepass.wire import parse_request

        engine = Engine(args.model, dtype=args.dtype, calibration=None, log=lambda m: print(m, file=sys.stderr))
        readout = engine.readouts[args.readout]
        for n, key in enumerate(missing, 1):
            question = parse_request({"model": "jev-latest", "state": "x", "questions": {"q": json.loads(key)}}).questions["q"]
            known[key] = engine.priors.log_prior(args.readout, question, readout.plan(engine.renderer, question)).tolist()
            print(f"prior {n}/{len(missing)}", file=sys.stderr)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(known) + "\n")  # after each: an interrupted run resumes
    return {k: np.array(v) for k, v in known.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scores", required=True, help="JSONL written by `onepass calibrate --scores`")
    parser.add_argument("--data", default=str(ROOT / "data/decisions/corpus.jsonl"))
    parser.add_argument("--model", default="qwen2.5-coder-1.5b-instruct")
    parser.add_argument("--readout", default="slot")
    parser.add_argument("--dtype", default="float32")
    parser.add_argument("--reg", type=float, default=20.0, help="T-reg: prior strength, in items")
    parser.add_argument("--priors", default=None, help="JSON cache of content-free log priors per question")
    parser.add_argument("--exclude-ambiguous", action="store_true")
    parser.add_argument("--json", default=None)
    args = parser.parse_args()

    corpus = [json.loads(line) for line in Path(args.data).read_text().splitlines() if line.strip()]
    rows = score_cache.select(Path(args.scores), corpus, model=args.model, readout=args.readout, dtype=args.dtype)
    items = []
    for item in corpus:
        row = rows.get(item["id"])
        if row is None or (args.exclude_ambiguous and item["ambiguous"]):
            continue
        question = item["request"]["questions"]["q"]
        items.append({**item, "scores": np.array(row["scores"], dtype=float), "type": question["type"],
                      "gold_i": gold_index(question, item["gold"]), "n": len(row["scores"])})
    priors = load_priors(Path(args.priors) if args.priors else None, items, args)
    domains = sorted({i["domain"] for i in items})
    print(f"{len(items)} scored items over {len(domains)} domains", file=sys.stderr)

    def corrected(i):
        return i["scores"] - priors[question_key(i["request"]["questions"]["q"])]

    methods = ["none", "T", "T-reg", "T-by-n"] + (["prior", "prior+T"] if priors else [])
    predictions: dict[str, list] = defaultdict(list)  # method -> [(item, probs)]
    for held in domains:
        train = [i for i in items if i["domain"] != held]
        test = [i for i in items if i["domain"] == held]
        by_type = {t: [(i["scores"], i["gold_i"]) for i in train if i["type"] == t] for t in TYPES}
        t_type = {t: fit_t(r) for t, r in by_type.items()}
        t_reg = {t: fit_t(r, args.reg) for t, r in by_type.items()}
        t_n = {}
        for t in TYPES:
            for n in {i["n"] for i in train if i["type"] == t}:
                rows_n = [(i["scores"], i["gold_i"]) for i in train if i["type"] == t and i["n"] == n]
                t_n[(t, n)] = fit_t(rows_n) if len(rows_n) >= 20 else t_type[t]
        if priors:
            t_prior = {t: fit_t([(corrected(i), i["gold_i"]) for i in train if i["type"] == t]) for t in TYPES}
        for i in test:
            s, t = i["scores"], i["type"]
            predictions["none"].append((i, softmax(s)))
            predictions["T"].append((i, softmax(s, t_type[t])))
            predictions["T-reg"].append((i, softmax(s, t_reg[t])))
            predictions["T-by-n"].append((i, softmax(s, t_n.get((t, i["n"]), t_type[t]))))
            if priors:
                predictions["prior"].append((i, softmax(corrected(i))))
                predictions["prior+T"].append((i, softmax(corrected(i), t_prior[t])))

    def block(pairs):
        return metrics([p for _, p in pairs], [i["gold_i"] for i, _ in pairs], [i["type"] == "noul" for i, _ in pairs])

    def domain_ece(pairs, domain):
        mine = [(i, p) for i, p in pairs if i["domain"] == domain]
        return ece(np.array([float(np.max(p)) for _, p in mine]), np.array([float(np.argmax(p) == i["gold_i"]) for i, p in mine]))

    result = {"items": len(items), "domains": domains, "scores": args.scores, "readout": args.readout, "by_method": {}}
    for method in methods:
        pairs = predictions[method]
        per_type = {t: block([(i, p) for i, p in pairs if i["type"] == t]) for t in TYPES}
        changes = {t: [domain_ece([(i, p) for i, p in pairs if i["type"] == t], d)
                       - domain_ece([(i, p) for i, p in predictions["none"] if i["type"] == t], d)
                       for d in domains if any(i["domain"] == d and i["type"] == t for i, _ in pairs)] for t in TYPES}
        worst = {t: max(c) for t, c in changes.items()}
        worse = {t: sum(x > 0.02 for x in c) for t, c in changes.items()}
        result["by_method"][method] = {"overall": block(pairs), "by_type": per_type, "worst_domain_ece_change": worst,
                                       "domains_worse_by_0.02": worse, "domains": {t: len(c) for t, c in changes.items()}}
    print("| method | type | n | accuracy | ECE | Brier | worst domain ECE change vs none | domains worse by > 0.02 |")
    print("|---|---|---|---|---|---|---|---|")
    for method, r in result["by_method"].items():
        for t in TYPES:
            m = r["by_type"][t]
            se = (m["accuracy"] * (1 - m["accuracy"]) / max(m["n"], 1)) ** 0.5
            print(f"| {method} | {t} | {m['n']} | {m['accuracy']:.3f} ± {se:.3f} | {m['ece']:.3f} | {m['brier']:.3f} | "
                  f"{r['worst_domain_ece_change'][t]:+.3f} | {r['domains_worse_by_0.02'][t]} of {r['domains'][t]} |")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
