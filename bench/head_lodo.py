"""Leave-one-domain-out for the learned head: does a head fitted on some domains help on one it never saw?

    .venv/bin/python bench/head_lodo.py --model qwen2.5-coder-1.5b-instruct --dtype bfloat16 --fraction 0.35 \
        --features bench/out/features-qwen-bf16.npz --json bench/out/head-lodo-qwen.json

Computes (or reuses from --features) every item's head reads through the engine (onepass/learn/head_fit.py:
Yes-vs-No log-odds and final hidden state of the yes/no read, or of each option's isolated read), then for
every domain D fits on all other domains and predicts D, so every item is predicted once by a fit that
never saw its domain. The head's penalty is chosen inside the training domains only (folds of whole
domains), never on D. Methods, per question type:
  isolated      the zero-shot reading (a = 1, b = 0, delta = 0): the isolated family, uncalibrated
  isolated+T    delta = 0, a and b fitted (temperature and, for yes/no, a bias): recalibration only
  head          the head as `onepass tune` fits it (penalty chosen by inner domain-held-out CV)
With --slot-scores (label logits cached by `onepass calibrate --scores`), on the same items:
  slot          the slot family, uncalibrated
  slot+T        slot with one temperature per type fitted on the training domains
  slot+isolated choice and score: the two families' label log-probabilities added (a fixed ensemble, no fit)
Reported: accuracy (with its standard error), ECE (15 bins), Brier, per method the largest rise in ECE on
any single held-out domain against the same family uncalibrated, and each method's accuracy minus slot's
on the same items (paired, with its standard error).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from onepass import evaluate as ev  # noqa: E402
from onepass.learn import head_fit  # noqa: E402
from onepass.learn.calibration import ece, fit_temperature, metrics  # noqa: E402
from onepass.learn.head import TYPES, HeadType  # noqa: E402
from onepass.readouts.base import softmax  # noqa: E402

METHODS = ("isolated", "isolated+T", "head")
BASE = {"isolated": "isolated", "isolated+T": "isolated", "head": "isolated", "slot": "slot", "slot+T": "slot",
        "slot+isolated": "slot"}


def zero_shot(examples) -> HeadType:
    d = examples[0].h.shape[1]
    return HeadType(1.0, 0.0, np.zeros(d), np.zeros(d), np.ones(d))


FAMILY_OF = {"isolated+T": "isolated", "head": "head"}


def write_policy(path: Path, result: dict, engine) -> None:
    """Per type, the family whose held-out accuracy beats slot's by more than twice the paired standard
    error on the same items; slot where none does. Written into the profile at `path` (kept otherwise)."""
    from onepass.learn.calibration import Profile

    profile = Profile.load(path) if path.exists() else Profile(model=engine.info.id, temperatures={}, dtype=engine.dtype.value)
    policy, report = {}, {}
    for t in TYPES:
        gains = {m: result["by_method"][m]["accuracy_minus_slot"][t] for m in FAMILY_OF}
        best = max(gains, key=lambda m: gains[m][0])
        gain, se = gains[best]
        policy[t] = FAMILY_OF[best] if gain > 2 * se else "slot"
        report[t] = {"chosen": policy[t], "n": result["by_method"]["slot"]["by_type"][t]["n"],
                     "slot_accuracy": result["by_method"]["slot"]["by_type"][t]["accuracy"],
                     "gain_over_slot": {FAMILY_OF[m]: {"accuracy": g, "se": e} for m, (g, e) in gains.items()}}
    # Per type only: the per-option-count keys (choice@N, bench/many_options.py) are kept.
    profile.readout_policy = {**{k: v for k, v in profile.readout_policy.items() if "@" in k}, **policy}
    kept = {k: v for k, v in profile.policy_report.items() if k == "by_option_count"}
    profile.policy_report = {**kept, "rule": "the family whose leave-one-domain-out accuracy beats slot by > 2 paired SE",
                             "items": result["items"], "fraction": result["fraction"], "by_type": report}
    profile.save(path)
    print(f"readout policy {policy} written to {path}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="qwen2.5-coder-1.5b-instruct")
    parser.add_argument("--dtype", default="auto")
    parser.add_argument("--torch-threads", type=int, default=None)
    parser.add_argument("--data", default=str(ROOT / "data/decisions/corpus.jsonl"))
    parser.add_argument("--fraction", type=float, default=1.0, help="a deterministic share of the corpus (hash of item id)")
    parser.add_argument("--features", default=None, help="features cache (.npz), resumable")
    parser.add_argument("--slot-scores", default=None, help="scores cache of the slot family, to compare on the same items")
    parser.add_argument("--policy-out", default=None,
                        help="write the --readout auto policy chosen from this table into this profile (with --slot-scores)")
    parser.add_argument("--json", default=None)
    args = parser.parse_args()

    items = ev.load_corpus(Path(args.data), fraction=args.fraction)
    from onepass import Engine

    engine = Engine(args.model, dtype=args.dtype, calibration="none", torch_threads=args.torch_threads,
                    log=lambda m: print(m, file=sys.stderr))
    examples = head_fit.extract(engine, items, Path(args.features) if args.features else None,
                                log=lambda m: print(m, file=sys.stderr))
    slot_scores = {}
    if args.slot_scores:
        from onepass import score_cache

        rows = score_cache.select(Path(args.slot_scores), items, model=engine.info.id, readout="slot", dtype=engine.dtype.value)
        slot_scores = {i: np.array(r["scores"], float) for i, r in rows.items()}
        missing = [e.id for e in examples if e.id not in slot_scores]
        if missing:
            print(f"slot scores missing for {len(missing)} items; comparing on the {len(examples) - len(missing)} that have them",
                  file=sys.stderr)
            examples = [e for e in examples if e.id in slot_scores]
    domains = sorted({e.domain for e in examples})
    print(f"{len(examples)} items over {len(domains)} domains: {dict(Counter(e.qtype for e in examples))}", file=sys.stderr)
    predictions: dict[str, list] = defaultdict(list)
    penalties: dict[str, Counter] = {t: Counter() for t in TYPES}
    for held in domains:
        for qtype in TYPES:
            train = [e for e in examples if e.domain != held and e.qtype == qtype]
            test = [e for e in examples if e.domain == held and e.qtype == qtype]
            if not test or len(train) < 10:
                continue
            lam, _ = head_fit.choose_penalty(train)
            penalties[qtype]["inf" if math.isinf(lam) else f"{lam:g}"] += 1
            fits = {"isolated": zero_shot(train), "isolated+T": head_fit.fit_type(train, math.inf),
                    "head": head_fit.fit_type(train, lam)}
            for method, fitted in fits.items():
                predictions[method] += list(zip(test, head_fit.predict(fitted, test)))
            if slot_scores:
                t = fit_temperature([slot_scores[e.id] for e in train], [e.gold for e in train])
                predictions["slot"] += [(e, softmax(slot_scores[e.id])) for e in test]
                predictions["slot+T"] += [(e, softmax(slot_scores[e.id], t)) for e in test]
                if qtype != "noul":  # the sum of both families' label log-probabilities (no fit)
                    predictions["slot+isolated"] += [(e, softmax(np.log(softmax(slot_scores[e.id])) + np.log(softmax(e.z))))
                                                     for e in test]
        print(f"held out {held}", file=sys.stderr)

    def block(pairs):
        if not pairs:
            return {"n": 0}
        m = metrics([p for _, p in pairs], [e.gold for e, _ in pairs], [e.qtype == "noul" for e, _ in pairs])
        m["accuracy_se"] = math.sqrt(max(m["accuracy"] * (1 - m["accuracy"]), 1e-12) / max(len(pairs), 1))
        return m

    def domain_ece(pairs, domain):
        mine = [(e, p) for e, p in pairs if e.domain == domain]
        return ece(np.array([float(np.max(p)) for _, p in mine]), np.array([float(np.argmax(p) == e.gold) for e, p in mine]))

    result = {"model": engine.info.id, "dtype": engine.dtype.value, "items": len(examples), "fraction": args.fraction,
              "domains": domains, "penalties_chosen": {t: dict(c) for t, c in penalties.items()}, "by_method": {}}
    def paired(method, t):
        """Accuracy of `method` minus slot's on the same items, and its standard error."""
        right = lambda pairs: {e.id: float(np.argmax(p) == e.gold) for e, p in pairs if e.qtype == t}  # noqa: E731
        mine, base = right(predictions[method]), right(predictions["slot"])
        diff = np.array([mine[i] - base[i] for i in mine])
        return float(diff.mean()), float(diff.std(ddof=1) / math.sqrt(len(diff))) if len(diff) > 1 else float("nan")

    methods = (["slot", "slot+T", "slot+isolated"] if slot_scores else []) + list(METHODS)
    present = [t for t in TYPES if any(e.qtype == t for e in examples)]
    for method in methods:
        pairs = predictions[method]
        per_type = {t: block([(e, p) for e, p in pairs if e.qtype == t]) for t in present}
        worst = {}
        for t in present:
            mine = [(e, p) for e, p in pairs if e.qtype == t]
            base = [(e, p) for e, p in predictions[BASE[method]] if e.qtype == t]
            worst[t] = max((domain_ece(mine, d) - domain_ece(base, d) for d in domains if any(e.domain == d for e, _ in mine)),
                           default=float("nan"))
        result["by_method"][method] = {"overall": block(pairs), "by_type": per_type, "worst_domain_ece_change": worst}
        if slot_scores:
            result["by_method"][method]["accuracy_minus_slot"] = {t: paired(method, t) for t in present if per_type[t]["n"]}
    print("| method | type | n | accuracy | minus slot (paired) | ECE | Brier | worst domain ECE change vs uncalibrated |")
    print("|---|---|---|---|---|---|---|---|")
    for method, r in result["by_method"].items():
        for t in present:
            m = r["by_type"][t]
            if not m["n"]:
                continue
            d, se = r.get("accuracy_minus_slot", {}).get(t, (float("nan"), float("nan")))
            print(f"| {method} | {t} | {m['n']} | {m['accuracy']:.3f} ± {m['accuracy_se']:.3f} | {d:+.3f} ± {se:.3f} | "
                  f"{m['ece']:.3f} | {m['brier']:.3f} | {r['worst_domain_ece_change'][t]:+.3f} |")
    print(f"penalties chosen per held-out domain: {result['penalties_chosen']}")
    if args.policy_out and slot_scores:
        write_policy(Path(args.policy_out), result, engine)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
