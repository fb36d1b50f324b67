"""Choice over many options, per option-count band and readout family: accuracy, ECE, latency, reads.

Runs the many-options bench (data/many_options/items.jsonl, docs/many-options.md) through an in-process
model, one request per item and family, and reports for each band (20, 50, 100, 200+ options) and family:
accuracy (with its binomial standard error), ECE of the top answer, median and p90 latency, and reads per
question (the answer positions the engine read: `usage.output_tokens`). Items are taken per band in a fixed
order from a hash of their id (`--per-band`), so a smaller run is a prefix of a larger one. Results are
appended to `--cache` as they come and reused on rerun (same model, dtype and family).

    .venv/bin/python bench/many_options.py --model qwen2.5-coder-1.5b-instruct --per-band 10 \
        --families slot,shortlist,likelihood --json bench/out/many-options-qwen.json

Every request pays its own state prefill (the prefix cache is cleared before each), as a router's
traffic of distinct messages would.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

from onepass import Engine, bench
from onepass.calibration import ece
from onepass.stats import percentile

__all__ = ["main"]

ROOT = Path(__file__).resolve().parents[1]
BANDS = ("20", "50", "100", "200+")


def sample(items: list[dict], per_band: int, bands: tuple[str, ...]) -> list[dict]:
    """The first `per_band` items of each band in the order of a hash of their id (stable across runs)."""
    chosen = []
    for band in bands:
        ranked = sorted((i for i in items if i["band"] == band), key=lambda i: hashlib.sha256(i["id"].encode()).hexdigest())
        chosen += ranked[:per_band]
    return chosen


def variant(family: str) -> tuple[str, dict]:
    """'shortlist-k16' -> ('shortlist', {'shortlist_k': 16}); a plain family name -> (family, {})."""
    if family.startswith("shortlist-k"):
        return "shortlist", {"shortlist_k": int(family.removeprefix("shortlist-k"))}
    return family, {}


def run_one(engine: Engine, item: dict, readout: str) -> dict:
    request = {**item["request"], "x_readout": readout, "x_calibrated": False}
    engine.backend.clear_prefix_cache()
    started = time.perf_counter()
    try:
        response = engine.decide(request)
    except Exception as error:  # a request the model cannot take (context) is reported, not fatal
        return {"id": item["id"], "error": f"{type(error).__name__}: {str(error)[:200]}"}
    seconds = time.perf_counter() - started
    answer = response["answers"]["q"]
    probs = answer["probabilities"]
    top = max(probs, key=probs.get)
    return {"id": item["id"], "band": item["band"], "correct": top == item["gold"], "confidence": probs[top],
            "p_gold": probs.get(item["gold"], 0.0), "seconds": seconds, "reads": response["usage"]["output_tokens"],
            "input_tokens": response["usage"]["input_tokens"]}


def summarise(rows: list[dict]) -> dict:
    done = [r for r in rows if "error" not in r]
    if not done:
        return {"n": 0, "errors": len(rows)}
    correct = np.array([r["correct"] for r in done], dtype=float)
    accuracy = float(correct.mean())
    seconds = [r["seconds"] for r in done]
    return {"n": len(done), "errors": len(rows) - len(done), "accuracy": round(accuracy, 3),
            "accuracy_se": round(math.sqrt(max(accuracy * (1 - accuracy), 1e-12) / len(done)), 3),
            "ece": round(float(ece(np.array([r["confidence"] for r in done]), correct)), 3),
            "p50_s": round(percentile(seconds, 50), 2), "p90_s": round(percentile(seconds, 90), 2),
            "reads_per_question": round(float(np.mean([r["reads"] for r in done])), 1),
            "input_tokens": round(float(np.mean([r["input_tokens"] for r in done])))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="qwen2.5-coder-1.5b-instruct")
    parser.add_argument("--dtype", default="auto")
    parser.add_argument("--families", default="slot,shortlist,likelihood",
                        help="comma-separated readout families; shortlist-kN sets the shortlist's k")
    parser.add_argument("--bands", default=",".join(BANDS))
    parser.add_argument("--per-band", type=int, default=10)
    parser.add_argument("--data", default=str(ROOT / "data" / "many_options" / "items.jsonl"))
    parser.add_argument("--cache", default=None, help="JSONL of per-item results (default bench/out/many-options-<model>-<dtype>.jsonl)")
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    bands = tuple(b.strip() for b in args.bands.split(",") if b.strip())
    if not set(bands) <= set(BANDS) or not 1 <= args.per_band <= 1000:
        parser.error(f"--bands from {BANDS}, --per-band 1..1000")
    items = sample([json.loads(line) for line in Path(args.data).read_text().splitlines() if line.strip()], args.per_band, bands)
    engine = Engine(args.model, dtype=args.dtype, calibration=None, request_timeout_s=None,
                    log=lambda m: print(m, file=sys.stderr))
    cache = Path(args.cache or ROOT / "bench" / "out" / f"many-options-{engine.info.id}-{engine.dtype.value}.jsonl")
    cache.parent.mkdir(parents=True, exist_ok=True)
    seen: dict[tuple[str, str], dict] = {}
    if cache.exists():
        for line in cache.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                seen[(row["family"], row["id"])] = row
    results: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    engines: dict[str, Engine] = {}
    for family in [f.strip() for f in args.families.split(",") if f.strip()]:
        readout, settings = variant(family)
        if settings and family not in engines:
            engines[family] = Engine(config=engine.config.replace(**settings), backend=engine.backend,
                                     tokenizer=engine.tokenizer, model_id=engine.info.id)
        runner = engines.get(family, engine)
        for n, item in enumerate(items, 1):
            row = seen.get((family, item["id"]))
            if row is None:
                row = {"family": family, **run_one(runner, item, readout)}
                with cache.open("a") as out:
                    out.write(json.dumps(row) + "\n")
                print(f"{family} {n}/{len(items)} {item['band']}: {row.get('correct', row.get('error'))} "
                      f"{row.get('seconds', 0):.1f}s", file=sys.stderr, flush=True)
            results[family][item["band"]].append(row)
    table = {family: {band: summarise(rows) for band, rows in by_band.items()} for family, by_band in results.items()}
    report = {"model": engine.info.id, "dtype": engine.dtype.value, "per_band": args.per_band, "table": table}
    bench.write(report, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
