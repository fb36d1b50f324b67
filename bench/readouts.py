"""Readout families measured on the labelled choice set (data/choice_bench/choices.jsonl):
order sensitivity (argmax flip rate and mean total-variation distance under option reversal and under 3
random permutations), accuracy, and latency per question for 2/16/64/255 options.

Every order variant of an item goes into one request as separate questions over the same state: the
engine guarantees (and tests) that a question's answer does not depend on the other questions, so this
measures exactly what separate requests would, with one state prefill.

    .venv/bin/python bench/readouts.py --model smollm2-135m --out bench/out/readouts-smollm2.json
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

from onepass import Engine

__all__ = ["main"]

ROOT = Path(__file__).resolve().parents[1]
FAMILIES = ["slot", "isolated", "likelihood", "likelihood-sum", "debiased"]
# Variants that share a family's code but not its options: engine key and readout name.
VARIANTS = {"likelihood-sum": ("sum", "likelihood"), "likelihood-mean": ("mean", "likelihood"),
            "debiased-given": ("given", "debiased")}


def load_items(path: Path, limit: int | None) -> list[dict]:
    items = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return items[:limit] if limit else items


def variants(question: dict, seed: str) -> dict[str, dict]:
    names = list(question["criteria"])
    rng = random.Random(seed)
    orders = {"orig": names, "rev": names[::-1]}
    for k in range(3):
        shuffled = names[:]
        while shuffled == names and len(names) > 1:
            rng.shuffle(shuffled)
        orders[f"perm{k}"] = shuffled
    return {key: {**question, "criteria": {n: question["criteria"][n] for n in order}} for key, order in orders.items()}


def engines(model: str) -> dict[str, Engine]:
    # Uncalibrated: families are compared on their raw distributions (a profile may cover only some).
    base = Engine(model, calibration=None, log=lambda m: print(m, file=sys.stderr))
    # The likelihood variants share the loaded weights; only their combination rule differs.
    total = Engine(backend=base.backend, tokenizer=base.tokenizer, model_id=base.info.id,
                   likelihood_normalise="sum")
    mean = Engine(backend=base.backend, tokenizer=base.tokenizer, model_id=base.info.id,
                  likelihood_normalise="mean")
    # debiased starting from the request's order instead of the canonical one: shows what rotations alone do.
    given = Engine(backend=base.backend, tokenizer=base.tokenizer, model_id=base.info.id,
                   debias_order="given")
    return {"base": base, "sum": total, "mean": mean, "given": given}


def pick(engs, family: str):
    key, readout = VARIANTS.get(family, ("base", family))
    return engs[key], readout


def run_family(engs, family: str, items: list[dict], log) -> dict:
    engine, readout = pick(engs, family)
    flips = {"rev": 0, "perm": 0}
    tv = {"rev": [], "perm": []}
    max_delta = 0.0
    correct, reads, started = 0, [], time.perf_counter()
    for n, item in enumerate(items, 1):
        question = item["request"]["questions"]["q"]
        qs = variants(question, item["id"])
        request = {"model": "jev-latest", "state": item["request"]["state"], "questions": qs, "x_readout": readout}
        answers = engine.decide(request)["answers"]
        names = list(question["criteria"])
        base = np.array([answers["orig"]["probabilities"][k] for k in names])
        correct += answers["orig"]["choice"] == item["gold"]
        reads.append(answers["orig"].get("x_reads", 1))
        for key, answer in answers.items():
            if key == "orig":
                continue
            p = np.array([answer["probabilities"][k] for k in names])
            kind = "rev" if key == "rev" else "perm"
            flips[kind] += answer["choice"] != answers["orig"]["choice"]
            tv[kind].append(0.5 * float(np.abs(p - base).sum()))
            max_delta = max(max_delta, float(np.abs(p - base).max()))
        if n % 10 == 0:
            log(f"{family}: {n}/{len(items)} items, {time.perf_counter() - started:.0f}s")
    count = len(items)
    return {
        "items": count,
        "accuracy": round(correct / count, 4),
        "flip_rate_reversal": round(flips["rev"] / count, 4),
        "flip_rate_permutations": round(flips["perm"] / (3 * count), 4),
        "mean_tv_reversal": round(statistics.mean(tv["rev"]), 5),
        "mean_tv_permutations": round(statistics.mean(tv["perm"]), 5),
        "max_prob_change": float(f"{max_delta:.3g}"),
        "mean_reads": round(statistics.mean(reads), 3),
        "seconds": round(time.perf_counter() - started, 1),
    }


def latency(engs, family: str, sizes: list[int], repeats: int) -> dict:
    engine, readout = pick(engs, family)
    out = {}
    for n in sizes:
        question = {"type": "choice", "instructions": "Which category fits this ticket best?",
                    "criteria": {f"category {i}": None for i in range(n)}}
        request = {"model": "jev-latest", "state": "My parcel arrived broken and nobody answers the phone.",
                   "questions": {"q": question}, "x_readout": readout}
        times = []
        for _ in range(repeats):
            engine.backend.clear_prefix_cache()  # measure the full cost, state prefill included
            t = time.perf_counter()
            engine.decide(request)
            times.append(time.perf_counter() - t)
        out[str(n)] = round(statistics.median(times) * 1000, 1)
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="smollm2-135m")
    parser.add_argument("--data", default=str(ROOT / "data/choice_bench/choices.jsonl"))
    parser.add_argument("--families", default=",".join(FAMILIES))
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--sizes", default="2,16,64,255")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--skip-latency", action="store_true")
    parser.add_argument("--skip-order", action="store_true")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    log = lambda m: print(m, file=sys.stderr, flush=True)  # noqa: E731
    engs = engines(args.model)
    items = load_items(Path(args.data), args.limit)
    out_path = Path(args.out)
    result = json.loads(out_path.read_text()) if out_path.exists() else {}
    result.update({"model": engs["base"].info.id, "data": str(Path(args.data).relative_to(ROOT))})
    families = result.setdefault("families", {})
    for family in args.families.split(","):
        entry = families.setdefault(family, {})
        if not args.skip_order:
            entry.update(run_family(engs, family, items, log))
        if not args.skip_latency:
            entry["latency_ms_by_options"] = latency(engs, family, [int(s) for s in args.sizes.split(",")], args.repeats)
        log(f"{family}: {json.dumps(entry)}")
        out_path.parent.mkdir(parents=True, exist_ok=True)
        out_path.write_text(json.dumps(result, indent=2) + "\n")  # after every family: partial runs keep results
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
